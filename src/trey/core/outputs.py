"""Writing output files safely: all or nothing, never over an existing file without ``force``.

Every output is rendered before the file system is touched; then each is written to a temporary file in the
target directory and put in place only when all of them are ready. Without ``force`` a final name is claimed with
``link()``, which fails if anything (even a dangling symbolic link) already has that name, so two runs writing the
same output at once cannot both succeed: the check and the claim are one atomic step. A failure, SIGTERM or
SIGHUP leaves nothing behind: not the temporary files, not the files already placed, not the directories the run
created. Even with ``force`` only a regular file or a symbolic link (the link itself) is replaced: a directory, a
FIFO, a device or a socket at an output's name is refused, before any work and again just before the files are put
in place (``--log /dev/null --force`` run as root would otherwise put a regular file where /dev/null was).
Every refusal names the option that gave the output (``--out``, ``--log``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import FrameType

from trey.core.errors import OutputError
from trey.core.files import display_name, kind_of

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


def _would_overwrite(paths: list[Path], option: str) -> OutputError:
    return OutputError(
        "would overwrite " + ", ".join(display_name(p) for p in paths),
        hint=f"use --force to replace {'them' if len(paths) > 1 else 'it'}, or choose another {option}",
    )


def _not_replaceable(path: Path, option: str) -> OutputError | None:
    """Why ``path`` may not be replaced even with ``force`` (it is a directory, a FIFO, a device or a socket), or
    None when nothing has that name or it is a regular file or a symbolic link (whatever the link points to: the
    link itself is replaced, never written through)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    if stat.S_ISDIR(mode):
        return OutputError(f"{display_name(path)} is a directory", hint=f"choose another {option}")
    return OutputError(
        f"{display_name(path)} is {kind_of(mode)}, not a regular file",
        hint=f"--force replaces only files and symbolic links: choose another {option}",
    )


def _refuse_replacing(paths: Iterable[Path], option: str) -> None:
    for path in paths:
        refusal = _not_replaceable(path, option)
        if refusal is not None:
            raise refusal


def refuse_existing(directory: Path, names: list[str], *, force: bool, option: str) -> None:
    """Fail before any work when an output cannot be written: something that is not a regular file or a symbolic
    link has its name, or, with ``force`` off, anything does (a dangling symbolic link counts). ``option`` is the
    command's option that named ``directory`` (``--out``), for the hint."""
    _refuse_existing(directory, names, force=force, option=option, hint=f"give {option} a directory")


def refuse_existing_file(path: Path, *, force: bool, option: str) -> None:
    """:func:`refuse_existing` for an option that names the output file itself (``--log OUT.jsonl``)."""
    _refuse_existing(path.parent, [path.name], force=force, option=option, hint=f"choose another {option}")


def _refuse_existing(directory: Path, names: list[str], *, force: bool, option: str, hint: str) -> None:
    try:
        if directory.exists() and not directory.is_dir():
            raise OutputError(f"{display_name(directory)} exists and is not a directory", hint=hint)
        _refuse_replacing((directory / n for n in names), option)
        existing = [directory / n for n in names if os.path.lexists(directory / n)]
    except OSError as exc:
        raise os_error_message(exc) from None
    if existing and not force:
        raise _would_overwrite(existing, option)


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """While writing, SIGTERM and SIGHUP raise :class:`Interrupted` so that ``finally`` blocks clean up. A signal
    the process was started to ignore (SIGHUP under ``nohup``) stays ignored: the run was asked to outlive it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, _: FrameType | None) -> None:
        raise Interrupted(signum)

    caught = [sig for sig in _CLEANUP_SIGNALS if signal.getsignal(sig) is not signal.SIG_IGN]
    previous = {sig: signal.signal(sig, handler) for sig in caught}
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


def _claim(temporary: Path, final: Path, option: str) -> None:
    """Give ``temporary`` the name ``final`` only if nothing has that name (atomically)."""
    try:
        os.link(temporary, final, follow_symlinks=False)
    except FileExistsError:
        raise _would_overwrite([final], option) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        # A file system without hard links: create the final name exclusively and copy.
        descriptor = os.open(final, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666 & ~_umask())
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(temporary.read_bytes())
    temporary.unlink()


def write_all(
    directory: Path,
    outputs: Mapping[str, Render],
    *,
    force: bool,
    option: str,
    modes: Mapping[str, int] | None = None,
) -> list[Path]:
    """Render and write every output into ``directory`` (named by the command's ``option``), or none. Returns the
    paths written. ``modes``: file modes by name (a private key: 0600); others are readable as the umask allows."""
    refuse_existing(directory, list(outputs), force=force, option=option)
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
            if force:  # a FIFO or a device may have taken a name since the first check
                _refuse_replacing((directory / name for name in temporary), option)
            for name, temp_path in temporary.items():
                final = directory / name
                if force:
                    os.replace(temp_path, final)  # replaces a symbolic link itself, never writes through it
                else:
                    _claim(temp_path, final, option)
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


def write_lines(path: Path, lines: Iterable[str], *, force: bool, option: str) -> Path:
    """Write a stream of text lines to ``path`` (named by the command's ``option``) as one file, or nothing: the
    lines go to a temporary file beside it (constant memory, however many), which takes the name only when every
    line is written."""
    directory = path.parent
    refuse_existing_file(path, force=force, option=option)
    with _signals_raise():
        created = _make_directories(directory)
        temporary: Path | None = None
        try:  # from the temporary file's creation on: a name too long for it must not leave the folders behind
            handle, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
            temporary = Path(temp_name)
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
                for line in lines:
                    stream.write(line + "\n")
            os.chmod(temp_name, 0o666 & ~_umask())
            if force:
                _refuse_replacing([path], option)  # a FIFO or a device may have taken the name since the first check
                os.replace(temporary, path)
            else:
                _claim(temporary, path, option)
            return path
        except BaseException as exc:
            if temporary is not None:
                temporary.unlink(missing_ok=True)
            for folder in created:
                with contextlib.suppress(OSError):
                    folder.rmdir()
            if isinstance(exc, Interrupted):
                raise SystemExit(128 + exc.signum) from None
            raise
