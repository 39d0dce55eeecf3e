"""A simulation split into shards run apart (other machines, other days) and merged exactly.

Shard I of K (1 <= I <= K) runs the chunks whose index i has ``i mod K = I - 1``: round robin, so the shards are
within a chunk of each other's size and the short last chunk falls to one of them. A part records the exact
integer outcome counts of each of its chunks and, for a progressive, where each of its chunks hit a meter row: the
meter only changes at a hit and by the stakes in between, so the merge carries it through every chunk in order
exactly as one run does. The merge is :class:`~trey.play.simulate.Tally`, the one way a run becomes a result, so a
merged result is the unsharded one (the tests compare the JSON byte for byte for 1, 2, 3 and 7 shards).

**A part is an unsigned claim.** Anyone can write one, so the merge checks, cheapest first and one part at a time
(a part is read, checked and added before the next is read): its size, strict JSON, its schema (the bulky counts
and hits by a plain loop, not by the schema validator), the same paytable (SHA-256), trey version, seed, rounds and
chunk size in every part, every chunk in exactly one part, each chunk's counts adding up to its rounds, and the
meter hits being exactly the rounds its counts of the meter's rows say (their number first, before any hit is
read). What no check of a part's consistency can see — counts of another seed, one chunk's counts swapped for
another's — only a re-deal can: ``check`` chunks, chosen at random, are dealt again here and must be the parts'.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from trey.core.errors import TreyError
from trey.core.files import display_name, read_bounded
from trey.core.jsonread import JsonInputError, loads_strict
from trey.core.jsonschemas import error_message, validator
from trey.core.runner import Where, usable_workers
from trey.core.version import __version__
from trey.engine import GameAnalysis
from trey.paytable.load import load_spec_bytes
from trey.paytable.model import GameSpec
from trey.play import simulate as simulation
from trey.play.settle import Settler
from trey.play.simulate import (
    GENERATOR,
    Chunk,
    Progress,
    SimulationResult,
    Tally,
    checked_rounds,
    run_chunks_of,
)

PART_FORMAT = 2
MAX_PART_BYTES = 64 << 20  # a part of 10^10 rounds with a frequent meter row is a few MB
MAX_PARTS = 10_000
# A part's arrays: a million meter hits (the schema's most for a progressive) and each chunk's counts of each wager.
MAX_PART_ARRAYS = 2_000_000
SHARD = re.compile(r"([1-9][0-9]{0,4})/([1-9][0-9]{0,4})")
NAMED = 12  # chunks named in an error at most


@dataclass(frozen=True)
class Shard:
    index: int  # 1 to of
    of: int

    @staticmethod
    def parse(text: str) -> Shard:
        found = SHARD.fullmatch(text)
        if not found or not 1 <= int(found.group(1)) <= int(found.group(2)):
            raise TreyError(f"--shard {text[:40]!r} is not I/K with 1 <= I <= K", hint="write --shard 1/3")
        return Shard(int(found.group(1)), int(found.group(2)))

    def chunks(self, count: int) -> list[int]:
        return list(range(self.index - 1, count, self.of))

    def __str__(self) -> str:
        return f"{self.index}/{self.of}"


def simulate_part(
    spec: GameSpec,
    paytable: bytes,
    rounds: int,
    seed: int,
    shard: Shard,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    analysis: GameAnalysis | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Shard ``shard`` of the simulation ``trey simulate`` runs of ``rounds`` and ``seed``, as a part (JSON,
    schemas/simulation-part.schema.json). ``paytable``: the file's bytes (kept in the part for the merge)."""
    checked_rounds(rounds)
    analysis, settler = simulation.prepare(spec, analysis)
    count = len(simulation.chunk_sizes(rounds))
    chunks = shard.chunks(count)
    if not chunks:
        raise TreyError(
            f"shard {shard} has no chunk: {rounds:,} rounds make {count} chunk(s) of {simulation.CHUNK_ROUNDS:,}",
            hint=f"split into at most {count} shard(s)",
        )
    counted: dict[int, dict[str, list[int]]] = {}
    hits: dict[str, list[list[int]]] = {wager: [] for wager in settler.meter_rows}
    for index, chunk in run_chunks_of(settler, rounds, seed, chunks, Where(workers, scheduler), progress):
        counted[index] = {wager: [int(c) for c in counts] for wager, counts in chunk.counts.items()}
        for wager, (positions, rows) in chunk.meter_hits.items():
            hits[wager] += [[index, p, r] for p, r in zip(positions.tolist(), rows.tolist(), strict=True)]
    return {
        "trey_version": __version__,
        "part_format": PART_FORMAT,
        "spec_sha256": spec.sha256,
        "name": spec.name,
        "paytable": paytable.decode("utf-8"),
        "rounds": rounds,
        "seed": seed,
        "generator": GENERATOR,
        "chunk_rounds": simulation.CHUNK_ROUNDS,
        "chunk_count": count,
        "shard": str(shard),
        "chunks": chunks,
        "counts": {wager: [counted[chunk][wager] for chunk in chunks] for wager in settler.tables},
        "meter_hits": {wager: sorted(found) for wager, found in hits.items()},
    }


