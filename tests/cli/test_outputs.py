"""Issue 29, findings 17 and 19: where an output may go, and what a refusal names.

``--force`` replaces only regular files and symbolic links (the link itself): never a directory, a FIFO or a device
(as root, ``--log /dev/null --force`` would otherwise put a regular file where the system's /dev/null is). Each
refusal names the option the user gave. ``--log -`` writes the hand history to standard output, and nothing else.

Never risk the system's /dev/null: the tests build their FIFOs, directories and links in ``tmp_path``, and the one
test that names /dev/null itself first makes every call by which trey could put a file in its place fail.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from conftest import STANDARD, run_cli
from trey.audit.simulated import simulated_log
from trey.core.errors import OutputError
from trey.core.outputs import write_all, write_lines
from trey.paytable.load import load_spec

FIFO_REFUSED = (
    "is a FIFO (named pipe), not a regular file (--force replaces only files and symbolic links: choose another"
)


def _listing(folder: Path) -> dict[str, int]:
    """Each entry's name and file type, links not followed: what a run may not change."""
    return {entry.name: stat.S_IFMT(entry.lstat().st_mode) for entry in folder.iterdir()}


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_a_fifo_at_the_logs_name_is_refused_and_left_alone(tmp_path: Path, force: list[str]) -> None:
    fifo = tmp_path / "history.jsonl"
    os.mkfifo(fifo)
    result = run_cli("simulate", STANDARD, "--rounds", "5", "--log", fifo, *force)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"error: {fifo} {FIFO_REFUSED} --log)\n"
    assert _listing(tmp_path) == {"history.jsonl": stat.S_IFIFO}


def test_a_fifo_among_a_directorys_outputs_is_refused_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "standard.certificate.pdf")
    result = run_cli("certify", STANDARD, "--out", out, "--force", "--date", "2026-01-01")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"error: {out / 'standard.certificate.pdf'} {FIFO_REFUSED} --out)\n"
    assert _listing(out) == {"standard.certificate.pdf": stat.S_IFIFO}


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_a_directory_at_an_outputs_name_is_said_to_be_one(tmp_path: Path, force: list[str]) -> None:
    taken = tmp_path / "history.jsonl"
    taken.mkdir()
    (taken / "kept").write_text("kept")
    log = run_cli("simulate", STANDARD, "--rounds", "5", "--log", taken, *force)
    assert (log.exit_code, log.stdout, log.stderr) == (1, "", f"error: {taken} is a directory (choose another --log)\n")
    (tmp_path / "comparison.html").mkdir()
    compared = run_cli("compare", STANDARD, "--out", tmp_path, *force)
    assert (compared.exit_code, compared.stdout) == (1, "")
    assert compared.stderr == f"error: {tmp_path / 'comparison.html'} is a directory (choose another --out)\n"
    assert (taken / "kept").read_text() == "kept"
    assert _listing(tmp_path) == {"history.jsonl": stat.S_IFDIR, "comparison.html": stat.S_IFDIR}


def test_the_systems_dev_null_is_refused_with_and_without_force(monkeypatch: pytest.MonkeyPatch) -> None:
    before = os.stat("/dev/null")
    assert stat.S_ISCHR(before.st_mode)

    def never(*args: Any, **_: Any) -> None:
        raise AssertionError(f"trey tried to write an output: {args}")

    # Whatever the code under test does, no file can take /dev/null's place: every call by which trey makes,
    # moves, links or removes a file fails first (the test fails, the system is unharmed).
    for name in ("replace", "rename", "link", "unlink", "remove"):
        monkeypatch.setattr(os, name, never)
    monkeypatch.setattr(tempfile, "mkstemp", never)
    for force in ([], ["--force"]):
        result = run_cli("simulate", STANDARD, "--rounds", "5", "--log", "/dev/null", *force)
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr == (
            "error: /dev/null is a character device, not a regular file "
            "(--force replaces only files and symbolic links: choose another --log)\n"
        )
    after = os.stat("/dev/null")
    assert (stat.S_ISCHR(after.st_mode), after.st_rdev, after.st_ino) == (True, before.st_rdev, before.st_ino)


def test_force_replaces_a_link_to_a_device_never_the_device(tmp_path: Path) -> None:
    link = tmp_path / "history.jsonl"
    link.symlink_to("/dev/null")
    refused = run_cli("simulate", STANDARD, "--rounds", "5", "--log", link)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == f"error: would overwrite {link} (use --force to replace it, or choose another --log)\n"
    assert link.is_symlink()
    result = run_cli("simulate", STANDARD, "--rounds", "5", "--log", link, "--force")
    assert (result.exit_code, result.stderr) == (0, f"wrote {link}\n")
    assert not link.is_symlink() and stat.S_ISREG(link.lstat().st_mode)
    assert link.read_text().splitlines() == list(simulated_log(load_spec(STANDARD), 5, 1))
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_fifo_that_takes_the_name_while_rendering_is_refused_too(tmp_path: Path) -> None:
    """The second check, just before the files are put in place: a FIFO made after the first is not replaced."""
    out = tmp_path / "out"

    def render_then_fifo() -> bytes:
        os.mkfifo(out / "b.txt")
        return b"b"

    out.mkdir()
    with pytest.raises(OutputError) as refused:
        write_all(out, {"a.txt": lambda: b"a", "b.txt": render_then_fifo}, force=True, option="--out")
    assert str(refused.value) == f"{out / 'b.txt'} {FIFO_REFUSED} --out)"
    assert _listing(out) == {"b.txt": stat.S_IFIFO}  # no temporary file, a.txt not placed

    def lines_then_fifo() -> Any:
        yield "one"
        os.mkfifo(out / "log.jsonl")
        yield "two"

    with pytest.raises(OutputError) as again:
        write_lines(out / "log.jsonl", lines_then_fifo(), force=True, option="--log")
    assert str(again.value) == f"{out / 'log.jsonl'} {FIFO_REFUSED} --log)"
    assert _listing(out) == {"b.txt": stat.S_IFIFO, "log.jsonl": stat.S_IFIFO}


def test_log_dash_writes_the_hand_history_and_nothing_else_to_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # where a file named "-" would be written
    streamed = run_cli("simulate", STANDARD, "--rounds", "7", "--seed", "3", "--log", "-")
    assert (streamed.exit_code, streamed.stderr) == (0, "")
    assert streamed.stdout.splitlines() == list(simulated_log(load_spec(STANDARD), 7, 3))
    assert list(tmp_path.iterdir()) == []
    mixed = run_cli("simulate", STANDARD, "--rounds", "7", "--log", "-", "--format", "json")
    assert (mixed.exit_code, mixed.stdout) == (2, "")
    assert mixed.stderr.endswith(
        "Error: Invalid value: --log - writes the hand history to standard output: without --format json\n"
    )


def test_a_reader_that_stops_early_gets_an_error_not_a_traceback() -> None:
    """A closed pipe (``| head``) is met at a write and again by Python's own flush at exit: a subprocess, to see
    both. 2,000 lines are more than a pipe's buffer, so trey is still writing when the pipe closes."""
    trey = [sys.executable, "-c", "from trey.cli import main; main()"]
    command = [*trey, "simulate", str(STANDARD), "--rounds", "2000", "--log", "-"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()
        stderr = process.stderr.read().decode()
        assert process.wait() == 1
    assert first.startswith(b'{"round": "T1-0000001"')
    assert stderr == (
        "error: standard output was closed before the hand history was complete "
        "(read it to its end, or write it to a file)\n"
    )
