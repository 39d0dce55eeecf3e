"""Hand histories of correctly settled rounds (``trey simulate --log``), for demonstrations and for the tests
of the audit: seeded deals, the strategy's decisions, bets at the table's sizes, every net as the dealer pays it.
A progressive's meter is logged as each round was dealt, as :mod:`trey.audit.meters` follows it: from its reset,
fed the increment of each stake (carried exactly, logged to the cent below), paid at that meter and seeded at the
reset again after a jackpot of the whole meter."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from trey.audit.audit import BATCH, lines_of, parts_of
from trey.cards.card import DECK_SIZE, cards_of
from trey.cards.shuffles import Shuffle, new_deck_order, parse_shuffle
from trey.core.errors import TreyError
from trey.core.files import read_bounded
from trey.core.numbers import fraction_text
from trey.engine import analyze
from trey.paytable.load import load_spec, load_spec_bytes
from trey.paytable.model import ANTE_PLAY, GameSpec, refuse_other_games
from trey.paytable.yamldoc import MAX_FILE_BYTES
from trey.play.pay_lines import answer_lines
from trey.play.payouts import PayRule, bet_columns
from trey.play.settle import FamilyOutcome, FamilySettler, Settler
from trey.play.shards import Shard, simulate_part
from trey.play.simulate import Progress, SimulationResult, deal, simulate
from trey.rules.ante_play import AntePlayOutcome, Situation

MAX_LOGGED_ROUNDS = 1_000_000


def _amount(value: Fraction) -> int | str:
    """An amount as a log writes it: a whole number, or text with its cents ("-7.50")."""
    if value.denominator == 1:
        return int(value)
    if (value * 100).denominator != 1:
        raise ValueError(f"{fraction_text(value)} is finer than a cent")
    return f"{float(value):.2f}"


def _sizes(spec: GameSpec, wager: str) -> tuple[Fraction, ...]:
    """The bets a dealer sees on a wager: a fixed stake, or the table's bet columns."""
    stake = spec.wagers.side_bet(wager).stake if wager != ANTE_PLAY else None
    return (stake,) if stake is not None else tuple(Fraction(b) for b in bet_columns(spec.table))


def simulated_log(spec: GameSpec, rounds: int, seed: int, *, table: str = "T1") -> Iterator[str]:
    """``rounds`` lines of a hand history (JSON, no newline), the same for the same seed."""
    if not 1 <= rounds <= MAX_LOGGED_ROUNDS:
        raise ValueError(f"1 to {MAX_LOGGED_ROUNDS:,} rounds are logged")
    if not spec.game.is_standard:
        yield from _family_log(spec, rounds, seed, table)
        return
    analysis = analyze(spec)
    plays = analysis.plays
    settler = Settler(spec, plays)
    rule = PayRule.of(spec.table)
    sizes = {w: _sizes(spec, w) for w in spec.wagers.ids}
    rng = np.random.Generator(np.random.PCG64(seed))
    progressives = {b.id: b for b in spec.wagers.side_bets if b.progressive is not None}
    carried = {w: b.progressive.reset for w, b in progressives.items() if b.progressive is not None}
    number = 0
    while number < rounds:
        cards = deal(rng, min(BATCH, rounds - number))
        outcomes = settler.settle(cards[:, :3], cards[:, 3:])
        for row in range(len(cards)):
            number += 1
            bets = {w: Fraction(sizes[w][(number + i) % len(sizes[w])]) for i, w in enumerate(spec.wagers.ids)}
            settled = settler.settled(outcomes, row)
            for wager, bet in progressives.items():
                assert bet.progressive is not None
                carried[wager] += bet.progressive.increment * bets[wager]  # the round's stake feeds the meter
            logged = {w: Fraction(int(m * 100), 100) for w, m in carried.items()}  # shown to the cent below
            lines = answer_lines(spec, settled, bets, rule, logged)
            net = {}
            for wager in spec.wagers.ids:
                net[wager] = sum((x.amount for x in lines_of(spec, lines, wager)), Fraction(0))
            for wager, bet in progressives.items():
                pay = bet.pays.get(str(settled[wager].outcome))
                if pay is not None and pay.reads_meter:  # a jackpot: the share paid leaves the meter
                    assert bet.progressive is not None
                    paid = net[wager] + bets[wager]
                    rest = carried[wager] - paid if pay.meter_share < 1 else Fraction(0)
                    carried[wager] = max(rest, bet.progressive.reset)
            player, dealer = cards_of(cards[row, :3]), cards_of(cards[row, 3:])
            line = {
                "round": f"{table}-{number:07d}",
                "table": table,
                "seat": 1,
                "player": [str(c) for c in player],
                "dealer": [str(c) for c in dealer],
            }
            if plays is not None:
                outcome = settled[ANTE_PLAY].outcome
                assert isinstance(outcome, AntePlayOutcome)
                line["decision"] = "fold" if outcome.situation is Situation.FOLD else "play"
            line["bets"] = {w: _amount(b) for w, b in bets.items()}
            line["net"] = {w: _amount(n) for w, n in net.items()}
            if plays is not None:
                line["parts"] = {k: _amount(v) for k, v in parts_of(lines).items()}
            if progressives:
                line["meter"] = {w: _amount(m) for w, m in logged.items()}
            yield json.dumps(line, separators=(", ", ": "))