def _chunks_are(chunks: list[int]) -> str:
    """The words for some chunks: chunk 3 is, chunks 1, 4 are (at most :data:`NAMED` of them named)."""
    if len(chunks) == 1:
        return f"chunk {chunks[0]} is"
    shown = ", ".join(str(c) for c in chunks[:NAMED])
    more = f" and {len(chunks) - NAMED:,} more" if len(chunks) > NAMED else ""
    return f"chunks {shown}{more} are"


PART_HINT = "give a part written by trey simulate --shard"
MAX_CHECK = 100_000  # chunks --check deals again at most: every chunk of the largest run


def read_part(path: Path) -> dict[str, Any]:
    """A part, bounded, strictly read and checked against its schema; a TreyError naming the file otherwise.

    The schema validator checks everything but the bulky arrays (each chunk's counts, each meter hit): it took 40 s
    over a million hits. Those are checked by :func:`_whole_numbers` to the schema's own bounds, after the cheap
    checks of the merge (:func:`merge_parts`)."""
    name = display_name(path)
    raw = read_bounded(path, limit=MAX_PART_BYTES, what="a simulation part", hint=PART_HINT)
    arrays = raw.count(b"[")  # each becomes a Python list when parsed: counted first, they bound the memory
    if arrays > MAX_PART_ARRAYS:
        raise TreyError(f"{name}: {arrays:,} arrays are more than a part holds ({MAX_PART_ARRAYS:,})", hint=PART_HINT)
    try:
        data = loads_strict(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise TreyError(f"{name}: not UTF-8 at byte {exc.start}", hint=PART_HINT) from None
    except JsonInputError as exc:
        raise TreyError(f"{name}: {exc}", hint=PART_HINT) from None
    del raw
    if isinstance(data, dict) and data.get("part_format") == 1:
        raise TreyError(
            f"{name}: a part of format 1 sums its counts over its chunks, which no chunk dealt again can check",
            hint="run the shard again with this trey",
        )
    shown = dict(data) if isinstance(data, dict) else data
    if isinstance(shown, dict):  # the bulky arrays' places kept, their contents checked apart
        for key in ("counts", "meter_hits"):
            if isinstance(shown.get(key), dict):
                shown[key] = {w: [] if isinstance(v, list) else v for w, v in shown[key].items()}
    errors = sorted(validator("simulation-part").iter_errors(shown), key=lambda e: list(e.absolute_path))
    if errors:
        where = "$" + "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in errors[0].absolute_path)
        raise TreyError(f"{name}: {where}: {error_message(errors[0])}", hint=PART_HINT)
    return data  # type: ignore[no-any-return]


def _whole_numbers(name: str, where: str, rows: list[Any], width: int, most: int) -> npt.NDArray[np.int64]:
    """``rows``, a list of lists of ``width`` whole numbers from 0 to ``most`` (as the part schema says), as an
    array; a TreyError naming the first that is not. A plain loop: a million rows take a fraction of a second."""
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != width:
            raise TreyError(f"{name}: {where}[{i}] is not a list of {width} numbers", hint=PART_HINT)
        for value in row:
            if type(value) is not int or not 0 <= value <= most:
                raise TreyError(
                    f"{name}: {where}[{i}] holds {str(value)[:40]!r}, not a whole number from 0 to {most:,}",
                    hint=PART_HINT,
                )
    return np.array(rows, dtype=np.int64).reshape(len(rows), width)


@dataclass(frozen=True)
class Merged:
    """The simulation the parts are shards of, and how much of it was dealt again here (the rest is the parts')."""

    spec: GameSpec
    result: SimulationResult
    parts: int
    chunks: int  # of the run
    checked: int  # chunks dealt again here and equal to the parts'

    @property
    def verdict(self) -> str:
        """The verdict line: the simulation's, and what of it was checked (a part is a claim until dealt again)."""
        head, said = self.result.verdict.split(": ", 1)
        if head == "PASS" and self.checked < self.chunks:
            head = "PASS as the parts claim"
        if self.checked == self.chunks:
            return f"{head}: {said}; checked: all {self.chunks:,} chunk(s) of the parts dealt again here agree"
        return (
            f"{head}: {said}; not checked: {self.checked:,} chunk(s) re-dealt of {self.chunks:,}, the other "
            f"{self.chunks - self.checked:,} are the parts' unsigned claims (trey merge --check N deals N again)"
        )

    def json(self) -> dict[str, int | str]:
        """What ``trey merge --format json`` adds to the simulation's JSON under ``merge``."""
        return {"parts": self.parts, "chunks": self.chunks, "checked": self.checked, "verdict": self.verdict}


@dataclass
class _Run:
    """What the first part says of the run, and what the merge has gathered so far."""

    first: str  # the first part's name
    header: dict[str, Any]
    spec: GameSpec
    analysis: GameAnalysis
    settler: Settler
    tally: Tally
    sizes: list[int]
    chosen: set[int]  # the chunks to deal again
    owner: dict[int, str]
    hits: dict[int, dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]]
    claims: dict[int, tuple[str, Chunk]]  # the chosen chunks as their parts claim them


