"""Game protection for a game of the Three Card Poker family other than the standard one (issue 31): what a player
gains who sees one of the dealer's cards *beyond* those the game deals face up, or only its class (its rank, or a
partition of the ranks such as ace / face / other), exactly.

The informed player knows the face-up card (if the game shows one) and one hole card, or the hole card's class.
Each context — the up card and the hole card (or class) — splits every player hand's remaining deals into the six
:data:`~trey.rules.round.DEAL_CLASSES` among the dealer hands holding the seen cards
(:func:`~trey.engine.decide.seen_cell_counts`, the hand table's inclusion-exclusion); the decision is the one the
engine, the settlement and the audit take (:meth:`~trey.engine.decide.Expectations.decide`: the option of highest
exact expectation, the smaller bet on equal ones), so no second statement of the rule exists here. A class's
context adds the counts of its cards: every (hole card, last card) deal counted once.

Suits are symmetric: the up cards of clubs stand for the four of their rank, and with the up card of clubs, the hole
cards of hearts and spades are read from those of diamonds by swapping the suits of the player's hand
(:func:`~trey.engine.decide.suit_swap`). Every deal is counted: (player hand, up card, hole card, last card), the
hole card being either of the dealer's hidden two.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from trey.cards.hand_table import HANDS, hand_indexes, hand_table
from trey.cards.hands import IntArray
from trey.core.errors import TreyError
from trey.core.numbers import fraction_text
from trey.core.version import __version__
from trey.engine.decide import Expectations, decision_table, seen_cell_counts, suit_swap
from trey.engine.family import FamilyAnalysis, analyze_family
from trey.engine.stats import WagerStats, net_distribution, stats_of
from trey.paytable.model import GameSpec
from trey.protect.colluders import CHUNK_SAMPLES, MAX_COLLUDERS, MAX_SAMPLES, ColluderPlay
from trey.protect.scenarios import BUILT_IN_CLASSES, CardClasses
from trey.rules.round import DEAL_CLASSES

SUITS = 4
RANKS = 13
HOLE_CARD = "the hole card beyond the face-up one"
Report = Callable[[str, int, int], None]


@dataclass(frozen=True)
class FamilyInformed:
    """One scenario of information: the informed player's exact figures per Ante, against the optimal strategy's,
    and how often the informed option differs from the optimal one (deals), by option taken."""

    scenario: str
    stats: WagerStats  # per Ante: the mean is the informed player's edge
    normal: WagerStats
    deals: int
    deviations: int  # deals whose informed option is not the optimal strategy's
    by_option: tuple[tuple[int, int], ...]  # (option, deals taking it)

    @property
    def gain(self) -> Fraction:
        """What the information is worth, per Ante: the informed return less the optimal strategy's."""
        return self.stats.mean - self.normal.mean


@dataclass(frozen=True)
class FamilyProtection:
    spec: GameSpec
    analysis: FamilyAnalysis
    scenarios: tuple[FamilyInformed, ...]
    sampled: tuple[ColluderPlay, ...] = ()  # colluding seats: seeded Monte Carlo


class _Tally:
    """The deals of one scenario by (option, group) and class, and its deviations from the optimal strategy."""

    def __init__(self, expect: Expectations) -> None:
        self.expect = expect
        self.deals = np.zeros((len(expect.options) * expect.groups, len(DEAL_CLASSES)), dtype=np.int64)
        self.deviations = 0

    def add(self, counts: IntArray, normal: IntArray, weight: int) -> None:
        """One context (counts per hand, (22100, 6)), the optimal strategy's options ``normal`` of its cells."""
        expect = self.expect
        choice = expect.decide(counts)
        exists = counts.sum(axis=1) > 0
        position = np.searchsorted(np.array(expect.options), choice)
        np.add.at(self.deals, (position * expect.groups + expect.group_of_hand)[exists], counts[exists] * weight)
        self.deviations += int(counts[exists & (choice != normal)].sum()) * weight

    def result(self, scenario: str, normal: WagerStats) -> FamilyInformed:
        expect = self.expect
        pairs = []
        by_option = [0] * len(expect.options)
        for flat, row in enumerate(self.deals.tolist()):
            position, group = divmod(flat, expect.groups)
            option = expect.options[position]
            by_option[position] += sum(row)
            for deal, n in zip(DEAL_CLASSES, row, strict=True):
                if n:
                    pairs.append((expect.nets(option, deal, group).total, n))
        stats = stats_of(net_distribution(pairs))
        return FamilyInformed(
            scenario, stats, normal, stats.cycle, self.deviations, tuple(zip(expect.options, by_option, strict=True))
        )


def _hole_counts(up: int | None, qualifier: int) -> dict[int, IntArray]:
    """Every hole card's counts (22100, 6) with the up card ``up`` (clubs, or None): the clubs and diamonds counted,
    hearts and spades read from diamonds by the suits' symmetry (swapping diamonds with them fixes the clubs)."""
    seen = () if up is None else (up,)
    found: dict[int, IntArray] = {}
    direct_suits = (0, 1) if up is not None else (0,)
    for rank in range(RANKS):
        for suit in direct_suits:
            card = rank * SUITS + suit
            if card != up:
                found[card] = seen_cell_counts((*seen, card), qualifier)
        source = rank * SUITS + direct_suits[-1]
        for suit in range(direct_suits[-1] + 1, SUITS):
            found[rank * SUITS + suit] = found[source][suit_swap(direct_suits[-1], suit)]
    return found


