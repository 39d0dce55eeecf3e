"""Hand histories: JSON Lines, one played round a line (schemas/hand-history.schema.json), read as a stream.

Every line is read strictly (the JSON reader that refuses duplicate keys, NaN and deep nesting), at most
:data:`MAX_LINE_BYTES` of it, and checked: the round id is printable ASCII, the cards exist and none is dealt twice,
the wagers are the paytable's, the amounts exact and below :data:`~trey.audit.rounds.AMOUNT_LIMIT`, the bets within
the table's limits. A line that fails is a :class:`LogProblem` (its line number, its round id when it has one, a
code and the reason) and the reading goes on; a round id met before is one too, naming the line that logged it
first, and its round is audited all the same. The file itself must be a regular file (a FIFO or /dev/zero is
refused before it is opened). Only the first problems are built (as many as the caller has room for); the others
are counted.
"""

from __future__ import annotations

import contextlib
import csv
import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import numpy as np
import pyarrow as pa

from trey.audit.columnar import Proven, prove
from trey.audit.deals import DealRecords
from trey.audit.rounds import AMOUNT_LIMIT, MAX_ID_CHARACTERS, MAX_SEAT, PARTS, Rounds, cents, meters
from trey.audit.seen import NEW, SeenIds
from trey.cards.card import Card
from trey.core.codes import is_known_code
from trey.core.files import display_name, open_regular
from trey.core.jsonread import JsonInputError, loads_strict
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.paytable.pays import PayError, parse_money

MAX_LINE_BYTES = 16_384  # far beyond any round's line
MAX_ROUNDS = 100_000_000  # lines read from one log at most
BLOCK_BYTES = 4 << 20  # read at a time: whole lines, about 12,000 rounds
ROWS_AT_ONCE = 4_096  # rounds read strictly turned into columns at a time (a block of short lines holds many)
KEPT = 1_000  # problems listed at most in an audit (all are counted)
DECISIONS = {"play": True, "fold": False}
BYTE_ORDER_MARK = b"\xef\xbb\xbf"  # what Excel's "CSV UTF-8" writes first


@dataclass(frozen=True)
class LoggedRound:
    line: int
    round: str
    table: str | None
    seat: int | None
    player: tuple[Card, ...]
    dealer: tuple[Card, ...]
    plays: bool | None  # the logged decision (None without Ante & Play)
    bets: dict[str, Fraction]  # the initial bets, by wager id (the Play equals the Ante)
    net: dict[str, Fraction]  # what the player won (+) or lost (-), by wager id
    parts: dict[str, Fraction] | None = None  # Ante & Play's net split: ante, play, ante_bonus (optional)
    meter: dict[str, Fraction] = field(default_factory=dict)  # progressive meters as the round was dealt (optional)


@dataclass(frozen=True)
class LogProblem:
    file: str
    line: int
    round: str | None
    code: str
    message: str

    def __post_init__(self) -> None:
        if not is_known_code(self.code):
            raise ValueError(f"problem code {self.code!r} is not in trey.core.codes.Code")

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        return f"{where}: round {self.round}: {self.message}" if self.round else f"{where}: {self.message}"


@dataclass
class Batch:
    """What a log gives, a block of lines at a time: the rounds audited and the problems met."""

    rounds: Rounds  # every valid round, a round id met before included
    problems: list[LogProblem]  # the first of them, as many as there was room for, in the order of their lines
    problem_count: int  # all of them: lines refused and round ids met before
    duplicates: int  # of which round ids met before (their rounds are in ``rounds``)
    lines: int  # lines read (blank lines aside)
    deals: DealRecords | None = None  # table rounds' dealt cards (trey.audit.tables); None for seat lines
    part: int | None = None  # the fragment of a Parquet dataset its rows are of (None: the one before's, or a file)
    with_deck: bool | None = None  # table rounds: whether the source's first round (so every round) has a deck


