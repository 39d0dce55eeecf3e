"""Hand histories: JSON Lines, one played round a line (schemas/hand-history.schema.json), read as a stream.

Every line is read strictly (the JSON reader that refuses duplicate keys, NaN and deep nesting), at most
:data:`MAX_LINE_BYTES` of it, and checked: the cards exist and none is dealt twice, the wagers are the paytable's,
the bets within the table's limits, the round id not seen before. A line that fails is a :class:`LogProblem`
(its line number, its round id when it has one, a code and the reason) and the reading goes on; the file itself
must be a regular file (a FIFO or /dev/zero is refused before it is opened).
"""

from __future__ import annotations

import contextlib
import csv
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa

from trey.audit.columnar import Proven, prove
from trey.audit.rounds import MAX_ID_CHARACTERS, PARTS, Rounds, cents
from trey.audit.seen import SeenIds, digests
from trey.cards.card import Card
from trey.core.codes import is_known_code
from trey.core.files import display_name, open_regular
from trey.core.jsonread import JsonInputError, loads_strict
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.paytable.pays import PayError, parse_money

MAX_LINE_BYTES = 16_384  # far beyond any round's line
MAX_ROUNDS = 100_000_000  # lines read from one log at most
BLOCK_BYTES = 4 << 20  # read at a time: whole lines, about 12,000 rounds
DECISIONS = {"play": True, "fold": False}


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


def _money(raw: object, what: str) -> Fraction:
    key = (type(raw), raw)
    found = _MONEY.get(key) if isinstance(raw, int | str) else None
    if found is None:
        found = parse_money(raw, what)
        if isinstance(raw, int | str) and len(_MONEY) < _KEPT_VALUES:
            _MONEY[key] = found
    return found


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _amounts(value: Any, what: str, wagers: tuple[str, ...], *, signed: bool) -> dict[str, Fraction]:
    if not isinstance(value, dict) or not value:
        raise _Refused("log.field", f"{what} must be a mapping of wager ids to amounts")
    amounts = {}
    for wager, raw in value.items():
        if wager not in wagers:
            if what == "parts":
                raise _Refused("log.field", f"parts has no {str(wager)[:40]!r}: it names ante, play and ante_bonus")
            raise _Refused("log.wager", f"the paytable offers no wager {str(wager)[:40]!r} ({what})")
        negative = signed and isinstance(raw, int | str) and str(raw).startswith("-")
        try:
            amount = _money(str(raw)[1:] if negative else raw, f"{what} amount")
        except PayError as exc:
            raise _Refused("log.amount", f"{what}.{wager}: {exc}") from None
        amounts[wager] = -amount if negative else amount
    return amounts


def _round(data: Any, spec: GameSpec) -> LoggedRound:
    if not isinstance(data, dict):
        raise _Refused("log.field", "a round is a JSON object")
    round_id = data.get("round")
    if not isinstance(round_id, str) or not 0 < len(round_id) <= MAX_ID_CHARACTERS:
        raise _Refused("log.field", f"a round needs its id: text of 1 to {MAX_ID_CHARACTERS} characters")
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
    bets = _amounts(data.get("bets"), "bets", wagers, signed=False)
    net = _amounts(data.get("net"), "net", wagers, signed=True)
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
        parts = _amounts(data["parts"], "parts", PARTS, signed=True)
        if set(parts) != set(PARTS):
            raise _Refused("log.field", "parts names ante, play and ante_bonus")
    seat_number = data.get("seat")
    return LoggedRound(
        0,
        round_id,
        str(data["table"])[:MAX_ID_CHARACTERS] if isinstance(data.get("table"), str) else None,
        seat_number if isinstance(seat_number, int) and not isinstance(seat_number, bool) else None,
        player,
        dealer,
        plays,
        bets,
        net,
        parts,
    )


def _csv_round(header: list[str], raw: str) -> dict[str, Any]:
    """A CSV line as the JSON round it stands for: the columns round, time, table, seat, player and dealer (cards
    split by spaces), decision, bet_<wager> and net_<wager> for each wager bet, and optionally ante, play and
    ante_bonus (the parts)."""
    (values,) = csv.reader([raw])
    if len(values) != len(header):
        raise _Refused("log.field", f"{len(values)} fields where the header names {len(header)}")
    row = dict(zip(header, values, strict=True))
    data: dict[str, Any] = {k: row[k] for k in ("round", "time", "table", "decision") if row.get(k)}
    if row.get("seat", "").isdigit():
        data["seat"] = int(row["seat"])
    for seat in ("player", "dealer"):
        data[seat] = row.get(seat, "").split()
    data["bets"] = {k[4:]: v for k, v in row.items() if k.startswith("bet_") and v != ""}
    data["net"] = {k[4:]: v for k, v in row.items() if k.startswith("net_") and v != ""}
    if any(row.get(k) for k in PARTS):
        data["parts"] = {k: row.get(k, "") for k in PARTS}
    return data


