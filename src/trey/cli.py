"""The ``trey`` command: parse arguments, call the library, print. User errors become a message and exit 1."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterator
from datetime import date
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from trey import __version__
from trey.errors import SpecError, TreyError

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
    """A diagnostic on stderr; user text in it cannot drive the terminal (see :func:`trey.text.printable`)."""
    from trey.text import printable

    print(printable(text, keep_line_breaks=True), file=sys.stderr)


def _out(text: str) -> None:
    from trey.text import printable

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
    from trey.text import printable

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
) -> None:
    """Check paytable files: YAML, the JSON Schema, then the game's own rules. Exit 1 if any is invalid."""
    from trey.files import display_name
    from trey.loader import check_file, validation_json

    results = [(display_name(path), check_file(path)) for path in files]
    failed = any(bool(r.errors) or (strict and bool(r.warnings)) for _, r in results)
    if output_format is OutputFormat.JSON:
        print(json.dumps(validation_json(results, strict=strict), indent=2, ensure_ascii=True))
    else:
        for name, result in results:
            for problem in result.problems:
                _err(_one_line(str(problem)))
            bad = bool(result.errors) or (strict and bool(result.warnings))
            if result.spec is not None and not bad:
                wagers = ", ".join(result.spec.wagers.titles)
                note = f", {len(result.warnings)} warning(s)" if result.warnings else ""
                _out(f"{name}: valid ({wagers}{note})")
    if failed:
        raise typer.Exit(1)


@app.command()
@user_errors
def analyze(
    file: PaytableFile,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
    exact: Annotated[bool, typer.Option("--exact", help="Show exact fractions beside percentages.")] = False,
    meter: Annotated[
        str | None,
        typer.Option("--meter", help="Evaluate progressives' RTP at this meter, e.g. 25000.", show_default=False),
    ] = None,
) -> None:
    """Count every deal: the exact return, house edge, hit frequency and variance of every wager."""
    from trey.engine import analyze as run_analysis
    from trey.loader import load_spec

    at_meter = _parse_meter(meter)
    analysis = run_analysis(load_spec(file))
    if output_format is OutputFormat.JSON:
        from trey.export import analysis_json

        print(json.dumps(analysis_json(analysis, meter=at_meter), indent=2))
    else:
        from trey.terminal import print_analysis

        print_analysis(analysis, exact=exact, meter=at_meter)


def _parse_meter(value: str | None) -> Fraction | None:
    from trey.pays import PayError, parse_money

    if value is None:
        return None
    try:
        return parse_money(value.strip(), "meter")
    except PayError:
        raise typer.BadParameter(f"{value!r} is not an amount such as 25000 or 25000.50") from None


