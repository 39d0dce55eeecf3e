"""Where independent chunks of work run: in this process, on local worker processes, or on a Dask cluster.

A chunk's result depends only on its arguments (a seeded chunk draws from its own stream), and the caller adds
the results up in an order it chooses, so where and in what order chunks finish changes nothing. Work shared by
every chunk (a settler, a strategy) is given once: to each local process when it starts, to a Dask cluster once
(scattered to every worker), never once per chunk.

``--scheduler tcp://host:8786`` (or ``tls://`` with Dask's TLS configuration) runs on an existing
``dask.distributed`` cluster whose workers have trey installed; ``--scheduler local:K`` starts a ``LocalCluster`` of K
worker processes on this machine for the time of the run. Dask is optional (``pip install 'trey[dask]'``). A worker
lost mid-run has its chunks run again by Dask.

**A cluster is trusted with code and with the figures.** Dask moves work and results by pickle: whoever runs or
reaches the scheduler runs code in this process, and chooses the results it hands back. So a scheduler is one the
user controls; a ``tcp://`` address off this machine gets a warning (:func:`scheduler_warning`), and with
``Where.recheck`` some chunks chosen at random are dealt again here and compared (``trey verify --scheduler``).
What can be narrowed is narrowed: a chunk's result comes back as plain data (:class:`Plain`: lists and numbers,
Dask's msgpack, never its pickle or its class-based serializers, which unpickle the type they name) and is checked
here before it is used; every wait on a cluster has its deadline (:data:`CONNECT_SECONDS`, :data:`RESULT_SECONDS`).
Dask's protocol still unpickles what a scheduler marks as pickled in any message, so this narrows what a cluster
hands back by mistake or by a careless worker, not what a hostile scheduler can do.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from trey.core.errors import TreyError

# One deadline for a scheduler to be usable: the connection, Dask's handshake and its first worker. A scheduler that
# does not answer, a port that is not Dask's and a scheduler without workers are each an error, not a wait.
CONNECT_SECONDS = 5
# The longest wait for the next chunk to come back (or for the shared work to reach the workers): a cluster whose
# workers are gone, stalled or busy with others' work for this long is an error, not a wait for ever.
RESULT_SECONDS = 300
# How results are read from a cluster: msgpack's plain types alone (see the module's docstring).
RESULT_DESERIALIZERS = ("msgpack",)
MAX_LOCAL_WORKERS = 64
LOCAL = re.compile(r"local:([0-9]{1,3})")
ADDRESS = re.compile(
    r"(?P<scheme>[a-z]+)://(?P<host>\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.\-_]{1,253})(?::(?P<port>[^/]*))?"
)
SCHEMES = ("tcp", "tls")
SCHEDULER_HINT = "give tcp://HOST:PORT of a running dask scheduler, or local:K to start K workers here"
TLS_HINT = (
    "set Dask's TLS configuration: distributed.comm.tls.ca-file, and distributed.comm.tls.client.cert and .key "
    "when the scheduler asks for a client certificate (a ~/.config/dask/*.yaml file, or DASK_DISTRIBUTED__COMM__TLS__"
    "CA_FILE and the like)"
)


@dataclass(frozen=True)
class Scheduler:
    """A ``--scheduler`` as read: ``local:K`` (``workers`` = K), or the address of a running scheduler."""

    text: str
    workers: int = 0  # local:K
    scheme: str = ""  # tcp or tls
    host: str = ""
    port: int = 0

    @property
    def local(self) -> bool:
        return self.workers > 0

    @property
    def on_this_machine(self) -> bool:
        """A loopback address (127.0.0.0/8, ::1, localhost) or a cluster trey starts here."""
        import ipaddress

        if self.local or self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host.strip("[]")).is_loopback
        except ValueError:
            return False  # a name: where it leads is the resolver's choice


@dataclass(frozen=True)
class Plain:
    """How a chunk's result travels from a Dask cluster: ``encode(result)`` on the worker gives plain data (dicts,
    lists, numbers: what msgpack carries), ``decode(shared, args, data)`` here gives the result back, or raises
    ValueError for data that is not a result of that chunk (its shape, its types, its bounds)."""

    encode: Callable[[Any], Any]
    decode: Callable[[Any, tuple[Any, ...], Any], Any]


@dataclass(frozen=True)
class Where:
    """``workers`` local processes, or the Dask ``scheduler`` (an address, or ``local:K``) when one is given; with
    ``recheck``, that many of the chunks a scheduler at an address ran, chosen at random, are run again in this
    process and must give the same results."""

    workers: int = 1
    scheduler: str | None = None
    recheck: int = 0

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError("at least one worker is needed")
        if self.recheck < 0:
            raise ValueError("recheck is a number of chunks")
        if self.scheduler is not None:
            parse_scheduler(self.scheduler)

    @property
    def label(self) -> str:
        return f"Dask at {self.scheduler}" if self.scheduler else f"{self.workers} local process(es)"


def parse_scheduler(text: str) -> Scheduler:
    """``local:K`` or ``tcp://HOST:PORT`` / ``tls://HOST:PORT``; a one-line TreyError for anything else."""
    shown = repr(text[:80])
    local = LOCAL.fullmatch(text)
    if local:
        count = int(local.group(1))
        if not 1 <= count <= MAX_LOCAL_WORKERS:
            raise TreyError(f"--scheduler {text}: 1 to {MAX_LOCAL_WORKERS} local workers", hint=SCHEDULER_HINT)
        return Scheduler(text, workers=count)
    found = ADDRESS.fullmatch(text)
    if found is None:
        raise TreyError(f"--scheduler {shown} is not a Dask scheduler's address", hint=SCHEDULER_HINT)
    scheme, port = found.group("scheme"), found.group("port")
    if scheme == "inproc":
        raise TreyError(
            f"--scheduler {shown}: an inproc:// scheduler lives inside one Python process, out of trey's reach",
            hint=SCHEDULER_HINT,
        )
    if scheme not in SCHEMES:
        raise TreyError(f"--scheduler {shown}: trey reaches a scheduler by tcp:// or tls://", hint=SCHEDULER_HINT)
    if port is None or not port.isdigit() or not 1 <= int(port) <= 65535 or len(port) > 5:
        said = "no port" if port is None else f"the port {port[:20]!r}"
        raise TreyError(f"--scheduler {shown} has {said}: a port is 1 to 65535", hint=SCHEDULER_HINT)
    return Scheduler(text, scheme=scheme, host=found.group("host"), port=int(port))