RUN_KEYS = ("spec_sha256", "trey_version", "seed", "rounds", "generator", "chunk_rounds", "part_format")


def _start(name: str, part: dict[str, Any], check: int, analysis: GameAnalysis | None) -> _Run:
    """The run the first part is of: its version, chunk size and paytable checked, the game analysed."""
    if part["trey_version"] != __version__:
        raise TreyError(
            f"the parts were counted by trey {part['trey_version']}, this is trey {__version__}",
            hint=f"merge them with trey {part['trey_version']}",
        )
    if part["chunk_rounds"] != simulation.CHUNK_ROUNDS:
        raise TreyError(
            f"the parts have chunks of {part['chunk_rounds']:,} rounds, this trey deals {simulation.CHUNK_ROUNDS:,}",
            hint="merge the parts with the trey that wrote them",
        )
    sizes = simulation.chunk_sizes(part["rounds"])
    spec = load_spec_bytes(part["paytable"].encode("utf-8"), f"{name} (its paytable)")
    if spec.sha256 != part["spec_sha256"]:
        raise TreyError(f"{name}: its paytable's text does not have its SHA-256", hint="rerun the shard")
    analysis, settler = simulation.prepare(spec, analysis)
    # The chunks to deal again are the merger's choice, drawn from the operating system: no part can know them.
    chosen = set(secrets.SystemRandom().sample(range(len(sizes)), min(check, len(sizes))))
    header = {key: part[key] for key in RUN_KEYS}
    return _Run(name, header, spec, analysis, settler, Tally(spec, settler, part["rounds"]), sizes, chosen, {}, {}, {})