@app.command()
@user_errors
def simulate(
    file: PaytableFile,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds to deal (at most 10^10).")] = 1_000_000,
    seed: Seed = 1,
    workers: Workers = 1,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """Deal seeded rounds and check them against the exact figures. Exit 1 if they disagree."""
    from trey.loader import load_spec
    from trey.simulate import simulate as run_simulation

    spec = load_spec(file)
    with _progress(rounds, enabled=output_format is OutputFormat.TABLE) as advance:
        result = run_simulation(spec, rounds, seed, workers=workers, progress=advance)
    if output_format is OutputFormat.JSON:
        from trey.export import simulation_json

        print(json.dumps(simulation_json(result, spec), indent=2))
    else:
        from trey.terminal import print_simulation

        print_simulation(result)
    if not result.passed:
        raise typer.Exit(1)


def _parse_date(value: str | None) -> date | None:
    from trey.certificate import checked_date

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
    profile: Annotated[str, typer.Option("--profile", help="Compliance profile: generic or rng-85.")] = "generic",
    paper: Annotated[Paper, typer.Option("--paper", help="a4 or letter.")] = Paper.A4,
    force: Force = False,
    simulate_rounds: Annotated[
        int | None, typer.Option("--simulate", min=1, help="Add a simulation of N rounds.", show_default=False)
    ] = None,
    seed: Seed = 1,
    workers: Workers = 1,
) -> None:
    """Write a regulator-style certificate: FILE-stem.certificate.html, .pdf and .json in DIR."""
    from trey.certificate import SimulationOptions, build_certificate, default_issue_date
    from trey.loader import load_spec_bytes, read_file
    from trey.outputs import refuse_existing

    when = _parse_date(issue_date) or default_issue_date()
    names = {kind: f"{file.stem}.certificate.{kind}" for kind in ("html", "pdf", "json")}
    refuse_existing(out, list(names.values()), force=force)
    raw = read_file(file)  # the bytes once: their size and SHA-256 go on the certificate
    spec = load_spec_bytes(raw, str(file))
    cert = build_certificate(
        spec,
        file_name=file.name,
        file_size=len(raw),
        issue_date=when,
        profile_name=profile,
        simulation=SimulationOptions(simulate_rounds, seed, workers) if simulate_rounds else None,
        paper=paper.value,
    )
    from trey.report.certificate_view import render_certificate_html
    from trey.report.pdf import html_to_pdf

    html = render_certificate_html(cert, json_name=names["json"], paytable_name=file.name)
    written = _write(
        out,
        {
            names["json"]: lambda: (json.dumps(cert.data, indent=2, ensure_ascii=False) + "\n").encode(),
            names["html"]: html.encode,
            names["pdf"]: lambda: html_to_pdf(html, when),
        },
        force=force,
    )
    for path in written:
        _out(str(path))
    verdict = cert.data["overall"]
    _err(f"certificate {cert.certificate_id}: overall {verdict} ({cert.profile.name} profile)")
    if verdict != "PASS":
        raise typer.Exit(1)


def _write(out: Path, outputs: dict[str, Callable[[], bytes]], *, force: bool) -> list[Path]:
    from trey.outputs import os_error_message, write_all

    try:
        return write_all(out, outputs, force=force)
    except OSError as exc:
        raise os_error_message(exc) from None


@app.command()
@user_errors
def verify(
    certificate: Annotated[
        Path, typer.Argument(help="The certificate's .json file.", show_default=False, metavar="CERT")
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
) -> None:
    """Recompute a certificate from the paytable inside it. Exit 1 naming each field that differs."""
    from trey.certificate import verify_certificate
    from trey.files import display_name

    cert = verify_certificate(certificate, paytable, allow_rounds=allow_rounds, workers=workers)
    checked = f" and {display_name(paytable)}" if paytable is not None else ""
    _out(
        f"{display_name(certificate)}{checked}: verified; certificate {cert.certificate_id}, "
        f"overall {cert.data['overall']}"
    )


def _parse_bets(value: str | None) -> tuple[int, ...] | None:
    """``--bets 10,5,5`` → ``(5, 10)``: sorted, each once; plain decimal digits only."""
    from trey.payouts import MAX_BET, MAX_COLUMNS

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
    from trey.certificate import default_issue_date
    from trey.engine import analyze as run_analysis
    from trey.loader import load_spec
    from trey.outputs import refuse_existing

    columns = _parse_bets(bets)
    when = _parse_date(effective) or default_issue_date()
    names = {kind: f"{file.stem}.dealer-sheet.{kind}" for kind in ("html", "pdf")}
    refuse_existing(out, list(names.values()), force=force)
    spec = load_spec(file)
    from trey.report.dealer_view import fit_dealer_sheet
    from trey.report.pdf import document_to_pdf

    sheet = fit_dealer_sheet(spec, run_analysis(spec), paper=paper.value, effective=when, bets=columns)
    written = _write(
        out,
        {names["html"]: sheet.html.encode, names["pdf"]: lambda: document_to_pdf(sheet.document, when)},
        force=force,
    )
    for path in written:
        _out(str(path))


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
