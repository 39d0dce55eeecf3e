"""The fast reader of JSON Lines hand histories: a block of whole lines parsed at once by pyarrow's JSON reader (C++,
into columns) and checked as arrays.

It proves lines clean; it never refuses one. A line it cannot prove — any doubt about the block's text (an
escape, a byte outside printable ASCII, a blank or long line), a type it does not expect, a value outside what it
checks — is left to the line reader (:mod:`trey.audit.log`), which reads it strictly and refuses it, when it must,
with the words and location every other input gets. So an audit is the same with it and without it (the tests
hold the two equal on clean, mis-paid and hostile logs); it is only faster.

Why pyarrow: its reader parses a whole block in C++ on every core, refuses a key given twice in an object
("specified twice"), reads NaN only as a float (a type this reader never gives a column) and refuses text that is
not UTF-8 — the strict reader's rules, or stricter — at about 350,000 lines a second here (2 cores). It is given the
block's columns, typed from its first line (:func:`_schema`), and a key they do not name is an error: what it builds
is those columns, never one per key a hostile line invents.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj

from trey.audit.rounds import (
    AMOUNT_LIMIT,
    MAX_ID_CHARACTERS,
    MAX_SEAT,
    PART_COUNT,
    PARTS,
    BoolArray,
    IntArray,
    Rounds,
    meters,
)
from trey.cards.card import Card
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.paytable.pays import DECIMAL_PATTERN

PRINTABLE = bytes(range(0x20, 0x7F)) + b"\n"  # the only bytes of a block this reader looks into
MAX_WHOLE_AMOUNT = AMOUNT_LIMIT - 1  # the largest whole amount (13 digits), as the line reader bounds it


@dataclass(frozen=True)
class Proven:
    rounds: Rounds  # the lines proven clean, as columns
    doubtful: list[int]  # the other lines, by index in the block (0 is its first), for the line reader


def prove(block: bytes, first_line: int, spec: GameSpec, max_line_bytes: int) -> Proven | None:
    """``block``: whole lines, each ending in a newline (or a carriage return and a newline). None: no line of it
    is proven."""
    if b"\r" in block:
        if block.count(b"\r") != block.count(b"\r\n"):
            return None  # a carriage return inside a line: the line reader's
        block = block.replace(b"\r\n", b"\n")  # the same lines, as the line reader takes them
    if (
        not block.endswith(b"\n")
        or b"\\" in block  # escapes: the strict reader checks what they stand for
        or block.translate(None, PRINTABLE)  # hidden characters, tabs, carriage returns, anything not ASCII
    ):
        return None
    text = np.frombuffer(block, dtype=np.uint8)
    ends = np.flatnonzero(text == ord("\n"))
    lines = len(ends)
    starts = np.concatenate([[0], ends[:-1] + 1])
    if (text[starts] != ord("{")).any():  # every line starts an object: no blank line, nothing before it
        return None
    if int((ends - starts).max()) > max_line_bytes:
        return None
    schema = _schema(block[: int(ends[0])], spec)
    if schema is None:
        return None
    # Every column typed, and a key the schema does not name an error (so the block is the line reader's): what
    # pyarrow builds is the schema's columns, never one per key a hostile line invents (a log of 2,000 lines of
    # 16 KB of distinct keys took 2.9 GB and two minutes).
    options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
    try:
        table = pj.read_json(io.BytesIO(block), parse_options=options)  # pieces of 1 MiB, parsed on every core
    except (pa.ArrowException, UnicodeError, ValueError):
        return None
    # Lines starting with "{" and as many rows as lines: each line is one object (pyarrow would read "{}{}" as two).
    if table.num_rows != lines:
        return None
    proven = _columns(table, first_line, spec)
    if proven is None or b"null" not in block:
        return proven
    # A null reads as a missing field in columns, but the strict reader refuses some nulls ("bets": {"x": null},
    # "parts": null): every line holding one is left to it.
    nulls = np.array([m.start() for m in re.finditer(rb"null", block)], dtype=np.int64)
    with_null = set((np.searchsorted(starts, nulls, side="right") - 1).tolist())
    if not with_null:
        return proven
    keep = ~np.isin(proven.rounds.lines - first_line, list(with_null))
    return Proven(proven.rounds.take(keep), sorted(set(proven.doubtful) | with_null))


KNOWN = ("round", "time", "table", "seat", "player", "dealer", "decision", "bets", "net", "parts", "meter")
AMOUNTS = ("bets", "net", "parts", "meter")  # objects of amounts, by name
MAX_EXTRA_FIELDS = 16  # fields a log's lines carry besides the known ones (typed from the first line)
INT64 = (-(1 << 63), (1 << 63) - 1)
SCALAR_TYPES: dict[type, pa.DataType] = {str: pa.string(), bool: pa.bool_(), int: pa.int64()}


def _schema(first: bytes, spec: GameSpec) -> pa.Schema | None:
    """The columns of a block, typed from its first line: the known fields (an amount's type that of the first line's
    first amount, text or whole), and the other fields of the first line when they are text, whole numbers or
    booleans (a float could be NaN, which the line reader refuses; an object or a list nests). None when the first
    line leaves a doubt: the block is the line reader's."""
    import json

    try:
        line = json.loads(first)
    except ValueError:
        return None
    if (
        not isinstance(line, dict)
        or not isinstance(line.get("round"), str)
        or len(line) > len(KNOWN) + MAX_EXTRA_FIELDS
    ):
        return None
    names = {
        "bets": spec.wagers.ids,
        "net": spec.wagers.ids,
        "parts": PARTS,
        "meter": tuple(meters(spec)),
    }
    given = [v for key in ("bets", "net") if isinstance(line.get(key), dict) for v in line[key].values()]
    amount = SCALAR_TYPES.get(type(given[0])) if given else pa.int64()
    if amount not in (pa.int64(), pa.string()):
        return None
    fields = {"round": pa.string(), "player": pa.list_(pa.string()), "dealer": pa.list_(pa.string())}
    for key, value in line.items():
        if key in fields or key in AMOUNTS:
            continue
        if value is None:
            if key in KNOWN:
                continue  # typed below, as when the line leaves it out
            return None  # the line reader decides what a null means
        kind = SCALAR_TYPES.get(type(value))
        if kind is None or (kind == pa.int64() and not INT64[0] <= value <= INT64[1]):
            return None
        fields[key] = kind
    for key in ("table", "time", "decision"):
        fields.setdefault(key, pa.string())
    fields.setdefault("seat", pa.int64())
    for key, among in names.items():
        if not among:
            continue  # a game without a progressive has no meter: a line that logs one is the line reader's
        value = line.get(key)
        logged: dict[str, Any] = value if isinstance(value, dict) else {}
        children = []
        for name in among:
            kind = SCALAR_TYPES.get(type(logged[name])) if name in logged else amount
            if kind not in (pa.int64(), pa.string()):
                return None
            children.append(pa.field(name, kind))
        fields[key] = pa.struct(children)
    return pa.schema(list(fields.items()))