def _add(run: _Run, name: str, part: dict[str, Any]) -> None:
    """Check one part against the run and itself, cheapest first, and add it: its counts to the tally, its meter
    hits by chunk, and the chosen chunks' claims for the re-deal."""
    for key in RUN_KEYS:
        if part[key] != run.header[key]:
            raise TreyError(
                f"{name} is not a shard of the run {run.first} is: its {key} is {part[key]!r}, not {run.header[key]!r}",
                hint="merge the parts of one run: the same paytable, trey version, seed and rounds",
            )
    count, sizes, settler = len(run.sizes), run.sizes, run.settler
    if part["chunk_count"] != count:
        raise TreyError(f"{name}: {part['chunk_count']} chunks where {part['rounds']:,} rounds make {count}")
    chunks: list[int] = part["chunks"]
    for chunk in chunks:
        if not 0 <= chunk < count:
            raise TreyError(f"{name}: chunk {chunk} is not one of the run's {count} chunks (0 to {count - 1})")
    doubled = [c for c in chunks if c in run.owner]
    if doubled:
        raise TreyError(
            f"{_chunks_are(sorted(doubled))} in more than one part (chunk {doubled[0]} in {run.owner[doubled[0]]} "
            f"and in {name})",
            hint="give each shard once",
        )
    if set(part["counts"]) != set(settler.tables) or any(len(part["counts"][w]) != len(chunks) for w in settler.tables):
        raise TreyError(f"{name}: its counts are not of this paytable's wagers and of its chunks", hint=PART_HINT)
    chunk_rounds = np.array([sizes[c] for c in chunks], dtype=np.int64)
    counts = {
        w: _whole_numbers(name, f"$.counts.{w}", part["counts"][w], len(t.names), simulation.CHUNK_ROUNDS)
        for w, t in settler.tables.items()
    }
    for wager, table in counts.items():
        short = np.flatnonzero(table.sum(axis=1) != chunk_rounds)
        if short.size:
            chunk = chunks[int(short[0])]
            raise TreyError(
                f"{name}: its {wager} counts of chunk {chunk} do not add up to the chunk's {sizes[chunk]:,} rounds"
            )
    if set(part["meter_hits"]) != set(settler.meter_rows):
        raise TreyError(f"{name}: its meter hits are not of this paytable's progressives")
    hits = {w: _meter_hits(name, w, part["meter_hits"][w], chunks, counts[w], run) for w in settler.meter_rows}
    for position, chunk in enumerate(chunks):
        run.owner[chunk] = name
        run.hits[chunk] = {w: found[position] for w, found in hits.items()}
        if chunk in run.chosen:
            claimed = {w: table[position].copy() for w, table in counts.items()}
            run.claims[chunk] = (name, Chunk(claimed, run.hits[chunk]))
    run.tally.add_counts({w: table.sum(axis=0) for w, table in counts.items()})


