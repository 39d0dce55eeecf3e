"""The fast reader of table rounds: a batch of rows (a row per seat, the round's fields repeated) checked as arrays.

Like the seat lines' columnar reader (:mod:`trey.audit.columnar`) it proves rounds clean; it never refuses one. Every
distinct value of a column (a card's text, an amount, a round id, a label, a seat's number) goes through the very
function the strict reader (:mod:`trey.audit.tables`) reads it with, once; what is checked row by row and round by
round — nulls, list lengths, the bets and nets a seat names, the table's limits, the decision, the parts, seats
rising within the table's count, every card distinct, the deck's order — is checked on arrays. A round it cannot
prove (anything unusual: seats out of order, a value refused, rows that disagree) is handed to the strict reader,
which refuses it, when it must, in its words. So an audit is the same with it and without it; it is only faster.
"""

from __future__ import annotations

import contextlib
import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from trey.audit.columnar import MAX_WHOLE_AMOUNT
from trey.audit.deals import GROUPS
from trey.audit.rounds import MAX_ID_CHARACTERS, PARTS, Rounds, meters
from trey.cards.card import DECK_SIZE
from trey.paytable.model import ANTE_PLAY, GameSpec

HAND = 3
TABLE_SEATS = 7
BAD = -1
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass
class Long:
    """A batch's rows in the format's terms, each field a pyarrow array a row long (None: the source has no such
    column); cards as list arrays of the cards' texts. ``group``: the round of each row (0, 1, ... in order)."""

    group: IntArray
    rows: int
    fields: dict[str, pa.Array | None]
    wagers: list[str]  # bet_/net_ names the source gives (the paytable's and any other)
    # A card column as lists of card texts, as the strict reader splits it (``optional``: a blank is no value);
    # None: a column of a type the fast reader does not take.
    lists: Callable[[pa.Array, bool], pa.Array | None] = lambda values, _: values
    grouped: bool = False  # the round's fields are given once a round (JSON Lines): the same on its rows
    per_round: dict[str, pa.Array] = field(default_factory=dict)  # a round's own fields given once a round, by round
    bad_rows: BoolArray | None = None  # rows the source already knows the strict reader must read
    # A round's cards the source has read already (deck, input), as card numbers (BAD: refused), by round (any
    # integer type)
    read_cards: dict[str, IntArray] = field(default_factory=dict)
    # A card column's numbers (rows, width), as ``lists`` and the card reader read them, when the source can read
    # them at once (None: as lists).
    codes: Callable[[pa.Array, int], IntArray | None] | None = None


@dataclass
class Proven:
    """The rounds proven clean: their seats as columns, their dealt cards; ``good``: by round of the batch."""

    good: BoolArray
    seats: Rounds
    dealer: npt.NDArray[np.int8]
    seat_round: IntArray  # the proven round (0, 1, ... among the good) of each seat
    seat_number: npt.NDArray[np.int16]
    player: npt.NDArray[np.int8]
    decks: npt.NDArray[np.int8]  # (good rounds, 52), zeros where has_deck is False
    inputs: npt.NDArray[np.int8]
    has_deck: BoolArray
    has_input: BoolArray
    labels: dict[str, npt.NDArray[np.object_]]
    ids: pa.Array  # the proven rounds' ids, as text


def _each(values: pa.Array, read: Callable[[Any], Any]) -> tuple[list[Any], IntArray]:
    """``read`` of every distinct value of ``values`` (None where it raises), and each row's index into them."""
    encoded = pc.dictionary_encode(values)
    if isinstance(encoded, pa.ChunkedArray):
        encoded = encoded.combine_chunks()
    found = []
    for value in encoded.dictionary.to_pylist():
        try:
            found.append(read(value))
        except (ValueError, TypeError, ArithmeticError, Exception):
            found.append(None)
    indices = encoded.indices.fill_null(len(found)).to_numpy(zero_copy_only=False).astype(np.int64)
    return [*found, None], indices  # a null row: index len(found), read as None