def protect_family(
    spec: GameSpec,
    *,
    classes: tuple[CardClasses, ...] = (),
    colluders: int | None = None,
    samples: int = 20_000,
    seed: int = 1,
    progress: Report | None = None,
    analysis: FamilyAnalysis | None = None,
) -> FamilyProtection:
    """The informed player's exact figures in a family game: the hole card seen beyond the face-up one, its rank
    only, and its class under the built-in partitions and ``classes``; and ``colluders`` other seats' hands known
    (``samples`` seeded samples, on this machine). ``analysis``: the game's :func:`analyze_family`, when made
    already (the certificate's)."""
    game = spec.wagers.ante_play
    if game is None:
        raise TreyError("the game has no Ante & Play: information about the dealer's cards changes no decision")
    family = analysis if analysis is not None and analysis.spec == spec else analyze_family(spec)
    expect = Expectations(spec.game, spec.rules, game.ante_bonus)
    normal = decision_table(spec.game, spec.rules, game.ante_bonus)
    qualifier = spec.rules.dealer_qualifier.minimum_key
    rank_classes = CardClasses("ranks", tuple((r,) for r in range(RANKS)))
    partitions = [rank_classes, *BUILT_IN_CLASSES.values(), *(c for c in classes if c.name not in BUILT_IN_CLASSES)]
    hole = _Tally(expect)
    by_class = [_Tally(expect) for _ in partitions]
    ups: list[int | None] = [rank * SUITS for rank in range(RANKS)] if spec.game.face_up else [None]
    weight = SUITS if spec.game.face_up else 1
    for done, up in enumerate(ups):
        counts = _hole_counts(up, qualifier)
        row = normal[up if up is not None else 0]
        for card, card_counts in counts.items():  # hearts and spades as diamonds (no card up: as clubs)
            suit = card % SUITS
            if up is None and suit == 0:
                hole.add(card_counts, row, weight * SUITS)
            elif up is not None and suit in (0, 1):
                hole.add(card_counts, row, weight * (1 if suit == 0 else SUITS - 1))
        for tally, partition in zip(by_class, partitions, strict=True):
            for ranks in partition.classes:
                summed = np.zeros((HANDS, len(DEAL_CLASSES)), dtype=np.int64)
                for card, card_counts in counts.items():
                    if card // SUITS in ranks:
                        summed += card_counts
                tally.add(summed, row, weight)
        if progress is not None:
            progress(HOLE_CARD, done + 1, len(ups))
    normal_stats = family.stats
    seen = "the hole card" if spec.game.face_up else "one dealer card"
    scenarios = [hole.result(HOLE_CARD if spec.game.face_up else seen, normal_stats)]
    for tally, partition in zip(by_class, partitions, strict=True):
        name = f"the rank of {seen}" if partition is rank_classes else f"the class of {seen} ({partition.name})"
        scenarios.append(tally.result(name, normal_stats))
    sampled: tuple[ColluderPlay, ...] = ()
    if colluders is not None:
        sampled = (family_colluders(spec, family, colluders=colluders, samples=samples, seed=seed),)
    return FamilyProtection(spec, family, tuple(scenarios), sampled)


def family_protection_json(found: FamilyProtection) -> dict[str, Any]:
    """``trey protect --format json`` of a family game."""
    return {
        "trey_version": __version__,
        "spec_sha256": found.spec.sha256,
        "name": found.spec.name,
        **certified_family_protection_json(found),
        "sampled": [
            {
                "scenario": c.scenario,
                "samples": c.samples,
                "seed": c.seed,
                "gain": round(c.gain, 6),
                "gain_error": round(c.gain_error, 6),
                "player_edge": round(c.edge, 6),
            }
            for c in found.sampled
        ],
    }


def certified_family_protection_json(found: FamilyProtection) -> dict[str, Any]:
    """The certificate's ``protection`` section of a family game (``certify --protection``): the exact scenarios
    per Ante as ``trey protect --format json`` gives them (no sampled figure: a certificate states what every deal
    gives)."""
    return {
        "per": "Ante",
        "house_edge": fraction_text(found.analysis.house_edge_per_ante),
        "scenarios": [
            {
                "scenario": s.scenario,
                "player_edge": fraction_text(s.stats.mean),
                "gain": fraction_text(s.gain),
                "deals": s.deals,
                "deviations": s.deviations,
                "by_option": {str(o): n for o, n in s.by_option},
            }
            for s in found.scenarios
        ],
    }


