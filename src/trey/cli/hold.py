"""The command of a shift ledger's hold: hold."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from trey.cli.app import OutputFormat, app, say, user_errors


@app.command()
@user_errors
def hold(
    ledger: Annotated[Path, typer.Argument(help="The shift ledger (CSV or .parquet).", show_default=False)],
    paytable: Annotated[Path, typer.Option("--paytable", help="The game the tables deal (YAML).", show_default=False)],
    mix: Annotated[
        list[str],
        typer.Option("--mix", help="The bet mix: WAGER=BET or WAGER=SHARE@BET, one wager each.", show_default=False),
    ],
    seats: Annotated[int, typer.Option("--seats", help="Seats at each table (1-7).")] = 7,
    occupancy: Annotated[
        str, typer.Option("--occupancy", help="Share of seats occupied, unless a row rates it.")
    ] = "1",
    drop_to_handle: Annotated[
        str, typer.Option("--drop-to-handle", help="Drop as a share of handle (0.2: handle is 5 x drop).")
    ] = "0.2",
    alpha: Annotated[str, typer.Option("--alpha", help="False-alarm rate over all table-shifts (Holm).")] = "0.01",
    skim: Annotated[str, typer.Option("--skim", help="The skim (share of drop) whose sample size is stated.")] = "3%",
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """Test each table-shift's win against its expected distribution from its drop; exit 0 only on PASS."""
    from trey.audit.hold import check_hold, hold_json, hold_lines
    from trey.audit.verdict import parse_alpha
    from trey.core.errors import TreyError
    from trey.paytable.load import load_spec

    try:
        level = parse_alpha(alpha)
    except ValueError as exc:
        raise TreyError(f"--alpha: {exc}") from None
    report = check_hold(
        ledger,
        load_spec(paytable),
        mix,
        seats=seats,
        occupancy=occupancy,
        drop_to_handle=drop_to_handle,
        alpha=level,
        skim=skim,
    )
    if output_format is OutputFormat.JSON:
        sys.stdout.write(json.dumps(hold_json(report), indent=2) + "\n")
    else:
        say("\n".join(hold_lines(report)))
    if not report.verdict.passed:
        raise typer.Exit(1)
