"""Reading input files without trusting them: only regular files, never more than a bound, names that print.

``/dev/zero`` would fill memory, a FIFO would block forever, a name that is not UTF-8 cannot go into a report:
each is refused with a message before anything is read.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from trey.core.errors import Problem, SpecError
from trey.core.text import lone_surrogate, printable

_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def kind_of(mode: int) -> str:
    """What a file of ``mode`` (``os.stat``'s ``st_mode``) is, when it is neither a regular file nor a directory:
    "a FIFO (named pipe)", "a character device"..."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def display_name(path: str | Path) -> str:
    """A file name as it can be printed: undecodable bytes and control characters as escapes."""
    return printable(os.fspath(path))


def open_regular(path: str | Path, *, what: str = "a paytable file", hint: str | None = None) -> BinaryIO:
    """A regular file opened for reading, or a :class:`SpecError` saying plainly why not: a file that is not
    regular (a FIFO, a device such as /dev/zero) is refused before it is opened, so that no input hangs or reads
    without end."""
    name = display_name(path)

    def refuse(code: str, message: str, hint: str | None = None) -> SpecError:
        return SpecError([Problem(name, message, hint=hint, code=code)])

    if lone_surrogate(os.fspath(path)) is not None:
        raise refuse("file.name-not-utf8", "the file name is not valid UTF-8", "rename the file")
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise refuse("file.directory", "is a directory", hint or f"give {what}")
        if not stat.S_ISREG(info.st_mode):
            raise refuse("file.not-regular", f"is {kind_of(info.st_mode)}, not a regular file", f"give {what}")
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        raise refuse("file.not-found", "no such file", "check the path") from None
    except PermissionError:
        raise refuse("file.permission", "permission denied", "check the file's permissions") from None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise refuse("file.name-too-long", "the file name is too long for the file system") from None
        raise refuse("file.unreadable", f"cannot read the file: {exc.strerror}") from None
    stream = os.fdopen(descriptor, "rb")
    if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):  # replaced between the check and the open
        stream.close()
        raise refuse("file.not-regular", "is not a regular file", f"give {what}")
    return stream


def read_bounded(path: str | Path, *, limit: int, what: str = "a paytable file", hint: str | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or a :class:`SpecError` saying plainly why not.

    At most ``limit + 1`` bytes are read, and a file that is not regular is refused before it is opened."""
    name = display_name(path)
    with open_regular(path, what=what, hint=hint) as stream:
        size = os.fstat(stream.fileno()).st_size
        if size > limit:
            raise _too_large(name, size, limit, what)
        chunks = []
        size = 0
        while size <= limit:
            chunk = stream.read(limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    raw = b"".join(chunks)
    if len(raw) > limit:  # the file grew while we read it
        raise _too_large(name, len(raw), limit, what)
    return raw


def _too_large(name: str, size: int, limit: int, what: str) -> SpecError:
    bound = f"{limit // (1024 * 1024)} MiB" if limit % (1024 * 1024) == 0 else f"{limit:,} bytes"
    return SpecError(
        [Problem(name, f"file is too large ({size:,} bytes)", hint=f"{what} is at most {bound}", code="file.too-large")]
    )