def _line(raw: bytes, number: int, name: str, spec: GameSpec, header: list[str] | None) -> LoggedRound | LogProblem:
    """One line (without its newline) as a round, or the problem that keeps it out: read strictly."""
    if len(raw) > MAX_LINE_BYTES:
        return LogProblem(name, number, None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes")
    data = None
    try:
        text = raw.decode("utf-8")
        data = _csv_round(header, text) if header is not None else loads_strict(text)
        return replace(_round(data, spec), line=number)
    except UnicodeDecodeError as exc:
        return LogProblem(name, number, None, "log.not-json", f"not UTF-8 at byte {exc.start}")
    except JsonInputError as exc:
        return LogProblem(name, number, None, "log.not-json", f"not a JSON round: {exc}")
    except csv.Error as exc:
        return LogProblem(name, number, None, "log.field", f"not a CSV line: {exc}")
    except _Refused as exc:
        round_id = data.get("round") if isinstance(data, dict) else None
        shown = round_id[:MAX_ID_CHARACTERS] if isinstance(round_id, str) else None
        return LogProblem(name, number, shown, exc.code, str(exc))


def _blocks(stream: BinaryIO) -> Iterator[tuple[int, bytes, int] | int]:
    """The file as blocks of whole lines, each ``(number of its first line, bytes, lines)`` ending in a newline; a line
    longer than :data:`MAX_LINE_BYTES` that does not fit a block is skipped a bounded piece at a time and given as
    its line number alone."""
    number = 1
    carry = b""
    while True:
        piece = stream.read(BLOCK_BYTES)
        if not piece:
            if carry:
                yield number, carry + b"\n", 1
            return
        data = carry + piece
        cut = data.rfind(b"\n") + 1
        block, carry = data[:cut], data[cut:]
        if block:
            lines = block.count(b"\n")
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


def rounds_of(rows: list[LoggedRound], wagers: tuple[str, ...]) -> Rounds:
    """Rounds read line by line, as columns."""
    n = len(rows)
    parts = np.zeros((n, len(PARTS)), dtype=np.int64)
    for i, r in enumerate(rows):
        if r.parts is not None:
            parts[i] = [cents(r.parts[k]) for k in PARTS]
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
    )


def read_log(
    path: Path, spec: GameSpec, *, columnar: bool = True, seen: SeenIds | None = None
) -> Iterator[tuple[Rounds, list[LogProblem]]]:
    """A hand history, block by block: the valid rounds as columns, and the problems of the other lines in the
    order of their lines. JSON Lines, or CSV (a name ending .csv) whose first line names the columns.

    ``columnar``: let the fast reader prove what lines it can first (:mod:`trey.audit.columnar`); without it every
    line is read strictly, one at a time. The result is the same. ``seen``: the round ids met before (an audit of
    several logs shares them: a round in two files is logged twice); by default, this file's alone."""
    name = display_name(path)
    wagers = spec.wagers.ids
    is_csv = path.name.lower().endswith(".csv")
    header: list[str] | None = None
    with contextlib.ExitStack() as stack:
        met = seen if seen is not None else stack.enter_context(SeenIds())
        stream = stack.enter_context(open_regular(path, what="a hand history (JSON Lines or CSV)"))
        blocks = _blocks(stream)
        ahead = None if is_csv or not columnar else partial(prove, spec=spec, max_line_bytes=MAX_LINE_BYTES)
        for item, proven in _proven_ahead(blocks, ahead):
            if isinstance(item, int):
                if item > MAX_ROUNDS:
                    yield rounds_of([], wagers), [_too_many(name)]
                    return
                yield (
                    rounds_of([], wagers),
                    [
                        LogProblem(
                            name, item, None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes"
                        )
                    ],
                )
                continue
            first, block, count = item
            last_allowed = MAX_ROUNDS - first + 1  # lines of this block that may be read
            stop = count > last_allowed
            if stop:
                block = b"".join(line + b"\n" for line in block.split(b"\n")[:last_allowed])
                count, proven = last_allowed, None
            batches = [proven.rounds] if proven is not None else []
            doubtful = proven.doubtful if proven is not None else range(count)
            lines = block.split(b"\n") if doubtful else []
            rows: list[LoggedRound] = []
            problems: list[LogProblem] = []
            for index in doubtful:
                raw = lines[index]
                if not raw.strip():
                    continue
                if is_csv and header is None:
                    header = _header(raw, first + index, name, problems)
                    continue
                found = _line(raw, first + index, name, spec, header)
                if isinstance(found, LogProblem):
                    problems.append(found)
                else:
                    rows.append(found)
            if rows:
                batches.append(rounds_of(rows, wagers))
            rounds = Rounds.joined(batches) if batches else rounds_of([], wagers)
            fresh = met.first_time(digests(rounds.ids))
            if not fresh.all():
                problems += [
                    LogProblem(name, int(line), ids, "log.duplicate-round", "the round id is logged twice")
                    for line, ids in zip(
                        rounds.lines[~fresh].tolist(), rounds.ids.filter(pa.array(~fresh)).to_pylist(), strict=True
                    )
                ]
                rounds = rounds.take(fresh)
            problems.sort(key=lambda p: p.line)
            yield rounds, problems
            if stop:
                yield rounds_of([], wagers), [_too_many(name)]
                return


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


def _header(raw: bytes, number: int, name: str, problems: list[LogProblem]) -> list[str] | None:
    """A CSV log's first line: the names of its columns (None, and a problem, when it cannot be read)."""
    try:
        (names,) = csv.reader([raw.decode("utf-8")])
    except UnicodeDecodeError as exc:
        problems.append(LogProblem(name, number, None, "log.not-json", f"not UTF-8 at byte {exc.start}"))
        return None
    except csv.Error as exc:
        problems.append(LogProblem(name, number, None, "log.field", f"not a CSV line: {exc}"))
        return None
    return names


def _too_many(name: str) -> LogProblem:
    return LogProblem(
        name, MAX_ROUNDS + 1, None, "log.too-many", f"more than {MAX_ROUNDS:,} lines: the rest is not read"
    )
