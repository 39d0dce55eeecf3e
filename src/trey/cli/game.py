"""The commands about a game's figures: validate, analyze, compare, solve, simulate."""

from __future__ import annotations

import json
import re
import sys
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from trey.cli.app import (
    STANDARD_OUTPUT,
    Force,
    OutputFormat,
    PaytableFile,
    Scheduler,
    Seed,
    Workers,
    app,
    one_line,
    progress_bar,
    progress_tasks,
    say,
    say_error,
    user_errors,
    write_files,
    write_stdout,
    write_text_lines,
)
from trey.core.errors import TreyError
from trey.present.formats import ANALYSIS_FORMATS, FormatOptions, file_format_rule

if TYPE_CHECKING:
    from trey.engine.money import ChosenMix, TableMoney
    from trey.engine.results import GameAnalysis
    from trey.paytable.model import GameSpec
    from trey.play.shards import Merged
    from trey.play.simulate import SimulationResult

# --format's choices are the registry's formats.
AnalysisFormat = StrEnum("AnalysisFormat", {name.upper(): name for name in ANALYSIS_FORMATS})  # type: ignore[misc]
ANALYSIS_FORMAT_HELP = ", ".join(f"{f.name} ({f.help})" for f in ANALYSIS_FORMATS.values()) + "."
TABLE = AnalysisFormat("table")


# The table's parts beside a bet mix, as analyze and compare take them: what the command line leaves out comes from
# the paytable's table: (compare: the first file's), else the default.
MixSeats = Annotated[
    int | None,
    typer.Option(
        "--seats",
        help="Seats at the table (1-7), with the bet mix (default: the paytable's table: seats, else 7).",
        show_default=False,
    ),
]
MixOccupancy = Annotated[
    str | None,
    typer.Option(
        "--occupancy",
        help="Share of seats occupied (0.85, 85%), with the bet mix (default: the paytable's table: occupancy, "
        "else 100%).",
        show_default=False,
    ),
]
MixDecisionsPerHour = Annotated[
    int | None,
    typer.Option(
        "--decisions-per-hour",
        help="Rounds dealt an hour, with the bet mix (default: the paytable's table: decisions_per_hour, else 60).",
        show_default=False,
    ),
]


@app.command()
@user_errors
def validate(
    files: Annotated[list[Path], typer.Argument(help="Paytable files (YAML).", show_default=False, metavar="FILE")],
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="table (messages on stderr) or json (problems as data).")
    ] = OutputFormat.TABLE,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            help="Also hold each game to a profile, as certify does: its checks, approved tables and minimum RTPs "
            "(a name or a file).",
        ),
    ] = None,
) -> None:
    """Check paytable files: YAML, the JSON Schema, then the game's own rules. Exit 1 if any is invalid."""
    from trey.trust.compliance import load_profile
    from trey.trust.validation import validate as run_validation

    found = run_validation(files, strict=strict, profile=load_profile(profile) if profile is not None else None)
    if output_format is OutputFormat.JSON:
        print(json.dumps(found.json(), indent=2, ensure_ascii=True))
    else:
        out, errors = found.lines()
        for line in errors:
            say_error(one_line(line))
        for line in out:
            say(line)
    if not found.passed:
        raise typer.Exit(1)


