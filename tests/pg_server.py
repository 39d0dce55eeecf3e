"""A PostgreSQL server of the tests' own (Debian's postgresql 15), for the SQL source of table rounds: started once
per session in a temporary folder, as the unprivileged user ``postgres`` (the tests may run as root), on a free
port, on a Unix socket and localhost, and stopped at the end."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# Debian's server, whichever version its release ships (.ci/run installs it when none is there).
_INSTALLED = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
BIN = _INSTALLED[-1].parent if _INSTALLED else Path("/usr/lib/postgresql/15/bin")


def _as_postgres(*command: str) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return list(command)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A URL of an empty database ``trey`` on a server started for the tests: without postgresql the tests that need
    it fail (a check skipped would pass unseen)."""
    if not (BIN / "initdb").exists():
        pytest.fail("PostgreSQL is not installed: apt-get install -y postgresql (.ci/run installs it)")
    folder = Path(tempfile.mkdtemp(prefix="trey-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": True}
    subprocess.run(
        _as_postgres(str(BIN / "initdb"), "-D", str(data), "-U", "trey", "-A", "trust", "-N", "--no-instructions"),
        **quiet,
    )  # type: ignore[call-overload]
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
        "-c full_page_writes=off -c shared_buffers=16MB -c max_connections=10"
    )
    start = [str(BIN / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start"]
    subprocess.run(_as_postgres(*start), **quiet)  # type: ignore[call-overload]
    try:
        subprocess.run(
            _as_postgres(str(BIN / "createdb"), "-h", str(folder), "-p", str(port), "-U", "trey", "trey"), **quiet
        )  # type: ignore[call-overload]
        yield f"postgresql+psycopg://trey@127.0.0.1:{port}/trey"
    finally:
        # The server this fixture started, by the process id it wrote: stopped at once (SIGQUIT, an immediate
        # shutdown), without waiting for it.
        pid = int((data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGQUIT)
        shutil.rmtree(folder, ignore_errors=True)
