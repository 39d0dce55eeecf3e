"""The ``trey`` command's application: its options shared by several commands, how a user error becomes a message
and exit 1, and how files are written. The commands themselves are in the modules beside this one."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ParamSpec, TypeVar

import typer

from trey.core.errors import SpecError, TreyError
from trey.core.version import __version__

if TYPE_CHECKING:
    from trey.paytable.model import GameSpec

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


def _scheduler_option(value: str | None) -> str | None:
    """--scheduler read when the command line is: a typo is one line and exit 1 before anything is loaded, and a
    scheduler off this machine reached unencrypted is warned of."""
    if value is None:
        return None
    from trey.core.runner import parse_scheduler, scheduler_warning

    try:
        parse_scheduler(value)
    except TreyError as exc:
        say_error(f"error: {exc}")
        raise typer.Exit(1) from None
    warning = scheduler_warning(value)
    if warning is not None:
        say_error(f"warning: {warning}")
    return value


Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Run the chunks on Dask: tcp://HOST:PORT or tls://HOST:PORT of a running scheduler on a cluster you "
        "control (it runs code in trey and chooses the figures), or local:K for K workers here "
        "(pip install 'trey[dask]').",
        show_default=False,
        callback=_scheduler_option,
    ),
]


def say_error(text: str) -> None:
    """A diagnostic on stderr; user text in it cannot drive the terminal (see :func:`trey.core.text.printable`)."""
    from trey.core.text import printable

    print(printable(text, keep_line_breaks=True), file=sys.stderr)


def say(text: str) -> None:
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
                say_error(one_line(str(problem)))
            raise typer.Exit(1) from None
        except TreyError as exc:
            say_error(f"error: {exc}")
            raise typer.Exit(1) from None

    return wrapper


def standard_game(spec: GameSpec, tool: str, file: Path | str) -> GameSpec:
    """``spec``, unless it is a game other than standard Three Card Poker, which ``tool`` (``trey certify``) cannot
    deal yet: then one located line and exit 1 (issue 31), never the standard game's figures for it."""
    from trey.core.files import display_name
    from trey.paytable.model import refuse_other_games

    refuse_other_games(spec, tool, display_name(file) if isinstance(file, Path) else file)
    return spec


def one_line(text: str) -> str:
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


def parse_date(value: str | None) -> date | None:
    from trey.trust.certificate import checked_date

    if value is None:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a date written YYYY-MM-DD") from None
    return checked_date(day)


def write_files(
    out: Path, files: Mapping[str, bytes], *, force: bool, modes: dict[str, int] | None = None, option: str = "--out"
) -> list[Path]:
    """Files the library made, written into ``out`` (the directory ``option`` gave) all or none, in the order
    given."""
    from trey.core.outputs import os_error_message, write_all

    try:
        return write_all(
            out,
            {name: functools.partial(bytes, data) for name, data in files.items()},
            force=force,
            option=option,
            modes=modes,
        )
    except OSError as exc:
        raise os_error_message(exc) from None


def write_text_lines(path: Path, lines: Iterable[str], *, force: bool, option: str) -> Path:
    """Lines written to the file ``option`` gave, all or none (:func:`trey.core.outputs.write_lines`); a failure of
    the file system is a user error, not a traceback."""
    from trey.core.outputs import os_error_message, write_lines

    try:
        return write_lines(path, lines, force=force, option=option)
    except OSError as exc:
        raise os_error_message(exc) from None


STANDARD_OUTPUT = "-"  # an option that names a stream (--log) takes it for standard output


def write_stdout(lines: Iterable[str], *, what: str) -> None:
    """Lines to standard output as they are made (``--log -``). A stream cannot be taken back: a failure midway
    leaves the lines already written, and a reader that stops early (``| head``) ends the command with exit 1 and a
    message saying ``what`` is incomplete, not with a traceback."""
    from trey.core.errors import OutputError

    try:
        for line in lines:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # Python's own flush at exit would fail on the closed pipe
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise OutputError(
            f"standard output was closed before {what} was complete", hint="read it to its end, or write it to a file"
        ) from None


def made(make: Callable[[], R]) -> R:
    """A document's files made by the library; the PDF engine's failure to write its temporary files (a full disk)
    is reported as a write's."""
    from trey.core.outputs import os_error_message

    try:
        return make()
    except OSError as exc:
        raise os_error_message(exc) from None


@contextlib.contextmanager
def progress_tasks(*, enabled: bool) -> Iterator[Callable[[str, int, int], None] | None]:
    """Progress bars on stderr, only when stderr is a terminal (never under --format json: ``enabled`` False). The
    callback ``(task, done, total)`` advances the bar of ``task`` by ``done`` of its ``total``, a bar per task in the
    order they first report; the bars vanish when the work ends."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, TaskID

    with Progress(console=Console(stderr=True), transient=True) as bars:
        tasks: dict[str, TaskID] = {}

        def advance(task: str, done: int, total: int) -> None:
            if task not in tasks:
                tasks[task] = bars.add_task(task, total=total)
            bars.advance(tasks[task], done)

        yield advance


@contextlib.contextmanager
def progress_bar(rounds: int, *, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr for runs of more than about a second, only when stderr is a terminal."""
    with progress_tasks(enabled=enabled and rounds >= 2_000_000) as report:
        yield (lambda done: report("dealing", done, rounds)) if report is not None else None


def main() -> None:
    app()
