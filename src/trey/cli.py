"""The ``trey`` command: parse arguments, call the library, print. User errors become a message and exit 1."""

from __future__ import annotations

import contextlib
import functools
import json
import re
import sys
from collections.abc import Callable, Iterator
from datetime import date
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from trey import __version__
from trey.core.errors import SpecError, TreyError

app = typer.Typer(
    name="trey",
    help="Exact mathematics, certificates and dealer sheets for Three Card Poker paytables.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

P = ParamSpec("P")
R = TypeVar("R")


class OutputFormat(StrEnum):
    TABLE = "table"
    JSON = "json"


class AnalysisFormat(StrEnum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"
    XLSX = "xlsx"


class Paper(StrEnum):
    A4 = "a4"
    LETTER = "letter"


PaytableFile = Annotated[Path, typer.Argument(help="Paytable file (YAML).", show_default=False, metavar="FILE")]
OutDir = Annotated[Path, typer.Option("--out", help="Directory to write into.", show_default=False)]
DateOption = Annotated[
    str | None,
    typer.Option(
        "--date",
        help="Date YYYY-MM-DD printed on the document (default SOURCE_DATE_EPOCH or today).",
        show_default=False,
    ),
]
Force = Annotated[bool, typer.Option("--force", help="Overwrite existing files.")]
Seed = Annotated[int, typer.Option("--seed", min=0, max=2**64 - 1, help="Seed of the random generator.")]
Workers = Annotated[
    int, typer.Option("--workers", min=1, help="Processes to share the rounds (at most the machine's CPUs).")
]


def _err(text: str) -> None:
    """A diagnostic on stderr; user text in it cannot drive the terminal (see :func:`trey.core.text.printable`)."""
    from trey.core.text import printable

    print(printable(text, keep_line_breaks=True), file=sys.stderr)


def _out(text: str) -> None:
    from trey.core.text import printable

    print(printable(text, keep_line_breaks=True))


def user_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn a :class:`TreyError` into its message on stderr and exit status 1: no traceback for bad input."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except SpecError as exc:
            for problem in exc.problems:
                _err(_one_line(str(problem)))
            raise typer.Exit(1) from None
        except TreyError as exc:
            _err(f"error: {exc}")
            raise typer.Exit(1) from None

    return wrapper


def _one_line(text: str) -> str:
    from trey.core.text import printable

    return printable(text)


def _version(value: bool) -> None:
    if value:
        print(f"trey {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Exact mathematics, certificates and dealer sheets for Three Card Poker paytables."""


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
            "--profile", help="Also check against a profile's approved tables and minimum RTPs (a name or a file)."
        ),
    ] = None,
) -> None:
    """Check paytable files: YAML, the JSON Schema, then the game's own rules. Exit 1 if any is invalid."""
    from trey.core.files import display_name
    from trey.paytable.load import check_file, validation_json

    chosen = None
    if profile is not None:
        from trey.trust.compliance import load_profile

        chosen = load_profile(profile)
    results = [(display_name(path), check_file(path)) for path in files]
    failed = any(bool(r.errors) or (strict and bool(r.warnings)) for _, r in results)
    verdicts: dict[str, list[dict[str, str]]] = {}
    if chosen is not None:
        from trey.trust.compliance import Verdict, finding_json, profile_findings

        for name, result in results:
            if result.spec is not None:
                findings = profile_findings(chosen, result.spec)
                verdicts[name] = [finding_json(f) for f in findings]
                failed = failed or any(f.verdict is Verdict.FAIL for f in findings)
    if output_format is OutputFormat.JSON:
        report = validation_json(results, strict=strict, profile_checks=verdicts if chosen is not None else None)
        print(json.dumps(report, indent=2, ensure_ascii=True))
    else:
        for name, result in results:
            for problem in result.problems:
                _err(_one_line(str(problem)))
            bad = bool(result.errors) or (strict and bool(result.warnings))
            if result.spec is not None and not bad:
                wagers = ", ".join(result.spec.wagers.titles)
                note = f", {len(result.warnings)} warning(s)" if result.warnings else ""
                _out(f"{name}: valid ({wagers}{note})")
            for verdict in verdicts.get(name, []):
                _out(f"{name}: {verdict['wager']}: {verdict['result']}: {verdict['detail']}")
    if failed:
        raise typer.Exit(1)


