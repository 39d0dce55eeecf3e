"""``trey hand`` as a library call: one player hand's exact expected value of playing and of folding, the margin
and the better decision; and the same for a player who sees one or two of the dealer's cards.

The expectation is :func:`trey.engine.ante_play.hand_value`'s, over the dealer hands the player may be facing: all
18,424 left by the player's cards, counted by the engine; or, with seen cards, those that hold them, counted by the
informed player's counts of :mod:`trey.protect.informed` (the hand table's inclusion–exclusion among the hands that
hold the seen cards). A hand named by its ranks alone (``Q-6-3``) is every hand of that strength, each equally
likely: its figures are their average, and the decision says when the suits change it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from trey.cards.card import Card, cards_text, parse_card, parse_cards, rank_from_char
from trey.cards.hand_table import hand_indexes, hand_table
from trey.cards.hands import describe_key, three_card_key
from trey.cards.readings.player_hand import class_of_hand
from trey.core.errors import TreyError
from trey.core.numbers import fraction_text
from trey.core.version import __version__
from trey.engine import OTHER_GAMES_HINT
from trey.engine.ante_play import HandValue, analyze_ante_play, dealer_counts_at, hand_value
from trey.engine.results import StrategyReport
from trey.paytable.model import GameSpec, refuse_other_games
from trey.protect.informed import PLAYED, seen_counts
from trey.rules.ante_play import bonus_column, bonus_pays, resolution_table

HAND_HINT = "write the hand's ranks, e.g. Q-6-3, or its cards, e.g. Qh-6d-3c or 'Qh 6d 3c'"
SEEN_HINT = "write one or two of the dealer's cards, e.g. 7h or '7h Kd'"
MAX_TEXT = 40  # longer than any three cards however written: refused before it is read


@dataclass(frozen=True)
class Choice:
    """A hand's expected values per Ante, the Ante Bonus included, averaged over the ``hands`` it names."""

    play: Fraction
    fold: Fraction
    hands: int  # the hands of the player's named hand counted (all its suits, or the one given)
    playing: int  # of them, those whose better decision is to play

    @property
    def margin(self) -> Fraction:
        """What playing gains over folding, per Ante (negative: folding loses less)."""
        return self.play - self.fold

    @property
    def decision(self) -> str:
        """``play``, ``fold``, or ``depends on the suits`` when the hands named split."""
        if self.playing == self.hands:
            return "play"
        return "fold" if self.playing == 0 else "depends on the suits"


@dataclass(frozen=True)
class HandReport:
    """A hand's figures without information and, when cards are seen, with it."""

    spec: GameSpec
    hand: str  # as a person names it: "Q-6-3", "Qh 6d 3c (Q-6-3)"
    normal: Choice
    strategy: StrategyReport  # the table's strategy
    strategy_plays: int  # of the hands named, those the table's strategy plays
    seen: tuple[Card, ...] = ()
    informed: Choice | None = None  # with the seen cards


def parse_hand(text: str) -> tuple[str, npt.NDArray[np.int64], tuple[Card, ...]]:
    """``"Q-6-3"`` (ranks: every hand of that strength) or ``"Qh-6d-3c"`` / ``"Qh 6d 3c"`` (cards): its name, its
    hands' indexes in the hand table and, for cards, the cards."""
    parts = re.split(r"[\s,-]+", text.strip()) if len(text) <= MAX_TEXT else []
    if len(parts) != 3:
        raise TreyError(f"{text[:MAX_TEXT]!r} is not a three-card hand", hint=HAND_HINT)
    try:
        ranks = [rank_from_char(part) for part in parts]
    except ValueError:
        ranks = []
    table = hand_table()
    if ranks:
        # The hand of these ranks that is not a flush: three different suits.
        key = three_card_key([rank * 4 + suit for suit, rank in enumerate(ranks)])
        return describe_key(key), np.flatnonzero(table.keys == key), ()
    try:
        cards = tuple(parse_card(part) for part in parts)
    except ValueError as exc:
        raise TreyError(f"{text!r} is not a three-card hand: {exc}", hint=HAND_HINT) from None
    if len(set(cards)) != 3:
        raise TreyError(f"{text!r} is not a three-card hand: a card appears twice", hint=HAND_HINT)
    index = hand_indexes(np.array([cards]))
    return f"{cards_text(cards)} ({describe_key(int(table.keys[index[0]]))})", index, cards


