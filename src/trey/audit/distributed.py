"""``trey audit --scheduler``: the logs, and the fragments of a partitioned Parquet dataset, audited each on a Dask
worker, their states merged here in their order: the same audit, to the byte, as one process's.

What runs where:

- *Here*, before: the parts. Each log file is one; a Parquet dataset of several fragments (files) is one part a
  fragment, in the dataset's order, each numbered on from the rounds of the fragments before it (their round
  column is read here). A database is not split: ``--scheduler`` refuses it (audit it without ``--scheduler``).
- *On the workers*: each part audited alone, into a fresh state, handed back as plain data (:func:`part_to_plain`:
  numbers, texts and lists; exact figures as texts), with the keyed digests of its round ids (under a key drawn
  here for this audit).
- *Here*, after: each state read as a claim and checked (:func:`part_of_plain`: types, bounds, totals that must
  agree), then merged in the parts' order (:func:`merge`). A part a Dask scheduler at an address audited, chosen
  at random, is audited again here and must give the same state.

The merge is exact: counts and exact sums add; the lists kept (problems, mis-paid wagers, jackpots not checked,
meter breaks: the first :data:`~trey.audit.log.KEPT`) are the parts' lists one after the other, cut at the same
length, as one process keeps them; the float sums of the sharp test and of each seat's deviations are each batch's
float sum added exactly (the batches are the same: they never cross a part), and the trail is drawn from the
parts' own (:func:`~trey.audit.audit.trail_of`).

What a part cannot know of the parts before it, the merge checks, and audits everything in this process instead
(the sequential audit: the same result by construction) when any of these holds: a round id logged in two parts
(a digest shared by chance is taken for one: it costs only the time of auditing here), a table met in two parts of
a paytable with a progressive (its meter is followed from round to round) or more tables than are followed, more
seats than are followed (:data:`~trey.audit.audit.MAX_SEATS`), more values of a label than the battery follows, a
round whose rows run from one fragment into the next, the fragments of a dataset that differ on the deck, a
fragment read strictly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from trey.audit.audit import (
    LINES_NAMED,
    MAX_SEATS,
    RETURN_TOTALS,
    Audit,
    MisPaid,
    NotChecked,
    SeatDecisions,
    Trail,
    TrailPart,
    Unchecked,
    WagerReturn,
    _audit_log,
    finished,
    prepared,
)
from trey.audit.cards import MAX_TABLES_FOLLOWED, CardCounts
from trey.audit.integrity.battery import MAX_TRACKED, state_of_plain, state_to_plain
from trey.audit.log import KEPT, MAX_ROUNDS, LogProblem
from trey.audit.mapping import Mapping
from trey.audit.meters import MeterBreak
from trey.audit.seen import KEY_BYTES, NEW, SeenIds, new_key
from trey.audit.sources import Source, SqlSource, _same_as_before, is_table_source, parquet_dataset
from trey.core.errors import TreyError
from trey.core.files import open_regular
from trey.core.runner import Plain, Where, run_chunks
from trey.engine.results import GameAnalysis
from trey.paytable.model import GameSpec

RECHECK = 1  # parts a scheduler at an address audited, chosen at random, audited again here
MAX_TEXT = 2_000  # characters of a text in a part's state (an id, a reason, a message)
MAX_DIGITS = 4_000  # digits of an exact figure's numerator or denominator (a sum of floats is a dyadic fraction)
_EXACT = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}(?:/[0-9]{{1,{MAX_DIGITS}}})?")


@dataclass(frozen=True)
class Part:
    """One part of the logs: the ``log``-th source (its path), or one ``fragment`` of it (a Parquet dataset's file
    ``file``, its rounds numbered on from ``done``)."""

    log: int
    path: str
    fragment: int | None = None
    done: int = 0
    file: str = ""


@dataclass(frozen=True)
class Shared:
    """What every part's audit shares: the game, the mapping, the level and the key of the ids' digests."""

    spec: GameSpec
    mapping: Mapping | None
    alpha: Fraction
    key: bytes


@dataclass
class PartState:
    """A part's audit as it comes back, checked (:func:`part_of_plain`)."""

    found: Audit
    digests: np.ndarray  # the part's round ids, keyed digests, sorted, each once
    batches: list[tuple[int | None, bool | None]]  # each batch's fragment and whether its source has a deck

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PartState) and part_to_plain(self) == part_to_plain(other)

    __hash__ = None  # type: ignore[assignment]