def scheduler_warning(text: str) -> str | None:
    """What to tell the user of a scheduler before using it: a ``tcp://`` address off this machine is reached
    unencrypted, and any scheduler runs code here and chooses the figures (see the module's docstring)."""
    scheduler = parse_scheduler(text)
    if scheduler.scheme != "tcp" or scheduler.on_this_machine:
        return None
    return (
        f"--scheduler {text} is not on this machine and tcp:// is not encrypted: whoever runs or reaches that "
        "scheduler runs code in trey and chooses the figures it gets back; use a cluster you control (tls:// "
        "with Dask's TLS configuration across a network)"
    )


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


def _on_worker(function: Callable[..., Any], encode: Callable[[Any], Any], shared: Any, *args: Any) -> Any:
    tune_allocator()
    return encode(function(shared, *args))


def _call_in_process(function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    return function(_shared, *args)


def run_chunks(
    function: Callable[..., Any],
    shared: Any,
    chunks: Sequence[tuple[Any, ...]],
    where: Where,
    plain: Plain,
    same: Callable[[Any, Any], bool] | None = None,
    does: str = "deals",
) -> Iterator[tuple[int, Any]]:
    """``function(shared, *chunks[i])`` for every i, yielded as ``(i, result)`` as each finishes, in any order.

    On a Dask cluster each result travels as ``plain`` data and is decoded (and so checked) here. With
    ``where.recheck`` and a scheduler at an address, ``same(here, there)`` compares the chunks run again here with
    the cluster's results: a TreyError, before the chunk is yielded, when they differ (saying what this machine
    ``does`` for the chunk: deals, audits)."""
    if where.scheduler is not None:
        yield from _on_dask(function, shared, chunks, where, plain, same, does)
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


def rechecked(count: int, recheck: int) -> int:
    """How many of ``count`` chunks a recheck of ``recheck`` runs again here."""
    return min(count, recheck)


def _on_dask(
    function: Callable[..., Any],
    shared: Any,
    chunks: Sequence[tuple[Any, ...]],
    where: Where,
    plain: Plain,
    same: Callable[[Any, Any], bool] | None,
    does: str = "deals",
) -> Iterator[tuple[int, Any]]:
    assert where.scheduler is not None
    distributed = _dask()
    scheduler = parse_scheduler(where.scheduler)
    chosen: set[int] = set()
    with ExitStack() as stack:
        stack.enter_context(_quiet_protocol())
        if scheduler.local:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=usable_workers(scheduler.workers),  # held to the CPUs, as --workers is
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: two runs on one machine do not collide
                    silence_logs=logging.ERROR,
                )
            )
            client = stack.enter_context(distributed.Client(cluster, deserializers=list(RESULT_DESERIALIZERS)))
        else:
            client = stack.enter_context(connect(scheduler))
            if where.recheck:
                if same is None:
                    raise ValueError("a recheck compares results: give same")
                pick = secrets.SystemRandom().sample  # the chunks are the verifier's choice, never predictable
                chosen = set(pick(range(len(chunks)), rechecked(len(chunks), where.recheck)))
        for index, result in dask_chunks(client, function, shared, chunks, plain, scheduler.text):
            if index in chosen:
                assert same is not None
                if not same(function(shared, *chunks[index]), result):
                    raise TreyError(
                        f"the Dask cluster at {scheduler.text} gave other results for chunk {index} than this "
                        f"machine {does} for it: the cluster's figures are refused",
                        hint="the cluster is trusted with the figures: use a cluster you control, or run here "
                        "without --scheduler",
                    )
            yield index, result


