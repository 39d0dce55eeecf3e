"""Hand histories of correctly settled rounds (``trey simulate --log``), for demonstrations and for the tests
of the audit: seeded deals, the strategy's decisions, bets at the table's sizes, every net as the dealer pays it.
A progressive's meter is logged as each round was dealt, as :mod:`trey.audit.meters` follows it: from its reset,
fed the increment of each stake (carried exactly, logged to the cent below), paid at that meter and seeded at the
reset again after a jackpot of the whole meter."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from trey.audit.audit import BATCH, lines_of, parts_of
from trey.cards.card import cards_of
from trey.core.numbers import fraction_text
from trey.engine import analyze
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.play.pay_lines import answer_lines
from trey.play.payouts import PayRule, bet_columns
from trey.play.settle import Settler
from trey.play.simulate import deal
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