def plan(sources: list[Path] | list[Source], spec: GameSpec, mapping: Mapping | None) -> tuple[list[Part], str]:
    """The parts of ``sources``, and why they cannot be audited apart ("" when they can)."""
    parts: list[Part] = []
    for index, source in enumerate(sources):
        if isinstance(source, SqlSource):
            raise TreyError(
                f"--scheduler audits files: {source.name} is a database, read on this machine alone",
                hint="audit a database without --scheduler (or export its rounds to Parquet)",
            )
        path = Path(source)
        if is_table_source(path, mapping) and (path.is_dir() or path.name.lower().endswith(".parquet")):
            fragments, why = _fragments(index, path, spec, mapping)
            if why:
                return [], why
            parts.extend(fragments)
        else:
            with open_regular(path, what="a hand history (JSON Lines or CSV)"):  # refused here as in one process
                pass
            parts.append(Part(index, str(path)))
    return parts, ""


def _fragments(index: int, path: Path, spec: GameSpec, mapping: Mapping | None) -> tuple[list[Part], str]:
    """A Parquet dataset's fragments as parts, each numbered on from the rounds before it (its round column read
    here: a round is its rows' run of one id); a round running from one fragment into the next says why not."""
    chosen = mapping or Mapping()
    dataset, _, _ = parquet_dataset(path, spec, chosen)
    fragments = list(dataset.get_fragments())
    if len(fragments) < 2:
        return [Part(index, str(path))], ""
    column = chosen.column("round")
    assert isinstance(column, str)
    parts, done, last = [], 0, None
    for at, fragment in enumerate(fragments):
        ids = fragment.to_table(schema=dataset.schema, columns=[column]).column(column).combine_chunks()
        parts.append(Part(index, str(path), at, done, str(fragment.path)))
        if not len(ids):
            continue
        if last is not None and ids[0].as_py() == last:
            return [], f"a round's rows run from one fragment of {path.name} into the next"
        done += int((~_same_as_before(ids)).sum())
        last = ids[len(ids) - 1].as_py()
    if done > MAX_ROUNDS:
        return [], f"{path.name} holds more than {MAX_ROUNDS:,} rounds"
    return parts, ""


# On a worker: the game's figures, and what is due on its outcomes at each bet size (the audit's caches, which
# depend on the game alone), worked out once for all the parts it audits.
_ANALYSES: dict[str, tuple[GameAnalysis, dict[Any, Any], dict[Any, Any], dict[Any, Any]]] = {}


def audit_part(shared: Shared, part: Part) -> dict[str, Any]:
    """One part audited alone (on a worker), as plain data."""
    from trey.engine import analyze

    spec = shared.spec
    known = _ANALYSES.get(spec.sha256)
    if known is None:
        if len(_ANALYSES) > 8:
            _ANALYSES.clear()
        known = _ANALYSES[spec.sha256] = (analyze(spec), {}, {}, {})
    analysis, due_cache, moments, hand_dues = known
    found, settler, rule, expectations = prepared(spec, analysis, shared.alpha)
    found.due_cache, found.moments, found.hand_dues = due_cache, moments, hand_dues
    path = Path(part.path)
    fragment = None
    if part.fragment is not None:
        dataset, _, _ = parquet_dataset(path, spec, shared.mapping or Mapping())
        files = [str(f.path) for f in dataset.get_fragments()]
        if part.fragment >= len(files) or files[part.fragment] != part.file:
            raise TreyError(f"{path.name}: its fragments are not those planned (the dataset changed, or is another)")
        fragment = (part.fragment, part.done)
    with SeenIds(key=shared.key) as seen:
        batches = _audit_log(
            found, path, settler, rule, expectations, seen, columnar=True, mapping=shared.mapping, fragment=fragment
        )
        digests = _digests(seen)
    return part_to_plain(PartState(found, digests, batches))


def _digests(seen: SeenIds) -> np.ndarray:
    levels = [d for d, _ in seen.levels] + [np.asarray(d) for d, _ in seen.runs]
    return np.sort(np.concatenate(levels)) if levels else np.zeros(0, dtype=np.uint64)


def _q(value: Fraction | int) -> str:
    return str(value)