def _family_log(spec: GameSpec, rounds: int, seed: int, table: str) -> Iterator[str]:
    """The hand history of a game of the family other than the standard one (issue 31): each round's decision and,
    played, its Play bet in Antes (``play``); the Ante as the bet (the Blind, when the game has one, equals it); the
    net of Ante & Play in all and part by part, the Blind's among them; each side bet's bet and net, settled on its
    own reading (lost with the Ante on a fold when its ``on_fold`` says so), paid as the standard game's side bets
    are. The dealer's first card is the one dealt face up when the game shows one."""
    if any(b.progressive is not None for b in spec.wagers.side_bets):
        raise TreyError(
            f"{spec.name}: a progressive beside a game of the family other than the standard one is not logged yet",
            hint="simulate it without --log, or log the game without its progressive",
        )
    settler = FamilySettler(spec)
    rule = PayRule.of(spec.table)
    sizes = {w: _sizes(spec, w) for w in spec.wagers.ids}
    rng = np.random.Generator(np.random.PCG64(seed))
    outcomes = settler.tables[ANTE_PLAY].outcomes
    number = 0
    while number < rounds:
        cards = deal(rng, min(BATCH, rounds - number))
        settled_all = settler.settle(cards[:, :3], cards[:, 3:])
        index = settled_all[ANTE_PLAY]
        for row in range(len(cards)):
            number += 1
            bets = {w: Fraction(sizes[w][(number + i) % len(sizes[w])]) for i, w in enumerate(spec.wagers.ids)}
            bet = bets[ANTE_PLAY]
            outcome = outcomes[int(index[row])]
            assert isinstance(outcome, FamilyOutcome)
            parts = settler.dues(int(index[row]), bet, rule)
            line: dict[str, object] = {
                "round": f"{table}-{number:07d}",
                "table": table,
                "seat": 1,
                "player": [str(c) for c in cards_of(cards[row, :3])],
                "dealer": [str(c) for c in cards_of(cards[row, 3:])],
                "decision": "fold" if outcome.deal is None else "play",
            }
            if outcome.deal is not None:
                line["play"] = outcome.option
            net = {ANTE_PLAY: sum(parts.values(), Fraction(0))}
            if spec.wagers.side_bets:
                settled = settler.settled(settled_all, row)
                lines = answer_lines(spec, settled, bets, rule)
                for bet_id in (b.id for b in spec.wagers.side_bets):
                    net[bet_id] = sum((x.amount for x in lines_of(spec, lines, bet_id)), Fraction(0))
            line["bets"] = {w: _amount(b) for w, b in bets.items()}
            line["net"] = {w: _amount(n) for w, n in net.items()}
            line["parts"] = {k: _amount(v) for k, v in parts.items()}
            yield json.dumps(line, separators=(", ", ": "))