def _column(table: pa.Table, name: str) -> pa.Array | None:
    if name not in table.column_names:
        return None
    return table.column(name).combine_chunks()


def _columns(table: pa.Table, first_line: int, spec: GameSpec) -> Proven | None:
    n = table.num_rows
    ok = np.ones(n, dtype=bool)

    ids = _column(table, "round")
    if ids is None or not pa.types.is_string(ids.type):
        return None
    lengths = pc.binary_length(ids).fill_null(0).to_numpy(zero_copy_only=False)
    ok &= (lengths >= 1) & (lengths <= MAX_ID_CHARACTERS)
    # Printable ASCII already (the block is); the line reader refuses a space at either end.
    spaced = pc.or_(pc.starts_with(ids, " "), pc.ends_with(ids, " ")).fill_null(False)
    ok &= ~spaced.to_numpy(zero_copy_only=False)

    hands = []
    for seat in ("player", "dealer"):
        cards = _cards(_column(table, seat), n)
        if cards is None:
            return None
        hands.append(cards[0])
        ok &= cards[1]
    player, dealer = hands
    both = np.sort(np.concatenate([player, dealer], axis=1), axis=1)
    ok &= (both[:, 1:] != both[:, :-1]).all(axis=1)  # no card dealt twice

    wagers = spec.wagers.ids
    amounts = {}
    for name, signed in (("bets", False), ("net", True)):
        read = _amounts(_column(table, name), n, wagers, signed=signed)
        if read is None:
            return None
        amounts[name] = read
    bet_on, bets, bets_ok = amounts["bets"]
    net_on, net, net_ok = amounts["net"]
    ok &= bets_ok & net_ok
    for wager in wagers:
        ok &= bet_on[wager] == net_on[wager]
    ok &= np.logical_or.reduce([bet_on[w] for w in wagers])  # at least one bet
    limits = spec.table
    low = limits.minimum if limits is not None else None
    high = limits.maximum if limits is not None else None
    for wager in wagers:  # in whole cents: a bet of c cents is at least low when c >= ceil(100 low)
        if low is not None:
            ok &= ~bet_on[wager] | (bets[wager] >= math.ceil(low * 100))
        if high is not None:
            ok &= ~bet_on[wager] | (bets[wager] <= math.floor(high * 100))

    ante = bet_on.get(ANTE_PLAY, np.zeros(n, dtype=bool))
    plays = np.ones(n, dtype=bool)
    decision = _column(table, "decision")
    if ante.any():
        if decision is None or not pa.types.is_string(decision.type):
            ok &= ~ante
        else:
            play = pc.equal(decision, "play").fill_null(False).to_numpy(zero_copy_only=False)
            fold = pc.equal(decision, "fold").fill_null(False).to_numpy(zero_copy_only=False)
            ok &= ~ante | play | fold
            plays = ~ante | play

    has_parts = np.zeros(n, dtype=bool)
    parts = np.zeros((n, PART_COUNT), dtype=np.int64)
    split = _column(table, "parts")
    if split is not None:
        read = _amounts(split, n, PARTS, signed=True)
        if read is None:
            return None
        on, values, parts_ok = read
        has_parts = split.is_valid().to_numpy(zero_copy_only=False)
        complete = np.logical_and.reduce([on[k] for k in PARTS])
        ok &= ~has_parts | (parts_ok & complete & ante)
        parts = np.stack([values[k] for k in PARTS], axis=1)

    metered = meters(spec)
    meter_on = {w: np.zeros(n, dtype=bool) for w in metered}
    meter = {w: np.zeros(n, dtype=np.int64) for w in metered}
    given = _column(table, "meter")
    if given is not None:
        read = _amounts(given, n, tuple(metered), signed=False)
        if read is None:
            return None
        meter_on, meter, meter_ok = read
        some = np.zeros(n, dtype=bool)  # the line reader refuses an empty mapping
        for logged in meter_on.values():
            some |= logged
        ok &= ~given.is_valid().to_numpy(zero_copy_only=False) | (meter_ok & some)
        for wager, reset in metered.items():  # never below its reset, in whole cents: at least ceil(100 reset)
            ok &= ~meter_on[wager] | (meter[wager] >= math.ceil(reset * 100))

    tables, tables_ok = _texts(_column(table, "table"), n)
    seats, seats_ok = _seats(_column(table, "seat"), n)
    ok &= tables_ok & seats_ok
    rounds = Rounds(
        np.arange(first_line, first_line + n, dtype=np.int64),
        ids,
        tables,
        seats,
        player,
        dealer,
        plays,
        bet_on,
        bets,
        net,
        has_parts,
        parts,
        meter_on,
        meter,
    )
    doubtful = np.flatnonzero(~ok).tolist()
    return Proven(rounds.take(ok) if doubtful else rounds, doubtful)


