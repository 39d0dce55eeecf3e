"""The command of audits: audit (and the hand history simulate --log writes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from trey.cli.app import (
    DateOption,
    Force,
    OutputFormat,
    Paper,
    PaytableFile,
    app,
    made,
    parse_date,
    say_error,
    standard_game,
    user_errors,
    write_files,
)


@app.command()
@user_errors
def audit(
    file: PaytableFile,
    logs: Annotated[
        list[Path], typer.Argument(help="Hand histories (JSON Lines or CSV).", show_default=False, metavar="LOG")
    ],
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the audit report (HTML, PDF) here.", show_default=False)
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size of the report.")] = Paper.A4,
    effective: DateOption = None,
    force: Force = False,
) -> None:
    """Re-settle the rounds of hand histories: every mis-paid round, and each wager's return against the exact
    figures. Exit 0 only on PASS; 1 when a line is refused, a round id logged twice, a round mis-paid or a wager
    not checked."""
    from trey.audit.audit import audit as run_audit
    from trey.audit.audit import audit_json
    from trey.core.outputs import Interrupted
    from trey.paytable.load import load_spec

    if out is not None:
        from trey.core.outputs import refuse_existing

        refuse_existing(out, [f"{file.stem}.audit.{kind}" for kind in ("html", "pdf")], force=force, option="--out")
    spec = standard_game(load_spec(file), "trey audit", file)
    try:
        found = run_audit(spec, logs)
    except Interrupted as exc:  # SIGTERM or SIGHUP: the audit's temporary files are removed already
        raise SystemExit(128 + exc.signum) from None
    if out is not None:
        from trey.core.files import display_name
        from trey.documents.make import audit_report
        from trey.trust.certificate import default_issue_date

        when = parse_date(effective) or default_issue_date()
        names = [display_name(path.name) for path in logs]
        files = made(lambda: audit_report(found, file.stem, logs=names, paper=paper.value, effective=when))
        for path in write_files(out, files, force=force):
            say_error(f"wrote {path}")
    if output_format is OutputFormat.JSON:
        print(json.dumps(audit_json(found), indent=2))
    else:
        from trey.present.audit_view import print_audit

        print_audit(found)
    if not found.verdict.passed:
        raise typer.Exit(1)
