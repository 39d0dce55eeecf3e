"""``trey hand`` of a game of the Three Card Poker family other than the standard one (issue 31): one player hand's
exact expected value per Ante of every option open to it (the fold, each Play bet the hand may make), the margin and
the decision, against a face-up card given, or against each face-up rank in turn.

A row's figures are those of its cells, a cell being a player hand named (every hand of the ranks named, each
equally likely, or the one hand of the cards named) and an up card (the one given, or the four of the row's rank)
that it leaves in the deck; every cell is counted over as many sets of the dealer's hidden cards (1,128), so a row's
expected value is the value of its cells' counts added up, by :meth:`~trey.engine.decide.Expectations.values`, the
one statement of a hand's expectation. Each cell's own decision is :meth:`~trey.engine.decide.Expectations.decide`'s:
when the cells of a row do not all take the same option, the decision depends on the suits. A game without a card
up has one row, the hand against every dealer hand its cards leave.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from trey.cards.card import Card, cards_text, parse_cards, rank_label
from trey.cards.hand_table import hand_table
from trey.core.errors import TreyError
from trey.core.numbers import fraction_text
from trey.core.version import __version__
from trey.engine.decide import Expectations, cell_counts
from trey.paytable.model import GameSpec
from trey.protect.hand import MAX_TEXT, parse_hand
from trey.rules.round import FOLD

UP_HINT = "write one dealer card, e.g. 7h, or leave --up out for every face-up rank"
SUITS = 4
RANKS = 13
DEPENDS = "depends on the suits"


def option_name(option: int) -> str:
    """``fold``, ``1x``, ``3x``."""
    return "fold" if option == FOLD else f"{option}x"


@dataclass(frozen=True)
class UpRow:
    """The hand against one face-up card (``up``: ``7h``), one face-up rank (``7``: its four cards), or no card up
    (``up`` None)."""

    up: str | None
    cells: int  # (hand named, up card) cells counted
    values: dict[int, Fraction]  # each option open to the hand: its expected net per Ante, over the cells
    taking: dict[int, int]  # each option: the cells whose optimal option it is

    @property
    def best(self) -> int:
        """The option of the highest expected value (on equal values the smaller bet, the fold first)."""
        return max(self.values, key=lambda o: (self.values[o], -o))

    @property
    def margin(self) -> Fraction | None:
        """What the best option gains over the next best (None: the fold is the hand's only option)."""
        others = [v for o, v in self.values.items() if o != self.best]
        return self.values[self.best] - max(others) if others else None

    @property
    def decision(self) -> str:
        """The option every cell takes (``fold``, ``play 1x``, ``play 3x``), or ``depends on the suits``."""
        taken = [o for o, n in self.taking.items() if n]
        if len(taken) > 1:
            return DEPENDS
        return "fold" if taken[0] == FOLD else f"play {taken[0]}x"


@dataclass(frozen=True)
class FamilyHandReport:
    """A hand's figures in a family game, by face-up card (one row without a card up)."""

    spec: GameSpec
    hand: str  # as a person names it: "Q-6-3", "Qh 6d 3c (Q-6-3)"
    hands: int  # the hands of the player's named hand
    options: tuple[int, ...]  # every option the game offers: the fold, then the Play bets ascending
    rows: tuple[UpRow, ...]
    up: Card | None  # the face-up card given


def parse_up(text: str, hand: tuple[Card, ...]) -> Card:
    """One face-up dealer card, not in the player's hand when it is given by its cards."""
    try:
        cards = parse_cards(text) if len(text) <= MAX_TEXT else ()
    except ValueError as exc:
        raise TreyError(f"cannot read the face-up card {text!r}: {exc}", hint=UP_HINT) from None
    if len(cards) != 1:
        raise TreyError(f"{text[:MAX_TEXT]!r}: the dealer shows one card face up", hint=UP_HINT)
    if cards[0] in hand:
        raise TreyError(f"{cards_text(cards)} is in the player's hand, not the dealer's", hint=UP_HINT)
    return cards[0]


def family_hand(spec: GameSpec, text: str, *, up: str | None = None) -> FamilyHandReport:
    """The exact expected value per Ante of every option open to the hand ``text`` (ranks or cards) in ``spec``'s
    family game, the margin and the decision: against the face-up card ``up``, or against each face-up rank (ace
    first) when none is given; a game without a card up has one row."""
    game = spec.wagers.ante_play
    if game is None:
        raise TreyError(
            f"{spec.name}: the game has no Ante & Play, so no hand is played or folded",
            hint="trey hand weighs the Ante & Play decision",
        )
    name, indexes, cards = parse_hand(text)
    shape = spec.game
    if up is not None and not shape.face_up:
        raise TreyError(
            f"{spec.name}: the dealer shows no card face up, so --up has nothing to name",
            hint="leave --up out: the hand is weighed against every dealer hand its cards leave",
        )
    up_card = parse_up(up, cards) if up is not None else None
    expect = Expectations(shape, spec.rules, game.ante_bonus)
    qualifier = spec.rules.dealer_qualifier.minimum_key
    if not shape.face_up:
        groups: list[tuple[str | None, list[int]]] = [(None, [])]
    elif up_card is not None:
        groups = [(str(up_card), [int(up_card)])]
    else:
        groups = [(rank_label(rank), [rank * SUITS + s for s in range(SUITS)]) for rank in reversed(range(RANKS))]
    held = hand_table().cards[indexes]
    rows = []
    for label, ups in groups:
        if shape.face_up:
            pairs = [
                (h, u) for h, three in zip(indexes.tolist(), held.tolist(), strict=True) for u in ups if u not in three
            ]
            if not pairs:
                raise TreyError(
                    f"every {name} holds {label}: the dealer cannot show it too",
                    hint="name a face-up card the hand leaves in the deck",
                )
            hands = np.array([h for h, _ in pairs], dtype=np.int64)
            counts = cell_counts(np.array([u for _, u in pairs], dtype=np.int64), hands, qualifier)
        else:
            hands = np.asarray(indexes, dtype=np.int64)
            counts = cell_counts(None, hands, qualifier)
        rows.append(_row(expect, label, hands, counts))
    return FamilyHandReport(spec, name, len(indexes), expect.options, tuple(rows), up_card)


def _row(expect: Expectations, up: str | None, hands: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]) -> UpRow:
    """One row: the options' values over the cells (their counts added up, hand group by hand group, each cell
    counted over as many hidden-card sets) and the option each cell takes."""
    groups = expect.group_of_hand[hands]
    values: dict[int, Fraction] = {}
    for group in np.unique(groups).tolist():
        here = np.flatnonzero(groups == group)
        weight = Fraction(len(here), len(hands))
        for option, value in expect.values(counts[here].sum(axis=0), int(hands[here[0]])).items():
            values[option] = values.get(option, Fraction(0)) + weight * value
    chosen = expect.decide(counts, hands)
    taking = {o: int((chosen == o).sum()) for o in expect.options}
    return UpRow(up, len(hands), values, taking)


def family_hand_json(report: FamilyHandReport) -> dict[str, Any]:
    """``trey hand --format json`` of a family game (schemas/hand.schema.json, its ``family`` form): exact fractions
    per Ante, by face-up card."""
    return {
        "trey_version": __version__,
        "spec_sha256": report.spec.sha256,
        "name": report.spec.name,
        "hand": report.hand,
        "hands": report.hands,
        "up": str(report.up) if report.up is not None else None,
        "options": [option_name(o) for o in report.options],
        "by_up_card": [
            {
                "up": row.up,
                "cells": row.cells,
                "values": {
                    option_name(o): fraction_text(row.values[o]) if o in row.values else None for o in report.options
                },
                "best": option_name(row.best),
                "margin": fraction_text(row.margin) if row.margin is not None else None,
                "decision": row.decision,
                "cells_taking": {option_name(o): row.taking[o] for o in report.options},
            }
            for row in report.rows
        ],
    }
