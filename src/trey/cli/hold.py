"""The command of a shift ledger's hold: hold."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from trey.cli.app import (
    DateOption,
    Force,
    OutputFormat,
    Paper,
    app,
    made,
    parse_date,
    say,
    say_error,
    user_errors,
    write_files,
)


@app.command()
@user_errors
def hold(
    ledger: Annotated[
        str,
        typer.Argument(
            help="The shift ledger: CSV, .parquet, a folder of Parquet files, or a database URL (sqlite:///led.db, "
            "postgresql+psycopg://...) with --query or --table.",
            show_default=False,
            metavar="LEDGER",
        ),
    ],
    paytable: Annotated[Path, typer.Option("--paytable", help="The game the tables deal (YAML).", show_default=False)],
    mix: Annotated[
        list[str] | None,
        typer.Option(
            "--mix",
            help="The bet mix: WAGER=BET or WAGER=SHARE@BET, one wager each (default: the paytable's table:).",
            show_default=False,
        ),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats", help="Seats at each table (1-7; default: the paytable's table:, else 7).", show_default=False
        ),
    ] = None,
    occupancy: Annotated[
        str | None,
        typer.Option(
            "--occupancy",
            help="Share of seats occupied, unless a row rates it (default: the paytable's table:, else 100%).",
            show_default=False,
        ),
    ] = None,
    drop_to_handle: Annotated[
        str, typer.Option("--drop-to-handle", help="Drop as a share of handle (0.2: handle is 5 x drop).")
    ] = "0.2",
    alpha: Annotated[str, typer.Option("--alpha", help="False-alarm rate over all table-shifts (Holm).")] = "0.01",
    skim: Annotated[str, typer.Option("--skim", help="The skim (share of drop) whose sample size is stated.")] = "3%",
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also write the hold report (HTML, PDF) into DIR.", show_default=False),
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size of the report.")] = Paper.A4,
    query: Annotated[
        str | None, typer.Option("--query", help="With a database URL: the query of its ledger.", show_default=False)
    ] = None,
    table: Annotated[
        str | None,
        typer.Option("--table", help="With a database URL: the table of its ledger.", show_default=False),
    ] = None,
    effective: DateOption = None,
    force: Force = False,
) -> None:
    """Test each table-shift's win against its expected distribution from its drop; exit 0 only on PASS. With
    --out, the report as a PDF too (its verdict, every table-shift, what was not checked)."""
    from trey.audit.hold import check_hold, hold_json, hold_lines
    from trey.audit.sources import SqlSource
    from trey.audit.verdict import parse_alpha
    from trey.core.errors import TreyError
    from trey.paytable.load import load_spec

    source: Path | SqlSource
    if "://" in ledger:
        if (query is None) == (table is None):
            raise typer.BadParameter("a database URL is read with --query or --table, one of the two")
        source, stem = SqlSource(ledger, query=query, table=table), table or "query"
    else:
        if query is not None or table is not None:
            raise typer.BadParameter("--query and --table read a database: give its URL as LEDGER")
        source = Path(ledger)
        stem = source.stem
    if out is not None:
        from trey.core.outputs import refuse_existing

        refuse_existing(out, [f"{stem}.hold.{kind}" for kind in ("html", "pdf")], force=force, option="--out")
    try:
        level = parse_alpha(alpha)
    except ValueError as exc:
        raise TreyError(f"--alpha: {exc}") from None
    spec = load_spec(paytable)
    report = check_hold(
        source,
        spec,
        mix,
        seats=seats,
        occupancy=occupancy,
        drop_to_handle=drop_to_handle,
        alpha=level,
        skim=skim,
    )
    if out is not None:
        from trey.documents.make import hold_report
        from trey.trust.certificate import default_issue_date

        when = parse_date(effective) or default_issue_date()
        files = made(lambda: hold_report(report, spec, stem, paper=paper.value, effective=when))
        for path in write_files(out, files, force=force):
            say_error(f"wrote {path}")
    if output_format is OutputFormat.JSON:
        sys.stdout.write(json.dumps(hold_json(report, spec), indent=2) + "\n")
    else:
        say("\n".join(hold_lines(report)))
    if not report.verdict.passed:
        raise typer.Exit(1)