@app.command()
@user_errors
def analyze(
    file: PaytableFile,
    output_format: Annotated[
        AnalysisFormat, typer.Option("--format", help="table, json, csv, or xlsx (with --out FILE.xlsx).")
    ] = AnalysisFormat.TABLE,
    exact: Annotated[bool, typer.Option("--exact", help="Show exact fractions beside percentages.")] = False,
    meter: Annotated[
        str | None,
        typer.Option("--meter", help="Evaluate progressives' RTP at this meter, e.g. 25000.", show_default=False),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="The workbook to write (--format xlsx).", show_default=False)
    ] = None,
    force: Force = False,
) -> None:
    """Count every deal: the exact return, house edge, hit frequency and variance of every wager."""
    from trey.engine import analyze as run_analysis
    from trey.paytable.load import load_spec

    at_meter = _parse_meter(meter)
    if (output_format is AnalysisFormat.XLSX) != (out is not None):
        raise typer.BadParameter("--format xlsx writes the workbook given with --out FILE.xlsx (and only it)")
    if out is not None and out.suffix.lower() != ".xlsx":
        raise typer.BadParameter(f"{out.name!r} is not a workbook's name: give --out FILE.xlsx")
    if out is not None:
        from trey.core.outputs import refuse_existing

        refuse_existing(out.parent, [out.name], force=force)
    analysis = run_analysis(load_spec(file))
    if at_meter is not None and not any(r.progressive is not None for r in analysis.wagers.values()):
        raise TreyError(f"{file.name} has no progressive wager", hint="--meter evaluates a progressive's meter")
    if output_format is AnalysisFormat.JSON:
        from trey.figures.export import analysis_json

        print(json.dumps(analysis_json(analysis, meter=at_meter), indent=2))
    elif output_format is AnalysisFormat.CSV:
        from trey.present.spreadsheet import analysis_csv

        sys.stdout.write(analysis_csv(analysis))
    elif out is not None:
        from trey.present.spreadsheet import analysis_workbook

        for path in _write(out.parent, {out.name: lambda: analysis_workbook(analysis)}, force=force):
            _err(f"wrote {path}")
    else:
        from trey.present.terminal import print_analysis

        print_analysis(analysis, exact=exact, meter=at_meter)


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
) -> None:
    """Paytables side by side: each wager's tables ranked by house edge, with the difference to the first file."""
    from trey.choose.compare import compare as run_comparison
    from trey.choose.compare import comparison_csv, comparison_json
    from trey.core.files import display_name
    from trey.paytable.load import load_spec

    if out is not None:
        from trey.core.outputs import refuse_existing

        refuse_existing(out, ["comparison.html"], force=force)
    games = [(display_name(path), load_spec(path)) for path in files]
    rows = run_comparison(games, wager)
    if output_format is CompareFormat.JSON:
        print(json.dumps(comparison_json(rows), indent=2))
    elif output_format is CompareFormat.CSV:
        sys.stdout.write(comparison_csv(rows))
    else:
        from trey.present.terminal import print_comparison

        print_comparison(rows)
    if out is not None:
        from trey.documents.compare_view import render_comparison_html

        html = render_comparison_html(rows, games[0][0])
        for path in _write(out, {"comparison.html": html.encode}, force=force):
            _err(f"wrote {path}")