def _cards(column: pa.Array | None, n: int) -> tuple[IntArray, BoolArray] | None:
    """(n, 3) card numbers and whether each row holds three cards that exist."""
    if column is None or not pa.types.is_list(column.type) or not pa.types.is_string(column.type.value_type):
        return None
    counts = pc.list_value_length(column).fill_null(0).to_numpy(zero_copy_only=False)
    values = column.values
    encoded = pc.dictionary_encode(values)
    texts = encoded.dictionary.to_pylist()
    numbers = np.array([_card_number(t) for t in texts] + [-1], dtype=np.int64)
    codes = numbers[encoded.indices.fill_null(len(texts)).to_numpy(zero_copy_only=False)]
    if not len(codes):
        return np.zeros((n, 3), dtype=np.int64), np.zeros(n, dtype=bool)
    offsets = column.offsets.to_numpy()[:-1]
    where = np.minimum(offsets[:, None] + np.arange(3), len(codes) - 1)
    cards = codes[where]
    return cards, (counts == 3) & (cards >= 0).all(axis=1)


def _card_number(text: str | None) -> int:
    if text is None or len(text) > 3:
        return -1
    try:
        return int(Card.parse(text))
    except ValueError:
        return -1


def _amounts(
    column: pa.Array | None, n: int, names: tuple[str, ...], *, signed: bool
) -> tuple[dict[str, BoolArray], dict[str, IntArray], BoolArray] | None:
    """Per name: whether the row gives it, its amount in cents; and whether the row's amounts are all readable and
    name nothing else."""
    if column is None or not pa.types.is_struct(column.type):
        return None
    valid = column.is_valid().to_numpy(zero_copy_only=False)
    ok = valid.copy()
    given = {name: np.zeros(n, dtype=bool) for name in names}
    values = {name: np.zeros(n, dtype=np.int64) for name in names}
    for index, field in enumerate(column.type):
        child = column.field(index)
        present = valid & child.is_valid().to_numpy(zero_copy_only=False)
        if field.name not in names:
            ok &= ~present
            continue
        read = _cents(child, signed=signed)
        if read is None:
            return None
        amount, readable = read
        given[field.name] = present
        values[field.name] = np.where(present, amount, 0)
        ok &= ~present | readable
    return given, values, ok


