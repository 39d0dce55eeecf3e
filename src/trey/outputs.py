"""Writing output files safely: all or nothing, never over an existing file without ``force``.

Every file is first written to a temporary file in the target directory and renamed into place only when all of
them are ready, so a failure leaves nothing behind (not even a directory the call created) and a reader never
sees a half-written report.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from trey.errors import OutputError

Render = Callable[[], bytes]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def refuse_existing(directory: Path, names: list[str], *, force: bool) -> None:
    """Fail before any work when an output exists and ``force`` is off."""
    if directory.exists() and not directory.is_dir():
        raise OutputError(f"{directory} exists and is not a directory", hint="give --out a directory")
    existing = [directory / n for n in names if (directory / n).exists()]
    if existing and not force:
        raise OutputError(
            "would overwrite " + ", ".join(str(p) for p in existing),
            hint="use --force to replace them, or choose another --out",
        )


def write_all(directory: Path, outputs: Mapping[str, Render], *, force: bool) -> list[Path]:
    """Render and write every output, or none. Returns the paths written."""
    refuse_existing(directory, list(outputs), force=force)
    created = not directory.exists()
    temporary: dict[str, Path] = {}
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, render in outputs.items():
            content = render()
            handle, temp_name = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
            temporary[name] = Path(temp_name)
            with os.fdopen(handle, "wb") as stream:
                stream.write(content)
            os.chmod(temp_name, 0o666 & ~_umask())  # mkstemp makes 0600; reports are for sharing
        for name, temp_path in temporary.items():
            os.replace(temp_path, directory / name)
        return [directory / name for name in outputs]
    except BaseException:
        for leftover in temporary.values():
            leftover.unlink(missing_ok=True)
        if created and directory.exists() and not any(directory.iterdir()):
            directory.rmdir()
        raise


def os_error_message(exc: OSError) -> OutputError:
    """An operating-system failure while writing, as a user error."""
    where = exc.filename or "the output directory"
    return OutputError(f"cannot write {where}: {exc.strerror}", hint="check the directory and its permissions")