def connect(scheduler: Scheduler) -> Any:
    """A Dask ``Client`` of the scheduler at ``scheduler``'s address, with a worker, within one deadline
    (:data:`CONNECT_SECONDS`) for the connection, Dask's handshake and the first worker; a one-line TreyError for
    each way that fails. Dask's own connect waits for ever for a handshake that a listener which is not Dask never
    sends, so the connection and the handshake are tried first, under the deadline, on a connection of their own."""
    import asyncio

    distributed = _dask()
    deadline = CONNECT_SECONDS
    security = _security(scheduler)
    address = scheduler.text
    within = f"within {deadline:g} s"
    start = time.monotonic()

    def left() -> float:
        return max(0.1, deadline - (time.monotonic() - start))

    try:
        asyncio.run(asyncio.wait_for(_reach(scheduler), deadline))
    except (OSError, TimeoutError) as exc:
        raise TreyError(
            f"cannot reach the Dask scheduler at {address} {within} ({_reason(exc)})", hint=SCHEDULER_HINT
        ) from None
    try:
        kind = asyncio.run(asyncio.wait_for(_handshake(address, security, left()), left()))
    except (OSError, TimeoutError) as exc:
        import ssl

        cause = exc if isinstance(exc, ssl.SSLError) else exc.__cause__
        if isinstance(cause, ssl.SSLError):
            said = str(cause.reason or type(cause).__name__).lower().replace("_", " ")
            raise TreyError(f"the TLS handshake with {address} failed ({said[:80]})", hint=TLS_HINT) from None
        raise TreyError(
            f"{address} accepts connections but does not answer as a Dask scheduler {within}", hint=SCHEDULER_HINT
        ) from None
    if kind != "Scheduler":
        raise TreyError(f"{address} answers as a Dask {kind[:40]!r}, not as a scheduler", hint=SCHEDULER_HINT)
    try:
        client = distributed.Client(
            address, security=security, timeout=f"{left()}s", deserializers=list(RESULT_DESERIALIZERS)
        )
    except (OSError, TimeoutError) as exc:
        raise TreyError(
            f"cannot reach the Dask scheduler at {address} {within} ({_reason(exc)})", hint=SCHEDULER_HINT
        ) from None
    try:
        client.wait_for_workers(1, timeout=left())
    except (OSError, TimeoutError):
        client.close()
        raise TreyError(
            f"the Dask scheduler at {address} has no worker: none joined {within}",
            hint=f"start workers (dask worker {address}), or give local:K to start K workers here",
        ) from None
    return client


async def _reach(scheduler: Scheduler) -> None:
    """A TCP connection to the scheduler's host and port (for tls:// too: TLS runs on TCP), closed at once."""
    import asyncio

    _, writer = await asyncio.open_connection(scheduler.host.strip("[]"), scheduler.port)
    writer.close()


async def _handshake(address: str, security: Any, seconds: float) -> str:
    """Dask's handshake and an identity request on a connection of their own: the kind of server (``Scheduler``)."""
    import ssl

    comm = None
    try:
        comm = await _dask().comm.connect(address, timeout=seconds, **security.get_connection_args("client"))
        await comm.write({"op": "identity", "reply": True})
        reply = await comm.read()
    except Exception as exc:  # bytes that are not Dask's frames can fail anywhere in its reader (MemoryError too)
        if isinstance(exc, ssl.SSLError) or isinstance(exc.__cause__, ssl.SSLError):
            raise
        raise OSError("not Dask's answer") from None
    finally:
        if comm is not None:
            comm.abort()
    kind = reply.get("type") if isinstance(reply, dict) else None
    return kind if isinstance(kind, str) else "server of another kind"