def _two_byte_cards(flat: pa.Array, card_of: Callable[[str], int]) -> IntArray | None:
    """Each text's card number (:data:`BAD` where ``card_of`` refuses it) when every text is two bytes long, as
    "Qd" is: each distinct pair of bytes read by ``card_of`` once, the rest looked up in a table by the pair's
    number (no text made of each). None when a text is null or of another length (:func:`_each` reads them)."""
    if not pa.types.is_string(flat.type) or flat.null_count:
        return None
    _, offset_buffer, data_buffer = flat.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=np.int32)[flat.offset : flat.offset + len(flat) + 1]
    if data_buffer is None or not bool((np.diff(offsets) == 2).all()):
        return None
    data = np.frombuffer(data_buffer, dtype=np.uint8)
    starts = offsets[:-1]
    return pair_cards((data[starts].astype(np.int64) << 8) | data[starts + 1], card_of)


def pair_cards(pairs: IntArray, card_of: Callable[[str], int]) -> IntArray:
    """The card number of each two-byte text, given as its bytes' number (first byte x 256 + second): each distinct
    one read by ``card_of`` once (:data:`BAD` where it refuses it), the rest looked up."""
    # The pairs read so far by this card_of (a source's readers live as long as the source is read).
    found = _PAIRS.get(card_of)
    if found is None:  # two threads may both make one: the one kept is read again, nothing wrong is looked up
        found = _PAIRS[card_of] = (np.full(1 << 16, BAD, dtype=np.int64), np.zeros(1 << 16, dtype=bool))
    table, known = found
    if bool(known[pairs].all()):  # every pair read before (a source's cards after its first batch)
        looked_up: IntArray = table[pairs]
        return looked_up
    met = np.zeros(1 << 16, dtype=bool)
    met[pairs] = True
    for pair in np.flatnonzero(met & ~known).tolist():
        with contextlib.suppress(Exception):  # refused: BAD, as _each takes it (the strict reader says why)
            table[pair] = card_of(bytes((pair >> 8, pair & 0xFF)).decode("utf-8"))
        known[pair] = True  # after its number: a thread reading the table meanwhile finds it known only when set
    numbers: IntArray = table[pairs]
    return numbers


_PAIRS: weakref.WeakKeyDictionary[Callable[[str], int], tuple[IntArray, BoolArray]] = weakref.WeakKeyDictionary()


def _ids(values: pa.Array | None, round_of: Callable[[Any], str], n: int) -> pa.Array:
    """Each value's round id, as text (null where refused or not given). An id of printable ASCII, 1 to
    :data:`~trey.audit.rounds.MAX_ID_CHARACTERS` characters with no space at either end, is what ``round_of``
    takes as it is (:func:`trey.audit.log._round_id`): found by one pattern over the column, and kept as it is;
    ``round_of`` reads the others, each distinct value once."""
    if values is None:
        return pa.nulls(n, pa.string())
    if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
        pattern = rf"^[!-~]([ -~]{{0,{MAX_ID_CHARACTERS - 2}}}[!-~])?$"
        plain = pc.match_substring_regex(values, pattern).fill_null(False).to_numpy(zero_copy_only=False)
        if plain.all():
            return values.cast(pa.string())
        ids: npt.NDArray[Any] = values.to_numpy(zero_copy_only=False).astype(object)
        others = np.flatnonzero(~plain)
        found, index = _each(values.take(pa.array(others, type=pa.int64())), round_of)
        table = np.empty(len(found), dtype=object)
        table[:] = found
        ids[others] = table[index]
        return pa.array(ids, type=pa.string())
    found, index = _each(values, round_of)
    table = np.empty(len(found), dtype=object)
    table[:] = found
    return pa.array(table[index], type=pa.string())


# 2^card for each card number, and 0 for BAD (index -1): a hand's or a deck's cards as one mask
_BITS = np.append(np.left_shift(np.uint64(1), np.arange(DECK_SIZE, dtype=np.uint64)), np.uint64(0))
_FULL = np.uint64((1 << DECK_SIZE) - 1)


