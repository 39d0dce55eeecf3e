"""A simulation split into shards run apart (other machines, other days) and merged exactly.

Shard I of K (1 <= I <= K) runs the chunks whose index i has ``i mod K = I - 1``: round robin, so the shards are
within a chunk of each other's size and the short last chunk falls to one of them. A part records the exact
integer outcome counts of its chunks and, for a progressive, where each of its chunks hit a meter row: the meter
only changes at a hit and by the stakes in between, so the merge carries it through every chunk in order exactly as
one run does. The merge is :class:`~trey.play.simulate.Tally`, the one way a run becomes a result, so a merged
result is the unsharded one (the tests compare the JSON byte for byte for 1, 2, 3 and 7 shards).

A part carries its paytable's text, so ``trey merge`` needs nothing else; it is checked before anything is run:
its size, strict JSON, its schema, the same paytable (SHA-256), trey version, seed, rounds and chunk size in every
part, and every chunk in exactly one part (the missing and doubled chunks are named).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from trey import __version__
from trey.core.errors import TreyError
from trey.core.files import display_name, read_bounded
from trey.core.jsonread import JsonInputError, loads_strict
from trey.core.jsonschemas import validator
from trey.core.runner import Where, usable_workers
from trey.engine import GameAnalysis, analyze
from trey.paytable.load import load_spec_bytes
from trey.paytable.model import GameSpec
from trey.play import simulate as simulation
from trey.play.settle import Settler
from trey.play.simulate import GENERATOR, Progress, SimulationResult, Tally, checked_rounds, run_chunks_of

PART_FORMAT = 1
MAX_PART_BYTES = 64 << 20  # a part of 10^10 rounds with a frequent meter row is a few MB
MAX_PARTS = 10_000
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
    analysis = analysis or analyze(spec)
    settler = Settler(spec, analysis.plays)
    count = len(simulation.chunk_sizes(rounds))
    chunks = shard.chunks(count)
    if not chunks:
        raise TreyError(
            f"shard {shard} has no chunk: {rounds:,} rounds make {count} chunk(s) of {simulation.CHUNK_ROUNDS:,}",
            hint=f"split into at most {count} shard(s)",
        )
    totals = {wager: np.zeros(len(table.names), dtype=np.int64) for wager, table in settler.tables.items()}
    hits: dict[str, list[list[int]]] = {wager: [] for wager in settler.meter_rows}
    for index, chunk in run_chunks_of(settler, rounds, seed, chunks, Where(workers, scheduler), progress):
        for wager, c in chunk.counts.items():
            totals[wager] += c
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
        "counts": {wager: [int(c) for c in totals[wager]] for wager in settler.tables},
        "meter_hits": {wager: sorted(found) for wager, found in hits.items()},
    }


def _chunks_are(chunks: list[int]) -> str:
    """The words for some chunks: chunk 3 is, chunks 1, 4 are (at most :data:`NAMED` of them named)."""
    if len(chunks) == 1:
        return f"chunk {chunks[0]} is"
    shown = ", ".join(str(c) for c in chunks[:NAMED])
    more = f" and {len(chunks) - NAMED:,} more" if len(chunks) > NAMED else ""
    return f"chunks {shown}{more} are"


def read_part(path: Path) -> dict[str, Any]:
    """A part, bounded, strictly read and checked against its schema; a TreyError naming the file otherwise."""
    name = display_name(path)
    raw = read_bounded(
        path, limit=MAX_PART_BYTES, what="a simulation part", hint="give a part written by trey simulate --shard"
    )
    try:
        data = loads_strict(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise TreyError(
            f"{name}: not UTF-8 at byte {exc.start}", hint="give a part written by trey simulate --shard"
        ) from None
    except JsonInputError as exc:
        raise TreyError(f"{name}: {exc}", hint="give a part written by trey simulate --shard") from None
    errors = sorted(validator("simulation-part").iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        where = "$" + "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in errors[0].absolute_path)
        raise TreyError(
            f"{name}: {where}: {errors[0].message[:200]}", hint="give a part written by trey simulate --shard"
        )
    return data  # type: ignore[no-any-return]


def merge_parts(paths: list[Path], *, analysis: GameAnalysis | None = None) -> tuple[GameSpec, SimulationResult]:
    """The simulation the parts are shards of, as one run gives it; a TreyError, before any figure, when they are
    not all the shards of one run."""
    if not paths:
        raise TreyError("give the parts to merge", hint="trey merge PART.json...")
    if len(paths) > MAX_PARTS:
        raise TreyError(f"{len(paths):,} parts are more than {MAX_PARTS:,}", hint="merge the parts of one run")
    parts = [(display_name(p), read_part(p)) for p in paths]
    first_name, first = parts[0]
    for name, part in parts[1:]:
        for key in ("spec_sha256", "trey_version", "seed", "rounds", "generator", "chunk_rounds", "part_format"):
            if part[key] != first[key]:
                raise TreyError(
                    f"{name} is not a shard of the run {first_name} is: its {key} is {part[key]!r}, not {first[key]!r}",
                    hint="merge the parts of one run: the same paytable, trey version, seed and rounds",
                )
    if first["trey_version"] != __version__:
        raise TreyError(
            f"the parts were counted by trey {first['trey_version']}, this is trey {__version__}",
            hint=f"merge them with trey {first['trey_version']}",
        )
    if first["chunk_rounds"] != simulation.CHUNK_ROUNDS:
        raise TreyError(
            f"the parts have chunks of {first['chunk_rounds']:,} rounds, this trey deals {simulation.CHUNK_ROUNDS:,}",
            hint="merge the parts with the trey that wrote them",
        )
    count = len(simulation.chunk_sizes(first["rounds"]))
    owner: dict[int, str] = {}
    doubled: list[tuple[int, str, str]] = []
    for name, part in parts:
        if part["chunk_count"] != count:
            raise TreyError(f"{name}: {part['chunk_count']} chunks where {first['rounds']:,} rounds make {count}")
        for chunk in part["chunks"]:
            if not 0 <= chunk < count:
                raise TreyError(f"{name}: chunk {chunk} is not one of the run's {count} chunks (0 to {count - 1})")
            if chunk in owner:
                doubled.append((chunk, owner[chunk], name))
            owner.setdefault(chunk, name)
    if doubled:
        chunk, one, other = doubled[0]
        chunks = sorted({c for c, _, _ in doubled})
        raise TreyError(
            f"{_chunks_are(chunks)} in more than one part (chunk {chunk} in {one} and in {other})",
            hint="give each shard once",
        )
    missing = [c for c in range(count) if c not in owner]
    if missing:
        raise TreyError(
            f"{_chunks_are(missing)} in no part, of the run's {count} chunks: a shard is missing",
            hint="give every shard of the run: --shard 1/K to K/K",
        )
    spec = load_spec_bytes(first["paytable"].encode("utf-8"), f"{first_name} (its paytable)")
    if spec.sha256 != first["spec_sha256"]:
        raise TreyError(f"{first_name}: its paytable's text does not have its SHA-256", hint="rerun the shard")
    analysis = analysis or analyze(spec)
    settler = Settler(spec, analysis.plays)
    tally = Tally(spec, settler, first["rounds"])
    for name, part in parts:
        if set(part["counts"]) != set(settler.tables) or any(
            len(part["counts"][w]) != len(settler.tables[w].names) for w in settler.tables
        ):
            raise TreyError(f"{name}: its counts are not of this paytable's wagers and outcomes")
        tally.add_counts({w: np.array(c, dtype=np.int64) for w, c in part["counts"].items()})
    sizes = simulation.chunk_sizes(first["rounds"])
    by_chunk: dict[int, dict[str, list[tuple[int, int]]]] = {c: {w: [] for w in settler.meter_rows} for c in owner}
    for name, part in parts:
        dealt = sum(sizes[c] for c in part["chunks"])
        if any(sum(c) != dealt for c in part["counts"].values()):
            raise TreyError(f"{name}: its counts do not add up to the {dealt:,} rounds of its chunks")
        if set(part["meter_hits"]) != set(settler.meter_rows):
            raise TreyError(f"{name}: its meter hits are not of this paytable's progressives")
        mine = set(part["chunks"])
        for wager, hits in part["meter_hits"].items():
            rows = set(settler.meter_rows[wager].tolist())
            for chunk, position, row in hits:
                if chunk not in mine or not 0 <= position < sizes[chunk] or row not in rows:
                    raise TreyError(f"{name}: a meter hit (chunk {chunk}, round {position}) is not one of its rounds")
                found = by_chunk[chunk][wager]
                if found and found[-1][0] >= position:
                    raise TreyError(f"{name}: its meter hits are not in the order of their rounds")
                found.append((position, row))
    for chunk in range(count):
        tally.add_hits(
            chunk,
            {
                w: (np.array([p for p, _ in found], dtype=np.int64), np.array([r for _, r in found], dtype=np.int64))
                for w, found in by_chunk[chunk].items()
            },
        )
    return spec, tally.result(analysis, first["seed"], usable_workers(1))