def _nets(expect: Expectations) -> np.ndarray:
    """(groups, options, 6): each option's net per Ante in each deal class, by the hand's group (floats, for the
    colluders' sampled means; the decisions stay exact)."""
    nets = np.zeros((expect.groups, len(expect.options), len(DEAL_CLASSES)))
    for group in range(expect.groups):
        for i, option in enumerate(expect.options):
            for c, deal in enumerate(DEAL_CLASSES):
                nets[group, i, c] = float(expect.nets(option, deal, group).total)
    return nets


def colluder_sample_figures(
    spec: GameSpec, expect: Expectations, normal: IntArray, nets: np.ndarray, cards: IntArray
) -> tuple[np.ndarray, ...]:
    """Per sample (``cards``: the player's three, the up card when the game shows one, then the colluders'), exact
    over the dealer hands the cards left: the informed and the optimal strategy's expectation per Ante, the informed
    Antes staked, P(net > 0) and E[net^2] as informed. The informed option is :meth:`Expectations.decide`'s over
    those dealer hands, the optimal one the decision table's (``normal``)."""
    table = hand_table()
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), table.cards.astype(np.int64)), axis=1)
    face_up = spec.game.face_up
    player = hand_indexes(cards[:, :3])
    known = np.bitwise_or.reduce(np.left_shift(np.int64(1), cards.astype(np.int64)), axis=1)
    hidden_known = known
    possible = np.ones((len(cards), HANDS), dtype=bool)
    if face_up:
        up = np.left_shift(np.int64(1), cards[:, 3].astype(np.int64))
        possible &= (masks[None, :] & up[:, None]) != 0  # the dealer's hand holds the up card
        hidden_known = known & ~up
    possible &= (masks[None, :] & hidden_known[:, None]) == 0  # and none of the other cards known
    mine, theirs = table.keys[player][:, None], table.keys[None, :]
    qualifies = theirs >= spec.rules.dealer_qualifier.minimum_key
    showdown = np.sign(mine - theirs)
    classes = qualifies.astype(np.int64) * 3 + showdown + 1
    counts = np.stack([(possible & (classes == c)).sum(axis=1) for c in range(len(DEAL_CLASSES))], axis=1)
    counts = counts.astype(np.int64)
    informed = expect.decide(counts, player)
    optimal = normal[cards[:, 3] if face_up else np.zeros(len(cards), dtype=np.int64), player]
    offered = np.array(expect.options)
    group_nets = nets[expect.group_of_hand[player]]  # (n, options, 6)
    total = counts.sum(axis=1)
    values = (group_nets * counts[:, None, :]).sum(axis=2) / total[:, None]  # (n, options)
    rows = np.arange(len(cards))
    chosen = np.searchsorted(offered, informed)
    taken = group_nets[rows, chosen]  # (n, 6)
    hit = (counts * (taken > 0)).sum(axis=1) / total
    square = (counts * taken**2).sum(axis=1) / total
    staked = spec.game.initial_bet + informed
    return values[rows, chosen], values[rows, np.searchsorted(offered, optimal)], staked, hit, square


def family_colluders(
    spec: GameSpec, analysis: FamilyAnalysis, *, colluders: int, samples: int, seed: int
) -> ColluderPlay:
    """K other seats' hands known (seeded like ``trey simulate``: one PCG64 stream per chunk of samples), exact
    over the dealer hands left in each sample: the informed figures, the gain over the optimal strategy measured on
    the same samples (a control variate on the game's exact edge)."""
    if not 1 <= colluders <= MAX_COLLUDERS or not 1 <= samples <= MAX_SAMPLES:
        raise TreyError(
            f"{colluders} colluders and {samples:,} samples",
            hint=f"give 1 to {MAX_COLLUDERS} colluders and 1 to {MAX_SAMPLES:,} samples",
        )
    game = spec.wagers.ante_play
    assert game is not None
    expect = Expectations(spec.game, spec.rules, game.ante_bonus)
    normal = decision_table(spec.game, spec.rules, game.ante_bonus)
    nets = _nets(expect)
    drawn = 3 + spec.game.face_up + 3 * colluders
    sums = np.zeros(7)  # informed EV and its square, optimal EV, gain squared, hits, Antes staked, E[net^2]
    for number in range(math.ceil(samples / CHUNK_SAMPLES)):
        n = min(CHUNK_SAMPLES, samples - number * CHUNK_SAMPLES)
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(number,))))
        cards = np.argsort(rng.random((n, 52)), axis=1)[:, :drawn]
        informed, optimal, staked, hit, square = colluder_sample_figures(spec, expect, normal, nets, cards)
        gain = informed - optimal
        sums += [
            informed.sum(),
            (informed**2).sum(),
            optimal.sum(),
            (gain**2).sum(),
            hit.sum(),
            staked.sum(),
            square.sum(),
        ]
    mean, gain = sums[0] / samples, (sums[0] - sums[2]) / samples
    gain_error = math.sqrt(max(sums[3] / samples - gain**2, 0.0) / samples)
    return ColluderPlay(
        colluders,
        samples,
        seed,
        float(gain),
        gain_error,
        float(analysis.stats.mean) + float(gain),
        gain_error,
        float(sums[4] / samples),
        math.sqrt(max(float(sums[6] / samples - mean**2), 0.0)),
        float(sums[5] / samples),
    )
