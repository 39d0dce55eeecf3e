"""Work done by a second process while this one goes on: the machine's other core.

Certifying draws its charts with matplotlib: a third of a second to import it, a sixth to draw. Meanwhile this
process computes the figures and imports the PDF engine (another third of a second). So a child is forked as soon
as the paytable is read; it prepares (imports matplotlib) while the figures are computed here, receives the charts'
inputs through a pipe, draws, and sends the result back through another. Inputs and result are pickled; they are
data (numbers and strings) exchanged with our own child, never read from anywhere else.

The result never depends on the child: when it fails in any way (an exception, a signal, no result within a
minute), it is stopped and the work is done again here, so that a bug surfaces as its own exception with its own
traceback. Where fork is not the safe default (every platform but Linux), the work is simply done here when its
result is asked for; so it is when no process can be forked.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, BinaryIO, Generic, TypeVar

In = TypeVar("In")
Out = TypeVar("Out")

FORKS = sys.platform.startswith("linux")
DEADLINE_SECONDS = 60.0  # from the inputs sent to the result: the certificate's charts take half a second


class Pending(Generic[In, Out]):
    """Work started by :func:`in_background`: :meth:`send` its inputs, then ask for its :meth:`result`."""

    def __init__(self, work: Callable[[In], Out], prepare: Callable[[], object]) -> None:
        self._work = work
        self._inputs: In | None = None
        self._child: int | None = None
        self._to_child: int | None = None
        self._from_child: int | None = None
        if FORKS:
            self._start(prepare)

    def _start(self, prepare: Callable[[], object]) -> None:
        inputs_read, inputs_write = os.pipe()
        result_read, result_write = os.pipe()
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns about forking a process with threads (NumPy's BLAS starts one); the child
                # only draws with matplotlib and exits, and whatever it does, its result is recomputed if it fails.
                warnings.simplefilter("ignore", DeprecationWarning)
                child = os.fork()
        except OSError:  # no process to be had (a limit on processes): the work will be done here
            for end in (inputs_read, inputs_write, result_read, result_write):
                os.close(end)
            return
        if child == 0:
            os.close(inputs_write)
            os.close(result_read)
            self._run_child(prepare, inputs_read, result_write)
        os.close(inputs_read)
        os.close(result_write)
        self._child, self._to_child, self._from_child = child, inputs_write, result_read

    def _run_child(self, prepare: Callable[[], object], inputs_read: int, result_write: int) -> None:
        """In the child: prepare, wait for the inputs, do the work, write the pickled result, and leave without
        running anything of the parent's (no atexit handlers, no buffered output flushed twice)."""
        status = 1
        try:
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                signal.signal(sig, signal.SIG_DFL)  # the parent alone reacts to Ctrl-C and termination
            prepare()
            with os.fdopen(inputs_read, "rb") as pipe:
                inputs = _receive(pipe)
            with os.fdopen(result_write, "wb") as pipe:
                _send(pipe, self._work(inputs))
            status = 0
        finally:
            os._exit(status)

    def send(self, inputs: In) -> None:
        """Give the work its inputs (once)."""
        self._inputs = inputs
        if self._to_child is not None:
            with os.fdopen(self._to_child, "wb") as pipe:
                self._to_child = None
                with suppress(BrokenPipeError):  # the child died: result() does the work here
                    _send(pipe, inputs)

    def result(self) -> Out:
        """Wait for the child's result; do the work here if there is no child or it failed."""
        if self._inputs is None:
            raise RuntimeError("send the inputs before asking for the result")
        received = self._collect()
        return received[0] if received is not None else self._work(self._inputs)

    def _collect(self) -> tuple[Out] | None:
        """The child's result, or None when there is no child or it failed; the child is reaped either way."""
        if self._child is None or self._from_child is None:
            return None
        readable, _, _ = select.select([self._from_child], [], [], DEADLINE_SECONDS)
        if not readable:  # a child that hangs (a lock held by another thread when it was forked) is stopped
            self.abandon()
            return None
        with os.fdopen(self._from_child, "rb") as pipe:
            self._from_child = None
            received: tuple[Out] | None
            try:
                received = (_receive(pipe),)
            except (EOFError, pickle.UnpicklingError):
                received = None  # the child failed before it wrote: its status says so too
        _, status = os.waitpid(self._child, 0)
        self._child = None
        return received if status == 0 else None

    def abandon(self) -> None:
        """Stop the child if it still runs and reap it (no zombie is left behind)."""
        for end in (self._to_child, self._from_child):
            if end is not None:
                os.close(end)
        self._to_child = self._from_child = None
        if self._child is not None:
            with suppress(ProcessLookupError):
                os.kill(self._child, signal.SIGKILL)
            os.waitpid(self._child, 0)
            self._child = None


# Each message is its length (8 bytes) then its pickle: the reader needs no end of file, which a process forked
# meanwhile (a simulation's workers) could delay by holding a copy of the pipe.
def _send(pipe: BinaryIO, value: object) -> None:
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(len(payload).to_bytes(8, "big") + payload)


def _receive(pipe: BinaryIO) -> Any:
    """A message from our own parent or child (never from anyone else: the pipe is private to the two)."""
    size = int.from_bytes(_exactly(pipe, 8), "big")
    return pickle.loads(_exactly(pipe, size))


def _exactly(pipe: BinaryIO, size: int) -> bytes:
    data = pipe.read(size)
    if len(data) != size:
        raise EOFError("the other process closed the pipe early")
    return data


@contextmanager
def in_background(work: Callable[[In], Out], *, prepare: Callable[[], object]) -> Iterator[Pending[In, Out]]:
    """Fork a child that runs ``prepare()`` at once, then ``work(inputs)`` when :meth:`Pending.send` gives it
    the inputs; :meth:`Pending.result` waits for it. Leaving the block without the result (an error meanwhile)
    stops the child."""
    pending: Pending[In, Out] = Pending(work, prepare)
    try:
        yield pending
    finally:
        pending.abandon()
