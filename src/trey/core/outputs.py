"""Writing output files safely: all or nothing, never over an existing file without ``force``.

Every output is rendered before the file system is touched; then each is written to a temporary file in the
target directory and put in place only when all of them are ready. Without ``force`` a final name is claimed with
``link()``, which fails if anything (even a dangling symbolic link) already has that name, so two runs writing the
same output at once cannot both succeed: the check and the claim are one atomic step. A failure, SIGTERM or
SIGHUP leaves nothing behind: not the temporary files, not the files already placed, not the directories the run
created.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import FrameType

from trey.core.errors import OutputError
from trey.core.files import display_name

Render = Callable[[], bytes]
_CLEANUP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Interrupted(BaseException):
    """SIGTERM or SIGHUP arrived while outputs were being written; raised so that the cleanup runs."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"interrupted by signal {signum}")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _would_overwrite(paths: list[Path]) -> OutputError:
    return OutputError(
        "would overwrite " + ", ".join(display_name(p) for p in paths),
        hint="use --force to replace them, or choose another --out",
    )


def refuse_existing(directory: Path, names: list[str], *, force: bool) -> None:
    """Fail before any work when an output exists (a dangling symbolic link counts) and ``force`` is off."""
    try:
        if directory.exists() and not directory.is_dir():
            raise OutputError(f"{display_name(directory)} exists and is not a directory", hint="give --out a directory")
        existing = [directory / n for n in names if os.path.lexists(directory / n)]
    except OSError as exc:
        raise os_error_message(exc) from None
    if existing and not force:
        raise _would_overwrite(existing)


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """While writing, SIGTERM and SIGHUP raise :class:`Interrupted` so that ``finally`` blocks clean up."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, _: FrameType | None) -> None:
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, handler) for sig in _CLEANUP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _make_directories(directory: Path) -> list[Path]:
    """Create ``directory`` and any missing parents; return those created, deepest first."""
    missing = []
    current = directory
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    created = []
    for path in reversed(missing):
        try:
            path.mkdir()
        except FileExistsError:
            continue
        created.append(path)
    return list(reversed(created))


def _claim(temporary: Path, final: Path) -> None:
    """Give ``temporary`` the name ``final`` only if nothing has that name (atomically)."""
    try:
        os.link(temporary, final, follow_symlinks=False)
    except FileExistsError:
        raise _would_overwrite([final]) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        # A file system without hard links: create the final name exclusively and copy.
        descriptor = os.open(final, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666 & ~_umask())
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(temporary.read_bytes())
    temporary.unlink()


def write_all(
    directory: Path, outputs: Mapping[str, Render], *, force: bool, modes: Mapping[str, int] | None = None
) -> list[Path]:
    """Render and write every output, or none. Returns the paths written. ``modes``: file modes by name (a private
    key: 0600); others are readable as the umask allows."""
    refuse_existing(directory, list(outputs), force=force)
    temporary: dict[str, Path] = {}
    placed: list[Path] = []
    created: list[Path] = []
    with _signals_raise():
        try:
            contents = {name: render() for name, render in outputs.items()}  # nothing on disk until all render
            created = _make_directories(directory)
            for name, content in contents.items():
                handle, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
                temporary[name] = Path(temp_name)
                with os.fdopen(handle, "wb") as stream:
                    stream.write(content)
                # mkstemp makes 0600; reports are for sharing, secrets keep their own mode
                os.chmod(temp_name, (modes or {}).get(name, 0o666 & ~_umask()))
            for name, temp_path in temporary.items():
                final = directory / name
                if force:
                    os.replace(temp_path, final)  # replaces a symbolic link itself, never writes through it
                else:
                    _claim(temp_path, final)
                placed.append(final)
            return [directory / name for name in outputs]
        except BaseException as exc:
            for leftover in temporary.values():
                leftover.unlink(missing_ok=True)
            if not force:  # what this run placed is its own; with force, earlier files are already replaced
                for path in placed:
                    path.unlink(missing_ok=True)
            for folder in created:
                with contextlib.suppress(OSError):
                    folder.rmdir()  # only if empty
            if isinstance(exc, Interrupted):
                raise SystemExit(128 + exc.signum) from None
            raise


def os_error_message(exc: OSError) -> OutputError:
    """An operating-system failure while writing, as a user error."""
    where = display_name(exc.filename) if exc.filename else "the output directory"
    if exc.errno == errno.ENAMETOOLONG:
        return OutputError(f"cannot write {where}: a name is too long for the file system", hint="use shorter names")
    return OutputError(f"cannot write {where}: {exc.strerror}", hint="check the directory and its permissions")


def write_lines(path: Path, lines: Iterable[str], *, force: bool) -> Path:
    """Write a stream of text lines to ``path`` as one file, or nothing: the lines go to a temporary file beside it
    (constant memory, however many), which takes the name only when every line is written."""
    directory = path.parent
    refuse_existing(directory, [path.name], force=force)
    with _signals_raise():
        created = _make_directories(directory)
        handle, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
        temporary = Path(temp_name)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                for line in lines:
                    stream.write(line + "\n")
            os.chmod(temp_name, 0o666 & ~_umask())
            if force:
                os.replace(temporary, path)
            else:
                _claim(temporary, path)
            return path
        except BaseException as exc:
            temporary.unlink(missing_ok=True)
            for folder in created:
                with contextlib.suppress(OSError):
                    folder.rmdir()
            if isinstance(exc, Interrupted):
                raise SystemExit(128 + exc.signum) from None
            raise