def simulated_table_log(
    spec: GameSpec, rounds: int, seed: int, *, seats: int, shuffle: Shuffle | None = None, table: str = "T1"
) -> Iterator[str]:
    """``rounds`` table rounds (hand-history format 2, JSON, no newline) of ``seats`` seats each, the same for the
    same seed: each round's deck is its input (a new deck, cards in number order) shuffled by ``shuffle``
    (:mod:`trey.cards.shuffles`; Fisher-Yates by default) and dealt as :data:`~trey.audit.tables.DEAL_RULE` says,
    three cards at a time to seats 1 to ``seats``, then the dealer; every seat settled as the dealer pays it."""
    from trey.audit.tables import HAND, TABLE_SEATS

    if not 1 <= rounds <= MAX_LOGGED_ROUNDS:
        raise ValueError(f"1 to {MAX_LOGGED_ROUNDS:,} rounds are logged")
    if not 1 <= seats <= TABLE_SEATS:
        raise ValueError(f"a table has 1 to {TABLE_SEATS} seats")
    if any(b.progressive is not None for b in spec.wagers.side_bets):
        raise ValueError("table rounds are simulated for games without a progressive meter")
    shuffle = shuffle or parse_shuffle("fisher-yates")
    analysis = analyze(spec)
    plays = analysis.plays
    settler = Settler(spec, plays)
    rule = PayRule.of(spec.table)
    sizes = {w: _sizes(spec, w) for w in spec.wagers.ids}
    rng = np.random.Generator(np.random.PCG64(seed))
    names = [str(c) for c in cards_of(range(DECK_SIZE))]
    number = 0
    seat_number = 0
    per_batch = max(1, BATCH // seats)
    settled_as: dict[tuple[tuple[int, ...], tuple[Fraction, ...]], dict[str, object]] = {}
    while number < rounds:
        count = min(per_batch, rounds - number)
        inputs = new_deck_order(count)
        decks = shuffle.shuffle(rng, inputs).astype(np.int64)
        player = decks[:, : HAND * seats].reshape(count * seats, HAND)
        dealer = np.repeat(decks[:, HAND * seats : HAND * seats + HAND], seats, axis=0)
        outcomes = settler.settle(player, dealer)
        for row in range(count):
            number += 1
            line: dict[str, object] = {
                "round": f"{table}-{number:07d}",
                "table": table,
                "dealer": f"D{1 + (number - 1) // 500 % 4}",
                "shuffler": "S1",
                "shift": ("day", "night")[(number - 1) // 1000 % 2],
                "table_seats": TABLE_SEATS,
                "dealer_cards": [names[c] for c in decks[row, HAND * seats : HAND * seats + HAND]],
            }
            logged = []
            for seat in range(seats):
                seat_number += 1
                index = row * seats + seat
                bets = {w: Fraction(sizes[w][(seat_number + i) % len(sizes[w])]) for i, w in enumerate(spec.wagers.ids)}
                key = (tuple(int(outcomes[w][index]) for w in spec.wagers.ids), tuple(bets.values()))
                said = settled_as.get(key)
                if said is None:  # what the dealer pays depends on the outcomes and the bets alone: said once
                    settled = settler.settled(outcomes, index)
                    lines = answer_lines(spec, settled, bets, rule, {})
                    net = {w: sum((x.amount for x in lines_of(spec, lines, w)), Fraction(0)) for w in spec.wagers.ids}
                    said = {}
                    if plays is not None:
                        outcome = settled[ANTE_PLAY].outcome
                        assert isinstance(outcome, AntePlayOutcome)
                        said["decision"] = "fold" if outcome.situation is Situation.FOLD else "play"
                    said["bets"] = {w: _amount(b) for w, b in bets.items()}
                    said["net"] = {w: _amount(n) for w, n in net.items()}
                    if plays is not None:
                        said["parts"] = {k: _amount(v) for k, v in parts_of(lines).items()}
                    if len(settled_as) < 100_000:
                        settled_as[key] = said
                logged.append({"seat": seat + 1, "player": [names[c] for c in player[index]], **said})
            line["seats"] = logged
            line["deck"] = [names[c] for c in decks[row]]
            line["input"] = [names[c] for c in inputs[row]]
            yield json.dumps(line, separators=(", ", ": "))


@dataclass(frozen=True)
class SimulationJob:
    """What ``trey simulate`` was asked to do, its paytable read: a run (``shard`` None and ``log`` False), one shard
    of a run (a part for ``trey merge``), or a hand history (``log``). :meth:`run` does it; :attr:`rounds_dealt` is
    how many rounds it deals here (for a progress bar)."""

    spec: GameSpec
    paytable: bytes
    rounds: int
    seed: int
    workers: int = 1
    scheduler: str | None = None
    shard: Shard | None = None
    log: bool = False
    seats: int | None = None  # with ``log``: table rounds of this many seats
    shuffle: Shuffle | None = None  # their decks' shuffle model (Fisher-Yates when None)

    @property
    def rounds_dealt(self) -> int:
        return self.rounds // self.shard.of if self.shard is not None else self.rounds

    def run(self, progress: Progress | None = None) -> SimulationOutput:
        """Deal the rounds: a simulation's result, a shard's part, or the hand history's lines (made as they are
        read, so that a million rounds never sit in memory)."""
        if self.log and self.seats is not None:
            lines = simulated_table_log(self.spec, self.rounds, self.seed, seats=self.seats, shuffle=self.shuffle)
            return SimulationOutput(self.spec, lines=lines)
        if self.log:
            return SimulationOutput(self.spec, lines=simulated_log(self.spec, self.rounds, self.seed))
        if self.shard is not None:
            part = simulate_part(
                self.spec,
                self.paytable,
                self.rounds,
                self.seed,
                self.shard,
                workers=self.workers,
                scheduler=self.scheduler,
                progress=progress,
            )
            return SimulationOutput(self.spec, part=part)
        result = simulate(
            self.spec, self.rounds, self.seed, workers=self.workers, scheduler=self.scheduler, progress=progress
        )
        return SimulationOutput(self.spec, result=result)


@dataclass(frozen=True)
class SimulationOutput:
    """What a :class:`SimulationJob` made: one of a result, a part (JSON data) or a hand history's lines."""

    spec: GameSpec
    result: SimulationResult | None = None
    part: dict[str, Any] | None = None
    lines: Iterator[str] | None = None


def simulation_job(
    file: Path,
    rounds: int,
    seed: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    shard: str | None = None,
    log: bool = False,
    seats: int | None = None,
    shuffle: Shuffle | None = None,
) -> SimulationJob:
    """``trey simulate`` as a library call: the paytable ``file`` read (its bytes kept for a shard's part, ``shard``
    ``I/K``) and what to deal, every game of the family alike. A hand history (``log``) is dealt on this machine, at
    most :data:`MAX_LOGGED_ROUNDS` rounds; with ``seats``, table rounds of that many seats (standard Three Card Poker)
    whose decks ``shuffle`` shuffles."""
    if log and (shard is not None or scheduler is not None or rounds > MAX_LOGGED_ROUNDS):
        raise ValueError(f"a hand history is dealt here, without a shard or a scheduler, {MAX_LOGGED_ROUNDS:,} at most")
    if (seats is not None or shuffle is not None) and not log:
        raise ValueError("table rounds (seats, a shuffle model) are a hand history's")
    if shard is None:
        spec = load_spec(file)
        if seats is not None:
            refuse_other_games(spec, "trey simulate --seats", str(file))
            meters = [b.id for b in spec.wagers.side_bets if b.progressive is not None]
            if meters:  # a meter follows its table from round to round: seat lines log it, table rounds do not yet
                raise TreyError(
                    f"{file}: table rounds are simulated for games without a progressive meter ({meters[0]} has one)",
                    hint="trey simulate --log without --seats logs its rounds as seat lines, meter and all",
                )
        return SimulationJob(spec, b"", rounds, seed, workers, scheduler, None, log, seats, shuffle)
    part_shard = Shard.parse(shard)
    raw = read_bounded(file, limit=MAX_FILE_BYTES)
    return SimulationJob(load_spec_bytes(raw, str(file)), raw, rounds, seed, workers, scheduler, part_shard)