@app.command()
@user_errors
def analyze(
    file: PaytableFile,
    output_format: Annotated[AnalysisFormat, typer.Option("--format", help=ANALYSIS_FORMAT_HELP)] = TABLE,
    exact: Annotated[bool, typer.Option("--exact", help="Show exact fractions beside percentages.")] = False,
    meter: Annotated[
        str | None,
        typer.Option("--meter", help="Evaluate progressives' RTP at this meter, e.g. 25000.", show_default=False),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="The file to write (--format xlsx).", show_default=False)
    ] = None,
    force: Force = False,
    mix: Annotated[
        list[str] | None,
        typer.Option(
            "--mix",
            help="The table's bet mix, one wager each: WAGER=BET or WAGER=SHARE@BET (ante_play=25, "
            "pair_plus=60%@10): adds the blended house edge, the theoretical win per table-hour and its range "
            "(the whole table counted: seconds).",
            show_default=False,
        ),
    ] = None,
    seats: MixSeats = None,
    occupancy: MixOccupancy = None,
    decisions_per_hour: MixDecisionsPerHour = None,
) -> None:
    """Count every deal: the exact return, house edge, hit frequency and variance of every wager; with a bet mix
    (--mix, or the paytable's table: side_bets, seats or occupancy) the table's money too, each part the command
    line leaves out taken from the paytable."""
    from trey.engine import analyze as run_analysis
    from trey.paytable.load import load_spec

    chosen = ANALYSIS_FORMATS[output_format.value]
    at_meter = _parse_meter(meter)
    if (chosen.suffix is not None) != (out is not None):
        raise typer.BadParameter(f"{file_format_rule()} (and only it)")
    if out is not None and chosen.suffix is not None and out.suffix.lower() != chosen.suffix:
        raise typer.BadParameter(f"{out.name!r} is not a {chosen.noun}'s name: give --out FILE{chosen.suffix}")
    if out is not None:
        from trey.core.outputs import refuse_existing_file

        refuse_existing_file(out, force=force, option="--out")
    spec = load_spec(file)
    if not spec.is_standard_game:
        if mix or any(o is not None for o in (seats, occupancy, decisions_per_hour)):
            raise TreyError(
                f"{spec.name}: the table's money (--mix) is worked out for standard Three Card Poker",
                hint="trey analyze without --mix counts this game",
            )
        if spec.table is not None and spec.table.has_mix:  # said, never silently left out
            say_error(
                f"note: {spec.name}: the table's money (table: seats, occupancy, side_bets) is worked out for "
                "standard Three Card Poker; not shown"
            )
        _analyze_family(spec, file, chosen.name, exact=exact, meter=at_meter, out=out, force=force)
        return
    analysis = run_analysis(spec)
    if at_meter is not None and not any(r.progressive is not None for r in analysis.wagers.values()):
        raise TreyError(f"{file.name} has no progressive wager", hint="--meter evaluates a progressive's meter")
    options = FormatOptions(exact=exact, meter=at_meter)
    wants_money = bool(mix) or (spec.table is not None and spec.table.has_mix)
    if wants_money and out is None and chosen.name in ("table", "json"):
        _print_with_money(spec, analysis, chosen.name, options, mix, seats, occupancy, decisions_per_hour)
        return
    if mix or any(o is not None for o in (seats, occupancy)):
        if not wants_money:
            raise typer.BadParameter("--seats and --occupancy go with a bet mix: --mix, or the paytable's table:")
        raise typer.BadParameter("the table's money is shown with --format table or json")
    if out is not None:
        made = chosen.make(analysis, options)
        assert isinstance(made, bytes)
        for path in write_files(out.parent, {out.name: made}, force=force):
            say_error(f"wrote {path}")
        return
    text = chosen.make(analysis, options)
    if text is not None:
        sys.stdout.write(text if isinstance(text, str) else text.decode())


def _print_with_money(
    spec: GameSpec,
    analysis: GameAnalysis,
    output_format: str,
    options: FormatOptions,
    mix: list[str] | None,
    seats: int | None,
    occupancy: str | None,
    decisions_per_hour: int | None,
) -> None:
    """``trey analyze`` with a bet mix: the analysis, then the table's money (terminal), or under ``table_money``
    (JSON), each saying where the parts of its mix came from."""
    from trey.engine.money import table_money_json, table_money_lines
    from trey.play.table import money_of_table

    with progress_tasks(enabled=output_format == "table") as report:
        advance = (lambda _done, total: report("counting the whole table", 1, total)) if report is not None else None
        found = money_of_table(spec, analysis, mix, seats, occupancy, decisions_per_hour, advance)
    assert found is not None  # a mix was given or the table has one
    money, chosen_mix = found
    made = ANALYSIS_FORMATS[output_format].make(analysis, options)
    if output_format == "json":
        assert isinstance(made, str)
        data = json.loads(made)
        data["table_money"] = table_money_json(money) | {"from": chosen_mix.source_json()}
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    if isinstance(made, str):
        sys.stdout.write(made)
    currency = spec.table.currency if spec.table is not None else "USD"
    lines = table_money_lines(money, currency)
    say("\n".join(["", lines[0], chosen_mix.source_line(), *lines[1:]]))