def _reason(exc: BaseException) -> str:
    """Why a connection failed, in a few words: "Connection refused", "no answer"."""
    if isinstance(exc, TimeoutError):
        return "no answer"
    errno = getattr(exc, "errno", None)
    if isinstance(errno, int) and errno > 0:
        return os.strerror(errno)
    return str(getattr(exc, "reason", "") or type(exc).__name__)[:80]


def _security(scheduler: Scheduler) -> Any:
    """Dask's security configuration for a ``tls://`` scheduler (read from Dask's configuration: files or
    ``DASK_...`` variables); refused in one line when it names no CA to check the scheduler against."""
    security: Any = _dask().Security()
    if scheduler.scheme == "tls" and not security.tls_ca_file:
        raise TreyError(f"--scheduler {scheduler.text}: Dask's TLS configuration names no CA", hint=TLS_HINT)
    return security


CANCELLED = ("CancelledError", "FutureCancelledError")  # a chunk's future cancelled by the scheduler
MAX_RESUBMITTED = 4  # chunks submitted again in one run, at most (a cluster cannot keep a run going for ever)


def dask_chunks(
    client: Any,
    function: Callable[..., Any],
    shared: Any,
    chunks: Sequence[tuple[Any, ...]],
    plain: Plain,
    address: str,
) -> Iterator[tuple[int, Any]]:
    """The chunks as futures of a connected Dask ``client``, yielded as they finish, each decoded from its plain
    data; a one-line TreyError when the shared work does not reach the workers, or no chunk comes back, within
    :data:`RESULT_SECONDS`, and when what comes back is not a chunk's result."""
    import queue

    within = f"within {RESULT_SECONDS:g} s"
    hint = "its workers are gone, stalled or busy: check them, or run here without --scheduler"
    try:
        [handle] = client.scatter([shared], broadcast=True, hash=False, timeout=RESULT_SECONDS)
    except (OSError, TimeoutError):
        raise TreyError(f"the Dask cluster at {address} did not take the shared work {within}", hint=hint) from None
    run = uuid.uuid4().hex  # keys of this run's chunks, apart from any other run on the cluster
    done: queue.SimpleQueue[Any] = queue.SimpleQueue()
    futures = {}

    def submit(i: int, key: str) -> None:
        future = client.submit(_on_worker, function, plain.encode, handle, *chunks[i], pure=False, key=key)
        futures[future.key] = i
        future.add_done_callback(done.put)

    for i in range(len(chunks)):
        submit(i, f"trey-{run}-chunk-{i}")
    resubmitted = 0
    waiting = len(chunks)
    while waiting:
        try:
            future = done.get(timeout=RESULT_SECONDS)
        except queue.Empty:
            raise TreyError(f"no chunk came back from the Dask cluster at {address} {within}", hint=hint) from None
        index = futures[future.key]
        try:
            data = future.result(timeout=RESULT_SECONDS)
        except TimeoutError:
            raise TreyError(
                f"chunk {index} did not come back from the Dask cluster at {address} {within}", hint=hint
            ) from None
        except TypeError:  # Dask's refusal of a result serialized otherwise than as plain data
            raise _refused_result(index, address) from None
        except Exception as exc:  # what a worker raised (KilledWorker, a bug), or a hostile cluster chose
            # A worker lost with the shared work can leave a chunk cancelled ("already forgotten"): the shared work
            # is sent again and the chunk submitted again, a bounded number of times a run.
            if type(exc).__name__ in CANCELLED and resubmitted < MAX_RESUBMITTED:
                resubmitted += 1
                try:
                    [handle] = client.scatter([shared], broadcast=True, hash=False, timeout=RESULT_SECONDS)
                except (OSError, TimeoutError):
                    raise TreyError(f"the Dask cluster at {address} lost the shared work", hint=hint) from None
                submit(index, f"trey-{run}-chunk-{index}-again-{resubmitted}")
                continue
            said = f"{type(exc).__name__}: {exc}"[:120]
            raise TreyError(f"chunk {index} failed on the Dask cluster at {address} ({said})", hint=hint) from None
        try:
            result = plain.decode(shared, tuple(chunks[index]), data)
        except (ValueError, TypeError, KeyError, IndexError):
            raise _refused_result(index, address) from None
        waiting -= 1
        yield index, result


def _refused_result(index: int, address: str) -> TreyError:
    return TreyError(
        f"the Dask cluster at {address} handed back for chunk {index} what is not a chunk's result: refused",
        hint="the cluster is trusted with the figures: use a cluster you control, with the same trey installed",
    )


@contextlib.contextmanager
def _quiet_protocol() -> Iterator[None]:
    """Dask logs a result it refuses to deserialize with a traceback; trey says it once, in its own words."""
    logger = logging.getLogger("distributed.protocol.core")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)
