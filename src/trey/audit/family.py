"""``trey audit`` of a game of the Three Card Poker family other than the standard one (issue 31).

A round of such a game logs its decision and, played, its Play bet in Antes (``play``: required when the game offers
more than one size), the Ante as its bet (a Blind equals it), and the net of Ante & Play, optionally part by part
(``parts``: ante, play, blind in a game that has one, ante_bonus). The dealer's first card is the one dealt face up
when the game shows one. Each line is read strictly (the common fields by the hand history's own reader,
:mod:`trey.audit.log`); a Play bet the game does not offer is refused (``log.play-size``), and so is one the player's
hand may not make (``log.raise-not-allowed``: a 3x raise on a high card where 3x needs a pair or better), located at
its line and round.

Every valid round is re-settled by :class:`~trey.play.settle.FamilySettler` with its logged option (the nets of
:func:`trey.rules.round.settle`, the Blind's and the Ante Bonus's wins paid by the table's rule) and compared with
its logged net and parts. The return is set against the game's exact RTP per Ante under the optimal strategy
(:func:`~trey.engine.family.analyze_family`), and the sharp test sets the net against the exact expectation of these
very rounds: each one's cell (the player's cards and the up card) and logged option, counted over the dealer's
hidden cards by :func:`~trey.engine.decide.hidden_counts`, the one statement of a cell's expectation. A seat's
options off the optimal strategy (:func:`~trey.engine.decide.decision_table`) are followed as the standard game's
decisions are: a bet larger than the optimal one counts among its plays below the strategy, a smaller one among its
folds above it.

Hand histories of a family game are read from JSON Lines, or CSV (a name ending .csv): the standard game's columns,
``play`` the Play bet in Antes, the parts ``part_ante``, ``part_play``, ``part_blind``, ``part_ante_bonus``
(:func:`family_csv_round`). Side bets beside the game are logged in ``bets`` and ``net`` beside ``ante_play`` and
re-settled on their own cards, lost with the Ante on a logged fold when their ``on_fold`` says so.
"""

from __future__ import annotations

import csv
import math
import weakref
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from trey.audit.audit import Audit, MisPaid, SeatDecisions, WagerReturn
from trey.audit.log import (
    BYTE_ORDER_MARK,
    KEPT,
    MAX_LINE_BYTES,
    MAX_ROUNDS,
    LogProblem,
    _amounts,
    _csv_fields,
    _csv_round,
    _header,
    _Problems,
    _Refused,
    _round,
)
from trey.audit.rounds import cents
from trey.audit.seen import NEW, SeenIds
from trey.cards.hand_table import hand_indexes
from trey.cards.hands import describe_key, three_card_key
from trey.core.codes import Code
from trey.core.errors import TreyError
from trey.core.files import display_name, open_regular
from trey.core.jsonread import JsonInputError, loads_strict
from trey.core.numbers import fraction_text
from trey.engine.decide import cell_counts
from trey.engine.family import FamilyAnalysis, analyze_family
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.play.pay_lines import answer_lines
from trey.play.payouts import PayRule
from trey.play.settle import FAMILY_PARTS, FamilyOutcome, FamilySettler, SettledWager
from trey.rules.round import DEAL_CLASSES, FOLD

BATCH_ROUNDS = 4_096  # valid rounds re-settled at a time
MAX_SEATS = 10_000  # seats whose decisions are followed
_CLASSES = len(DEAL_CLASSES)
PART_WORDS = {"ante": "Ante", "play": "Play", "blind": "Blind", "ante_bonus": "Ante Bonus"}


@dataclass(frozen=True)
class FamilyRound:
    """One valid round of a family game's hand history."""

    line: int
    round: str
    table: str | None
    seat: int | None
    player: tuple[int, int, int]
    dealer: tuple[int, int, int]
    option: int  # FOLD (0), or the Play bet in Antes
    bet: Fraction  # the Ante
    net: Fraction
    parts: dict[str, Fraction] | None
    side: dict[str, tuple[Fraction, Fraction]] = field(default_factory=dict)  # side bets: (bet, net), by id


def _option_words(multiple: int) -> str:
    return f"a {multiple}x Play"


