"""Where independent chunks of work run: in this process, on local worker processes, or on a Dask cluster.

A chunk's result depends only on its arguments (a seeded chunk draws from its own stream), and the caller adds
the results up in an order it chooses, so where and in what order chunks finish changes nothing. Work shared by
every chunk (a settler, a strategy) is given once: to each local process when it starts, to a Dask cluster once
(scattered to every worker), never once per chunk.

``--scheduler tcp://host:8786`` runs on an existing ``dask.distributed`` cluster whose workers have trey installed;
``--scheduler local:K`` starts a ``LocalCluster`` of K worker processes on this machine for the time of the run.
Dask is optional (``pip install 'trey[dask]'``). A worker lost mid-run has its chunks run again by Dask.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from trey.core.errors import TreyError

CONNECT_SECONDS = 5  # a scheduler that does not answer within this is an error, not a wait
MAX_LOCAL_WORKERS = 64
LOCAL = re.compile(r"local:([0-9]{1,3})")
ADDRESS = re.compile(r"(tcp|tls|ws|wss|inproc)://[A-Za-z0-9.\-\[\]:_]{1,200}")
SCHEDULER_HINT = "give tcp://HOST:PORT of a running dask scheduler, or local:K to start K workers here"


@dataclass(frozen=True)
class Where:
    """``workers`` local processes, or the Dask ``scheduler`` (an address, or ``local:K``) when one is given."""

    workers: int = 1
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError("at least one worker is needed")
        if self.scheduler is not None:
            parse_scheduler(self.scheduler)

    @property
    def label(self) -> str:
        return f"Dask at {self.scheduler}" if self.scheduler else f"{self.workers} local process(es)"


def parse_scheduler(text: str) -> tuple[str, int]:
    """("local", K) or ("address", 0); a TreyError for anything else."""
    local = LOCAL.fullmatch(text)
    if local:
        count = int(local.group(1))
        if not 1 <= count <= MAX_LOCAL_WORKERS:
            raise TreyError(f"--scheduler {text}: 1 to {MAX_LOCAL_WORKERS} local workers", hint=SCHEDULER_HINT)
        return "local", count
    if ADDRESS.fullmatch(text):
        return "address", 0
    raise TreyError(f"--scheduler {text[:80]!r} is not a Dask scheduler's address", hint=SCHEDULER_HINT)


def usable_workers(requested: int) -> int:
    """No more local processes than the machine has CPUs: more would only compete for them."""
    return max(1, min(requested, os.cpu_count() or 1))


# The shared work of a local worker process: set once when the process starts.
_shared: Any = None
_allocator_tuned = False
HEAP_BYTES = 1 << 28  # allocations below this come from the heap and stay there between chunks


def tune_allocator() -> None:
    """In a worker process: let glibc keep a chunk's large arrays on the heap for the next chunk, instead of mapping
    and faulting in fresh pages for each. Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also
    turns off glibc's adaptive mmap threshold: a chunk of simulation took 45% longer there (0.29 s against 0.20 s),
    and 0.18 s with this. Only speed changes; elsewhere than glibc it does nothing."""
    global _allocator_tuned
    if _allocator_tuned:
        return
    _allocator_tuned = True
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if not name or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt(-3, HEAP_BYTES)  # M_MMAP_THRESHOLD
        libc.mallopt(-1, 2 * HEAP_BYTES)  # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        return


def _start_process(shared: Any) -> None:
    global _shared
    _shared = shared
    tune_allocator()


def _on_worker(function: Callable[..., Any], shared: Any, *args: Any) -> Any:
    tune_allocator()
    return function(shared, *args)


def _call_in_process(function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    return function(_shared, *args)


def run_chunks(
    function: Callable[..., Any],
    shared: Any,
    chunks: Sequence[tuple[Any, ...]],
    where: Where,
) -> Iterator[tuple[int, Any]]:
    """``function(shared, *chunks[i])`` for every i, yielded as ``(i, result)`` as each finishes, in any order."""
    if where.scheduler is not None:
        yield from _on_dask(function, shared, chunks, where.scheduler)
        return
    workers = usable_workers(where.workers)
    if workers == 1 or len(chunks) == 1:
        for index, args in enumerate(chunks):
            yield index, function(shared, *args)
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=_start_process, initargs=(shared,)) as pool:
        futures = {pool.submit(_call_in_process, function, args): i for i, args in enumerate(chunks)}
        for future in as_completed(futures):
            yield futures[future], future.result()


def _dask() -> Any:
    try:
        import dask.distributed
    except ImportError:
        raise TreyError("--scheduler runs on Dask, which is not installed", hint="pip install 'trey[dask]'") from None
    return dask.distributed


def _on_dask(
    function: Callable[..., Any], shared: Any, chunks: Sequence[tuple[Any, ...]], scheduler: str
) -> Iterator[tuple[int, Any]]:
    distributed = _dask()
    kind, count = parse_scheduler(scheduler)
    with ExitStack() as stack:
        if kind == "local":
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=count,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: two runs on one machine do not collide
                    silence_logs=logging.ERROR,
                )
            )
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(distributed.Client(scheduler, timeout=f"{CONNECT_SECONDS}s"))
            except (OSError, TimeoutError) as exc:
                raise TreyError(
                    f"cannot reach the Dask scheduler at {scheduler} within {CONNECT_SECONDS} s ({type(exc).__name__})",
                    hint=SCHEDULER_HINT,
                ) from None
        yield from dask_chunks(client, function, shared, chunks)


def dask_chunks(
    client: Any, function: Callable[..., Any], shared: Any, chunks: Sequence[tuple[Any, ...]]
) -> Iterator[tuple[int, Any]]:
    """The chunks as futures of a connected Dask ``client``, yielded as they finish."""
    distributed = _dask()
    [handle] = client.scatter([shared], broadcast=True, hash=False)
    run = uuid.uuid4().hex  # keys of this run's chunks, apart from any other run on the cluster
    futures = {
        client.submit(_on_worker, function, handle, *args, pure=False, key=f"trey-{run}-chunk-{i}"): i
        for i, args in enumerate(chunks)
    }
    for future in distributed.as_completed(futures):
        yield futures[future], future.result()
