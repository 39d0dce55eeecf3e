"""Round ids met so far, to find a round logged twice: 8 bytes a round, however long the ids, in memory up to
32 MB and beyond that in a temporary file.

Each id is kept as a 64-bit digest (:func:`digests`), in sorted arrays of doubling sizes (a new batch's
digests are one more array; two arrays of about the same size are merged), so a batch is looked up with a binary
search in each of at most log2(rounds) arrays and adding costs O(log n) copies per digest over the whole log. Two
different ids share a digest with a chance of about n^2 / 2^65 (3 in a million for 10 million rounds): the later
would be reported as logged twice.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa

Digests = npt.NDArray[np.uint64]


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


def _mixed(h: Digests) -> Digests:
    """SplitMix64's finaliser: every bit of the input moves about half the bits of the output."""
    h = (h ^ (h >> np.uint64(30))) * _MIX[0]
    h = (h ^ (h >> np.uint64(27))) * _MIX[1]
    return h ^ (h >> np.uint64(31))


def digests(ids: pa.Array) -> Digests:
    """A 64-bit digest of each id's UTF-8 bytes and length, computed over all of them at once."""
    ids = ids.cast(pa.large_binary())
    n = len(ids)
    if not n:
        return np.zeros(0, dtype=np.uint64)
    offsets = np.frombuffer(ids.buffers()[1], dtype=np.int64)[ids.offset : ids.offset + n + 1]
    data = ids.buffers()[2]
    raw = np.frombuffer(data, dtype=np.uint8) if data is not None and data.size else np.zeros(1, dtype=np.uint8)
    lengths = np.diff(offsets)
    width = max(8, -(-int(lengths.max()) // 8) * 8)
    place = np.arange(width)
    padded = np.where(place < lengths[:, None], raw[np.minimum(offsets[:-1, None] + place, len(raw) - 1)], 0)
    words = np.ascontiguousarray(padded.astype(np.uint8)).view(np.uint64)  # (n, width / 8)
    with np.errstate(over="ignore"):
        h = _mixed(lengths.astype(np.uint64) + _GOLDEN)
        for column in range(words.shape[1]):  # an id's own words only: the same digest in any batch
            h = np.where(lengths > 8 * column, _mixed(h ^ words[:, column]) + _GOLDEN, h)
    return h


IN_MEMORY = 1 << 22  # digests kept in memory (32 MB); beyond, sorted runs go to a temporary file


class SeenIds:
    """The digests met, in memory up to :data:`IN_MEMORY` of them, then in sorted runs written to a temporary
    folder (removed by :meth:`close`) and searched through memory maps: the process's own memory stays bounded
    however long the log, the runs living in the file system's cache."""

    def __init__(self) -> None:
        self.levels: list[Digests] = []  # sorted, without repeats, largest first
        self.runs: list[Digests] = []  # sorted, written out, each of about IN_MEMORY digests
        self._folder: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> SeenIds:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.runs.clear()  # the memory maps, before their files go
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def __len__(self) -> int:
        return sum(len(level) for level in self.levels) + sum(len(run) for run in self.runs)

    def first_time(self, batch: Digests) -> npt.NDArray[np.bool_]:
        """Per digest of a batch (in the order of its lines): True where it is met for the first time — not in an
        earlier batch, nor earlier in this one. Remembers them."""
        n = len(batch)
        if not n:
            return np.ones(0, dtype=bool)
        order = np.argsort(batch, kind="stable")  # equal digests keep the order of their lines
        ranked = batch[order]
        again = np.zeros(n, dtype=bool)
        again[order[1:]] = ranked[1:] == ranked[:-1]
        for level in (*self.levels, *self.runs):
            at = np.minimum(np.searchsorted(level, ranked), len(level) - 1)  # sorted keys: the maps are read in order
            again[order] |= level[at] == ranked
        fresh = np.sort(batch[~again])  # without repeats: every repeat is in ``again``
        if len(fresh):
            self.levels.append(fresh)
            while len(self.levels) > 1 and len(self.levels[-2]) <= 2 * len(self.levels[-1]):
                newer = self.levels.pop()  # disjoint from every other level: a merge is a sort
                self.levels[-1] = np.sort(np.concatenate([self.levels[-1], newer]))
            if sum(len(level) for level in self.levels) > IN_MEMORY:
                self._spill()
        return ~again

    def _spill(self) -> None:
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="trey-audit-ids-")
        run = np.sort(np.concatenate(self.levels))
        path = Path(self._folder.name) / f"run-{len(self.runs)}.u64"
        run.tofile(path)
        self.runs.append(np.memmap(path, dtype=np.uint64, mode="r", shape=(len(run),)))
        self.levels = []