def _exact(value: object, what: str) -> Fraction:
    if not isinstance(value, str) or not _EXACT.fullmatch(value):
        raise ValueError(f"{what}: an exact figure is a text of digits")
    try:
        return Fraction(value)
    except ZeroDivisionError:
        raise ValueError(f"{what}: an exact figure over 0") from None


def _text(value: object, what: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ValueError(f"{what}: a text of at most {MAX_TEXT:,} characters")
    return value


def _whole(value: object, what: str, *, signed: bool = False) -> int:
    if type(value) is not int or (value < 0 and not signed) or abs(value) >= 1 << 63:
        raise ValueError(f"{what}: a whole number")
    return value


def _list(value: object, what: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise ValueError(f"{what}: a list of at most {most:,}")
    return value


def _row(value: object, what: str, size: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != size:
        raise ValueError(f"{what}: {size} values")
    return value


def part_to_plain(state: PartState) -> dict[str, Any]:
    """A part's state as plain data (what msgpack carries): no object, exact figures as texts."""
    found = state.found
    meters = found.meters
    cards = found.cards
    return {
        "lines": found.lines,
        "rounds": found.rounds,
        "table_rounds": found.table_rounds,
        "problems": [[p.file, p.line, p.round, p.code, p.message] for p in found.problems],
        "problem_count": found.problem_count,
        "duplicates": found.duplicates,
        "mispaid": [[m.line, m.round, m.wager, _q(m.logged), _q(m.due), m.reason, m.order] for m in found.mispaid],
        "mispaid_count": found.mispaid_count,
        "overpaid": _q(found.overpaid),
        "underpaid": _q(found.underpaid),
        "not_checked": [[c.line, c.round, c.wager, _q(c.logged), c.reason, str(c.why)] for c in found.not_checked],
        "not_checked_count": found.not_checked_count,
        "not_checked_by": [
            [str(why), count, found.not_checked_lines.get(why, [])] for why, count in found.not_checked_by.items()
        ],
        "meters": [meters.opened, meters.not_followed, meters.break_count],
        "breaks": [[b.line, b.round, b.wager, b.table, _q(b.logged), _q(b.carried), b.since] for b in meters.breaks],
        "returns": [
            [
                r.wager,
                *(_q(getattr(r, name)) for name in RETURN_TOTALS),
            ]
            for r in found.returns.values()
        ],
        "cards": [
            [int(x) for x in cards.by_position.ravel().tolist()],
            [int(x) for x in cards.repeats.tolist()],
            [[t, m] for t, m in cards.first.items()],
            [[t, m] for t, m in cards.last.items()],
        ],
        "sharp": [_q(found.expected_net), _q(found.variance_sum), _q(found.actual_net), found.decided],
        "seats": [
            [
                d.seat,
                d.rounds,
                d.plays_below,
                d.folds_above,
                _q(d.gain_sum),
                _q(d.expected_gain_sum),
                _q(d.variance_sum),
            ]
            for d in found.seat_order
        ],
        "seats_not_followed": found.seats_not_followed,
        "trail": [
            [
                t.decided,
                t.every,
                _q(t.difference),
                _q(t.variance),
                [[i, _q(a), x, _q(b), y] for i, a, x, b, y in t.points],
            ]
            for t in found.trail_parts
        ],
        "deal_counts": state_to_plain(found.deal_counts),
        "digests": state.digests.astype("<u8").tobytes().hex(),  # text: Dask hands bytes over as frames of its own
        "batches": [list(b) for b in state.batches],
    }


PLAIN_KEYS = (
    "lines",
    "rounds",
    "table_rounds",
    "problems",
    "problem_count",
    "duplicates",
    "mispaid",
    "mispaid_count",
    "overpaid",
    "underpaid",
    "not_checked",
    "not_checked_count",
    "not_checked_by",
    "meters",
    "breaks",
    "returns",
    "cards",
    "sharp",
    "seats",
    "seats_not_followed",
    "trail",
    "deal_counts",
    "digests",
    "batches",
)


def _as_lists(data: object, depth: int = 0) -> Any:
    """Plain data with its tuples as lists (Dask's msgpack reads arrays as tuples), at most a few levels deep."""
    if depth > 8:
        raise ValueError("a part's state is a few levels deep")
    if isinstance(data, list | tuple):
        return [_as_lists(x, depth + 1) for x in data]
    if isinstance(data, dict):
        return {k: _as_lists(v, depth + 1) for k, v in data.items()}
    return data


def _battery_lists(data: object) -> Any:
    """A battery's plain state with its tuples as lists, by its known shape (its counts at once, not one by one);
    anything else left as it is, for :func:`~trey.audit.integrity.battery.state_of_plain` to refuse."""

    def counts(c: object) -> object:
        if not isinstance(c, dict) or not isinstance(c.get("cells"), dict):
            return c
        return {**c, "cells": {n: list(v) if isinstance(v, tuple) else v for n, v in c["cells"].items()}}

    if not isinstance(data, dict):
        return data
    groups = data.get("groups")
    if isinstance(groups, dict):
        groups = {
            label: [
                [pair[0], counts(pair[1])] if isinstance(pair, list | tuple) and len(pair) == 2 else pair
                for pair in values
            ]
            if isinstance(values, list | tuple)
            else values
            for label, values in groups.items()
        }
    return {**data, "overall": counts(data.get("overall")), "groups": groups}


def part_of_plain(shared: Shared, raw: object) -> PartState:
    """A part's state read as a claim: ValueError for anything that is not such a state, or whose counts do not
    agree with each other (more listed than counted, seats' rounds that are not the rounds decided, points of the
    trail where the trail has none, digests unsorted or more than the rounds)."""
    if not isinstance(raw, dict) or set(raw) != set(PLAIN_KEYS):
        raise ValueError("a part's state has its keys")
    data: dict[str, Any] = _as_lists({k: v for k, v in raw.items() if k != "deal_counts"})
    data["deal_counts"] = _battery_lists(raw["deal_counts"])
    found = Audit(shared.spec, alpha=shared.alpha)
    for name in ("lines", "rounds", "table_rounds", "problem_count", "duplicates", "mispaid_count"):
        setattr(found, name, _whole(data[name], name))
    found.not_checked_count = _whole(data["not_checked_count"], "not_checked_count")
    found.seats_not_followed = _whole(data["seats_not_followed"], "seats_not_followed")
    for row in _list(data["problems"], "problems", KEPT):
        file, line, round_id, code, message = _row(row, "a problem", 5)
        found.problems.append(
            LogProblem(
                _text(file, "file"),
                _whole(line, "line"),
                _text(round_id, "round", optional=True),
                _text(code, "code"),
                _text(message, "message"),
            )
        )
    wagers = shared.spec.wagers.ids
    for row in _list(data["mispaid"], "mispaid", KEPT):
        line, round_id, wager, logged, due, reason, order = _row(row, "a mis-paid wager", 7)
        if wager not in wagers:
            raise ValueError("a mis-paid wager of the paytable")
        found.mispaid.append(
            MisPaid(
                _whole(line, "line"),
                _text(round_id, "round"),
                wager,
                _exact(logged, "logged"),
                _exact(due, "due"),
                _text(reason, "reason"),
                _whole(order, "order"),
            )
        )
    found.overpaid, found.underpaid = _exact(data["overpaid"], "overpaid"), _exact(data["underpaid"], "underpaid")
    for row in _list(data["not_checked"], "not_checked", KEPT):
        line, round_id, wager, logged, reason, why = _row(row, "a wager not checked", 6)
        if wager not in wagers:
            raise ValueError("a wager of the paytable")
        found.not_checked.append(
            NotChecked(
                _whole(line, "line"),
                _text(round_id, "round"),
                wager,
                _exact(logged, "logged"),
                _text(reason, "reason"),
                Unchecked(why),
            )
        )
    for row in _list(data["not_checked_by"], "not_checked_by", len(Unchecked)):
        why, count, lines = _row(row, "a count of jackpots not checked", 3)
        kind = Unchecked(why)
        if kind in found.not_checked_by:
            raise ValueError("each reason once")
        found.not_checked_by[kind] = _whole(count, "count")
        found.not_checked_lines[kind] = [_whole(n, "line") for n in _list(lines, "lines", LINES_NAMED)]
    opened, not_followed, break_count = _row(data["meters"], "the meters", 3)
    meters = found.meters
    meters.opened, meters.not_followed = _whole(opened, "opened"), _whole(not_followed, "not followed")
    meters.break_count = _whole(break_count, "breaks")
    for row in _list(data["breaks"], "breaks", KEPT):
        line, round_id, wager, table, logged, carried, since = _row(row, "a meter break", 7)
        if wager not in wagers:
            raise ValueError("a wager of the paytable")
        meters.breaks.append(
            MeterBreak(
                _whole(line, "line"),
                _text(round_id, "round"),
                wager,
                _text(table, "table"),
                _exact(logged, "logged"),
                _exact(carried, "carried"),
                _whole(since, "since"),
            )
        )
    returns = _list(data["returns"], "returns", len(wagers))
    for row in returns:
        wager, *figures = _row(row, "a wager's return", 1 + len(RETURN_TOTALS))
        if wager not in wagers or wager in found.returns:
            raise ValueError("each wager of the paytable once")
        values = [_exact(f, "a total") for f in figures]
        if any(v.denominator != 1 for v in values):
            raise ValueError("a wager's totals are whole")
        totals = found.returns[wager] = WagerReturn(wager, wager)
        for name, value in zip(RETURN_TOTALS, values, strict=True):
            setattr(totals, name, int(value))
        if totals.rounds > found.rounds:
            raise ValueError("a wager's rounds are rounds audited")
    by_position, repeats, first, last = _row(data["cards"], "the card counts", 4)
    cards = found.cards
    cards.by_position = np.array([_whole(x, "a count") for x in _row(by_position, "counts", 312)], dtype=np.int64)
    cards.by_position = cards.by_position.reshape(6, 52)
    cards.repeats = np.array([_whole(x, "a count") for x in _row(repeats, "repeats", 7)], dtype=np.int64)
    for into, rows in ((cards.first, first), (cards.last, last)):
        for row in _list(rows, "tables", MAX_TABLES_FOLLOWED):
            table, mask = _row(row, "a table's cards", 2)
            if _whole(mask, "cards") >= 1 << 52 or mask.bit_count() != 6 or _text(table, "table") in into:
                raise ValueError("six cards a round, each table once")
            into[table] = mask
    totals = cards.by_position.sum(axis=1)
    if len(set(totals.tolist())) != 1 or int(totals[0]) > found.rounds or int(cards.repeats.sum()) > found.rounds:
        raise ValueError("six cards a round counted")
    expected, variance, actual, decided = _row(data["sharp"], "the sharp test", 4)
    found.expected_net, found.variance_sum = _exact(expected, "expected"), _exact(variance, "variance")
    found.actual_net, found.decided = _exact(actual, "actual"), _whole(decided, "decided")
    if found.decided > found.rounds or found.variance_sum < 0:
        raise ValueError("the rounds decided are rounds audited")
    followed = 0
    for row in _list(data["seats"], "seats", MAX_SEATS):
        seat, rounds, below, above, gain, expected_gain, spread = _row(row, "a seat", 7)
        decisions = SeatDecisions(
            _text(seat, "seat"), _whole(rounds, "rounds"), _whole(below, "plays"), _whole(above, "folds")
        )
        decisions.gain_sum, decisions.expected_gain_sum = _exact(gain, "gain"), _exact(expected_gain, "expected")
        decisions.variance_sum = _exact(spread, "variance")
        if decisions.seat in found.seat_codes or decisions.deviations > decisions.rounds or decisions.variance_sum < 0:
            raise ValueError("each seat once, its deviations among its rounds")
        found.seat_codes[decisions.seat] = len(found.seat_order)
        found.seat_order.append(decisions)
        followed += decisions.rounds
    if followed + found.seats_not_followed != found.decided:
        raise ValueError("the seats' rounds are the rounds decided")
    [trail] = _list(data["trail"], "trail", 1) or [[0, 1, "0", "0", []]]
    decided, every, difference, spread, points = _row(trail, "a trail", 5)
    part = TrailPart(_whole(decided, "decided"), _whole(every, "every"))
    part.difference, part.variance = _exact(difference, "difference"), _exact(spread, "variance")
    if part.decided != found.decided or part.every & (part.every - 1) or not part.every:
        raise ValueError("a trail of the rounds decided, spaced by a power of two")
    for row in _list(points, "points", Trail.MAX_POINTS - 1):
        i, start, run, start_variance, run_variance = _row(row, "a point", 5)
        if _whole(i, "round") >= part.decided or (i + 1) % part.every or (part.points and i <= part.points[-1][0]):
            raise ValueError("a trail's points at its spacing, in order")
        if not isinstance(run, float) or not isinstance(run_variance, float):
            raise ValueError("a point's running sums are floats")
        part.points.append((i, _exact(start, "start"), run, _exact(start_variance, "start"), run_variance))
    found.trail_parts.append(part)
    deals = state_of_plain(data["deal_counts"])
    if deals.rounds != found.table_rounds:
        raise ValueError("the battery's rounds are the table rounds read")
    found.deal_counts = deals
    text = data["digests"]
    if not isinstance(text, str) or len(text) % 16 or len(text) // 16 > found.rounds:
        raise ValueError("a digest a round, at most")
    packed = bytes.fromhex(text)
    digests = np.frombuffer(packed, dtype="<u8").astype(np.uint64)
    if len(digests) > 1 and not bool((digests[1:] > digests[:-1]).all()):
        raise ValueError("the digests sorted, each once")
    batches = []
    for row in _list(data["batches"], "batches", found.lines + 2):
        fragment, deck = _row(row, "a batch", 2)
        if fragment is not None:
            _whole(fragment, "fragment")
        if deck is not None and not isinstance(deck, bool):
            raise ValueError("a deck or not")
        batches.append((fragment, deck))
    if found.problem_count < max(found.duplicates, len(found.problems)) or found.mispaid_count < len(found.mispaid):
        raise ValueError("what is listed is counted")
    if found.not_checked_count < len(found.not_checked) or meters.break_count < len(meters.breaks):
        raise ValueError("what is listed is counted")
    if sum(found.not_checked_by.values()) != found.not_checked_count or found.overpaid < 0 or found.underpaid < 0:
        raise ValueError("the jackpots not checked, by why")
    return PartState(found, digests, batches)


class Depends:
    """What the parts met so far hand on to the next, read part by part in their order: :meth:`on` says why a part
    cannot be audited apart from those before it ("" when it can). Bounded: the ids' digests are kept as one
    process keeps them (:class:`~trey.audit.seen.SeenIds`, on disk past its memory), the tables, seats and labels
    are fewer than those followed."""

    def __init__(self, shared: Shared, seen: SeenIds) -> None:
        self.seen = seen
        self.progressive = any(b.progressive is not None for b in shared.spec.wagers.side_bets)
        self.tables: set[str] = set()
        self.seats: set[str] = set()
        self.labels: dict[str, set[str]] = {}
        self.decks: dict[int, bool] = {}

    def on(self, part: Part, state: PartState) -> str:
        found = state.found
        digests = state.digests
        if len(digests) and bool((self.seen.earlier(digests, np.zeros(len(digests), np.uint64)) != NEW).any()):
            return "a round id is logged in two parts (or two ids share a digest)"
        met = set(found.cards.first)
        if self.progressive and met & self.tables:
            return "a table's progressive meter runs from one part into another"
        self.tables |= met
        if len(found.cards.first) >= MAX_TABLES_FOLLOWED or len(self.tables) >= MAX_TABLES_FOLLOWED:
            return f"the parts meet {MAX_TABLES_FOLLOWED:,} tables or more"
        self.seats |= set(found.seats)
        if found.seats_not_followed or len(self.seats) > MAX_SEATS:
            return f"the parts have more than {MAX_SEATS:,} seats"
        counts = found.deal_counts
        for label, values in counts.groups.items():
            labels = self.labels.setdefault(label, set())
            labels.update(values)
            if len(labels) > MAX_TRACKED or counts.untracked.get(label):
                return f"the parts have more than {MAX_TRACKED:,} values of a label"
        if part.fragment is not None:
            if any(fragment is None for fragment, _ in state.batches):
                return "a fragment of a dataset was read strictly"
            deck = next((d for _, d in state.batches if d is not None), None)
            if deck is not None and self.decks.setdefault(part.log, deck) != deck:
                return "the fragments of a dataset differ on the deck"
        return ""


def merge(found: Audit, state: PartState) -> None:
    """A part's state (checked) added to ``found``, the audit of the parts before it: as one process reads on."""
    part = state.found
    found.lines += part.lines
    found.rounds += part.rounds
    found.table_rounds += part.table_rounds
    found.problems += part.problems[: max(0, KEPT - len(found.problems))]
    found.problem_count += part.problem_count
    found.duplicates += part.duplicates
    found.mispaid += part.mispaid[: max(0, KEPT - len(found.mispaid))]
    found.mispaid_count += part.mispaid_count
    found.overpaid += part.overpaid
    found.underpaid += part.underpaid
    found.not_checked += part.not_checked[: max(0, KEPT - len(found.not_checked))]
    found.not_checked_count += part.not_checked_count
    for why, count in part.not_checked_by.items():
        found.not_checked_by[why] = found.not_checked_by.get(why, 0) + count
        lines = found.not_checked_lines.setdefault(why, [])
        lines += part.not_checked_lines.get(why, [])[: max(0, LINES_NAMED - len(lines))]
    meters, theirs = found.meters, part.meters
    meters.opened += theirs.opened
    meters.not_followed += theirs.not_followed
    meters.break_count += theirs.break_count
    meters.breaks += theirs.breaks[: max(0, KEPT - len(meters.breaks))]
    for wager, totals in part.returns.items():
        mine = found.returns[wager]
        for name in RETURN_TOTALS:
            setattr(mine, name, getattr(mine, name) + getattr(totals, name))
    _merge_cards(found.cards, part.cards)
    found.expected_net += part.expected_net
    found.variance_sum += part.variance_sum
    found.actual_net += part.actual_net
    found.decided += part.decided
    for seat in part.seat_order:
        code = found.seat_codes.get(seat.seat)
        if code is None:
            code = found.seat_codes[seat.seat] = len(found.seat_order)
            found.seat_order.append(SeatDecisions(seat.seat))
        mine_seat = found.seat_order[code]
        mine_seat.rounds += seat.rounds
        mine_seat.plays_below += seat.plays_below
        mine_seat.folds_above += seat.folds_above
        mine_seat.gain_sum += seat.gain_sum
        mine_seat.expected_gain_sum += seat.expected_gain_sum
        mine_seat.variance_sum += seat.variance_sum
    found.seats_not_followed += part.seats_not_followed
    found.trail_parts += part.trail_parts
    found.deal_counts.merge(part.deal_counts)


def _merge_cards(mine: CardCounts, theirs: CardCounts) -> None:
    """The card counts of a part read after ``mine``'s: each table's first round repeats cards of its last round
    before (the tables are fewer than those followed: :class:`Depends`)."""
    mine.by_position += theirs.by_position
    mine.repeats += theirs.repeats
    for table, cards in theirs.first.items():
        before = mine.last.get(table)
        if before is not None:
            mine.repeats[(before & cards).bit_count()] += 1
        if table not in mine.first:
            mine.first[table] = cards
    mine.last.update(theirs.last)


def audit_on_dask(
    spec: GameSpec,
    logs: list[Path] | list[Source],
    analysis: GameAnalysis | None,
    *,
    alpha: Fraction,
    mapping: Mapping | None,
    scheduler: str,
) -> Audit:
    """:func:`~trey.audit.audit.audit` of ``logs`` on the Dask ``scheduler``, part by part (see the module)."""
    from trey.audit.audit import audit

    parts, why = plan(logs, spec, mapping)
    if why:
        found = audit(spec, logs, analysis, alpha=alpha, mapping=mapping)
        found.ran = f"audited on this machine: {why}"
        return found
    shared = Shared(spec, mapping, alpha, new_key())
    assert len(shared.key) == KEY_BYTES
    where = Where(scheduler=scheduler, recheck=RECHECK)
    plain = Plain(encode=lambda data: data, decode=lambda s, _, data: part_of_plain(s, data))
    found, _, _, _ = prepared(spec, analysis, alpha)
    waiting: dict[int, PartState] = {}  # parts back before those ahead of them: merged in the parts' order
    merged = 0
    with SeenIds(key=shared.key) as seen:
        depends = Depends(shared, seen)
        results = run_chunks(
            _run_part,
            shared,
            [(p,) for p in parts],
            where,
            plain,
            same=lambda here, there: part_of_plain(shared, here) == there,
            does="audits",
        )
        for index, state in results:
            waiting[index] = state
            while merged in waiting and not why:
                ready = waiting.pop(merged)
                why = depends.on(parts[merged], ready)
                if not why:
                    merge(found, ready)
                    merged += 1
            if why:
                getattr(results, "close", lambda: None)()  # the cluster's work left: this machine audits it all
                break
    if why:
        found = audit(spec, logs, analysis, alpha=alpha, mapping=mapping)
        found.ran = f"audited on this machine: {why}"
        return found
    found.ran = f"audited on the Dask cluster at {scheduler}: {len(parts):,} part{'s' if len(parts) != 1 else ''}"
    return finished(found)


def _run_part(shared: Shared, part: Part) -> dict[str, Any]:
    return audit_part(shared, part)