def parse_round(data: Any, spec: GameSpec, line: int) -> FamilyRound:
    """A line's round, checked: the common fields as every hand history's (:func:`trey.audit.log._round`), then
    the decision's Play bet against the options the game offers and the hand's requirement, and the parts. A
    :class:`~trey.audit.log._Refused` (its code and reason) for a line that is not a valid round."""
    if not isinstance(data, dict):
        raise _Refused(Code.LOG_FIELD, "a round is a JSON object")
    common = {k: v for k, v in data.items() if k not in ("play", "parts")}
    logged = _round(common, spec, {})
    if ANTE_PLAY not in logged.bets:
        raise _Refused(Code.LOG_FIELD, "a round of this game bets its Ante & Play (bets.ante_play)")
    shape = spec.game
    multiples = shape.multiples
    offered = " and ".join(f"{m}x" for m in multiples)
    option = FOLD
    if logged.plays:
        play = data.get("play")
        if play is None:
            if len(multiples) > 1:
                raise _Refused(
                    Code.LOG_PLAY_SIZE, f"a round played needs its Play bet in Antes (play): the game offers {offered}"
                )
            play = multiples[0]
        if type(play) is not int or play not in multiples:
            shown = repr(play)[:20]
            raise _Refused(Code.LOG_PLAY_SIZE, f"play is {shown}: the game offers a Play bet of {offered} the Ante")
        option = play
        needed = shape.options[multiples.index(play)]
        key = three_card_key([int(c) for c in logged.player]) if needed.minimum_key else 0
        if key < needed.minimum_key:
            hand = describe_key(key)
            raise _Refused(
                Code.LOG_RAISE_NOT_ALLOWED,
                f"{_option_words(play)} on {hand}: the game allows {needed.label}",
            )
    elif "play" in data:
        raise _Refused(Code.LOG_FIELD, "a fold makes no Play bet: play goes with a round played")
    parts = None
    if "parts" in data:
        names = tuple(p for p in FAMILY_PARTS if p != "blind" or shape.blind is not None)

        def not_a_part(name: str) -> _Refused:
            return _Refused(Code.LOG_FIELD, f"parts has no {name!r}: it names {', '.join(names)}")

        parts = _amounts(data["parts"], "parts", names, signed=True, stranger=not_a_part)
        if set(parts) != set(names):
            raise _Refused(Code.LOG_FIELD, f"parts names {', '.join(names)}")
    player = tuple(int(c) for c in logged.player)
    dealer = tuple(int(c) for c in logged.dealer)
    return FamilyRound(
        line,
        logged.round,
        logged.table,
        logged.seat,
        (player[0], player[1], player[2]),
        (dealer[0], dealer[1], dealer[2]),
        option,
        logged.bets[ANTE_PLAY],
        logged.net[ANTE_PLAY],
        parts,
        {w: (b, logged.net[w]) for w, b in logged.bets.items() if w != ANTE_PLAY},
    )


# A family game's CSV columns for the parts of Ante & Play's net (the column ``play`` is the Play bet in Antes).
CSV_PARTS = {f"part_{name}": name for name in FAMILY_PARTS}


def family_csv_round(header: list[str], values: list[str]) -> dict[str, Any]:
    """A CSV record of a family game as the JSON round it stands for: the standard game's columns
    (:func:`trey.audit.log._csv_round`: round, time, table, seat, player, dealer, decision, bet_<wager>,
    net_<wager>), and ``play``: the Play bet in Antes (ASCII digits; empty on a fold), and optionally the parts as
    ``part_ante``, ``part_play``, ``part_blind`` (in a game with a Blind) and ``part_ante_bonus``. The standard
    game's part columns ``ante`` and ``ante_bonus`` are refused: ``play`` is not a part here."""
    named = set(header)
    standard = sorted(named & {"ante", "ante_bonus"})
    if standard:
        raise _Refused(
            Code.LOG_FIELD,
            f"the column {standard[0]!r} is a part of the standard game's log: a family game's parts are "
            f"{', '.join(CSV_PARTS)} (play is the Play bet in Antes)",
        )
    data = _csv_round([n if n != "play" else "_play" for n in header], values)
    data.pop("parts", None)
    row = dict(zip(header, values, strict=True))
    play = row.get("play", "")
    if play:
        data["play"] = int(play) if play.isascii() and play.isdigit() and len(play) <= 6 else play
    parts = {CSV_PARTS[k]: v for k, v in row.items() if k in CSV_PARTS and v != ""}
    if parts:
        data["parts"] = parts
    return data


