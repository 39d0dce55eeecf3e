"""The command of game protection: protect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from trey.paytable.model import GameSpec
    from trey.protect.family import FamilyProtection
    from trey.protect.money import LeakMoney
    from trey.protect.protection import Protection
    from trey.protect.scenarios import CardClasses

from trey.cli.app import (
    DateOption,
    Force,
    OutputFormat,
    Paper,
    PaytableFile,
    Scheduler,
    Seed,
    app,
    made,
    parse_date,
    progress_tasks,
    say_error,
    user_errors,
    write_files,
)
from trey.core.errors import TreyError


@app.command()
@user_errors
def protect(
    file: PaytableFile,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
    classes: Annotated[
        list[str] | None,
        typer.Option(
            "--classes",
            help="A partition of the ranks one dealer card can be told apart by, e.g. 'A,K,Q|J,10,9,8|7,6,5,4,3,2' "
            "(besides the built-in ace-face-other and high-low).",
            show_default=False,
        ),
    ] = None,
    two: Annotated[bool, typer.Option("--two-cards/--no-two-cards", help="Also two dealer cards seen (20 s).")] = True,
    colluders: Annotated[
        int | None,
        typer.Option(
            "--colluders",
            min=1,
            max=6,
            help="Also K other seats' hands known (seeded Monte Carlo).",
            show_default=False,
        ),
    ] = None,
    samples: Annotated[
        int, typer.Option("--samples", min=1, max=1_000_000, help="Samples of the colluders' deals.")
    ] = 20_000,
    seed: Seed = 1,
    scheduler: Scheduler = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the one-page surveillance sheet (HTML, PDF) here.", show_default=False),
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size of the sheet.")] = Paper.LETTER,
    effective: DateOption = None,
    force: Force = False,
    average_ante: Annotated[
        str | None,
        typer.Option(
            "--average-ante",
            help="Each leak's cost per hour at this average Ante, on the terminal, in JSON and on the sheet "
            "(default: the paytable's table: average_bet; without either, no cost).",
            show_default=False,
        ),
    ] = None,
    decisions_per_hour: Annotated[
        int | None,
        typer.Option(
            "--decisions-per-hour",
            help="Rounds an hour, for the leaks' cost (default: the paytable's table: decisions_per_hour, else 60).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """What a player gains from a seen dealer card, two, or the class of one: exact figures, the informed
    strategy and the decisions that give it away."""
    from trey.paytable.load import load_spec
    from trey.protect.protection import parse_classes, protection_json
    from trey.protect.protection import protect as run_protection

    partitions = tuple(parse_classes(text) for text in classes or ())
    if out is not None:
        from trey.core.outputs import refuse_existing

        refuse_existing(
            out, [f"{file.stem}.surveillance.{kind}" for kind in ("html", "pdf")], force=force, option="--out"
        )
    spec = load_spec(file)
    if not spec.game.is_standard:  # a game of the family with another round (issue 31)
        if scheduler is not None:
            raise TreyError(
                f"{spec.name}: the colluders of a game of the family are sampled on this machine (no --scheduler)",
                hint="trey protect --colluders K without --scheduler samples them here",
            )
        found_family = _protect_family(spec, partitions, output_format, colluders=colluders, samples=samples, seed=seed)
        family_leaks = _leaks(found_family, average_ante, decisions_per_hour)
        _write_sheet(found_family, file.stem, out, paper=paper, effective=effective, force=force, leaks=family_leaks)
        _print_family(found_family, output_format, family_leaks)
        return
    # Two dealer cards take 25-75 s: a bar a scenario on a terminal's stderr, never under --format json.
    with progress_tasks(enabled=output_format is not OutputFormat.JSON) as report:
        found = run_protection(
            spec,
            classes=partitions,
            two=two,
            colluders=colluders,
            samples=samples,
            seed=seed,
            scheduler=scheduler,
            progress=report,
        )
    leaks = _leaks(found, average_ante, decisions_per_hour)
    _write_sheet(found, file.stem, out, paper=paper, effective=effective, force=force, leaks=leaks)
    if output_format is OutputFormat.JSON:
        data = protection_json(found)
        if leaks is not None:
            from trey.protect.money import leak_costs_json

            data["leaks_in_money"] = leak_costs_json(leaks.costs, leaks.average_ante, leaks.decisions_per_hour)
        print(json.dumps(data, indent=2))
    else:
        from trey.present.protection_view import print_protection

        print_protection(found)
        if leaks is not None:
            from trey.protect.money import leak_cost_lines

            print("\n".join(["", *leak_cost_lines(leaks.costs, leaks.average_ante, leaks.decisions_per_hour)]))


def _leaks(
    found: Protection | FamilyProtection, average_ante: str | None, decisions_per_hour: int | None
) -> LeakMoney | None:
    """The leaks in money: at ``--average-ante``, else the paytable's ``table: average_bet`` (none without either)."""
    from fractions import Fraction

    from trey.protect.money import leak_money

    try:
        return leak_money(found, Fraction(average_ante) if average_ante is not None else None, decisions_per_hour)
    except (ValueError, ZeroDivisionError) as exc:
        raise TreyError(f"--average-ante {average_ante}: {exc}", hint="e.g. --average-ante 25") from None


def _write_sheet(
    found: Protection | FamilyProtection,
    stem: str,
    out: Path | None,
    *,
    paper: Paper,
    effective: str | None,
    force: bool,
    leaks: LeakMoney | None = None,
) -> None:
    """The surveillance sheet (``--out``), of the standard game or of another of the family; with ``leaks``, each
    leak's cost an hour and the hours until it shows."""
    if out is None:
        return
    from trey.documents.make import surveillance_sheet
    from trey.trust.certificate import default_issue_date

    when = parse_date(effective) or default_issue_date()
    files = made(lambda: surveillance_sheet(found, stem, paper=paper.value, effective=when, leaks=leaks))
    for path in write_files(out, files, force=force):
        say_error(f"wrote {path}")


def _protect_family(
    spec: GameSpec,
    partitions: tuple[CardClasses, ...],
    output_format: OutputFormat,
    *,
    colluders: int | None,
    samples: int,
    seed: int,
) -> FamilyProtection:
    from trey.protect.family import protect_family

    with progress_tasks(enabled=output_format is not OutputFormat.JSON) as report:
        return protect_family(
            spec, classes=partitions, colluders=colluders, samples=samples, seed=seed, progress=report
        )


def _print_family(found: FamilyProtection, output_format: OutputFormat, leaks: LeakMoney | None) -> None:
    from trey.protect.money import leak_cost_lines, leak_costs_json

    if output_format is OutputFormat.JSON:
        from trey.protect.family import family_protection_json

        data = family_protection_json(found)
        if leaks is not None:
            data["leaks_in_money"] = leak_costs_json(leaks.costs, leaks.average_ante, leaks.decisions_per_hour)
        print(json.dumps(data, indent=2))
    else:
        from trey.present.family_protection_view import print_family_protection

        print_family_protection(found)
        if leaks is not None:
            print("\n".join(["", *leak_cost_lines(leaks.costs, leaks.average_ante, leaks.decisions_per_hour)]))
