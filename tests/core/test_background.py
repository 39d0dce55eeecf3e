"""Work done by a forked child: its result, and the same result when the child fails or cannot be forked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from trey.core import background
from trey.core.background import in_background

PARENT = os.getpid()
prepared_in: list[int] = []  # set by prepare(), in whichever process runs it


def prepare() -> None:
    prepared_in.append(os.getpid())


def where(inputs: str) -> tuple[str, int, list[int]]:
    """The inputs back, with the process that did the work and the processes that prepared it."""
    return inputs.upper(), os.getpid(), list(prepared_in)


def fails_in_a_child(inputs: str) -> tuple[str, int]:
    if os.getpid() != PARENT:
        raise RuntimeError("a bug that only shows in the child")
    return inputs, os.getpid()


def dies_in_a_child(inputs: str) -> tuple[str, int]:
    if os.getpid() != PARENT:
        os.kill(os.getpid(), signal.SIGKILL)
    return inputs, os.getpid()


@pytest.fixture(autouse=True)
def _fresh() -> None:
    prepared_in.clear()


@pytest.mark.skipif(not background.FORKS, reason="the child is forked on Linux only")
def test_the_child_prepares_then_works_on_the_inputs_it_is_sent() -> None:
    with in_background(where, prepare=prepare) as pending:
        pending.send("charts")
        text, worker, prepared = pending.result()
    assert text == "CHARTS"
    assert worker != PARENT
    assert prepared == [worker]  # prepared in the child, before the work
    assert prepared_in == []  # nothing ran here


def test_without_fork_the_work_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "FORKS", False)
    with in_background(where, prepare=prepare) as pending:
        pending.send("charts")
        assert pending.result() == ("CHARTS", PARENT, [])


def test_when_no_process_can_be_forked_the_work_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    with in_background(where, prepare=prepare) as pending:
        pending.send("charts")
        assert pending.result() == ("CHARTS", PARENT, [])


def hangs_in_a_child(inputs: str) -> tuple[str, int]:
    if os.getpid() != PARENT:
        signal.pause()  # until killed
    return inputs, os.getpid()


@pytest.mark.parametrize("work", [fails_in_a_child, dies_in_a_child, hangs_in_a_child])
def test_a_failed_child_leaves_the_work_to_this_process(work: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "DEADLINE_SECONDS", 0.5)
    with in_background(work, prepare=prepare) as pending:  # type: ignore[arg-type]
        pending.send("charts")
        assert pending.result() == ("charts", PARENT)


def test_the_inputs_come_before_the_result() -> None:
    with in_background(where, prepare=prepare) as pending, pytest.raises(RuntimeError, match="send the inputs"):
        pending.result()


@pytest.mark.skipif(not background.FORKS, reason="the child is forked on Linux only")
def test_leaving_early_stops_and_reaps_the_child() -> None:
    with pytest.raises(KeyError), in_background(where, prepare=prepare) as pending:
        child = pending._child
        assert child is not None
        raise KeyError("an error before the result")
    with pytest.raises(ChildProcessError):  # already reaped: no zombie left behind
        os.waitpid(child, os.WNOHANG)


def test_weasyprint_is_imported_with_the_library_lookup_restored() -> None:
    """load_weasyprint skips ctypes' library search while WeasyPrint loads Pango, and puts it back (in a fresh
    interpreter, since this one may have imported WeasyPrint already)."""
    script = (
        "import ctypes.util\n"
        "look_up = ctypes.util.find_library\n"
        "from trey.documents.pdf import load_weasyprint\n"
        "load_weasyprint()\n"
        "assert ctypes.util.find_library is look_up\n"
        "from weasyprint.text.ffi import pango\n"
        "print('pango', pango.pango_version() > 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout, result.stderr) == (0, "pango True\n", "")