def _permutations(codes: IntArray) -> BoolArray:
    """Whether each row of 52 card numbers holds every card once: the sum of 2^card over the row is 2^52 - 1 (52
    powers of two have as many bits set as terms only when they are distinct, and a BAD card counts 0: fewer terms
    than bits)."""
    found: BoolArray = _BITS[codes].sum(axis=1, dtype=np.uint64) == _FULL
    return found


def _cards(
    values: pa.Array | None, width: int, card_of: Callable[[str], int], rows: int
) -> tuple[IntArray, BoolArray, BoolArray]:
    """Each row's cards (rows, width) as numbers, whether the row gives them, and whether they read (given rows)."""
    codes = np.full((rows, width), BAD, dtype=np.int64)
    if values is None:
        return codes, np.zeros(rows, dtype=bool), np.zeros(rows, dtype=bool)
    given = ~values.is_null().to_numpy(zero_copy_only=False)
    lengths = pc.list_value_length(values).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    ok = given & (lengths == width)
    flat = pc.list_flatten(values)
    parents = pc.list_parent_indices(values).to_numpy(zero_copy_only=False).astype(np.int64)
    if len(flat):
        numbers = _two_byte_cards(flat, card_of)
        if numbers is None:
            read, index = _each(flat, card_of)
            numbers = np.array([BAD if r is None else r for r in read], dtype=np.int64)[index]
        if not values.null_count and len(flat) == rows * width and bool((lengths == width).all()):
            codes = numbers.reshape(rows, width)  # every row's whole list, in order: the flat cards are the rows'
            return codes, given, ok & (codes >= 0).all(axis=1)
        keep = ok[parents]
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        position = np.arange(len(flat)) - starts[parents]
        codes[parents[keep], position[keep]] = numbers[keep]
    ok &= (codes >= 0).all(axis=1)
    return codes, given, ok


def _kept_cards(codes: npt.NDArray[np.integer], given: BoolArray, kept: IntArray) -> npt.NDArray[np.int8]:
    """The kept rounds' cards (a deck, an input) as int8, zeros where a round gives none."""
    if bool(given.all()):
        found: npt.NDArray[np.int8] = (codes if len(kept) == len(codes) else codes[kept]).astype(np.int8)
        return found
    return np.where(given[kept][:, None], codes[kept], 0).astype(np.int8)