# The settler (its strategy table) and the exact figures of a game, the same for every audit of it: forgotten with
# the game.
_PREPARED: weakref.WeakKeyDictionary[GameSpec, tuple[FamilySettler, FamilyAnalysis]] = weakref.WeakKeyDictionary()


def _prepared(spec: GameSpec) -> tuple[FamilySettler, FamilyAnalysis]:
    if spec not in _PREPARED:
        _PREPARED[spec] = (FamilySettler(spec), analyze_family(spec))
    return _PREPARED[spec]


class FamilyAuditor:
    """The audit of one family game's logs, a batch of rounds at a time, into an :class:`~trey.audit.audit.Audit`."""

    def __init__(self, spec: GameSpec, found: Audit, seen: SeenIds) -> None:
        self.spec = spec
        self.found = found
        self.seen = seen
        self.settler, family = _prepared(spec)
        self.rule = PayRule.of(spec.table)
        # The return's expectation under the optimal strategy, at exact odds, in whole numbers: the nets' moments
        # over every deal, scaled by the square of their common denominator.
        scale = math.lcm(*(r.net.denominator for r in family.net_results)) ** 2
        self.cycle = family.cycle * scale
        self.first_moment = int(sum(r.net * r.combinations for r in family.net_results) * scale)
        self.second_moment = int(sum(r.net * r.net * r.combinations for r in family.net_results) * scale)
        found.returns[ANTE_PLAY] = WagerReturn(
            ANTE_PLAY, spec.wagers.title(ANTE_PLAY), theoretical_rtp=family.stats.rtp, cycle=self.cycle
        )
        table = self.settler.tables[ANTE_PLAY]
        self.denominator = math.lcm(*(n.denominator for n in table.nets))
        self.scaled_nets = np.array([int(n * self.denominator) for n in table.nets], dtype=np.int64)
        self.dues: dict[tuple[int, int], tuple[int, dict[str, int], str]] = {}
        self.qualifier = spec.rules.dealer_qualifier.minimum_key
        if any(bet.progressive is not None for bet in spec.wagers.side_bets):
            raise TreyError(
                f"{spec.name}: a progressive beside a game of the family other than the standard one is not audited "
                "yet",
                hint="audit the game's paytable without its progressive",
            )
        # Each side bet's outcome law beside the optimal strategy (analyze_family), what its expected due is over.
        self.side_laws = {bet.wager: bet for bet in family.side_bets}
        for bet in family.side_bets:
            found.returns[bet.wager] = WagerReturn(
                bet.wager, spec.wagers.title(bet.wager), theoretical_rtp=bet.stats.rtp, cycle=bet.outcomes[0].cycle
            )
        self.side_dues: dict[tuple[str, int, int, bool], tuple[int, str]] = {}
        self.side_moments: dict[tuple[str, int], tuple[int, int]] = {}

    def read(self, path: Path) -> None:
        """One log's lines (JSON Lines, or CSV for a name ending .csv: :func:`family_csv_round`), re-settled a batch
        at a time."""
        is_csv = path.name.lower().endswith(".csv")
        name = display_name(path)
        number = self.seen.log(name)
        batch: list[FamilyRound] = []
        header: list[str] | None = None
        with open_regular(path, what="a hand history (JSON Lines or CSV)" if is_csv else "a hand history") as stream:
            line = 0
            while True:
                raw = stream.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    break
                line += 1
                if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                    while raw and not raw.endswith(b"\n"):  # the rest of the line is skipped
                        raw = stream.readline(MAX_LINE_BYTES + 1)
                    self._problem(name, line, None, Code.LOG_LINE_TOO_LONG, f"longer than {MAX_LINE_BYTES:,} bytes")
                    continue
                if is_csv and line == 1 and raw.startswith(BYTE_ORDER_MARK):
                    raw = raw[len(BYTE_ORDER_MARK) :]
                if not raw.strip():
                    continue
                if is_csv and header is None:
                    problems = _Problems(name, max(0, KEPT - len(self.found.problems)))
                    header = _header(raw.rstrip(b"\r\n"), line, problems)
                    self.found.problem_count += problems.count
                    self.found.problems += problems.listed
                    if header is None:  # nothing of the file is read
                        return
                    continue
                if line > MAX_ROUNDS:
                    self._problem(name, line, None, Code.LOG_TOO_MANY, f"more than {MAX_ROUNDS:,} lines")
                    break
                self.found.lines += 1
                data: Any = None
                try:
                    text = raw.decode("utf-8")
                    if header is not None:
                        data = family_csv_round(header, _csv_fields(text.rstrip("\r\n")))
                    else:
                        data = loads_strict(text)
                except UnicodeDecodeError as exc:
                    self._problem(name, line, None, Code.LOG_NOT_JSON, f"not UTF-8 at byte {exc.start}")
                    continue
                except csv.Error as exc:
                    self._problem(name, line, None, Code.LOG_FIELD, f"not a CSV line: {exc}")
                    continue
                except (JsonInputError, ValueError) as exc:
                    self._problem(name, line, None, Code.LOG_NOT_JSON, f"not a JSON round: {str(exc)[:120]}")
                    continue
                except _Refused as refused:
                    self._problem(name, line, None, str(refused.code), str(refused))
                    continue
                try:
                    batch.append(parse_round(data, self.spec, line))
                except _Refused as refused:
                    round_id = data.get("round") if isinstance(data, dict) else None
                    shown = round_id if isinstance(round_id, str) and 0 < len(round_id) <= 64 else None
                    self._problem(name, line, shown, str(refused.code), str(refused))
                    continue
                if len(batch) >= BATCH_ROUNDS:
                    self._batch(name, number, batch)
                    batch = []
        if batch:
            self._batch(name, number, batch)

    def _problem(self, name: str, line: int, round_id: str | None, code: str, message: str) -> None:
        self.found.problem_count += 1
        if len(self.found.problems) < KEPT:
            self.found.problems.append(LogProblem(name, line, round_id, code, message))

    def _batch(self, name: str, number: int, rounds: list[FamilyRound]) -> None:
        found = self.found
        ids = pa.array([r.round for r in rounds], type=pa.string())
        lines = np.array([r.line for r in rounds], dtype=np.uint64)
        earlier = self.seen.earlier(self.seen.digests(ids), (np.uint64(number) << np.uint64(32)) | lines)
        for row in np.flatnonzero(earlier != NEW).tolist():
            log, first = self.seen.where(int(earlier[row]))
            at = f"line {first}" if log == name else f"{log}:{first}"
            found.duplicates += 1
            self._problem(
                name,
                rounds[row].line,
                rounds[row].round,
                Code.LOG_DUPLICATE_ROUND,
                f"the round id is logged twice: first at {at}",
            )
        found.problems.sort(key=lambda p: (p.file != name, p.line))
        player = np.array([r.player for r in rounds], dtype=np.int64)
        dealer = np.array([r.dealer for r in rounds], dtype=np.int64)
        tables = pa.array([r.table for r in rounds], type=pa.string())
        found.cards.add(np.concatenate([player, dealer], axis=1), tables)
        found.rounds += len(rounds)
        options = np.array([r.option for r in rounds], dtype=np.int64)
        settled = self.settler.settle(player, dealer, options)
        index = settled[ANTE_PLAY]
        due = self._settle(rounds, index)
        if self.spec.wagers.side_bets:
            self._side_bets(rounds, settled)
        self._expectation(rounds, player, dealer, options, index, due)

    def _side_due(self, wager: str, index: int, size: int, folded: bool) -> tuple[int, str]:
        """What is due on a side bet's outcome ``index`` at a bet of ``size`` cents, in cents, and why (the fold
        words the loss of a bet lost with the Ante)."""
        key = (wager, index, size, folded)
        if key not in self.side_dues:
            if len(self.side_dues) > 100_000:
                self.side_dues.clear()
            table = self.settler.tables[wager]
            settled: dict[str, SettledWager] = {
                wager: SettledWager(wager, table.outcomes[index], table.nets[index], table.staked[index])
            }
            if folded:
                ante = self.settler.tables[ANTE_PLAY]
                fold = next(i for i, o in enumerate(ante.outcomes) if isinstance(o, FamilyOutcome) and o.deal is None)
                settled = {ANTE_PLAY: SettledWager(ANTE_PLAY, ante.outcomes[fold], ante.nets[fold], 1), **settled}
            bet = Fraction(size, 100)
            paid = answer_lines(self.spec, settled, {w: bet for w in settled}, self.rule)
            lines = [x for x in paid if x.wager == wager]
            due = cents(sum((x.amount for x in lines), Fraction(0)))
            self.side_dues[key] = (due, "; ".join(f"{x.part}: {x.reason}" for x in lines))
        return self.side_dues[key]

    def _side_moments(self, wager: str, size: int) -> tuple[int, int]:
        """A side bet's due at ``size`` cents summed over its outcome law's cycle, and its square."""
        key = (wager, size)
        if key not in self.side_moments:
            law = self.side_laws[wager]
            first = second = 0
            for i, row in enumerate(law.outcomes):  # the law's rows are the settler's outcomes, in order
                due, _ = self._side_due(wager, i, size, False)
                first += row.combinations * due
                second += row.combinations * due * due
            self.side_moments[key] = (first, second)
        return self.side_moments[key]

    def _side_bets(self, rounds: list[FamilyRound], settled: dict[str, np.ndarray]) -> None:
        """Each side bet of the batch re-settled on its own cards (lost with the Ante on a logged fold when its
        on_fold says so), mis-paid ones listed, its return totalled against its law beside the optimal strategy."""
        found = self.found
        for wager in (bet.id for bet in self.spec.wagers.side_bets):
            totals = found.returns[wager]
            for r, i in zip(rounds, settled[wager].tolist(), strict=True):
                if wager not in r.side:
                    continue
                bet, net = r.side[wager]
                size, logged = cents(bet), cents(net)
                due, reason = self._side_due(wager, i, size, r.option == FOLD)
                totals.rounds += 1
                totals.bet_cents += size
                totals.wagered_cents += size
                totals.net_cents += due
                totals.logged_net_cents += logged
                mean, square = self._side_moments(wager, size)
                totals.expected_sum += mean
                totals.square_sum += square
                totals.mean_square_sum += mean * mean
                if logged == due:
                    continue
                found.mispaid_count += 1
                difference = Fraction(logged - due, 100)
                if difference > 0:
                    found.overpaid += difference
                else:
                    found.underpaid -= difference
                if len(found.mispaid) < KEPT:
                    found.mispaid.append(
                        MisPaid(r.line, r.round, wager, Fraction(logged, 100), Fraction(due, 100), reason)
                    )

    def _due(self, index: int, bet: Fraction) -> tuple[int, dict[str, int], str]:
        key = (index, cents(bet))
        if key not in self.dues:
            if len(self.dues) > 100_000:
                self.dues.clear()
            parts = self.settler.dues(index, bet, self.rule)
            total = sum(parts.values(), Fraction(0))
            outcome = self.settler.tables[ANTE_PLAY].outcomes[index]
            assert isinstance(outcome, FamilyOutcome)
            money = self.rule.money
            reason = f"{outcome.words}: " + ", ".join(f"{PART_WORDS[k]} {money(v)}" for k, v in parts.items())
            self.dues[key] = (cents(total), {k: cents(v) for k, v in parts.items()}, reason)
        return self.dues[key]

    def _settle(self, rounds: list[FamilyRound], index: np.ndarray) -> list[int]:
        """Each round's due (cents), every mis-paid one listed, the totals of the return added."""
        found = self.found
        totals = found.returns[ANTE_PLAY]
        staked = self.settler.tables[ANTE_PLAY].staked
        dues = []
        for r, i in zip(rounds, index.tolist(), strict=True):
            due, parts, reason = self._due(i, r.bet)
            dues.append(due)
            bet = cents(r.bet)
            logged = cents(r.net)
            totals.rounds += 1
            totals.bet_cents += bet
            totals.wagered_cents += bet * staked[i]
            totals.net_cents += due
            totals.logged_net_cents += logged
            mean = bet * self.first_moment
            totals.expected_sum += mean
            totals.square_sum += bet * bet * self.second_moment
            totals.mean_square_sum += mean * mean
            wrong_parts = r.parts is not None and {k: cents(v) for k, v in r.parts.items()} != parts
            if logged == due and not wrong_parts:
                continue
            found.mispaid_count += 1
            if logged != due:
                difference = Fraction(logged - due, 100)
                if difference > 0:
                    found.overpaid += difference
                else:
                    found.underpaid -= difference
            elif r.parts is not None:
                reason = "parts: " + ", ".join(
                    f"{k} {fraction_text(r.parts[k])} logged, {fraction_text(Fraction(parts[k], 100))} due"
                    for k in parts
                )
            if len(found.mispaid) < KEPT:
                found.mispaid.append(
                    MisPaid(r.line, r.round, ANTE_PLAY, Fraction(logged, 100), Fraction(due, 100), reason)
                )
        return dues

    def _expectation(
        self,
        rounds: list[FamilyRound],
        player: np.ndarray,
        dealer: np.ndarray,
        options: np.ndarray,
        index: np.ndarray,
        due: list[int],
    ) -> None:
        """The sharp test's sums (each round's exact expectation given its cell and logged option) and each seat's
        options off the optimal strategy."""
        found = self.found
        settler = self.settler
        hands = hand_indexes(player)
        face_up = settler.shape.face_up
        counts = cell_counts(dealer[:, 0] if face_up else None, hands, self.qualifier)
        total = counts.sum(axis=1)
        groups = settler.expect.group_of_hand[hands]
        offered = np.array(settler.expect.options)

        def moments(option: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """Per round: the option's expected net per Ante, scaled by the nets' denominator and the deals
            (exact integers), and the variance of its net per Ante (a float)."""
            position = np.searchsorted(offered, option)
            start = groups * settler.span + np.where(option == FOLD, 0, 1 + (position - 1) * _CLASSES)
            nets = np.where(
                (option == FOLD)[:, None],
                self.scaled_nets[start][:, None],
                self.scaled_nets[np.minimum(start[:, None] + np.arange(_CLASSES), len(self.scaled_nets) - 1)],
            )
            first = (counts * nets).sum(axis=1)
            second = (counts * nets * nets).sum(axis=1)
            scale = float(self.denominator) ** 2
            variance = (second / total - (first / total) ** 2) / scale
            return first, variance

        first, variance = moments(options)
        bets = [cents(r.bet) for r in rounds]
        deals = int(total[0]) * self.denominator  # every cell of a game is counted over as many deals
        expected = sum(b * int(f) for b, f in zip(bets, first.tolist(), strict=True))
        units = np.array(bets, dtype=np.float64) / 100
        spread = units**2 * variance
        start_difference = float(found.actual_net - found.expected_net)
        start_variance = found.expected_variance
        found.expected_net += Fraction(expected, deals * 100)
        found.expected_variance += float(spread.sum())
        found.actual_net += Fraction(sum(due), 100)
        # The trail: the net against its expectation as the rounds go, as the standard game's audit draws it.
        differences = start_difference + np.cumsum(np.array(due, dtype=np.float64) / 100 - units * first / deals)
        variances = start_variance + np.cumsum(spread)
        trail, start = found.trail, found.decided
        i = (-start) % trail.every
        while i < len(rounds):
            trail.add(start + i, float(differences[i]), float(variances[i]))
            i = ((start + i) // trail.every + 1) * trail.every - start
        found.decided += len(rounds)

        optimal = settler.options_of(player, dealer)
        seats = [self._seat(r) for r in rounds]
        for code in seats:
            if code >= 0:
                found.seat_order[code].rounds += 1
        off = np.flatnonzero(options != optimal)
        if not len(off):
            return
        best_first, _ = moments(optimal)
        per_deal = float(deals)
        nets = np.array([float(n) for n in settler.tables[ANTE_PLAY].nets])
        for row in off.tolist():
            code = seats[row]
            if code < 0:
                continue
            seat = found.seat_order[code]
            if options[row] > optimal[row]:
                seat.plays_below += 1
            else:
                seat.folds_above += 1
            seat.gain += float(nets[index[row]]) - best_first[row] / per_deal
            seat.expected_gain += (first[row] - best_first[row]) / per_deal
            seat.variance += float(variance[row])

    def _seat(self, r: FamilyRound) -> int:
        key = f"{r.table or '-'} seat {r.seat if r.seat is not None else '-'}"
        found = self.found
        code = found.seat_codes.get(key)
        if code is None and len(found.seat_order) < MAX_SEATS:
            code = found.seat_codes[key] = len(found.seat_order)
            found.seat_order.append(SeatDecisions(key))
        if code is None:
            found.seats_not_followed += 1
            return -1
        return code


def audit_family(spec: GameSpec, logs: list[Path], *, alpha: Fraction) -> Audit:
    """Every log's rounds of a family game, checked, re-settled with the option each logs, and totalled."""
    found = Audit(spec, alpha=alpha)
    with SeenIds() as seen:
        auditor = FamilyAuditor(spec, found, seen)
        for path in logs:
            auditor.read(path)
    return found