class _Refusal(NamedTuple):
    """A line kept out, before it is a :class:`LogProblem` (only the first few are made one)."""

    round: str | None
    code: str
    message: str


class _Problems:
    """One block's problems: the first ``room`` built, all counted."""

    def __init__(self, name: str, room: int) -> None:
        self.name, self.room = name, room
        self.listed: list[LogProblem] = []
        self.count = 0

    def add(self, line: int, round_id: str | None, code: str, message: str) -> None:
        self.count += 1
        if len(self.listed) < self.room:
            self.listed.append(LogProblem(self.name, line, round_id, code, message))


# A log repeats the same few card texts and amounts: each is read once (the tables are bounded).
_CARDS: dict[str, Card] = {}
_MONEY: dict[tuple[type, object], Fraction] = {}
_KEPT_VALUES = 10_000


def _card(text: str) -> Card:
    found = _CARDS.get(text)
    if found is None:
        found = Card.parse(text)  # a ValueError for a card that does not exist
        if len(_CARDS) < _KEPT_VALUES:
            _CARDS[text] = found
    return found


def _money(raw: object) -> Fraction:
    key = (type(raw), raw)
    found = _MONEY.get(key) if isinstance(raw, int | str) else None
    if found is None:
        if isinstance(raw, int) and not isinstance(raw, bool) and raw >= AMOUNT_LIMIT:
            raise PayError(f"an amount must be below {AMOUNT_LIMIT:,}, not {_digits(raw)}", code="log.amount")
        found = parse_money(raw, "amount")  # strings: 13 digits at most (DECIMAL_PATTERN)
        if isinstance(raw, int | str) and len(_MONEY) < _KEPT_VALUES:
            _MONEY[key] = found
    return found


def _digits(value: int) -> str:
    """A large whole number as a reader can take it in (the JSON reader takes up to 4,300 digits)."""
    return f"{value:,}" if value < 10**30 else f"a number of {len(str(value)):,} digits"


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _amounts(
    value: Any, what: str, names: tuple[str, ...], *, signed: bool, stranger: Callable[[str], _Refused]
) -> dict[str, Fraction]:
    """A mapping of ``names`` to amounts; ``stranger``: the refusal of a name not among them."""
    if not isinstance(value, dict) or not value:
        raise _Refused("log.field", f"{what} must be a mapping of wager ids to amounts")
    amounts = {}
    for name, raw in value.items():
        if name not in names:
            raise stranger(str(name)[:40])
        negative = False
        if signed and isinstance(raw, int) and not isinstance(raw, bool) and raw < 0:
            negative, raw = True, -raw
        elif signed and isinstance(raw, str) and raw.startswith("-"):
            negative, raw = True, raw[1:]
        try:
            amount = _money(raw)
        except PayError as exc:
            raise _Refused("log.amount", f"{what}.{name}: {exc}") from None
        amounts[name] = -amount if negative else amount
    return amounts


def _no_wager(what: str) -> Callable[[str], _Refused]:
    return lambda name: _Refused("log.wager", f"the paytable offers no wager {name!r} ({what})")


def _round_id(value: object) -> str:
    """The round's id: printable ASCII, so that two ids that look alike are alike (no format character such as
    U+200B, no look-alike hyphen, no space around it)."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_CHARACTERS:
        raise _Refused("log.field", f"a round needs its id: text of 1 to {MAX_ID_CHARACTERS} characters")
    if not (value.isascii() and value.isprintable()):
        at, bad = next((i, c) for i, c in enumerate(value, 1) if not (c.isascii() and c.isprintable()))
        raise _Refused(
            "log.field",
            f"a round id is printable ASCII, so that ids that look alike are alike: this one holds U+{ord(bad):04X} "
            f"at character {at}",
        )
    if value != value.strip():
        raise _Refused("log.field", "a round id has no space at its start or end (ids that look alike are alike)")
    return value


def _table(value: object) -> str | None:
    """A round's table, when it names one: text of 1 to :data:`MAX_ID_CHARACTERS` characters that can all be seen
    (no control or format character, no line or paragraph separator), as a round id must be printable."""
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_CHARACTERS or not value.isprintable():
        raise _Refused(
            "log.field",
            f"a round's table is text of 1 to {MAX_ID_CHARACTERS} characters that can all be seen (no control or "
            "format character)",
        )
    return value


def _seat(value: object) -> int | None:
    """A round's seat, when it names one: a whole number from 1 to :data:`MAX_SEAT`."""
    if value is None:
        return None
    if type(value) is not int or not 1 <= value <= MAX_SEAT:
        raise _Refused("log.field", f"a round's seat is a whole number from 1 to {MAX_SEAT}")
    return value


