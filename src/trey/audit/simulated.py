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
from trey.cards.card import DECK_SIZE, cards_of
from trey.cards.shuffles import Shuffle, new_deck_order, parse_shuffle
from trey.core.numbers import fraction_text
from trey.engine import analyze
from trey.floor.drill import answer_lines
from trey.paytable.model import ANTE_PLAY, GameSpec
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