def _parse_percent(value: str, option: str) -> Fraction:
    from trey.paytable.pays import PayError, parse_share

    try:
        return parse_share(value.strip(), option)
    except PayError:
        raise typer.BadParameter(f"{value!r} is not a percentage such as 5% or 4.5%") from None


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
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """Deal seeded rounds and check them against the exact figures. Exit 1 if they disagree."""
    from trey.paytable.load import load_spec
    from trey.play.simulate import simulate as run_simulation

    spec = load_spec(file)
    with _progress(rounds, enabled=output_format is OutputFormat.TABLE) as advance:
        result = run_simulation(spec, rounds, seed, workers=workers, progress=advance)
    if output_format is OutputFormat.JSON:
        from trey.figures.export import simulation_json

        print(json.dumps(simulation_json(result, spec), indent=2))
    else:
        from trey.present.terminal import print_simulation

        print_simulation(result)
    if not result.passed:
        raise typer.Exit(1)


def _parse_date(value: str | None) -> date | None:
    from trey.trust.certificate import checked_date

    if value is None:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a date written YYYY-MM-DD") from None
    return checked_date(day)


@app.command()
@user_errors
def certify(
    file: PaytableFile,
    out: OutDir,
    issue_date: DateOption = None,
    profile: Annotated[
        str,
        typer.Option("--profile", help="Compliance profile: generic, rng-85, example-approved, or a profile file."),
    ] = "generic",
    paper: Annotated[Paper, typer.Option("--paper", help="a4 or letter.")] = Paper.A4,
    force: Force = False,
    simulate_rounds: Annotated[
        int | None, typer.Option("--simulate", min=1, help="Add a simulation of N rounds.", show_default=False)
    ] = None,
    seed: Seed = 1,
    workers: Workers = 1,
    sign: Annotated[
        Path | None,
        typer.Option(
            "--sign",
            help="Sign with this key: trey keygen's, a PEM key with its certificate, or PKCS#12.",
            show_default=False,
        ),
    ] = None,
    sign_cert: Annotated[
        Path | None,
        typer.Option(
            "--sign-cert", help="The key's certificate (and its CA's), when not in the key file.", show_default=False
        ),
    ] = None,
) -> None:
    """Write a regulator-style certificate: FILE-stem.certificate.html, .pdf and .json in DIR."""
    from trey.core.outputs import refuse_existing
    from trey.documents.make import certify as make_certificate
    from trey.paytable.load import read_file
    from trey.trust.certificate import SimulationOptions, default_issue_date

    when = _parse_date(issue_date) or default_issue_date()
    refuse_existing(out, [f"{file.stem}.certificate.{kind}" for kind in ("html", "pdf", "json")], force=force)
    signer = None
    if sign is not None:
        from trey.trust.signing import load_signer

        signer = load_signer(sign, _ask_passphrase, sign_cert)
    elif sign_cert is not None:
        raise typer.BadParameter("--sign-cert goes with --sign KEY")
    raw = read_file(file)  # the bytes once: their size and SHA-256 go on the certificate
    simulation = SimulationOptions(simulate_rounds, seed, workers) if simulate_rounds else None
    made = _made(
        lambda: make_certificate(
            raw,
            file.name,
            issue_date=when,
            profile=profile,
            paper=paper.value,
            simulation=simulation,
            signer=signer,
            source=str(file),
        )
    )
    files = made.files
    order = sorted(files, key=lambda name: ("json", "html", "pdf").index(name.rsplit(".", 1)[1]))
    for path in _write(out, {name: functools.partial(bytes, files[name]) for name in order}, force=force):
        _out(str(path))
    cert = made.certificate
    verdict = cert.data["overall"]
    _err(f"certificate {cert.certificate_id}: overall {verdict} ({cert.profile.name} profile)")
    if verdict != "PASS":
        raise typer.Exit(1)


def _write(
    out: Path, outputs: dict[str, Callable[[], bytes]], *, force: bool, modes: dict[str, int] | None = None
) -> list[Path]:
    from trey.core.outputs import os_error_message, write_all

    try:
        return write_all(out, outputs, force=force, modes=modes)
    except OSError as exc:
        raise os_error_message(exc) from None