def _round(data: Any, spec: GameSpec, metered: dict[str, Fraction]) -> LoggedRound:
    if not isinstance(data, dict):
        raise _Refused("log.field", "a round is a JSON object")
    round_id = _round_id(data.get("round"))
    cards = []
    for seat in ("player", "dealer"):
        given = data.get(seat)
        if not isinstance(given, list) or len(given) != 3 or not all(isinstance(c, str) and len(c) <= 3 for c in given):
            raise _Refused("log.card", f'{seat} must be three cards such as ["Qd", "3s", "2d"]')
        try:
            cards.append(tuple(_card(c) for c in given))
        except ValueError as exc:
            raise _Refused("log.card", f"{seat}: {exc}") from None
    player, dealer = cards
    if len(set(player) | set(dealer)) != 6:
        twice = sorted({str(c) for c in player + dealer if (player + dealer).count(c) > 1})
        raise _Refused("log.card-twice", f"a card is dealt twice in the round: {', '.join(twice)}")
    wagers = spec.wagers.ids
    bets = _amounts(data.get("bets"), "bets", wagers, signed=False, stranger=_no_wager("bets"))
    net = _amounts(data.get("net"), "net", wagers, signed=True, stranger=_no_wager("net"))
    if set(net) != set(bets):
        raise _Refused("log.field", "net must name exactly the wagers bet")
    table = spec.table
    if table is not None:
        for wager, bet in bets.items():
            low, high = table.minimum, table.maximum
            if (low is not None and bet < low) or (high is not None and bet > high):
                raise _Refused("log.bet-limits", f"the {wager} bet of {bet} is outside the table's limits")
    plays = None
    if ANTE_PLAY in bets:
        decision = data.get("decision")
        if decision not in DECISIONS:
            raise _Refused("log.field", 'a round with Ante & Play needs its decision: "play" or "fold"')
        plays = DECISIONS[decision]
    parts = None
    if "parts" in data:
        if ANTE_PLAY not in bets:
            raise _Refused("log.field", "parts split Ante & Play's net: the round has no Ante")

        def not_a_part(name: str) -> _Refused:
            return _Refused("log.field", f"parts has no {name!r}: it names ante, play and ante_bonus")

        parts = _amounts(data["parts"], "parts", PARTS, signed=True, stranger=not_a_part)
        if set(parts) != set(PARTS):
            raise _Refused("log.field", "parts names ante, play and ante_bonus")
    meter = {}
    if "meter" in data:

        def no_meter(name: str) -> _Refused:
            if name in wagers:
                return _Refused("log.wager", f"meter: the wager {name!r} has no progressive meter")
            return _no_wager("meter")(name)

        meter = _amounts(data["meter"], "meter", tuple(metered), signed=False, stranger=no_meter)
        for wager, value in meter.items():
            if value < metered[wager]:
                raise _Refused(
                    "log.amount", f"meter.{wager}: the meter of {value} is below its reset of {metered[wager]}"
                )
    return LoggedRound(
        0,
        round_id,
        _table(data.get("table")),
        _seat(data.get("seat")),
        player,
        dealer,
        plays,
        bets,
        net,
        parts,
        meter,
    )