def _cents(child: pa.Array, *, signed: bool) -> tuple[IntArray, BoolArray] | None:
    if pa.types.is_int64(child.type):
        whole = child.fill_null(0).to_numpy(zero_copy_only=False)
        low = -MAX_WHOLE_AMOUNT if signed else 0
        readable = (whole >= low) & (whole <= MAX_WHOLE_AMOUNT)
        return np.where(readable, whole, 0) * 100, readable
    if pa.types.is_string(child.type):
        encoded = pc.dictionary_encode(child)
        texts = encoded.dictionary.to_pylist()
        read = [_text_cents(t, signed=signed) for t in texts] + [None]
        amounts = np.array([0 if c is None else c for c in read], dtype=np.int64)
        readable = np.array([c is not None for c in read], dtype=bool)
        index = encoded.indices.fill_null(len(texts)).to_numpy(zero_copy_only=False)
        return amounts[index], readable[index]
    if pa.types.is_null(child.type):
        return np.zeros(len(child), dtype=np.int64), np.zeros(len(child), dtype=bool)
    return None


def _text_cents(text: str, *, signed: bool) -> int | None:
    """ "12.50" or "-7.5" (signed) in cents, as :func:`~trey.paytable.pays.parse_money` reads it; None otherwise."""
    sign = 1
    if signed and text.startswith("-"):
        sign, text = -1, text[1:]
    if text != text.strip() or not DECIMAL_PATTERN.fullmatch(text):
        return None  # the line reader decides (it strips spaces)
    whole, _, decimals = text.partition(".")
    return sign * (int(whole) * 100 + int(decimals.ljust(2, "0") or 0))


def _texts(column: pa.Array | None, n: int) -> tuple[pa.Array, BoolArray]:
    """A round's table, and whether the line reader would take it: text of 1 to 64 characters (printable ASCII
    already, as the block is), or none."""
    if column is None:
        return pa.nulls(n, pa.string()), np.ones(n, dtype=bool)
    given = column.is_valid().to_numpy(zero_copy_only=False)
    if not pa.types.is_string(column.type):
        return pa.nulls(n, pa.string()), ~given
    lengths = pc.utf8_length(column).fill_null(1).to_numpy(zero_copy_only=False)
    return column, (lengths >= 1) & (lengths <= MAX_ID_CHARACTERS)


def _seats(column: pa.Array | None, n: int) -> tuple[pa.Array, BoolArray]:
    """A round's seat, and whether the line reader would take it: a whole number from 1 to 999, or none."""
    if column is None:
        return pa.nulls(n, pa.int64()), np.ones(n, dtype=bool)
    given = column.is_valid().to_numpy(zero_copy_only=False)
    if not pa.types.is_int64(column.type):
        return pa.nulls(n, pa.int64()), ~given
    seat = column.fill_null(1).to_numpy(zero_copy_only=False)
    return column, (seat >= 1) & (seat <= MAX_SEAT)