def prove_rounds(
    long: Long,
    spec: GameSpec,
    *,
    card_of: Callable[[str], int],
    amount_of: Callable[[Any, bool], int],
    text_of: Callable[[Any], str | None],
    round_of: Callable[[Any], str],
    label_of: Callable[[Any], str],
    seat_of: Callable[[Any], int],
    count_of: Callable[[Any], int],
    numbers: IntArray,
    whole_cents: bool = False,
) -> Proven:
    """The rounds of ``long`` it proves clean. The callables are the strict reader's, for one value each: a card's
    number, an amount's cents (signed or not), a table's name (None: not given), a round id, a label, a seat's
    number, a table's count of seats (a null: 7). ``numbers``: each round's line or record number. ``whole_cents``:
    ``amount_of`` reads a whole number w as 100 w cents from 0 (-10^13 + 1 signed) to 10^13 - 1 and refuses the
    others, as the seat lines' reader does (:func:`trey.audit.columnar._cents`): a column of whole numbers is read
    so on arrays."""
    n, group = long.rows, long.group
    groups = int(group[-1]) + 1 if n else 0
    first_row = np.ones(n, dtype=bool)
    first_row[1:] = group[1:] != group[:-1]
    row_ok = np.ones(n, dtype=bool) if long.bad_rows is None else ~long.bad_rows
    f = long.fields

    def group_all(mask: BoolArray) -> BoolArray:
        bad = np.zeros(groups, dtype=bool)
        bad[group[~mask]] = True
        return ~bad

    def constant(values: pa.Array | None) -> BoolArray:
        """Rows whose value is their round's first row's (the round's fields, repeated on each of its rows)."""
        if values is None or n == 0:
            return np.ones(n, dtype=bool)
        first = np.flatnonzero(first_row)[group]
        if pa.types.is_dictionary(values.type) and not values.null_count:
            # The same entry of the dictionary: the same value (a value entered twice in it is left to the strict
            # reader, which finds the rows agree).
            indices = values.indices.to_numpy(zero_copy_only=False)
            agree: BoolArray = indices == indices[first]
            return agree
        same = pc.equal(values, values.take(pa.array(first)))
        both_null = pc.and_(values.is_null(), values.take(pa.array(first)).is_null())
        result: BoolArray = pc.or_(same.fill_null(False), both_null).to_numpy(zero_copy_only=False)
        return result

    def read_ints(
        values: pa.Array | None, read: Callable[[Any], Any], default: int, null: int | None = None, size: int = n
    ) -> tuple[IntArray, BoolArray]:
        """Each value's whole number read, and whether it read (a refused value: False)."""
        if values is None:
            return np.full(size, default, dtype=np.int64), np.ones(size, dtype=bool)
        found, index = _each(values, read)
        found[-1] = null
        ok = np.array([isinstance(v, int) for v in found], dtype=bool)
        numbers = np.array([v if isinstance(v, int) else 0 for v in found], dtype=np.int64)
        return numbers[index], ok[index]

    def read_amounts(values: pa.Array | None, signed: bool) -> tuple[IntArray, BoolArray]:
        """Each row's amount in cents, and whether it read (a null: 0, read)."""
        if whole_cents and values is not None and pa.types.is_int64(values.type):
            whole = values.fill_null(0).to_numpy(zero_copy_only=False)
            readable = (whole >= (-MAX_WHOLE_AMOUNT if signed else 0)) & (whole <= MAX_WHOLE_AMOUNT)
            return np.where(readable, whole, 0) * 100, readable
        return read_ints(values, lambda v: amount_of(v, signed), 0, 0)

    # The round's own fields: the same on each of its rows, each read as the strict reader reads it.
    for name in (
        "round",
        "table",
        "time",
        "dealer",
        "shuffler",
        "shift",
        "table_seats",
        "dealer_cards",
        "deck",
        "input",
    ):
        values = f.get(name)
        if long.grouped or values is None:
            continue
        if pa.types.is_list(values.type) or pa.types.is_large_list(values.type):
            row_ok[:] = False  # lists compared row by row: the strict reader's
        else:
            row_ok &= constant(values)
    first = np.flatnonzero(first_row)
    taken = pa.array(first, type=pa.int64())

    def of_round(name: str) -> pa.Array | None:
        """A round's own field by round: read on its first row (the others hold the same, or the round is not
        proven)."""
        values = long.per_round.get(name)
        if values is None:
            values = f.get(name)
            values = values.take(taken) if values is not None else None
        return values

    round_ok = np.ones(groups, dtype=bool)
    ids = _ids(of_round("round"), round_of, groups)
    if ids.null_count:
        round_ok &= ~ids.is_null().to_numpy(zero_copy_only=False)
    table_values = of_round("table")
    tables = pa.nulls(groups, pa.string())
    if table_values is not None:
        found, index = _each(table_values, text_of)
        read_ok = np.array([v is not None for v in found[:-1]] + [True], dtype=bool)  # a null: no table
        round_ok &= read_ok[index]
        tables = pa.array(found, type=pa.string()).take(pa.array(index, type=pa.int64()))
    labels: dict[str, npt.NDArray[Any]] = {}
    for name in ("time", "dealer", "shuffler", "shift"):
        values = of_round(name)
        if values is None:
            labels[name] = np.full(groups, "", dtype=object)
            continue
        found, index = _each(values, label_of)
        found[-1] = ""
        read_ok = np.array([v is not None for v in found], dtype=bool)
        round_ok &= read_ok[index]
        texts = np.empty(len(found), dtype=object)
        texts[:] = found
        labels[name] = texts[index]
    counts, counts_ok = read_ints(of_round("table_seats"), count_of, TABLE_SEATS, TABLE_SEATS, size=groups)
    round_ok &= counts_ok & (counts >= 1) & (counts <= TABLE_SEATS)
    row_ok &= round_ok[group]

    def round_cards(name: str, width: int) -> tuple[IntArray, BoolArray, BoolArray]:
        """A round's cards, read on its first row (the others are the same): by row."""
        if name in long.read_cards:
            codes = long.read_cards[name]
            given = np.ones(groups, dtype=bool)
            return codes, given, given & (codes >= 0).all(axis=1)
        return card_column(of_round(name), name != "dealer_cards", width, groups)

    def card_column(
        values: pa.Array | None, optional: bool, width: int, rows: int
    ) -> tuple[IntArray, BoolArray, BoolArray]:
        """A column of cards as numbers (rows, width), whether each row gives them and whether they read."""
        if values is not None and long.codes is not None:
            codes = long.codes(values, width)
            if codes is not None:  # every row's cards given, ``width`` of them
                read: BoolArray = np.all(codes >= 0, axis=1)
                return codes, np.ones(rows, dtype=bool), read
        lists = long.lists(values, optional) if values is not None else None
        if values is not None and lists is None:
            row_ok[:] = False
        return _cards(lists, width, card_of, rows)

    dealer_g, _, dealer_ok = round_cards("dealer_cards", HAND)  # by round
    dealer = dealer_g[group]  # by row
    deck, with_deck, deck_ok = round_cards("deck", DECK_SIZE)
    fed, with_input, fed_ok = round_cards("input", DECK_SIZE)
    row_ok &= (dealer_ok & (~with_deck | deck_ok) & (~with_input | (fed_ok & with_deck)))[group]
    # The seat's own fields.
    seat, seat_ok = read_ints(f.get("seat"), seat_of, 0)
    row_ok &= seat_ok & (seat >= 1) & (seat <= counts[group])
    player, _, player_ok = card_column(f.get("player"), False, HAND, n)
    row_ok &= player_ok
    wagers = spec.wagers.ids
    bet_on, bets, net = {}, {}, {}
    for name in long.wagers:
        if name not in wagers:  # a wager the paytable does not offer, named in a row: the strict reader's
            for prefix in ("bet_", "net_"):
                values = f.get(prefix + name)
                if values is not None:
                    row_ok &= values.is_null().to_numpy(zero_copy_only=False)
    any_bet = np.zeros(n, dtype=bool)
    for w in wagers:
        b, t = f.get("bet_" + w), f.get("net_" + w)
        b_on = ~b.is_null().to_numpy(zero_copy_only=False) if b is not None else np.zeros(n, dtype=bool)
        t_on = ~t.is_null().to_numpy(zero_copy_only=False) if t is not None else np.zeros(n, dtype=bool)
        row_ok &= b_on == t_on
        any_bet |= b_on
        b_cents, b_ok = read_amounts(b, False)
        t_cents, t_ok = read_amounts(t, True)
        row_ok &= (~b_on | b_ok) & (~t_on | t_ok)
        bet_on[w] = b_on
        bets[w] = np.where(b_on, b_cents, 0)
        net[w] = np.where(t_on, t_cents, 0)
        table = spec.table
        if table is not None:
            if table.minimum is not None:
                row_ok &= ~b_on | (bets[w] >= math.ceil(Fraction(table.minimum) * 100))
            if table.maximum is not None:
                row_ok &= ~b_on | (bets[w] <= math.floor(Fraction(table.maximum) * 100))
    row_ok &= any_bet
    ante = bet_on.get(ANTE_PLAY, np.zeros(n, dtype=bool))
    decision = f.get("decision")
    if decision is not None:
        is_text = (
            pa.types.is_string(decision.type)
            or pa.types.is_large_string(decision.type)
            or pa.types.is_null(decision.type)
        )
        if not is_text:
            row_ok[:] = False
        plays = pc.equal(decision, "play").fill_null(False).to_numpy(zero_copy_only=False)
        folds = pc.equal(decision, "fold").fill_null(False).to_numpy(zero_copy_only=False)
    else:
        plays = folds = np.zeros(n, dtype=bool)
    row_ok &= ~ante | plays | folds
    part_cols = [f.get(p) for p in PARTS]
    part_on = [
        ~c.is_null().to_numpy(zero_copy_only=False) if c is not None else np.zeros(n, dtype=bool) for c in part_cols
    ]
    has_parts = part_on[0] | part_on[1] | part_on[2]
    row_ok &= ~has_parts | (part_on[0] & part_on[1] & part_on[2] & ante)
    parts = np.zeros((n, len(PARTS)), dtype=np.int64)
    for k, c in enumerate(part_cols):
        if c is None:
            continue
        read, read_ok = read_amounts(c, True)
        row_ok &= ~part_on[k] | read_ok
        parts[:, k] = np.where(part_on[k], read, 0)
    # The round as a whole: at most its table's seats, seats rising, every card once, the deck's order.
    good = group_all(row_ok) if n else np.zeros(0, dtype=bool)
    sizes = np.bincount(group, minlength=groups)
    good &= sizes <= counts
    rising = np.ones(n, dtype=bool)
    rising[1:] = first_row[1:] | (seat[1:] > seat[:-1])
    good &= group_all(rising)
    rank = np.arange(n) - first[group]
    # Every card dealt once in the round (the players' and the dealer's): the sum of 2^card over them is their OR
    # (at most 24 cards a round of at most 7 rows: no carry past 64 bits).
    if n:
        player_bits, dealer_bits = _BITS[player], _BITS[dealer_g]
        sums = np.add.reduceat(player_bits.sum(axis=1, dtype=np.uint64), first)
        sums += dealer_bits.sum(axis=1, dtype=np.uint64)
        ors = np.bitwise_or.reduceat(np.bitwise_or.reduce(player_bits, axis=1), first)
        good &= sums == (ors | np.bitwise_or.reduce(dealer_bits, axis=1))
    good &= ~with_deck | _permutations(deck)
    good &= ~with_input | _permutations(fed)
    # The hands are the deck's packets of three: a seat's the (rank + 1)-th, the dealer's the one after the seats.
    from_deck = deck.ravel()[
        (group * DECK_SIZE)[:, None] + np.minimum(HAND * rank[:, None] + np.arange(HAND), DECK_SIZE - 1)
    ]
    good &= group_all(~with_deck[group] | (from_deck == player).all(axis=1))
    dealer_from = deck.ravel()[
        (np.arange(groups) * DECK_SIZE)[:, None] + np.minimum(HAND * sizes[:, None] + np.arange(HAND), DECK_SIZE - 1)
    ]
    good &= ~with_deck | (dealer_from == dealer_g).all(axis=1)
    # The proven rounds' seats as columns and their dealt cards.
    picked = np.flatnonzero(good[group])
    picked_rounds = pa.array(group[picked], type=pa.int64())
    id_rows = ids.take(picked_rounds)
    seat_text = pa.array(seat[picked]).cast(pa.string())
    metered = meters(spec)
    proven_round = np.cumsum(good) - 1
    seats = Rounds(
        numbers[group[picked]],
        pc.binary_join_element_wise(id_rows, seat_text, "/"),
        tables.take(picked_rounds),
        pa.array(seat[picked], type=pa.int64()),
        player[picked],
        dealer[picked],
        ~(ante & folds)[picked],
        {w: a[picked] for w, a in bet_on.items()},
        {w: a[picked] for w, a in bets.items()},
        {w: a[picked] for w, a in net.items()},
        has_parts[picked],
        parts[picked],
        {w: np.zeros(len(picked), dtype=bool) for w in metered},
        {w: np.zeros(len(picked), dtype=np.int64) for w in metered},
    )
    kept = np.flatnonzero(good)
    kept_rounds = pa.array(kept, type=pa.int64())
    return Proven(
        good,
        seats,
        dealer_g[kept].astype(np.int8),
        proven_round[group[picked]].astype(np.int64),
        seat[picked].astype(np.int16),
        player[picked].astype(np.int8),
        _kept_cards(deck, with_deck, kept),
        _kept_cards(fed, with_input, kept),
        with_deck[kept],
        with_input[kept],
        {
            "table": tables.take(kept_rounds).fill_null("").to_numpy(zero_copy_only=False).astype(object),
            **{g: labels[g][kept] for g in GROUPS if g != "table"},
        },
        ids.take(kept_rounds),
    )