def _analyze_family(
    spec: GameSpec,
    file: Path,
    output_format: str,
    *,
    exact: bool,
    meter: Fraction | None,
    out: Path | None,
    force: bool,
) -> None:
    """``trey analyze`` of a game other than standard Three Card Poker, in every format: its terminal tables, its
    JSON, its CSV, its workbook."""
    from trey.engine.family import analyze_family

    if meter is not None and not any(bet.progressive is not None for bet in spec.wagers.side_bets):
        raise TreyError(f"{file.name} has no progressive wager", hint="--meter evaluates a progressive's meter")
    analysis = analyze_family(spec)
    if output_format == "json":
        from trey.figures.family import family_analysis_json

        sys.stdout.write(json.dumps(family_analysis_json(analysis, meter), indent=2) + "\n")
    elif output_format == "csv":
        from trey.present.spreadsheet import family_csv

        sys.stdout.write(family_csv(analysis))
    elif output_format == "xlsx":
        from trey.present.spreadsheet import family_workbook

        assert out is not None
        for path in write_files(out.parent, {out.name: family_workbook(analysis)}, force=force):
            say_error(f"wrote {path}")
    else:
        from trey.present.family_view import print_family_analysis

        print_family_analysis(analysis, exact=exact, meter=meter)


def _parse_meter(value: str | None) -> Fraction | None:
    from trey.paytable.pays import PayError, parse_money

    if value is None:
        return None
    try:
        return parse_money(value.strip(), "meter")
    except PayError:
        raise typer.BadParameter(f"{value!r} is not an amount such as 25000 or 25000.50") from None


class CompareFormat(StrEnum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"


@app.command()
@user_errors
def compare(
    files: Annotated[list[Path], typer.Argument(help="Paytable files (YAML).", show_default=False, metavar="FILE")],
    wager: Annotated[
        str | None, typer.Option("--wager", help="Compare only this wager (its id).", show_default=False)
    ] = None,
    output_format: Annotated[CompareFormat, typer.Option("--format", help="table, json or csv.")] = CompareFormat.TABLE,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write comparison.html into DIR.", show_default=False)
    ] = None,
    force: Force = False,
    mix: Annotated[
        list[str] | None,
        typer.Option(
            "--mix",
            help="A bet mix (WAGER=BET or WAGER=SHARE@BET, one wager each): adds its blended house edge and "
            "theoretical win per table-hour at each file.",
            show_default=False,
        ),
    ] = None,
    seats: MixSeats = None,
    occupancy: MixOccupancy = None,
    decisions_per_hour: MixDecisionsPerHour = None,
) -> None:
    """Paytables side by side: each wager's tables ranked by house edge, with the difference to the first file.
    With a bet mix (--mix, else the first file's table: side_bets, seats or occupancy) the blended house edge and
    the theoretical win per table-hour of that one mix at each file; what --seats, --occupancy and
    --decisions-per-hour leave out comes from the first file's table:."""
    from trey.choose.compare import compare as run_comparison
    from trey.choose.compare import comparison_json
    from trey.core.files import display_name
    from trey.paytable.load import load_spec
    from trey.present.spreadsheet import comparison_csv

    if out is not None:
        from trey.core.outputs import refuse_existing

        refuse_existing(out, ["comparison.html"], force=force, option="--out")
    games = [(display_name(path), load_spec(path)) for path in files]
    rows = run_comparison(games, wager)
    money = _money_by_game(games, mix, seats, occupancy, decisions_per_hour, output_format is CompareFormat.CSV)
    if output_format is CompareFormat.JSON:
        data = comparison_json(rows)
        if money is not None:
            from trey.engine.money import money_by_game_json

            data["table_money"] = money_by_game_json(money[1])
            data["table_money_from"] = money[0].source_json()
        print(json.dumps(data, indent=2))
    elif output_format is CompareFormat.CSV:
        sys.stdout.write(comparison_csv(rows))
    else:
        from trey.present.terminal import print_comparison

        print_comparison(rows)
        if money is not None:
            from trey.engine.money import money_by_game_lines

            lines = money_by_game_lines(money[1], money[0].mix)
            say("\n".join(["", lines[0], money[0].source_line(), *lines[1:]]))
    if out is not None:
        from trey.documents.compare_view import render_comparison_html

        html = render_comparison_html(rows, games[0][0])
        for path in write_files(out, {"comparison.html": html.encode()}, force=force):
            say_error(f"wrote {path}")


