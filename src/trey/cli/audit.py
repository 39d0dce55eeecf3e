"""The command of audits: audit (and the hand history simulate --log writes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from trey.cli.app import OutputFormat, PaytableFile, app, user_errors


@app.command()
@user_errors
def audit(
    file: PaytableFile,
    logs: Annotated[list[Path], typer.Argument(help="Hand histories (JSON Lines).", show_default=False, metavar="LOG")],
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """Re-settle the rounds of hand histories: every mis-paid round, and each wager's return against the exact
    figures. Exit 1 when a line is refused or a round mis-paid."""
    from trey.audit.audit import audit as run_audit
    from trey.audit.audit import audit_json
    from trey.paytable.load import load_spec

    found = run_audit(load_spec(file), logs)
    if output_format is OutputFormat.JSON:
        print(json.dumps(audit_json(found), indent=2))
    else:
        from trey.present.audit_view import print_audit

        print_audit(found)
    if not found.clean:
        raise typer.Exit(1)
