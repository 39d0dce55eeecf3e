"""Payout drills for dealer training: practice hands with bets, and an answer key computed by the settlement.

A drill is a list of numbered hands: the player's and the dealer's cards, a bet on each wager of the game at table
sizes, the player's decision; the key gives, per hand and wager, the amount paid (+) or taken (−) with a one-line
reason. Every amount comes from :mod:`trey.play.settle` (what the round nets) and :class:`trey.play.payouts.PayRule`
(how the dealer rounds and caps a win), worded by :func:`trey.play.pay_lines.answer_lines` (which the audit reads
too): nothing is restated here.

Hands are chosen to teach. ``basic`` takes seeded deals, preferring ones where something is paid; ``full`` covers
every paying row of every wager, every Ante & Play situation (fold, dealer does not qualify, win, tie, lose, Ante
Bonus on a losing hand) and a capped and a rounded payout where the table has them — from a seeded pool of deals,
or, for outcomes too rare to be met there (a royal flush of one suit), from a deal built for them — and then fills
up with basic hands. The same game, seed, level and number of hands give the same drill.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.cards.card import Card, cards_of
from trey.cards.hand_table import hand_indexes
from trey.cards.readings import PLAYER_HAND, READINGS
from trey.engine.results import GameAnalysis
from trey.engine.side_bet import LOSE
from trey.paytable.model import ANTE_PLAY, GameSpec, Paytable
from trey.play.pay_lines import Line, answer_lines
from trey.play.payouts import PayRule, bet_columns
from trey.play.settle import SettledWager, Settler, ante_play_parts
from trey.rules.ante_play import AntePlayOutcome, Situation

POOL_DEALS = 60_000
MAX_HANDS = 200


class Level(StrEnum):
    BASIC = "basic"
    FULL = "full"


@dataclass(frozen=True)
class DrillHand:
    number: int
    player: tuple[Card, ...]
    dealer: tuple[Card, ...]
    plays: bool | None  # the player's decision (None without Ante & Play)
    bets: tuple[tuple[str, Fraction], ...]  # (title, amount bet) per wager, the Ante for Ante & Play
    lines: tuple[Line, ...]  # the answer key
    teaches: tuple[str, ...]  # the features this hand shows (see :func:`features`)
    decision: str | None = None  # a family game's decision in words (``plays 3x``), else from ``plays``
    face_up: int = 0  # the dealer's cards shown face up before the player decides (the first of ``dealer``)

    @property
    def blanks(self) -> tuple[str, ...]:
        """What the trainee fills in: every bet on the layout, whatever it turns out to pay (the key's parts)."""
        return tuple(line.part for line in self.lines)


@dataclass(frozen=True)
class Drill:
    spec: GameSpec
    seed: int
    level: Level
    hands: tuple[DrillHand, ...]
    needed: tuple[str, ...]  # what the level promised to cover


# --- what a hand teaches -------------------------------------------------------------------------------------------


def needed_features(
    spec: GameSpec, rule: PayRule, sizes: dict[str, tuple[Fraction, ...]]
) -> tuple[list[str], dict[str, tuple[str, str, Fraction]]]:
    """Everything ``full`` covers for this game (situations, bonus rows, each side bet's rows, a capped and a
    rounded win where the table has them), and for "capped" and "rounded" a (wager, row, bet) that shows it."""
    needed: list[str] = []
    game = spec.wagers.ante_play
    if game is not None:
        needed += [f"{ANTE_PLAY}:{s}" for s in Situation]
        if spec.rules.dealer_qualifier.minimum_key == 0:
            needed.remove(f"{ANTE_PLAY}:{Situation.DEALER_NOT_QUALIFY}")  # the dealer always qualifies
        needed += [f"{ANTE_PLAY}:bonus:{row}" for row, odds in game.ante_bonus.all_odds if odds.net > 0]
        if any(odds.net > 0 for _, odds in game.ante_bonus.all_odds):
            needed.append(f"{ANTE_PLAY}:bonus_on_a_losing_hand")
    for bet in spec.wagers.side_bets:
        needed += [f"{bet.id}:{row}" for row in bet.pays.listed if _can_happen(bet.reads, bet.pays, row)]
    odds_wins = [
        (bet.id, row, pay, size)
        for bet in spec.wagers.side_bets
        if bet.stake is None
        for row, pay in bet.pays
        if pay.scales_with_bet and f"{bet.id}:{row}" in needed
        for size in sizes[bet.id]
    ]
    if game is not None:
        odds_wins += [(ANTE_PLAY, row, pay, size) for row, pay in game.ante_bonus.all_odds for size in sizes[ANTE_PLAY]]
    witnesses: dict[str, tuple[str, str, Fraction]] = {}
    for wager, row, pay, size in odds_wins:
        won = rule.pay(size, pay)
        kind = "capped" if won.capped else "rounded" if won.rounded else None
        if kind is not None and kind not in witnesses:
            witnesses[kind] = (wager, row if wager != ANTE_PLAY else f"bonus:{row}", size)
    return needed + list(witnesses), witnesses


def _can_happen(reads: str, pays: Paytable, row: str) -> bool:
    """Whether some deal is paid by ``row`` (a row every deal of which a rarer listed row takes never pays)."""
    reading = READINGS[reads]
    counts = reading.class_counts()
    paid = reading.paid_by(pays.listed)
    return any(counts[c] for c, r in enumerate(paid) if r is not None and pays.listed[r] == row)


def features(spec: GameSpec, settled: dict[str, SettledWager], bets: dict[str, Fraction], rule: PayRule) -> set[str]:
    """What a settled hand shows, in the terms of :func:`needed_features`."""
    found: set[str] = set()
    for wager, result in settled.items():
        outcome = result.outcome
        if isinstance(outcome, AntePlayOutcome):
            found.add(f"{ANTE_PLAY}:{outcome.situation}")
            bonus = ante_play_parts(result, spec)["Ante Bonus"]
            if bonus is not None and bonus > 0:
                found.add(f"{ANTE_PLAY}:bonus:{outcome.bonus}")
                if outcome.situation is Situation.LOSE:
                    found.add(f"{ANTE_PLAY}:bonus_on_a_losing_hand")
                won = rule.pay(bets[wager], bonus)
                found |= {"capped"} if won.capped else {"rounded"} if won.rounded else set()
            continue
        if str(outcome) == LOSE:
            continue
        found.add(f"{wager}:{outcome}")
        bet = spec.wagers.side_bet(wager)
        pay = bet.pays.get(str(outcome))
        if pay is not None:
            meter = bet.progressive.reset if bet.progressive is not None else None
            won = rule.pay(bets[wager], pay, meter=meter, progressive=bet.progressive is not None)
            found |= {"capped"} if won.capped else {"rounded"} if won.rounded else set()
    return found


# --- choosing the hands --------------------------------------------------------------------------------------------


def _built_deals(spec: GameSpec, rng: np.random.Generator) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Deals for the outcomes a pool of deals may miss: each reading's showcase (every class of a three-card
    reading, every royal flush suit of the six cards), the Ante Bonus's by the player's hand."""
    readings = {READINGS[b.reads] for b in spec.wagers.side_bets}
    if spec.wagers.ante_play is not None:
        readings.add(PLAYER_HAND)
    return [deal for reading in sorted(readings, key=lambda r: r.name) for deal in reading.showcase_deals(rng)]


def _first_of_each_kind(
    outcomes: dict[str, npt.NDArray[np.int64]], sizes: dict[str, tuple[Fraction, ...]], spec: GameSpec
) -> list[int]:
    """The pool's rows, in order, without those settled exactly as an earlier row at the same bets: a hand's
    features are a function of its outcomes and its bets alone, so such a row shows nothing new (most of the pool:
    there are a few hundred kinds of hand among its deals)."""
    columns = [outcomes[w] for w in outcomes]
    rows = np.arange(POOL_DEALS, dtype=np.int64)
    columns += [(rows * 7 + i) % len(sizes[w]) for i, w in enumerate(spec.wagers.ids)]  # as bets_for chooses
    kinds = np.stack(columns, axis=1)
    order = np.lexsort(kinds.T[::-1])  # the rows sorted by kind (np.unique(axis=0) sorts them five times slower)
    ordered = kinds[order]
    starts = np.flatnonzero(np.concatenate([[True], (ordered[1:] != ordered[:-1]).any(axis=1)]))
    first = np.minimum.reduceat(order, starts)  # each kind's first row
    return sorted(first.tolist())


def make_drill(spec: GameSpec, analysis: GameAnalysis, *, hands: int, seed: int, level: Level) -> Drill:
    """A drill of ``hands`` hands (more when ``full`` needs more to cover everything)."""
    if not 1 <= hands <= MAX_HANDS:
        raise ValueError(f"a drill has 1 to {MAX_HANDS} hands")
    from trey.play.simulate import deal

    rng = np.random.Generator(np.random.PCG64(seed))
    plays = analysis.plays
    settler = Settler(spec, plays)
    rule = PayRule.of(spec.table)
    sizes = {w: _bet_sizes(spec, w) for w in spec.wagers.ids}
    pool = deal(rng, POOL_DEALS)
    outcomes = settler.settle(pool[:, :3], pool[:, 3:])
    built = _built_deals(spec, rng)

    def cards(row: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return cards_of(pool[row, :3]), cards_of(pool[row, 3:])

    def bets_for(k: int) -> dict[str, Fraction]:
        return {w: sizes[w][(k * 7 + i) % len(sizes[w])] for i, w in enumerate(spec.wagers.ids)}

    chosen: list[tuple[tuple[int, ...], tuple[int, ...], dict[str, Fraction]]] = []
    used_rows: set[int] = set()
    needed, witnesses = needed_features(spec, rule, sizes) if level is Level.FULL else ([], {})
    # Full: a deal for every feature, the first met in the pool (each row's features computed once, in order,
    # until all are met), else a built one; "capped" and "rounded" on a deal of their witness's row, at its bet.
    wanted = {f for f in needed if f not in witnesses} | {f"{w}:{r}" for w, r, _ in witnesses.values()}
    first: dict[str, int] = {}
    for row in _first_of_each_kind(outcomes, sizes, spec) if wanted else []:
        for feature in features(spec, settler.settled(outcomes, row), bets_for(row), rule):
            first.setdefault(feature, row)
        if wanted <= first.keys():
            break
    built_first: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for player, dealer in built:
        for feature in features(spec, settler.settle_round(player, dealer), bets_for(0), rule):
            built_first.setdefault(feature, (player, dealer))
    # No deal twice: a feature already shown by a chosen hand needs no hand of its own (one pool row is often the
    # first for several features), and the basic hands below skip every deal chosen already.
    covered: set[str] = set()
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for feature in needed:
        if feature in covered:
            continue
        target = feature
        if feature in witnesses:
            wager, row_name, _ = witnesses[feature]
            target = f"{wager}:{row_name}"
        if target in first:
            row = first[target]
            player, dealer = cards(row)
            bets = bets_for(row)
            used_rows.add(row)
        elif target in built_first:
            player, dealer = built_first[target]
            bets = bets_for(len(chosen))
        else:
            continue  # cannot happen in this game (reported by uncovered())
        if (player, dealer) in seen:  # the deal is a hand already: a witness's bet goes on that hand
            bets = next(b for p, d, b in chosen if (p, d) == (player, dealer))
        else:
            seen.add((player, dealer))
            chosen.append((player, dealer, bets))
        if feature in witnesses:
            bets[witnesses[feature][0]] = witnesses[feature][2]
        covered |= features(spec, settler.settle_round(player, dealer), bets, rule)
    # Then basic hands, in the pool's order: every other one a hand where something is paid.
    row = 0
    while len(chosen) < hands and row < POOL_DEALS:
        paying = any(r.net > 0 for r in settler.settled(outcomes, row).values())
        if row not in used_rows and cards(row) not in seen and (paying or len(chosen) % 2):
            seen.add(cards(row))
            chosen.append((*cards(row), bets_for(row)))
        row += 1
    drill_hands = []
    for number, (player, dealer, bets) in enumerate(chosen, 1):
        settled = settler.settle_round(player, dealer)
        index = int(hand_indexes(np.array([player]))[0])
        drill_hands.append(
            DrillHand(
                number,
                cards_of(player),
                cards_of(dealer),
                bool(plays[index]) if plays is not None else None,
                tuple((spec.wagers.title(w), bets[w]) for w in spec.wagers.ids),
                tuple(answer_lines(spec, settled, bets, rule)),
                tuple(sorted(features(spec, settled, bets, rule))),
            )
        )
    return Drill(spec, seed, level, tuple(drill_hands), tuple(needed))


def _bet_sizes(spec: GameSpec, wager: str) -> tuple[Fraction, ...]:
    """Bets a dealer sees on a wager: a fixed stake, or the table's bet columns (chip multiples between limits)."""
    if wager != ANTE_PLAY:
        stake = spec.wagers.side_bet(wager).stake
        if stake is not None:
            return (stake,)
    return tuple(Fraction(b) for b in bet_columns(spec.table))


def uncovered(drill: Drill) -> list[str]:
    """What the level promised and no hand shows (empty for a full drill)."""
    shown = {f for hand in drill.hands for f in hand.teaches}
    return [f for f in drill.needed if f not in shown]


__all__ = ["Drill", "DrillHand", "Level", "Line", "make_drill", "uncovered"]