def _money_by_game(
    games: list[tuple[str, GameSpec]],
    mix: list[str] | None,
    seats: int | None,
    occupancy: str | None,
    decisions_per_hour: int | None,
    csv: bool,
) -> tuple[ChosenMix, list[tuple[str, TableMoney]]] | None:
    """``trey compare``'s table money: the mix (``--mix``, else the first file's ``table:``; a located error when it
    is wrong) and its money at each game; None without a mix."""
    from trey.engine import analyze as run_analysis
    from trey.engine.money import choose_mix, money_by_game, occupancy_option

    first_name, first = games[0]
    where = "--mix" if mix else f"{first_name}: table:"
    try:
        chosen = choose_mix(first, mix, seats, occupancy_option(occupancy), decisions_per_hour)
        if chosen is None:
            if any(o is not None for o in (seats, occupancy, decisions_per_hour)):
                raise typer.BadParameter("--seats, --occupancy and --decisions-per-hour go with a bet mix (--mix)")
            return None
        if csv:
            raise typer.BadParameter("the table's money is shown with --format table or json")
        return chosen, money_by_game([(name, run_analysis(spec)) for name, spec in games], chosen.mix)
    except ValueError as exc:
        raise TreyError(f"{where}: {exc}", hint="e.g. --mix ante_play=25 --mix pair_plus=60%@10") from None


def _parse_percent(value: str, option: str) -> Fraction:
    from trey.choose.solve import target_percent

    try:
        return target_percent(value, option)
    except TreyError as exc:
        raise typer.BadParameter(exc.message) from None


STEP_PATTERN = re.compile(r"([0-9]{1,6})(?:/([0-9]{1,6}))?")  # 1, 1/2, 5/4: what a paytable could print


def _parse_step(value: str) -> Fraction:
    match = STEP_PATTERN.fullmatch(value.strip())
    if match is None or int(match[1]) == 0 or (match[2] is not None and int(match[2]) == 0):
        raise typer.BadParameter(f"{value!r} is not a step such as 1 or 1/2 (whole numbers up to 999,999)")
    return Fraction(int(match[1]), int(match[2] or 1))


def _parse_grid(value: str) -> list[tuple[str, int, int]]:
    from trey.paytable.odds import MAX_ODDS_TERM

    ranges = []
    for part in value.split(","):
        row, _, span = part.strip().partition("=")
        low, dots, high = span.partition("..")
        if not (row and dots and low.isascii() and low.isdigit() and high.isascii() and high.isdigit()):
            raise typer.BadParameter(f"{part!r} is not ROW=LO..HI, e.g. flush=3..5")
        if len(low) > 10 or len(high) > 10 or int(high) > MAX_ODDS_TERM:
            raise typer.BadParameter(f"{part!r}: a pay is at most {MAX_ODDS_TERM:,} to 1")
        if int(low) > int(high):
            raise typer.BadParameter(f"{part!r} runs backwards: give LO..HI with LO at most HI")
        ranges.append((row, int(low), int(high)))
    return ranges