def _csv_round(header: list[str], values: list[str]) -> dict[str, Any]:
    """A CSV record as the JSON round it stands for: the columns round, time, table, seat, player and dealer (cards
    split by spaces), decision, bet_<wager> and net_<wager> for each wager bet, optionally ante, play and
    ante_bonus (the parts) and meter_<wager> for a progressive's meter."""
    if len(values) != len(header):
        raise _Refused("log.field", f"{len(values)} fields where the header names {len(header)}")
    row = dict(zip(header, values, strict=True))
    data: dict[str, Any] = {k: row[k] for k in ("round", "time", "table", "decision") if row.get(k)}
    seat = row.get("seat", "")
    if seat:  # ASCII digits, as JSON writes a number: not a superscript or another script's digit (which
        # str.isdigit takes and int() does not), not 10^4300
        data["seat"] = int(seat) if seat.isascii() and seat.isdigit() and len(seat) <= 6 else seat
    for hand in ("player", "dealer"):
        data[hand] = [card for card in row.get(hand, "").split(" ") if card]  # by spaces: not U+3000 or a tab
    data["bets"] = {k[4:]: v for k, v in row.items() if k.startswith("bet_") and v != ""}
    data["net"] = {k[4:]: v for k, v in row.items() if k.startswith("net_") and v != ""}
    if any(row.get(k) for k in PARTS):
        data["parts"] = {k: row.get(k, "") for k in PARTS}
    meter = {k[6:]: v for k, v in row.items() if k.startswith("meter_") and v != ""}
    if meter:
        data["meter"] = meter
    return data


def _csv_fields(text: str) -> list[str]:
    """One CSV record, read strictly (a quote that does not close is an error, not the end of a field)."""
    (values,) = csv.reader([text], strict=True)
    return values