def _meter_hits(
    name: str, wager: str, hits: list[Any], chunks: list[int], counts: npt.NDArray[np.int64], run: _Run
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    """A part's meter hits of one progressive, checked against its counts and split by chunk (in the order of
    ``chunks``): (positions, rows) of each. Their number is compared with the counts of the meter's rows before any
    hit is read; then each chunk's hits of each row must be as many as its counts of that row."""
    rows = run.settler.meter_rows[wager]
    names = run.settler.tables[wager].names
    expected = int(counts[:, rows].sum())
    if len(hits) != expected:
        raise TreyError(
            f"{name}: its {len(hits):,} {wager} meter hits are not the {expected:,} rounds its counts give the "
            "meter's rows: a part's hits are its counts' rounds",
            hint=PART_HINT,
        )
    found = _whole_numbers(name, f"$.meter_hits.{wager}", hits, 3, simulation.MAX_ROUNDS)
    chunk_of, position, row = found[:, 0], found[:, 1], found[:, 2]
    mine = np.array(chunks, dtype=np.int64)
    known = np.isin(chunk_of, mine)
    inside = known & (position < np.array(run.sizes, dtype=np.int64)[np.where(known, chunk_of, 0)])
    inside &= np.isin(row, rows)
    if not inside.all():
        bad = int(np.flatnonzero(~inside)[0])
        raise TreyError(
            f"{name}: a meter hit (chunk {int(chunk_of[bad])}, round {int(position[bad])}) is not one of its rounds "
            "of a meter row"
        )
    later = chunk_of[1:] > chunk_of[:-1]
    if not np.all(later | ((chunk_of[1:] == chunk_of[:-1]) & (position[1:] > position[:-1]))):
        raise TreyError(f"{name}: its meter hits are not in the order of their rounds")
    starts, ends = np.searchsorted(chunk_of, mine, side="left"), np.searchsorted(chunk_of, mine, side="right")
    split = []
    for at, chunk in enumerate(chunks):
        these = slice(int(starts[at]), int(ends[at]))
        tally = np.bincount(row[these], minlength=len(names))
        for meter_row in rows.tolist():
            if tally[meter_row] != counts[at, meter_row]:
                raise TreyError(
                    f"{name}: chunk {chunk} has {int(tally[meter_row]):,} meter hits of {names[meter_row]} where its "
                    f"counts say {int(counts[at, meter_row]):,}: a part's hits are its counts' rounds",
                    hint=PART_HINT,
                )
        split.append((position[these].copy(), row[these].copy()))
    return split


def merge_parts(paths: list[Path], *, analysis: GameAnalysis | None = None, check: int = 0, workers: int = 1) -> Merged:
    """The simulation the parts are shards of, as one run gives it; a TreyError, before any figure, when they are
    not all the consistent shards of one run. ``check``: chunks chosen at random and dealt again here (on
    ``workers`` processes), each of which must be what its part claims."""
    if not paths:
        raise TreyError("give the parts to merge", hint="trey merge PART.json...")
    if len(paths) > MAX_PARTS:
        raise TreyError(f"{len(paths):,} parts are more than {MAX_PARTS:,}", hint="merge the parts of one run")
    if not 0 <= check <= MAX_CHECK:
        raise TreyError(f"--check {check}: from 0 to {MAX_CHECK:,} chunks", hint="deal at most every chunk again")
    run: _Run | None = None
    for path in paths:  # one part at a time: read, checked and added before the next is read
        name, part = display_name(path), read_part(path)
        if run is None:
            run = _start(name, part, check, analysis)
        _add(run, name, part)
        del part
    assert run is not None
    count = len(run.sizes)
    missing = [c for c in range(count) if c not in run.owner]
    if missing:
        raise TreyError(
            f"{_chunks_are(missing)} in no part, of the run's {count} chunks: a shard is missing",
            hint="give every shard of the run: --shard 1/K to K/K",
        )
    seed = run.header["seed"]
    for index, dealt in _dealt_again(run, workers):
        part_name, claimed = run.claims[index]
        if not dealt.same(claimed):
            what = "counts" if not Chunk(dealt.counts, claimed.meter_hits).same(claimed) else "meter hits"
            raise TreyError(
                f"{part_name}: chunk {index} is not what seed {seed} deals: dealt again here, its {what} differ from "
                "the part's",
                hint="the part is not of the run it names (another seed, other counts): rerun that shard",
            )
    for chunk in range(count):
        run.tally.add_hits(chunk, run.hits.pop(chunk))
    result = run.tally.result(run.analysis, seed, usable_workers(1))
    return Merged(run.spec, result, len(paths), count, len(run.chosen))


def _dealt_again(run: _Run, workers: int) -> Iterator[tuple[int, Chunk]]:
    """The chosen chunks, dealt again here."""
    if not run.chosen:
        return iter(())
    header = run.header
    return run_chunks_of(run.settler, header["rounds"], header["seed"], sorted(run.chosen), Where(workers), None)