@app.command()
@user_errors
def solve(
    file: PaytableFile,
    wager: Annotated[str, typer.Option("--wager", help="The wager's id, e.g. pair_plus or ante_play.")],
    row: Annotated[str | None, typer.Option("--row", help="The row to solve for.", show_default=False)] = None,
    house_edge: Annotated[
        str | None, typer.Option("--house-edge", help="Target house edge, e.g. 5%.", show_default=False)
    ] = None,
    rtp: Annotated[str | None, typer.Option("--rtp", help="Target RTP, e.g. 95%.", show_default=False)] = None,
    step: Annotated[str, typer.Option("--step", help="Grid of printable pays: 1 (N to 1) or 1/2 (N to 2).")] = "1",
    grid_spec: Annotated[
        str | None,
        typer.Option("--grid", help="Tabulate whole pays: ROW=LO..HI[,ROW=LO..HI] (up to 3).", show_default=False),
    ] = None,
    band: Annotated[str, typer.Option("--band", help="Mark grid pays whose house edge is in LO..HI.")] = "4%..6%",
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """The pay of one row that gives a target house edge (or RTP), or a grid of pays with their house edges."""
    from trey.choose.solve import grid
    from trey.choose.solve import solve as run_solve
    from trey.paytable.load import load_spec
    from trey.present.solve_view import grid_json, print_grid, print_solution, solution_json

    if grid_spec is not None:
        given = [name for name, value in (("--row", row), ("--house-edge", house_edge), ("--rtp", rtp)) if value]
        if given or step != "1":
            raise typer.BadParameter(f"{', '.join(given or ['--step'])} goes with a single row, not with --grid")
        low, dots, high = band.partition("..")
        if not dots:
            raise typer.BadParameter(f"{band!r} is not LO..HI, e.g. 4%..6%")
        edges = (_parse_percent(low, "band"), _parse_percent(high, "band"))
        if edges[0] > edges[1]:
            raise typer.BadParameter(f"{band!r} runs backwards: give the lower house edge first, e.g. 4%..6%")
    spec = load_spec(file)
    if grid_spec is not None:
        points = grid(spec, wager, _parse_grid(grid_spec), edges)
        rows = [r for r, _, _ in _parse_grid(grid_spec)]
        if output_format is OutputFormat.JSON:
            print(json.dumps(grid_json(wager, rows, points), indent=2))
        else:
            print_grid(wager, rows, points)
        return
    if row is None or (house_edge is None) == (rtp is None):
        raise typer.BadParameter("give --row and one of --house-edge or --rtp (or --grid)")
    target = (
        _parse_percent(house_edge, "house edge") if house_edge is not None else 1 - _parse_percent(rtp or "", "RTP")
    )
    grid_step = _parse_step(step)
    solution = run_solve(spec, wager, row, target, grid_step)
    if output_format is OutputFormat.JSON:
        print(json.dumps(solution_json(solution), indent=2))
    else:
        print_solution(solution)


@app.command()
@user_errors
def simulate(
    file: PaytableFile,
    rounds: Annotated[
        int, typer.Option("--rounds", min=1, max=10**10, help="Rounds to deal (at most 10^10).")
    ] = 1_000_000,
    seed: Seed = 1,
    workers: Workers = 1,
    scheduler: Scheduler = None,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            help="Run only shard I/K of the chunks (chunk i when i mod K = I-1) into --out; trey merge adds them.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="With --shard: the part to write (JSON).", show_default=False)
    ] = None,
    log: Annotated[
        str | None,
        typer.Option(
            "--log",
            help="Instead, write the rounds (at most 1,000,000) as a hand history for trey audit (JSON Lines) to "
            "this file, or to standard output: --log -.",
            show_default=False,
            metavar="FILE",
        ),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats",
            min=1,
            max=7,
            help="With --log: write table rounds of this many seats (1 to 7), each with its deck and input order.",
            show_default=False,
        ),
    ] = None,
    shuffle: Annotated[
        str | None,
        typer.Option(
            "--shuffle",
            help="With --log --seats: the shuffle model the decks are dealt from [default: fisher-yates].",
            show_default=False,
            metavar="MODEL",
        ),
    ] = None,
    force: Force = False,
) -> None:
    """Deal seeded rounds and check them against the exact figures. Exit 1 if they disagree."""
    from trey.audit.simulated import MAX_LOGGED_ROUNDS, simulation_job
    from trey.core.outputs import refuse_existing_file

    if (shard is None) != (out is None):
        raise typer.BadParameter("--shard and --out go together: --shard I/K --out PART.json")
    if (seats is not None or shuffle is not None) and log is None:
        raise typer.BadParameter("--seats and --shuffle write table rounds: with --log FILE")
    if shuffle is not None and seats is None:
        raise typer.BadParameter("--shuffle shuffles the decks of table rounds: with --seats K")
    model = None
    if log is not None:
        if seats is not None:
            from trey.cards.shuffles import parse_shuffle

            try:
                model = parse_shuffle(shuffle or "fisher-yates")
            except ValueError as exc:
                raise typer.BadParameter(str(exc), param_hint="--shuffle") from None
        if shard is not None or scheduler is not None:
            raise typer.BadParameter("--log writes a hand history on this machine: without --shard or --scheduler")
        if rounds > MAX_LOGGED_ROUNDS:
            raise typer.BadParameter(f"--log writes at most {MAX_LOGGED_ROUNDS:,} rounds")
        if log.lower().endswith(".csv"):  # trey audit reads a log by its name's ending: a .csv as CSV
            raise typer.BadParameter("--log writes JSON Lines, which trey audit reads from a name ending .jsonl")
        if log == STANDARD_OUTPUT and output_format is not OutputFormat.TABLE:  # the hand history alone goes there
            raise typer.BadParameter("--log - writes the hand history to standard output: without --format json")
    target = out if out is not None else Path(log) if log not in (None, STANDARD_OUTPUT) else None
    if target is not None:
        refuse_existing_file(target, force=force, option="--out" if out is not None else "--log")
    job = simulation_job(
        file,
        rounds,
        seed,
        workers=workers,
        scheduler=scheduler,
        shard=shard,
        log=log is not None,
        seats=seats,
        shuffle=model,
    )
    with progress_bar(job.rounds_dealt, enabled=output_format is OutputFormat.TABLE or shard is not None) as advance:
        made = job.run(advance)
    if made.lines is not None and target is None:
        write_stdout(made.lines, what="the hand history")
    elif made.lines is not None and target is not None:
        say_error(f"wrote {write_text_lines(target, made.lines, force=force, option='--log')}")
    elif made.part is not None and out is not None:
        say_error(f"wrote {write_text_lines(out, [json.dumps(made.part, indent=1)], force=force, option='--out')}")
    else:
        assert made.result is not None
        _print_simulation(made.result, made.spec, output_format)