def _line(raw: bytes, spec: GameSpec, metered: dict[str, Fraction], header: list[str] | None) -> LoggedRound | _Refusal:
    """One line (without its newline) as a round (its line number 0), or why it is kept out: read strictly."""
    if len(raw) > MAX_LINE_BYTES:
        return _Refusal(None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes")
    data = None
    try:
        text = raw.decode("utf-8")
        data = _csv_round(header, _csv_fields(text)) if header is not None else loads_strict(text)
        return _round(data, spec, metered)
    except UnicodeDecodeError as exc:
        return _Refusal(None, "log.not-json", f"not UTF-8 at byte {exc.start}")
    except JsonInputError as exc:
        return _Refusal(None, "log.not-json", f"not a JSON round: {exc}")
    except csv.Error as exc:
        return _Refusal(None, "log.field", f"not a CSV line: {exc}")
    except _Refused as exc:
        round_id = data.get("round") if isinstance(data, dict) else None
        # An id refused for what it holds is shown with it escaped (U+200B as \u200b): what a reader cannot see.
        shown = (
            round_id[:MAX_ID_CHARACTERS].encode("ascii", "backslashreplace").decode()
            if isinstance(round_id, str)
            else None
        )
        return _Refusal(shown, exc.code, str(exc))


def _blocks(stream: BinaryIO, times: int = 1, first: int | None = None) -> Iterator[tuple[int, bytes, int] | int]:
    """The file as blocks of whole lines, each ``(number of its first line, bytes, lines)`` ending in a newline (read
    ``times`` :data:`BLOCK_BYTES` at a time); a line longer than :data:`MAX_LINE_BYTES` that does not fit a block is
    skipped a bounded piece at a time and given as its line number alone.

    ``first``: for a reader a step ahead of the audit, the first block is ``first`` bytes (the audit starts on it
    sooner), and a file's last blocks taper (each at most half of what is left, at least ``first``: the audit's
    work on the last block, which nothing runs beside, is short). The blocks cut a file anywhere: the lines are the
    same."""
    number = 1
    carry = b""
    size = first or times * BLOCK_BYTES
    while True:
        piece = stream.read(size)
        size = times * BLOCK_BYTES
        left = _left(stream) if first else None
        if first and left is not None:
            size = max(first, min(size, left // 2))
        if not piece:
            if carry:  # the last line (and, after a line too long was skipped, the lines after it)
                yield number, carry + b"\n", carry.count(b"\n") + 1
            return
        cut = piece.rfind(b"\n") + 1
        if cut:  # the carry and the piece up to its last newline joined (one copy), the rest carried on
            block, carry = b"".join((carry, memoryview(piece)[:cut])), piece[cut:]
        else:  # the carry may hold lines (the rest of a piece a line too long was skipped in)
            data = carry + piece
            cut = data.rfind(b"\n") + 1
            block, carry = data[:cut], data[cut:]
        if block:
            # counted on the array of its bytes (bytes.count looks at them one at a time)
            lines = int(np.count_nonzero(np.frombuffer(block, dtype=np.uint8) == ord("\n")))
            yield number, block, lines
            number += lines
        if len(carry) > MAX_LINE_BYTES:  # a line too long to keep: skip to its end
            yield number
            number += 1
            while True:
                piece = stream.read(BLOCK_BYTES)
                end = piece.find(b"\n")
                if not piece or end >= 0:
                    carry = piece[end + 1 :] if end >= 0 else b""
                    break


def _left(stream: BinaryIO) -> int | None:
    """The bytes of a file left to read (None: not a file of known size)."""
    try:
        return max(0, os.fstat(stream.fileno()).st_size - stream.tell())
    except (OSError, AttributeError, ValueError):  # io.UnsupportedOperation is both an OSError and a ValueError
        return None


def rounds_of(rows: list[LoggedRound], spec: GameSpec) -> Rounds:
    """Rounds read line by line, as columns."""
    wagers = spec.wagers.ids
    n = len(rows)
    parts = np.zeros((n, len(PARTS)), dtype=np.int64)
    for i, r in enumerate(rows):
        if r.parts is not None:
            parts[i] = [cents(r.parts[k]) for k in PARTS]
    metered = meters(spec)
    return Rounds(
        np.array([r.line for r in rows], dtype=np.int64),
        pa.array([r.round for r in rows], type=pa.string()),
        pa.array([r.table for r in rows], type=pa.string()),
        pa.array([r.seat for r in rows], type=pa.int64()),
        np.array([r.player for r in rows], dtype=np.int64).reshape(n, 3),
        np.array([r.dealer for r in rows], dtype=np.int64).reshape(n, 3),
        np.array([r.plays is not False for r in rows], dtype=bool),
        {w: np.array([w in r.bets for r in rows], dtype=bool) for w in wagers},
        {w: np.array([cents(r.bets[w]) if w in r.bets else 0 for r in rows], dtype=np.int64) for w in wagers},
        {w: np.array([cents(r.net[w]) if w in r.net else 0 for r in rows], dtype=np.int64) for w in wagers},
        np.array([r.parts is not None for r in rows], dtype=bool),
        parts,
        {w: np.array([w in r.meter for r in rows], dtype=bool) for w in metered},
        {w: np.array([cents(r.meter[w]) if w in r.meter else 0 for r in rows], dtype=np.int64) for w in metered},
    )


@dataclass
class _Csv:
    """A CSV log's state from line to line: its header, and a record whose quoted field runs over a line break."""

    header: list[str] | None = None
    open_at: int | None = None  # the first line of such a record
    open_bytes: int = 0
    open_quotes: int = 0
    gathered: int = 0  # lines a record ran over, besides its first (lines read, not problems)


@dataclass
class _Json:
    """A JSON Lines log's state from line to line: a round whose object runs over line breaks (pretty-printed JSON),
    gathered with the lines it runs over (those that do not start a round of their own with "{"), at most
    :data:`MAX_LINE_BYTES`, and refused as one problem."""

    open_at: int | None = None  # the first line of such a round
    last: int = 0  # the last line gathered
    open_bytes: int = 0
    depth: int = 0  # the brackets still open
    first: _Refusal | None = None  # how its first line, read alone, is refused
    gathered: int = 0  # lines a round ran over, besides its first (lines read, not problems)

    def opens(self, raw: bytes, number: int, refused: _Refusal) -> bool:
        """Whether a line refused as it is opens an object the next lines go on with: it starts a round ("{") and
        leaves brackets open."""
        depth = _depth(raw)
        if refused.code != "log.not-json" or not raw.startswith(b"{") or depth <= 0:
            return False
        self.open_at, self.last, self.open_bytes, self.depth, self.first = number, number, len(raw), depth, refused
        return True

    def goes_on(self, raw: bytes, number: int, problems: _Problems) -> bool:
        """Whether a line is gathered into the open round (then it is not read on its own); the round's problem is
        added when it closes, runs too long, or is cut short by a line that starts a round of its own."""
        if self.open_at is None:
            return False
        if number != self.last + 1 or raw.startswith(b"{"):
            self.close(problems)
            return False
        self.last, self.open_bytes, self.depth = number, self.open_bytes + len(raw) + 1, self.depth + _depth(raw)
        self.gathered += 1
        if self.depth <= 0:
            self.close(problems, f"a JSON round runs over lines {self.open_at} to {number}: a round is one line")
        elif self.open_bytes > MAX_LINE_BYTES:
            self.close(
                problems,
                f"a JSON round runs over line breaks for more than {MAX_LINE_BYTES:,} bytes (lines {self.open_at} to "
                f"{number})",
            )
        return True

    def close(self, problems: _Problems, message: str | None = None) -> int:
        """Add the open round's problem (by default: it is never closed); how many problems were added."""
        if self.open_at is None:
            return 0
        start, self.open_at = self.open_at, None
        if message is None and self.last == start:  # its first line alone: refused in its own words
            assert self.first is not None
            problems.add(start, *self.first)
            return 1
        said = message or f"a JSON round is never closed (lines {start} to {self.last}): a round is one line"
        problems.add(start, None, "log.not-json", said)
        return 1


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def _depth(raw: bytes) -> int:
    """The brackets a line leaves open (those it closes counted off), its strings aside."""
    bare = _STRING.sub(b"", raw)
    return bare.count(b"{") + bare.count(b"[") - bare.count(b"}") - bare.count(b"]")


def read_log(
    path: Path,
    spec: GameSpec,
    *,
    columnar: bool = True,
    seen: SeenIds | None = None,
    room: Callable[[], int] = lambda: KEPT,
) -> Iterator[Batch]:
    """A hand history, block by block: the valid rounds as columns, and the problems of the other lines in the
    order of their lines. JSON Lines, or CSV (a name ending .csv) whose first line names the columns. Lines may end
    in a line feed or a carriage return and a line feed.

    ``columnar``: let the fast reader prove what lines it can first (:mod:`trey.audit.columnar`); without it every
    line is read strictly, one at a time. The result is the same. ``seen``: the round ids met before (an audit of
    several logs shares them: a round in two files is logged twice); by default, this file's alone. ``room``: how
    many more problems the caller keeps (asked before each block; the others are only counted)."""
    name = display_name(path)
    is_csv = path.name.lower().endswith(".csv")
    metered = meters(spec)
    state = _Csv()
    record = _Json()
    with contextlib.ExitStack() as stack:
        met = seen if seen is not None else stack.enter_context(SeenIds())
        log_number = met.log(name)
        stream = stack.enter_context(open_regular(path, what="a hand history (JSON Lines or CSV)"))
        blocks = _blocks(stream)
        ahead = None if is_csv or not columnar else partial(prove, spec=spec, max_line_bytes=MAX_LINE_BYTES)
        for item, proven in _proven_ahead(blocks, ahead):
            problems = _Problems(name, max(0, room()))
            if isinstance(item, int):
                if item > MAX_ROUNDS:
                    yield _too_many(name, spec)
                    return
                problems.add(item, None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes")
                yield Batch(rounds_of([], spec), problems.listed, 1, 0, 1)
                continue
            first, block, count = item
            last_allowed = MAX_ROUNDS - first + 1  # lines of this block that may be read
            stop = count > last_allowed
            if stop:
                block = block[: _line_ends(block)[last_allowed - 1] + 1]
                count, proven = last_allowed, None
            if is_csv and first == 1 and block.startswith(BYTE_ORDER_MARK):
                block = block[len(BYTE_ORDER_MARK) :]
            batches = [proven.rounds] if proven is not None else []
            doubtful: range | list[int] = proven.doubtful if proven is not None else range(count)
            ends = _line_ends(block) if doubtful else np.zeros(0, dtype=np.int64)
            rows: list[LoggedRound] = []
            for index in doubtful:
                start = int(ends[index - 1]) + 1 if index else 0
                raw = block[start : int(ends[index])]
                if raw.endswith(b"\r"):
                    raw = raw[:-1]
                number = first + index
                if is_csv and state.header is None and raw.strip():
                    state.header = _header(raw, number, problems)
                    if state.header is None:  # unreadable: nothing more of the file is read
                        yield Batch(rounds_of([], spec), problems.listed, problems.count, 0, 1)
                        return
                    continue
                in_record = is_csv and (state.open_at is not None or bool(raw.strip()))
                if in_record and not _one_record(raw, number, state, problems):
                    continue
                if not is_csv and record.goes_on(raw, number, problems):
                    continue
                if not raw.strip():
                    continue
                found = _line(raw, spec, metered, state.header)
                if isinstance(found, _Refusal):
                    if is_csv or not record.opens(raw, number, found):
                        problems.add(number, *found)
                else:
                    rows.append(replace(found, line=number))
                    if len(rows) >= ROWS_AT_ONCE:
                        batches.append(rounds_of(rows, spec))
                        rows = []
            if rows:
                batches.append(rounds_of(rows, spec))
            rounds = Rounds.joined(batches) if batches else rounds_of([], spec)
            refused = problems.count
            duplicates = _duplicates(rounds, met, log_number, problems)
            read = len(rounds) + refused + state.gathered + record.gathered
            state.gathered = record.gathered = 0
            if is_csv and state.open_at is not None and stop:
                read += _unclosed(state, problems)
            if stop:
                read += record.close(problems)
            yield Batch(rounds, problems.listed, problems.count, duplicates, read)
            if stop:
                yield _too_many(name, spec)
                return
        if state.open_at is not None:
            problems = _Problems(name, max(0, room()))
            yield Batch(rounds_of([], spec), problems.listed, _unclosed(state, problems), 0, 1)
        if record.open_at is not None:
            problems = _Problems(name, max(0, room()))
            yield Batch(rounds_of([], spec), problems.listed, record.close(problems), 0, 1)


def _line_ends(block: bytes) -> np.ndarray:
    """Where each line of a block ends (its newline): 8 bytes a line, not an object."""
    return np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == ord("\n"))


def _duplicates(rounds: Rounds, met: SeenIds, log_number: int, problems: _Problems) -> int:
    """Each round whose id was met before, as a problem naming the line that logged it first (the round stays)."""
    wheres = (np.uint64(log_number) << np.uint64(32)) | rounds.lines.astype(np.uint64)
    earlier = met.earlier(met.digests(rounds.ids), wheres)
    again = np.flatnonzero(earlier != NEW)  # in the order of their lines
    listed = []
    for row, where in zip(again[: problems.room].tolist(), earlier[again[: problems.room]].tolist(), strict=True):
        log, line = met.where(where)
        at = f"line {line}" if log == problems.name else f"{log}:{line}"
        message = f"the round id is logged twice: first at {at}"
        listed.append(
            LogProblem(problems.name, int(rounds.lines[row]), rounds.id_of(row), "log.duplicate-round", message)
        )
    if listed:
        problems.listed = sorted(problems.listed + listed, key=lambda p: p.line)[: problems.room]
    problems.count += len(again)
    return len(again)


def _one_record(raw: bytes, number: int, state: _Csv, problems: _Problems) -> bool:
    """Whether a CSV line is a record of its own, to be read. A line whose quoted field holds a line break (it runs
    on to the next line) is gathered with the lines it runs over, at most :data:`MAX_LINE_BYTES`, and refused as
    one problem. The field closes on the line that makes the record's quotes even (a quote inside is doubled): one
    count a line, however many lines."""
    if state.open_at is None:
        try:
            _csv_fields(raw.decode("utf-8", errors="replace"))
            return True
        except csv.Error as exc:
            if "unexpected end of data" not in str(exc):
                return True  # refused as it is, in its words
        state.open_at, state.open_bytes, state.open_quotes = number, len(raw), raw.count(b'"')
        return False
    state.open_bytes += len(raw) + 1
    state.open_quotes += raw.count(b'"')
    state.gathered += 1
    closed = state.open_quotes % 2 == 0
    if closed or state.open_bytes > MAX_LINE_BYTES:
        start, state.open_at = state.open_at, None
        problems.add(
            start,
            None,
            "log.field",
            f"a quoted field holds a line break (lines {start} to {number}): a round is one line"
            if closed
            else f"a quoted field runs over line breaks for more than {MAX_LINE_BYTES:,} bytes (lines {start} to "
            f"{number})",
        )
    return False


def _unclosed(state: _Csv, problems: _Problems) -> int:
    """The problem of a record whose quoted field is still open at the end of the file."""
    assert state.open_at is not None
    start, state.open_at = state.open_at, None
    problems.add(start, None, "log.field", "a quoted field is never closed: a round is one line")
    return 1


def _proven_ahead(
    blocks: Iterator[tuple[int, bytes, int] | int], prover: Callable[[bytes, int], Proven | None] | None
) -> Iterator[tuple[tuple[int, bytes, int] | int, Proven | None]]:
    """Each block with what the columnar reader proves of it, the next block proven on a second thread while this
    one is audited (pyarrow and numpy leave the interpreter while they work): two blocks in memory at most."""
    if prover is None:
        yield from ((item, None) for item in blocks)
        return
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending: tuple[tuple[int, bytes, int] | int, Future[Proven | None] | None] | None = None
        for item in blocks:
            future = pool.submit(prover, item[1], item[0]) if isinstance(item, tuple) else None
            if pending is not None:
                yield pending[0], pending[1].result() if pending[1] is not None else None
            pending = (item, future)
        if pending is not None:
            yield pending[0], pending[1].result() if pending[1] is not None else None


def _header(raw: bytes, number: int, problems: _Problems) -> list[str] | None:
    """A CSV log's first line: the names of its columns. None, and a problem, when it cannot be read or names a
    column twice (a reader would take one of the two silently): then nothing of the file is audited."""
    rest = "nothing of the file is read"
    try:
        names = _csv_fields(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        problems.add(number, None, "log.csv-header", f"the header is not UTF-8 at byte {exc.start}: {rest}")
        return None
    except csv.Error as exc:
        problems.add(number, None, "log.csv-header", f"the header is not a CSV line ({exc}): {rest}")
        return None
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        named = ", ".join(repr(n[:40]) for n in twice[:5])
        problems.add(number, None, "log.csv-header", f"the header names the column {named} twice: {rest}")
        return None
    return names


def _too_many(name: str, spec: GameSpec) -> Batch:
    problem = LogProblem(
        name, MAX_ROUNDS + 1, None, "log.too-many", f"more than {MAX_ROUNDS:,} lines: the rest is not read"
    )
    return Batch(rounds_of([], spec), [problem], 1, 0, 0)
