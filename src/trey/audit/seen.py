"""Round ids met so far, to find a round logged twice and the line that logged it first: 16 bytes a round, however
long the ids, in memory up to 32 MB and beyond that in a temporary file.

Each id is kept as a 64-bit SipHash-2-4 digest under a key drawn afresh for each audit (:func:`digests`), beside
where it was first met (:data:`Wheres`: the log's number and the line), in sorted arrays of doubling sizes (a new
batch's digests are one more array; two arrays of about the same size are merged), so a batch is looked up with a
binary search in each of at most log2(rounds) arrays and adding costs O(log n) copies per digest over the whole log.

Why keyed: an unkeyed digest can be inverted, so a forger can write two different ids that share it and have the
second taken for the first (issue 29 found such a pair in a second). SipHash is a pseudo-random function of its
key: without the key, which never leaves the process, two ids share a digest only by chance, about n^2 / 2^65 (3 in
a million for 10 million rounds), whatever the log's author chose. Such a chance hit is reported as logged twice;
its round is settled and checked all the same, so it hides nothing.
"""

from __future__ import annotations

import secrets
import signal
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from trey.core.outputs import Interrupted

Digests = npt.NDArray[np.uint64]
Wheres = npt.NDArray[np.uint64]  # (log number << 32) | line: where an id was first met
NEW = np.uint64(0xFFFF_FFFF_FFFF_FFFF)  # an id met for the first time (no log has that many lines)
KEY_BYTES = 16

_U = np.uint64
_INIT = (_U(0x736F6D6570736575), _U(0x646F72616E646F6D), _U(0x6C7967656E657261), _U(0x7465646279746573))
_SHIFTS = {r: (_U(r), _U(64 - r)) for r in (13, 16, 17, 21, 32)}


def _rotate(v: Digests, bits: int, spare: Digests) -> None:
    left, right = _SHIFTS[bits]
    np.right_shift(v, right, out=spare)
    np.left_shift(v, left, out=v)
    np.bitwise_or(v, spare, out=v)


def _sip_round(v0: Digests, v1: Digests, v2: Digests, v3: Digests, spare: Digests) -> None:
    v0 += v1
    v2 += v3
    _rotate(v1, 13, spare)
    _rotate(v3, 16, spare)
    v1 ^= v0
    v3 ^= v2
    _rotate(v0, 32, spare)
    v2 += v1
    v0 += v3
    _rotate(v1, 17, spare)
    _rotate(v3, 21, spare)
    v1 ^= v2
    v3 ^= v0
    _rotate(v2, 32, spare)


def _siphash(words: Digests, key: bytes) -> Digests:
    """SipHash-2-4 (Aumasson and Bernstein, 2012) of each row of ``words``: a message's 8-byte little-endian words,
    its last word holding the message's tail and its length in the top byte. In place on arrays: one pass a word."""
    k0, k1 = (_U(int.from_bytes(key[i : i + 8], "little")) for i in (0, 8))
    n = len(words)
    v0, v1, v2, v3 = (np.full(n, k ^ c, dtype=np.uint64) for k, c in zip((k0, k1, k0, k1), _INIT, strict=True))
    spare = np.empty(n, dtype=np.uint64)
    for column in range(words.shape[1]):
        m = np.ascontiguousarray(words[:, column])
        v3 ^= m
        _sip_round(v0, v1, v2, v3, spare)
        _sip_round(v0, v1, v2, v3, spare)
        v0 ^= m
    v2 ^= _U(0xFF)
    for _ in range(4):
        _sip_round(v0, v1, v2, v3, spare)
    return v0 ^ v1 ^ v2 ^ v3


def new_key() -> bytes:
    """A key for one audit's digests, from the operating system's random source."""
    return secrets.token_bytes(KEY_BYTES)