def _print_simulation(
    result: SimulationResult, spec: GameSpec, output_format: OutputFormat, merged: Merged | None = None
) -> None:
    """The simulation as a table or JSON; a merge's verdict and JSON say how much of it was dealt again here."""
    if output_format is OutputFormat.JSON:
        from trey.play.simulate import simulation_json

        data = simulation_json(result, spec)
        if merged is not None:
            data["merge"] = merged.json()
        print(json.dumps(data, indent=2))
    else:
        from trey.present.terminal import print_simulation

        print_simulation(
            result, verdict=merged.verdict if merged is not None else None, per_ante=not spec.game.is_standard
        )
    if not result.passed:
        raise typer.Exit(1)


@app.command()
@user_errors
def merge(
    parts: Annotated[
        list[Path], typer.Argument(help="The parts of one run (trey simulate --shard).", metavar="PART...")
    ],
    check: Annotated[
        int,
        typer.Option(
            "--check",
            min=0,
            max=100_000,
            help="Deal N chunks, chosen at random, again here and refuse a part they differ from (a part is an "
            "unsigned claim; without it none is dealt again).",
        ),
    ] = 0,
    workers: Workers = 1,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """Add up the shards of a simulation: the result one run gives. Exit 1 if it disagrees with the exact figures."""
    from trey.play.shards import merge_parts

    merged = merge_parts(parts, check=check, workers=workers)
    _print_simulation(merged.result, merged.spec, output_format, merged)
