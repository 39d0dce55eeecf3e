"""The ``trey`` command: parse arguments, call the library, print. User errors become a message and exit 1."""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
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


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def user_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn a :class:`TreyError` into its message on stderr and exit status 1: no traceback for bad input."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except SpecError as exc:
            for problem in exc.problems:
                _err(str(problem))
            raise typer.Exit(1) from None
        except TreyError as exc:
            _err(f"error: {exc}")
            raise typer.Exit(1) from None

    return wrapper


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
) -> None:
    """Check paytable files: YAML, the JSON Schema, then the game's own rules. Exit 1 if any is invalid."""
    from trey.loader import check_file

    failed = False
    for path in files:
        result = check_file(path)
        for problem in result.problems:
            _err(str(problem))
        bad = bool(result.errors) or (strict and bool(result.warnings))
        failed = failed or bad
        if result.spec is not None and not bad:
            wagers = ", ".join(w.display_name for w in result.spec.wagers.offered)
            note = f", {len(result.warnings)} warning(s)" if result.warnings else ""
            print(f"{path}: valid ({wagers}{note})")
    if failed:
        raise typer.Exit(1)


class OutputFormat(StrEnum):
    TABLE = "table"
    JSON = "json"


@app.command()
@user_errors
def analyze(
    file: Annotated[Path, typer.Argument(help="Paytable file (YAML).", show_default=False, metavar="FILE")],
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
    exact: Annotated[bool, typer.Option("--exact", help="Show exact fractions beside percentages.")] = False,
) -> None:
    """Count every deal: the exact return, house edge, hit frequency and variance of every wager."""
    from trey.engine import analyze as run_analysis
    from trey.loader import load_spec

    analysis = run_analysis(load_spec(file))
    if output_format is OutputFormat.JSON:
        import json

        from trey.export import analysis_json

        print(json.dumps(analysis_json(analysis), indent=2))
    else:
        from trey.terminal import print_analysis

        print_analysis(analysis, exact=exact)


@app.command()
@user_errors
def simulate(
    file: Annotated[Path, typer.Argument(help="Paytable file (YAML).", show_default=False, metavar="FILE")],
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds to deal.")] = 1_000_000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the random generator.")] = 1,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Processes to share the rounds.")] = 1,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """Deal seeded rounds and check them against the exact figures. Exit 1 if they disagree."""
    from trey.loader import load_spec
    from trey.simulate import simulate as run_simulation

    spec = load_spec(file)
    with _progress(rounds, enabled=output_format is OutputFormat.TABLE) as advance:
        result = run_simulation(spec, rounds, seed, workers=workers, progress=advance)
    if output_format is OutputFormat.JSON:
        import json

        from trey.export import simulation_json

        print(json.dumps(simulation_json(result, spec), indent=2))
    else:
        from trey.terminal import print_simulation

        print_simulation(result)
    if not result.passed:
        raise typer.Exit(1)


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