def parse_seen(text: str, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """One or two dealer cards, none of them in the player's hand when it is given by its cards."""
    try:
        seen = parse_cards(text) if len(text) <= MAX_TEXT else ()
    except ValueError as exc:
        raise TreyError(f"cannot read the seen cards {text!r}: {exc}", hint=SEEN_HINT) from None
    if not 1 <= len(seen) <= 2:
        raise TreyError(f"{text[:MAX_TEXT]!r}: a player sees one or two of the dealer's cards", hint=SEEN_HINT)
    mine = [c for c in seen if c in hand]
    if mine:
        raise TreyError(f"{cards_text(mine)} is in the player's hand, not the dealer's", hint=SEEN_HINT)
    return seen


def hand(spec: GameSpec, text: str, *, seen: str | None = None) -> HandReport:
    """The exact expected values of playing and of folding the hand ``text`` (ranks or cards) in ``spec``'s game,
    the margin and the decision; with ``seen`` (one or two dealer cards), the same for a player who sees them."""
    refuse_other_games(spec, "the standard game's hand values", hint=OTHER_GAMES_HINT)
    game = spec.wagers.ante_play
    if game is None:
        raise TreyError(
            f"{spec.name}: the game has no Ante & Play, so no hand is played or folded",
            hint="trey hand weighs the Ante & Play decision",
        )
    name, indexes, cards = parse_hand(text)
    seen_cards = parse_seen(seen, cards) if seen is not None else ()
    resolution = resolution_table(spec.rules)
    bonus = bonus_pays(game.ante_bonus)
    column = bonus_column(game.ante_bonus, class_of_hand())
    qualifier = spec.rules.dealer_qualifier.minimum_key

    def choice(counts: dict[Any, npt.NDArray[np.int64]], chosen: npt.NDArray[np.int64]) -> Choice:
        values: list[HandValue] = [
            hand_value({s: int(c[i]) for s, c in counts.items()}, resolution, bonus[column[i]]) for i in chosen
        ]
        n = len(values)
        return Choice(
            sum((v.play for v in values), Fraction(0)) / n,
            sum((v.fold for v in values), Fraction(0)) / n,
            n,
            sum(v.plays for v in values),
        )

    normal = choice(dealer_counts_at(qualifier).by_situation(), indexes)
    analysis = analyze_ante_play(game, spec.rules)
    informed = None
    if seen_cards:
        counts = seen_counts(tuple(int(c) for c in seen_cards), qualifier)  # (22100, 4), 0 where a card is shared
        facing = indexes[counts[indexes].sum(axis=1) > 0]
        if not len(facing):
            raise TreyError(
                f"every {name} holds {cards_text(seen_cards)}: the dealer cannot hold it too",
                hint="name a seen card the hand leaves in the deck",
            )
        informed = choice({s: counts[:, i] for i, s in enumerate(PLAYED)}, facing)
    plays = int(analysis.plays[indexes].sum())
    return HandReport(spec, name, normal, analysis.strategy, plays, seen_cards, informed)


def _choice_json(c: Choice) -> dict[str, Any]:
    return {
        "hands": c.hands,
        "play": fraction_text(c.play),
        "fold": fraction_text(c.fold),
        "margin": fraction_text(c.margin),
        "decision": c.decision,
        "hands_played": c.playing,
    }


def hand_json(report: HandReport) -> dict[str, Any]:
    """``trey hand --format json`` (schemas/hand.schema.json): exact fractions per Ante."""
    return {
        "trey_version": __version__,
        "spec_sha256": report.spec.sha256,
        "name": report.spec.name,
        "hand": report.hand,
        "normal": _choice_json(report.normal),
        "strategy": {
            "kind": str(report.strategy.kind),
            "rule": report.strategy.rule,
            "hands_played": report.strategy_plays,
        },
        "seen": [str(c) for c in report.seen],
        "informed": _choice_json(report.informed) if report.informed is not None else None,
    }
