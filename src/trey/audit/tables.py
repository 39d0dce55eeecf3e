"""Table rounds (hand-history format 2): one dealer hand and up to seven seats dealt from one deck, read as a whole.

A table round is a JSON object (one line of a JSON Lines log, or the rows of one round in a CSV, Parquet or SQL
source, :mod:`trey.audit.sources`)::

    {"round": "T1-0000001", "table": "T1", "time": "...", "dealer": "D-117", "shuffler": "SN-88", "shift": "night",
     "table_seats": 7, "dealer_cards": ["Qd", "3s", "2d"],
     "seats": [{"seat": 1, "player": [...], "decision": "play", "bets": {...}, "net": {...}, "parts": {...}}, ...],
     "deck": [52 cards], "input": [52 cards]}

Each seat holds a seat line's own fields (player, decision, bets, net, parts: read by the seat lines' reader,
:func:`trey.audit.log._round`, so a seat is held to exactly what a seat line is); the round's id, table and dealer's
cards are the round's. The round is checked as a whole: its dealer's three cards; one to ``table_seats`` seats (7
by default), each numbered 1 to ``table_seats`` once; 3 x seats + 3 distinct cards; when the deck is given, 52
distinct cards, and the hands are its first cards in the order the deck deals them (:data:`DEAL_RULE`); the input
52 distinct cards. Every seat is re-settled by the audit as a seat line is; its id is ``round/seat``.

A log's first table round with a deck decides: every round of it gives one (or none does), as
:class:`~trey.audit.deals.DealRecords` holds decks for all rounds or none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from trey.audit.deals import GROUPS, DealRecords
from trey.audit.log import KEPT, MAX_ROUNDS, Batch, LoggedRound, LogProblem, _card, _Refused, _round, rounds_of
from trey.audit.rounds import MAX_ID_CHARACTERS, Rounds, meters
from trey.audit.seen import NEW, SeenIds
from trey.audit.table_columns import Long, Proven, prove_rounds
from trey.cards.card import DECK_SIZE, Card
from trey.paytable.model import GameSpec

TABLE_SEATS = 7  # a Three Card Poker table's seats, at most and by default
HAND = 3
DEAL_RULE = (
    "the deck deals three cards at a time: to each seat in rising seat number, then to the dealer; each hand is "
    "three consecutive cards of the deck in the order they left the shuffler"
)
MAX_LABEL_CHARACTERS = MAX_ID_CHARACTERS  # a dealer's, shuffler's or shift's name, and a time
ROUND_FIELDS = ("round", "table", "time", "dealer", "shuffler", "shift", "table_seats", "dealer_cards", "deck", "input")
SEAT_OWN = ("round", "table", "dealer")  # fields a seat takes from its round, never gives itself
SEATS_AT_ONCE = 4_096  # seats turned into columns at a time


@dataclass(frozen=True)
class TableRound:
    """One table round read and checked whole; ``seats`` as seat lines (ids ``round/seat``, in the log's order)."""

    line: int
    round: str
    labels: tuple[str, str, str, str]  # by GROUPS: table, dealer, shuffler, shift ("": not given)
    dealer: tuple[Card, ...]
    seats: tuple[LoggedRound, ...]
    deck: tuple[int, ...] | None = None
    input: tuple[int, ...] | None = None


def _cards(value: object, what: str, count: int, code: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or len(value) != count or not all(isinstance(c, str) and len(c) <= 3 for c in value):
        example = '["Qd", "3s", "2d"]' if count == HAND else "every card of the deck, once each"
        raise _Refused(
            code, f"{what} must be {count} cards such as {example}" if count == HAND else f"{what}: {example}"
        )
    try:
        return tuple(_card(c) for c in value)
    except ValueError as exc:
        raise _Refused(code, f"{what}: {exc}") from None


def _deck(value: object, what: str) -> tuple[int, ...]:
    cards = _cards(value, what, DECK_SIZE, "round.deck")
    if len(set(cards)) != DECK_SIZE:
        twice = sorted({str(c) for c in cards if cards.count(c) > 1})[:5]
        raise _Refused("round.deck", f"{what} holds a card twice: {', '.join(twice)} (it is the 52 cards once each)")
    return tuple(int(c) for c in cards)


def _label(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_LABEL_CHARACTERS or not value.isprintable():
        raise _Refused(
            "round.label",
            f"a round's {name} is text of 1 to {MAX_LABEL_CHARACTERS} characters that can all be seen",
        )
    return value


def table_round(data: Any, spec: GameSpec, metered: dict[str, Fraction]) -> TableRound:
    """``data`` (a table round as JSON) read and checked whole; :class:`_Refused` with its code otherwise."""
    if not isinstance(data, dict):
        raise _Refused("log.field", "a table round is a JSON object")
    round_id = data.get("round")
    for name in ("time", "dealer", "shuffler", "shift"):
        _label(data, name)
    labels = (data.get("table"), _label(data, "dealer"), _label(data, "shuffler"), _label(data, "shift"))
    count = data.get("table_seats", TABLE_SEATS)
    if type(count) is not int or not 1 <= count <= TABLE_SEATS:
        raise _Refused(
            "round.label", f"a round's table_seats (the seats at its table) is a whole number 1 to {TABLE_SEATS}"
        )
    dealer = _cards(data.get("dealer_cards"), "dealer_cards", HAND, "log.card")
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats:
        raise _Refused("round.seats", "a table round has seats: a list of one seat or more")
    if len(seats) > count:
        raise _Refused("round.seats", f"{len(seats)} seats at a table of {count}")
    logged = []
    numbers: list[int] = []
    for index, seat in enumerate(seats, 1):
        if not isinstance(seat, dict):
            raise _Refused("round.seats", f"seat {index} of the list is not a JSON object")
        number = seat.get("seat")
        if type(number) is not int or not 1 <= number <= count:
            raise _Refused("round.seat-number", f"seat {index} of the list: its seat is a whole number 1 to {count}")
        if number in numbers:
            raise _Refused("round.seat-number", f"seat {number} is given twice")
        numbers.append(number)
        given = [k for k in SEAT_OWN if k in seat]
        if given:
            raise _Refused("log.field", f"seat {number}: {given[0]!r} is the round's, not a seat's")
        line = dict(seat)
        line["round"], line["table"], line["dealer"] = round_id, data.get("table"), data.get("dealer_cards")
        try:
            found = _round(line, spec, metered)
        except _Refused as exc:
            raise _Refused(exc.code, f"seat {number}: {exc}") from None
        logged.append(replace(found, round=f"{found.round}/{number}"))
    dealt = list(dealer) + [c for s in logged for c in s.player]
    if len(set(dealt)) != len(dealt):
        twice = sorted({str(c) for c in dealt if dealt.count(c) > 1})
        raise _Refused("round.card-twice", f"a card is dealt twice in the round: {', '.join(twice)}")
    deck = _deck(data["deck"], "deck") if data.get("deck") is not None else None
    fed = _deck(data["input"], "input") if data.get("input") is not None else None
    if fed is not None and deck is None:
        raise _Refused("round.deck", "a round with its input gives its deck too (the order the cards left in)")
    if deck is not None:
        order = sorted(range(len(logged)), key=lambda i: numbers[i])
        for place, i in enumerate(order):
            _dealt_from(deck, place, logged[i].player, f"seat {numbers[i]}")
        _dealt_from(deck, len(logged), dealer, "the dealer")
    table = logged[0].table or ""
    return TableRound(0, logged[0].round.rsplit("/", 1)[0], (table, *labels[1:]), dealer, tuple(logged), deck, fed)


def _dealt_from(deck: tuple[int, ...], place: int, hand: tuple[Card, ...], who: str) -> None:
    expected = deck[HAND * place : HAND * place + HAND]
    if tuple(int(c) for c in hand) != expected:
        shown = " ".join(str(Card(c)) for c in expected)
        raise _Refused(
            "round.deal-order",
            f"{who} holds {' '.join(str(c) for c in hand)} where the deck deals {shown} (cards {HAND * place + 1} to "
            f"{HAND * place + HAND}: {DEAL_RULE})",
        )


# What a table round's reader is handed: (line or record number, the round as JSON) or (number, refusal).
Record = tuple[int, Any]


@dataclass
class _Refusal:
    round: str | None
    code: str
    message: str


def refusal(round_id: object, code: str, message: str) -> _Refusal:
    """A record a source could not make a table round of (a line that is not JSON, a row of a wrong type)."""
    shown = (
        round_id[:MAX_ID_CHARACTERS].encode("ascii", "backslashreplace").decode() if isinstance(round_id, str) else None
    )
    return _Refusal(shown, code, message)


@dataclass
class Chunk:
    """Rows a source hands over as columns (:mod:`trey.audit.table_columns`), for the fast reader to prove: the
    rounds it cannot prove are read by ``strict`` (given which rounds were proven), as records."""

    long: Long
    numbers: npt.NDArray[np.int64]  # each round's line or record number
    readers: dict[str, Any]  # prove_rounds' readers (the strict reader's, by value) and flags
    strict: Callable[[npt.NDArray[np.bool_]], Iterator[Record]]
    count: int = -1  # the rounds (records) it holds, those the fast reader never sees included (-1: as proven)
    proven: Proven | None = None  # what the fast reader proves of it, when proven already (on the reading thread)
    part: int | None = None  # the fragment of a Parquet dataset its rows are of

    def prove(self, spec: GameSpec) -> Proven:
        """What the fast reader proves of the chunk (:func:`~trey.audit.table_columns.prove_rounds`)."""
        if self.proven is None:
            self.proven = prove_rounds(self.long, spec, numbers=self.numbers, **self.readers)
        return self.proven


@dataclass
class _Piece:
    """Rounds accepted (proven or read strictly), with their seats and dealt cards, before they are ordered."""

    numbers: npt.NDArray[np.int64]
    ids: pa.Array  # the rounds' ids, as text
    has_deck: npt.NDArray[np.bool_]
    has_input: npt.NDArray[np.bool_]
    dealer: npt.NDArray[np.int8]
    decks: npt.NDArray[np.int8]
    inputs: npt.NDArray[np.int8]
    labels: dict[str, npt.NDArray[np.object_]]
    seat_round: npt.NDArray[np.int64]
    seat_number: npt.NDArray[np.int16]
    player: npt.NDArray[np.int8]
    seats: Rounds


def _strict_piece(rounds: list[TableRound], spec: GameSpec) -> _Piece:
    n = len(rounds)
    deals = deal_records_of(rounds)
    zeros = np.zeros((n, DECK_SIZE), dtype=np.int8)
    return _Piece(
        np.array([r.line for r in rounds], dtype=np.int64),
        pa.array([r.round for r in rounds], type=pa.string()),
        np.array([r.deck is not None for r in rounds], dtype=bool),
        np.array([r.input is not None for r in rounds], dtype=bool),
        deals.dealer,
        np.array([r.deck or [0] * DECK_SIZE for r in rounds], dtype=np.int8).reshape(n, DECK_SIZE) if n else zeros,
        np.array([r.input or [0] * DECK_SIZE for r in rounds], dtype=np.int8).reshape(n, DECK_SIZE) if n else zeros,
        deals.labels,
        deals.seat_round,
        deals.seat_number,
        deals.seats,
        rounds_of([s for r in rounds for s in r.seats], spec),
    )


def _proven_piece(proven: Proven) -> _Piece:
    return _Piece(
        proven.seats.lines[np.r_[0, np.flatnonzero(np.diff(proven.seat_round)) + 1]]
        if len(proven.seats)
        else np.zeros(0, dtype=np.int64),
        proven.ids,
        proven.has_deck,
        proven.has_input,
        proven.dealer,
        proven.decks,
        proven.inputs,
        proven.labels,
        proven.seat_round,
        proven.seat_number,
        proven.player,
        proven.seats,
    )


def read_table_rounds(
    records: Iterator[Record | Chunk],
    name: str,
    spec: GameSpec,
    *,
    seen: SeenIds,
    room: Callable[[], int] = lambda: KEPT,
) -> Iterator[Batch]:
    """The table rounds of one source, batch by batch: every seat as a round the audit re-settles, with the batch's
    :class:`DealRecords` (``Batch.deals``); the problems of records refused, a round id met before included (its
    seats are audited all the same). ``records``: each a round as JSON (or the refusal of one), or a
    :class:`Chunk` of rows as columns."""
    metered = meters(spec)
    log_number = seen.log(name)
    state = _State(name, spec, seen, log_number, room)
    strict: list[TableRound] = []

    def read(line: int, data: Any) -> None:
        if isinstance(data, _Refusal):
            state.add(line, data.round, data.code, data.message)
            return
        try:
            found = table_round(data, spec, metered)
        except _Refused as exc:
            round_id = data.get("round") if isinstance(data, dict) else None
            shown = refusal(round_id, exc.code, str(exc))
            state.add(line, shown.round, shown.code, shown.message)
            return
        strict.append(replace(found, line=line, seats=tuple(replace(s, line=line) for s in found.seats)))

    for item in records:
        if state.read >= MAX_ROUNDS:
            state.add(MAX_ROUNDS + 1, None, "log.too-many", f"more than {MAX_ROUNDS:,} rounds: the rest is not read")
            break
        if isinstance(item, Chunk):
            proven = item.prove(spec)
            state.read += item.count if item.count >= 0 else len(proven.good)
            state.pieces.append(_proven_piece(proven))
            for line, data in item.strict(proven.good):
                read(line, data)
        else:
            state.read += 1
            read(*item)
        if strict and (len(strict) * 2 >= SEATS_AT_ONCE or isinstance(item, Chunk)):
            state.pieces.append(_strict_piece(strict, spec))
            strict = []
        if state.seats() >= SEATS_AT_ONCE or isinstance(item, Chunk):
            batch = state.batch()
            if isinstance(item, Chunk):
                batch.part = item.part
            yield batch
    if strict:
        state.pieces.append(_strict_piece(strict, spec))
    if state.pieces or state.count or state.read:
        yield state.batch()


@dataclass
class _State:
    name: str
    spec: GameSpec
    seen: SeenIds
    log_number: int
    room: Callable[[], int]
    pieces: list[_Piece] = field(default_factory=list)
    problems: list[LogProblem] = field(default_factory=list)
    count: int = 0
    read: int = 0
    read_before: int = 0
    with_deck: bool | None = None

    def add(self, line: int, round_id: str | None, code: str, message: str) -> None:
        # A batch keeps its first KEPT problems as they are met, whatever the caller's room: the caller keeps the
        # first of them by line, so that the problems listed are the first of the batches' lists, each batch's
        # whatever came before it (the same list when the parts of a dataset are audited each on its own).
        self.count += 1
        if len(self.problems) < KEPT:
            self.problems.append(LogProblem(self.name, line, round_id, code, message))

    def seats(self) -> int:
        return sum(len(p.seats) for p in self.pieces)

    def batch(self) -> Batch:
        """The pieces gathered, in the order of their rounds, as one batch (the log's deck rule applied)."""
        pieces = [p for p in self.pieces if len(p.ids)] or [_strict_piece([], self.spec)]
        numbers = np.concatenate([p.numbers for p in pieces])
        offsets = np.cumsum([0] + [len(p.ids) for p in pieces[:-1]])
        seat_round = np.concatenate([p.seat_round + o for p, o in zip(pieces, offsets, strict=True)])
        order = np.argsort(numbers, kind="stable")
        has_deck = np.concatenate([p.has_deck for p in pieces])[order]
        if self.with_deck is None and len(order):
            self.with_deck = bool(has_deck[0])
        ids = pa.concat_arrays([p.ids for p in pieces]) if len(pieces) > 1 else pieces[0].ids
        keep = has_deck == self.with_deck if len(order) else np.zeros(0, dtype=bool)
        had = "a deck" if self.with_deck else "no deck"
        for row in np.flatnonzero(~keep).tolist():
            self.add(
                int(numbers[order[row]]),
                ids[int(order[row])].as_py(),
                "round.deck-mixed",
                f"the log's first round has {had}: every round of it has {had}",
            )
        order = order[keep]
        rank = np.full(len(numbers), -1, dtype=np.int64)
        rank[order] = np.arange(len(order))
        seat_rank = rank[seat_round]
        seat_order = np.argsort(np.where(seat_rank < 0, len(order), seat_rank), kind="stable")[
            : int((seat_rank >= 0).sum())
        ]
        seats = Rounds.joined([p.seats for p in pieces]) if len(pieces) > 1 else pieces[0].seats
        # Rounds.joined orders by line, as ``order`` does; the seats of rounds kept out are dropped.
        if len(pieces) > 1:
            seat_lines_order = np.argsort(np.concatenate([p.numbers[p.seat_round] for p in pieces]), kind="stable")
            kept_seats = (seat_rank >= 0)[seat_lines_order]
        else:
            kept_seats = seat_rank >= 0
        seats = seats if kept_seats.all() else seats.take(kept_seats)
        kept_ids = ids.take(pa.array(order, type=pa.int64()))
        duplicates = self._duplicates(kept_ids, numbers[order])

        def cat(name: str) -> npt.NDArray[Any]:
            return np.concatenate([getattr(p, name) for p in pieces])

        with_input = bool(len(order)) and bool(cat("has_input")[order].all())
        deals = DealRecords(
            dealer=cat("dealer")[order],
            seat_round=seat_rank[seat_order],
            seat_number=cat("seat_number")[seat_order],
            seats=cat("player")[seat_order],
            decks=cat("decks")[order] if self.with_deck else None,
            inputs=cat("inputs")[order] if self.with_deck and with_input else None,
            labels={g: np.concatenate([p.labels[g] for p in pieces])[order] for g in GROUPS},
        )
        self.problems.sort(key=lambda p: p.line)
        batch = Batch(
            seats,
            self.problems[: max(0, self.room())],
            self.count + duplicates,
            duplicates,
            self.read - self.read_before,
            deals=deals,
            with_deck=self.with_deck,
        )
        self.pieces, self.problems, self.count, self.read_before = [], [], 0, self.read
        return batch

    def _duplicates(self, ids: pa.Array, numbers: npt.NDArray[np.int64]) -> int:
        if not len(ids):
            return 0
        wheres = (np.uint64(self.log_number) << np.uint64(32)) | numbers.astype(np.uint64)
        earlier = self.seen.earlier(self.seen.digests(ids), wheres)
        again = np.flatnonzero(earlier != NEW)
        for row in again.tolist():
            log, first = self.seen.where(int(earlier[row]))
            at = f"line {first}" if log == self.name else f"{log}:{first}"
            if len(self.problems) < KEPT:
                self.problems.append(
                    LogProblem(
                        self.name,
                        int(numbers[row]),
                        ids[row].as_py(),
                        "log.duplicate-round",
                        f"the round id is logged twice: first at {at}",
                    )
                )
        return len(again)


def deal_records_of(rounds: list[TableRound]) -> DealRecords:
    """The dealt cards of ``rounds`` as the battery reads them."""
    n = len(rounds)
    seats = [s for r in rounds for s in r.seats]
    with_deck = n > 0 and all(r.deck is not None for r in rounds)
    with_input = with_deck and all(r.input is not None for r in rounds)
    return DealRecords(
        dealer=np.array([r.dealer for r in rounds], dtype=np.int8).reshape(n, HAND),
        seat_round=np.repeat(np.arange(n, dtype=np.int64), [len(r.seats) for r in rounds]).astype(np.int64),
        seat_number=np.array([s.seat for s in seats], dtype=np.int16),
        seats=np.array([s.player for s in seats], dtype=np.int8).reshape(len(seats), HAND),
        decks=np.array([r.deck for r in rounds], dtype=np.int8).reshape(n, DECK_SIZE) if with_deck else None,
        inputs=np.array([r.input for r in rounds], dtype=np.int8).reshape(n, DECK_SIZE) if with_input else None,
        labels={g: np.array([r.labels[i] for r in rounds], dtype=object) for i, g in enumerate(GROUPS)},
    )


def joined_deals(parts: list[DealRecords]) -> DealRecords | None:
    """Several batches' records as one (None: no batch), the rounds numbered on."""
    parts = [p for p in parts if p.rounds]
    if not parts:
        return None
    offsets = np.cumsum([0] + [p.rounds for p in parts[:-1]])
    decks = [p.decks for p in parts]
    inputs = [p.inputs for p in parts]
    return DealRecords(
        dealer=np.concatenate([p.dealer for p in parts]),
        seat_round=np.concatenate([p.seat_round + o for p, o in zip(parts, offsets, strict=True)]),
        seat_number=np.concatenate([p.seat_number for p in parts]),
        seats=np.concatenate([p.seats for p in parts]),
        decks=np.concatenate(decks) if all(d is not None for d in decks) else None,  # type: ignore[arg-type]
        inputs=np.concatenate(inputs) if all(i is not None for i in inputs) else None,  # type: ignore[arg-type]
        labels={g: np.concatenate([p.labels[g] for p in parts]) for g in GROUPS},
    )