@app.command()
@user_errors
def verify(
    certificate: Annotated[
        Path, typer.Argument(help="The certificate: its .json or its .pdf.", show_default=False, metavar="CERT")
    ],
    paytable: Annotated[
        Path | None, typer.Option("--paytable", help="Also check this paytable file against the certificate.")
    ] = None,
    allow_rounds: Annotated[
        int,
        typer.Option(
            "--allow-rounds",
            min=1,
            max=10**10,
            help="Re-run a certificate's simulation of up to N rounds (default 100,000,000).",
        ),
    ] = 100_000_000,
    workers: Workers = 1,
    trust: Annotated[
        list[Path] | None,
        typer.Option(
            "--trust",
            help="A lab's certificate or public key, or its CA's, that you trust (repeatable): the certificate must "
            "be signed by one.",
        ),
    ] = None,
) -> None:
    """Recompute a certificate from the paytable inside it. Exit 1 naming each field that differs."""
    from trey.documents.verify import verify as run_verification
    from trey.trust.signing import load_trusted

    trusted = [load_trusted(path) for path in trust or []]
    result = run_verification(certificate, paytable, allow_rounds=allow_rounds, workers=workers, trusted=trusted)
    _out(result.summary)


def _ask_passphrase() -> str:
    """The passphrase of an encrypted key, asked on the terminal (never taken from the command line)."""
    if not sys.stdin.isatty():
        return ""
    import getpass

    return getpass.getpass("passphrase of the signing key: ")


@app.command()
@user_errors
def keygen(
    out: OutDir,
    name: Annotated[str, typer.Option("--name", help="The signer, as certificates will name it.")] = "trey signer",
    force: Force = False,
) -> None:
    """Write an ECDSA P-256 key for signing certificates (mode 0600, with its self-signed certificate) and the
    certificate alone, for those who verify.

    The private key is encrypted when TREY_KEY_PASSPHRASE is set."""
    import os

    from trey.core.outputs import refuse_existing
    from trey.trust.signing import CERTIFICATE_FILE, PASSPHRASE_VARIABLE, PRIVATE_KEY_FILE, key_files

    refuse_existing(out, [PRIVATE_KEY_FILE, CERTIFICATE_FILE], force=force)
    passphrase = os.environ.get(PASSPHRASE_VARIABLE)
    files = key_files(name, passphrase.encode() if passphrase else None)
    written = _write(
        out,
        {file: functools.partial(bytes, content) for file, content in files.items()},
        force=force,
        modes={PRIVATE_KEY_FILE: 0o600},
    )
    for path in written:
        _out(str(path))


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
    when = _parse_date(effective) or default_issue_date()
    refuse_existing(out, [f"{file.stem}.dealer-sheet.{kind}" for kind in ("html", "pdf")], force=force)
    spec = load_spec(file)
    files = _made(lambda: dealer_sheet(spec, file.stem, paper=paper.value, effective=when, bets=columns))
    for path in _write(out, {name: functools.partial(bytes, content) for name, content in files.items()}, force=force):
        _out(str(path))


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
    from trey.documents.make import payout_drill
    from trey.paytable.load import load_spec
    from trey.trust.certificate import default_issue_date

    when = _parse_date(effective) or default_issue_date()
    refuse_existing(out, [f"{file.stem}.drill.{kind}" for kind in ("html", "pdf")], force=force)
    spec = load_spec(file)
    files = _made(
        lambda: payout_drill(
            spec, file.stem, hands=hands, seed=seed, level=level.value, paper=paper.value, effective=when
        )
    )
    for path in _write(out, {name: functools.partial(bytes, content) for name, content in files.items()}, force=force):
        _out(str(path))


def _made(make: Callable[[], R]) -> R:
    """A document's files made by the library; the PDF engine's failure to write its temporary files (a full disk)
    is reported as a write's."""
    from trey.core.outputs import os_error_message

    try:
        return make()
    except OSError as exc:
        raise os_error_message(exc) from None


@contextlib.contextmanager
def _progress(rounds: int, *, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr for runs of more than about a second, only when stderr is a terminal."""
    if not enabled or rounds < 2_000_000 or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("dealing", total=rounds)
        yield lambda done: bar.advance(task, done)


def main() -> None:
    app()
