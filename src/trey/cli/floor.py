"""The commands for the casino floor: cheatsheet (the dealer sheet) and drill."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from trey.cli.app import (
    DateOption,
    Force,
    OutDir,
    Paper,
    PaytableFile,
    Seed,
    app,
    made,
    parse_date,
    say,
    user_errors,
    write_files,
)


def _parse_bets(value: str | None) -> tuple[int, ...] | None:
    """``--bets 10,5,5`` → ``(5, 10)``: sorted, each once; plain decimal digits only."""
    from trey.play.payouts import MAX_BET, MAX_COLUMNS

    if value is None:
        return None
    parts = [part.strip() for part in value.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise typer.BadParameter(f"{value!r} is not a list of whole amounts such as 5,10,25")
    bets = tuple(sorted({int(part) for part in parts}))
    if any(b <= 0 for b in bets) or len(bets) > MAX_COLUMNS:
        raise typer.BadParameter(f"{value!r}: give 1 to {MAX_COLUMNS} different positive amounts")
    if bets[-1] > MAX_BET:
        raise typer.BadParameter(
            f"{value!r}: a bet of {bets[-1]:,} is more than a payout cell can show; give bets up to {MAX_BET:,}"
        )
    return bets


@app.command()
@user_errors
def cheatsheet(
    file: PaytableFile,
    out: OutDir,
    bets: Annotated[
        str | None, typer.Option("--bets", help="Bet columns, e.g. 5,10,15,25,50,100.", show_default=False)
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="letter or a4.")] = Paper.LETTER,
    effective: DateOption = None,
    force: Force = False,
) -> None:
    """Write the dealer payout sheet: FILE-stem.dealer-sheet.html and .pdf in DIR."""
    from trey.core.outputs import refuse_existing
    from trey.documents.make import dealer_sheet
    from trey.paytable.load import load_spec
    from trey.trust.certificate import default_issue_date

    columns = _parse_bets(bets)
    when = parse_date(effective) or default_issue_date()
    refuse_existing(out, [f"{file.stem}.dealer-sheet.{kind}" for kind in ("html", "pdf")], force=force, option="--out")
    spec = load_spec(file)
    files = made(lambda: dealer_sheet(spec, file.stem, paper=paper.value, effective=when, bets=columns))
    for path in write_files(out, files, force=force):
        say(str(path))


class DrillLevel(StrEnum):
    BASIC = "basic"
    FULL = "full"


@app.command()
@user_errors
def drill(
    file: PaytableFile,
    out: OutDir,
    hands: Annotated[
        int, typer.Option("--hands", min=1, max=200, help="Practice hands (full adds what it needs).")
    ] = 24,
    seed: Seed = 1,
    level: Annotated[
        DrillLevel, typer.Option("--level", help="basic, or full: every row and situation.")
    ] = DrillLevel.BASIC,
    paper: Annotated[Paper, typer.Option("--paper", help="letter or a4.")] = Paper.LETTER,
    effective: DateOption = None,
    force: Force = False,
) -> None:
    """Write a payout drill for dealer training: FILE-stem.drill.html and .pdf, the answer key on its own page."""
    from trey.core.outputs import refuse_existing
    from trey.documents.make import drill
    from trey.paytable.load import load_spec
    from trey.trust.certificate import default_issue_date

    when = parse_date(effective) or default_issue_date()
    refuse_existing(out, [f"{file.stem}.drill.{kind}" for kind in ("html", "pdf")], force=force, option="--out")
    spec = load_spec(file)
    files = made(
        lambda: drill(spec, file.stem, hands=hands, seed=seed, level=level.value, paper=paper.value, effective=when)
    )
    for path in write_files(out, files, force=force):
        say(str(path))