def digests(ids: pa.Array, key: bytes) -> Digests:
    """The SipHash-2-4 of each id's UTF-8 bytes under ``key`` (16 bytes), computed over all of them at once."""
    if len(key) != KEY_BYTES:
        raise ValueError(f"a digest key has {KEY_BYTES} bytes")
    ids = ids.cast(pa.large_binary())
    n = len(ids)
    if not n:
        return np.zeros(0, dtype=np.uint64)
    offsets = np.frombuffer(ids.buffers()[1], dtype=np.int64)[ids.offset : ids.offset + n + 1]
    data = ids.buffers()[2]
    raw = np.frombuffer(data, dtype=np.uint8) if data is not None and data.size else np.zeros(1, dtype=np.uint8)
    lengths = np.diff(offsets)
    count = lengths // 8 + 1  # words of each message: its whole words, then its tail with its length
    width = 8 * int(count.max())
    if (lengths == lengths[0]).all():  # one length (the usual log): the bytes as they lie, no gather
        length = int(lengths[0])
        padded = np.zeros((n, width), dtype=np.uint8)
        padded[:, :length] = raw[offsets[0] : offsets[0] + n * length].reshape(n, length)
    else:
        place = np.arange(width)
        gathered = raw[np.minimum(offsets[:-1, None] + place, len(raw) - 1)]
        padded = np.where(place < lengths[:, None], gathered, 0).astype(np.uint8)
    words = padded.view("<u8").astype(np.uint64)  # (n, width / 8), little-endian as SipHash reads them
    rows = np.arange(n)
    words[rows, count - 1] |= (lengths.astype(np.uint64) & _U(0xFF)) << _U(56)
    result = np.empty(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        sizes = np.unique(count)
        for size in sizes.tolist():  # rows of one word count hashed together (usually all of them)
            picked = rows if len(sizes) == 1 else np.flatnonzero(count == size)
            result[picked] = _siphash(words[picked, :size], key)
    return result


IN_MEMORY = 1 << 21  # ids kept in memory (32 MB of digests and wheres); beyond, sorted runs go to a temporary file


def _merged(*sorted_pairs: tuple[Digests, Wheres]) -> tuple[Digests, Wheres]:
    """Sorted arrays of digests without one in common, with their wheres, as one sorted pair. A stable sort of their
    concatenation is a merge of its sorted runs (numpy's timsort finds them): linear, not n log n."""
    together = np.concatenate([d for d, _ in sorted_pairs])
    order = np.argsort(together, kind="stable")
    return together[order], np.concatenate([w for _, w in sorted_pairs])[order]


_SIGNALS = (signal.SIGTERM, signal.SIGHUP)  # Ctrl-C raises KeyboardInterrupt by itself


def _interrupted(signum: int, _: FrameType | None) -> None:
    raise Interrupted(signum)


class SeenIds:
    """The digests met and where each was first met, in memory up to :data:`IN_MEMORY` of them, then in sorted runs
    written to a temporary folder (removed by :meth:`close`) and searched through memory maps: the process's own
    memory stays bounded however long the log, the runs living in the file system's cache. ``key``: the digests'
    (by default drawn afresh: a forger cannot know it).

    Used as a context (in the main thread), SIGTERM and SIGHUP raise :class:`~trey.core.outputs.Interrupted` while
    it is open, as Ctrl-C raises KeyboardInterrupt, so that the folder is removed whichever ends the audit."""

    def __init__(self, key: bytes | None = None) -> None:
        self.key = new_key() if key is None else key
        self.logs: list[str] = []  # the logs' names, by number
        self.levels: list[tuple[Digests, Wheres]] = []  # sorted, without repeats, largest first
        self.runs: list[tuple[Digests, Wheres]] = []  # sorted, written out, each of about IN_MEMORY digests
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._handlers: dict[int, Any] = {}

    def __enter__(self) -> SeenIds:
        if threading.current_thread() is threading.main_thread():
            self._handlers = {sig: signal.signal(sig, _interrupted) for sig in _SIGNALS}
        return self

    def __exit__(self, *_: object) -> None:
        try:
            self.close()
        finally:
            for sig, handler in self._handlers.items():
                signal.signal(sig, signal.SIG_DFL if handler is None else handler)
            self._handlers = {}

    def close(self) -> None:
        self.runs.clear()  # the memory maps, before their files go
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def __len__(self) -> int:
        return sum(len(level) for level, _ in self.levels) + sum(len(run) for run, _ in self.runs)

    def log(self, name: str) -> int:
        """The number of a log read next (its ids' wheres hold it)."""
        self.logs.append(name)
        return len(self.logs) - 1

    def where(self, where: int) -> tuple[str, int]:
        """A where as the log's name and the line."""
        return self.logs[where >> 32], where & 0xFFFF_FFFF

    def digests(self, ids: pa.Array) -> Digests:
        return digests(ids, self.key)

    def earlier(self, batch: Digests, wheres: Wheres) -> Wheres:
        """Per digest of a batch (in the order of its lines, each met at ``wheres``): where it was first met — in an
        earlier batch, or earlier in this one — or :data:`NEW` the first time. Remembers the new ones."""
        n = len(batch)
        if not n:
            return np.zeros(0, dtype=np.uint64)
        order = np.argsort(batch, kind="stable")  # equal digests keep the order of their lines
        ranked, ranked_where = batch[order], wheres[order]
        first = np.full(n, NEW, dtype=np.uint64)  # in ranked order
        again = np.zeros(n, dtype=bool)
        again[1:] = ranked[1:] == ranked[:-1]
        if again.any():  # a repeat within the batch: first met where its run of equal digests starts
            run = np.cumsum(~again) - 1
            first[again] = ranked_where[np.flatnonzero(~again)][run[again]]
        for level, level_where in (*self.levels, *self.runs):
            at = np.minimum(np.searchsorted(level, ranked), len(level) - 1)  # sorted keys: the maps are read in order
            hit = np.flatnonzero(level[at] == ranked)
            if len(hit):  # met in an earlier batch: that is where it was first met
                first[hit] = level_where[at[hit]]
        fresh = first == NEW
        if fresh.any():
            self._remember(ranked[fresh], ranked_where[fresh])  # sorted, without repeats
        found = np.empty(n, dtype=np.uint64)
        found[order] = first
        return found

    def _remember(self, fresh: Digests, where: Wheres) -> None:
        self.levels.append((fresh, where))
        while len(self.levels) > 1 and len(self.levels[-2][0]) <= 2 * len(self.levels[-1][0]):
            newer = self.levels.pop()  # disjoint from every other level: a merge, not a sort
            self.levels[-1] = _merged(self.levels[-1], newer)
        if sum(len(level) for level, _ in self.levels) > IN_MEMORY:
            self._spill()

    def _spill(self) -> None:
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="trey-audit-ids-")
        run, run_where = _merged(*self.levels)
        folder = Path(self._folder.name)
        mapped = []
        for kind, values in (("digests", run), ("wheres", run_where)):
            path = folder / f"run-{len(self.runs)}.{kind}.u64"
            values.tofile(path)
            mapped.append(np.memmap(path, dtype=np.uint64, mode="r", shape=(len(values),)))
        self.runs.append((mapped[0], mapped[1]))
        self.levels = []
