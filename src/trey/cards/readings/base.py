"""What a card reading is: the cards a wager looks at, the outcomes it can produce, and two ways to count them.

A reading splits every deal into *classes*: the finest outcomes it tells apart, disjoint, the last one "nothing"
(no outcome). An *outcome* that a paytable may list is a set of classes, and outcomes are listed rarest first: a
spade mini-royal is in ``mini_royal_spades``, in ``mini_royal`` and in ``straight_flush``. A deal is paid by the
rarest listed outcome its class belongs to (:meth:`Reading.paid_by`).

Each reading states its rule once, in :meth:`Reading.classify` (vectorised; settlement, simulation and worked
hands use it), and gives exact counts of its classes over its cycle in :meth:`Reading.class_counts` (a closed form;
the engine uses it). A test holds the two equal over every deal.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property, lru_cache
from itertools import permutations

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_indexes, hand_table
from trey.cards.hands import IntArray

Cards = npt.NDArray[np.integer]
# The suits in the order of card numbers (clubs, diamonds, hearts, spades): rank * 4 + suit.
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


ALL_SUIT_PERMUTATIONS: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, d) for a, b, c, d in permutations(range(4))
)


class Seat(StrEnum):
    """Whose cards a reading looks at: this decides its natural cycle and how a fold is counted."""

    PLAYER = "player"  # the player's three cards: 22,100 hands
    DEALER = "dealer"  # the dealer's three cards: 22,100 hands
    BOTH = "both"  # cards of both hands: 407,170,400 player/dealer deals, or the 20,358,520 six-card sets


class Deals:
    """The player's and the dealer's cards of n deals (``(n, 3)`` arrays each), with what readings derive from
    them computed once per batch and shared: the hands' indexes in the hand table (given when the caller knows
    them already, they are not looked up from the cards again)."""

    def __init__(
        self,
        player: Cards,
        dealer: Cards,
        *,
        player_hands: IntArray | None = None,
        dealer_hands: IntArray | None = None,
    ) -> None:
        if player.shape != dealer.shape or player.ndim != 2 or player.shape[1] != 3:
            raise ValueError("deals need (n, 3) player and dealer cards")
        self.player = player
        self.dealer = dealer
        for name, known in (("player_hands", player_hands), ("dealer_hands", dealer_hands)):
            if known is not None:
                self.__dict__[name] = known  # the cached property's value

    def __len__(self) -> int:
        return len(self.player)

    @cached_property
    def player_hands(self) -> IntArray:
        return hand_indexes(self.player)

    @cached_property
    def dealer_hands(self) -> IntArray:
        return hand_indexes(self.dealer)


@dataclass(frozen=True)
class Outcome:
    """An outcome a paytable may list: its name in files, the classes it covers, and its words (the paytable
    schema's title and description of the row are these)."""

    slug: str
    classes: frozenset[int]
    label: str = ""
    description: str = ""

    @property
    def title(self) -> str:
        return self.label or self.slug.replace("_", " ").capitalize()


ROYAL_SUITS = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs: the order of the suited royal classes 0..3


def poker_classes(royal: str, categories: tuple[str, ...]) -> tuple[str, ...]:
    """Classes of a poker reading: the royal (A-K-Q or A-K-Q-J-10 suited) of each suit, the other straight flushes,
    then ``categories`` from the strongest down, then "nothing"."""
    return (*(f"{royal}_{SUIT_NAMES[s]}" for s in ROYAL_SUITS), "other_straight_flush", *categories, "nothing")


def poker_outcomes(
    royal: tuple[str, str, str], classes: tuple[str, ...], words: dict[str, tuple[str, str]]
) -> tuple[Outcome, ...]:
    """Outcomes of a poker reading, rarest first: each suited royal, any royal, any straight flush, then each
    category of ``classes`` (from :func:`poker_classes`) on its own. ``royal`` is the royal's slug, label and cards
    ("mini_royal", "Mini-royal", "A-K-Q"); ``words`` the label and description of the straight flush and of each
    category."""
    slug, label, cards = royal
    royals = frozenset(range(4))
    return (
        *(
            Outcome(
                classes[i],
                frozenset({i}),
                f"{label} of {SUIT_NAMES[ROYAL_SUITS[i]]}",
                f"{cards} of {SUIT_NAMES[ROYAL_SUITS[i]]}; when absent, it pays as a {label.lower()}.",
            )
            for i in range(4)
        ),
        Outcome(slug, royals, label, f"{cards} suited; when absent, it pays as a straight flush."),
        Outcome("straight_flush", royals | {4}, *words["straight_flush"]),
        *(Outcome(classes[i], frozenset({i}), *words[classes[i]]) for i in range(5, len(classes) - 1)),
    )


class Reading(ABC):
    """One way of reading the cards (see the module's docstring). Subclasses are stateless singletons."""

    name: str
    title: str
    seat: Seat
    classes: tuple[str, ...]  # disjoint, the last one "nothing"
    outcomes: tuple[Outcome, ...]  # rarest first
    cycle: int  # the equally likely deals class_counts() counts over
    # Permutations of the four suits (clubs, diamonds, hearts, spades) that never change a deal's class, up to
    # exchanging the classes of ``suit_groups``: every permutation for poker hands, only the colour-preserving
    # ones for colours.
    symmetries: tuple[tuple[int, int, int, int], ...] = ALL_SUIT_PERMUTATIONS
    # Classes exchanged by those permutations (a spade mini-royal and a heart one): their counts are equal whenever
    # the deals counted are chosen by something suits do not change, such as the player's decision.
    suit_groups: tuple[tuple[int, ...], ...] = ()
    # Whether the reading ranks a three-card hand (so the hand order in force, straights above flushes, applies).
    ranks_three_card_hands: bool = False

    @abstractmethod
    def classify(self, deals: Deals) -> IntArray:
        """The class of each deal."""

    def classify_against(self, dealer: int) -> IntArray:
        """The class of the deal of every hand of the hand table against the one dealer hand ``dealer`` (its index in
        the hand table), in the table's order. The rows of hands sharing a card with the dealer's are no deals and
        mean nothing (a caller leaves them out). :meth:`classify` of those deals; a reading may answer faster from
        parts of each hand made once (a test holds the two equal)."""
        table = hand_table()
        dealt = np.broadcast_to(table.cards[dealer], table.cards.shape)
        return self.classify(
            Deals(table.cards, dealt, player_hands=np.arange(HANDS), dealer_hands=np.full(HANDS, dealer))
        )

    @abstractmethod
    def class_counts(self) -> tuple[int, ...]:
        """Exact number of deals of each class over :attr:`cycle` deals (a closed form, not an enumeration)."""

    def showcase_deals(self, rng: np.random.Generator) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """(player, dealer) deals that show outcomes a pool of random deals may miss, for the payout drill: for a
        reading of one hand, a hand of every class (the other hand dealt from the rest). A reading of both hands
        gives none unless it overrides this."""
        if self.seat is Seat.BOTH:
            return []
        table = hand_table()
        classes = self.classify(Deals(table.cards, table.cards))
        deals = []
        for c in range(len(self.classes)):
            hand = table.cards[int(np.flatnonzero(classes == c)[0])]
            rest = rng.permutation([x for x in range(52) if x not in hand])[:3]
            mine, other = tuple(int(x) for x in hand), tuple(int(x) for x in rest)
            deals.append((mine, other) if self.seat is Seat.PLAYER else (other, mine))
        return deals

    # --- derived, the same for every reading ---

    def outcome(self, slug: str) -> Outcome:
        for outcome in self.outcomes:
            if outcome.slug == slug:
                return outcome
        raise KeyError(slug)

    @property
    def outcome_slugs(self) -> tuple[str, ...]:
        return tuple(o.slug for o in self.outcomes)

    def paid_by(self, listed: Sequence[str]) -> tuple[int | None, ...]:
        """For each class, the index in ``listed`` of the rarest listed outcome that covers it (None: no pay)."""
        order = sorted(range(len(listed)), key=lambda i: self.outcome_slugs.index(listed[i]))
        result: list[int | None] = []
        for c in range(len(self.classes)):
            result.append(next((i for i in order if c in self.outcome(listed[i]).classes), None))
        return tuple(result)

    def unreachable(self, slug: str) -> bool:
        """An outcome none of whose classes can happen."""
        counts = self.class_counts()
        return not any(counts[c] for c in self.outcome(slug).classes)

    def counts_where_played(self, plays: npt.NDArray[np.bool_]) -> tuple[int, tuple[int, ...], int]:
        """(cycle, class counts over deals where the player plays, deals where the player folds), counted over
        player/dealer deals: 22,100 player hands for a reading of the player's cards, else 22,100 x 18,424.

        Remembered for the last few decisions: solving a pay counts one bet at many pays with the same decisions,
        and the six-card and colour counts enumerate the folded deals (seconds)."""
        return _counts_where_played(self, np.asarray(plays, dtype=np.bool_).tobytes())

    def other_hands_where_folded(self, plays: npt.NDArray[np.bool_]) -> tuple[int, ...]:
        """For a reading of a seat's own three cards: the classes of ANOTHER seat's hand over the (hand, other
        hand) deals in which the first seat folds, of 22,100 x 18,424 such deals. Another seat's cards are dealt
        from the rest like the dealer's, so the dealer's count by inclusion-exclusion counts them."""
        if self.seat is not Seat.PLAYER:
            raise ValueError(f"{self.name} does not read one seat's own cards")
        return _folded_dealer_counts(self, np.asarray(plays, dtype=np.bool_))

    def _count_where_played(self, plays: npt.NDArray[np.bool_]) -> tuple[int, tuple[int, ...], int]:
        table = hand_table()
        if self.seat is Seat.PLAYER:
            classes = self.classify(Deals(table.cards, table.cards))  # the dealer's cards are not looked at here
            played = np.bincount(classes[plays], minlength=len(self.classes))
            return HANDS, tuple(int(n) for n in played), int((~plays).sum())
        cycle = HANDS * DEALER_HANDS
        scale = cycle // self.cycle  # every natural deal stands for this many player/dealer deals
        assert scale * self.cycle == cycle
        folded = _folded_dealer_counts(self, plays) if self.seat is Seat.DEALER else _folded_counts(self, plays)
        played_counts = tuple(n * scale - f for n, f in zip(self.class_counts(), folded, strict=True))
        return cycle, played_counts, int((~plays).sum()) * DEALER_HANDS


@lru_cache(maxsize=8)
def _counts_where_played(reading: Reading, plays: bytes) -> tuple[int, tuple[int, ...], int]:
    return reading._count_where_played(np.frombuffer(plays, dtype=np.bool_))


def _folded_dealer_counts(reading: Reading, plays: npt.NDArray[np.bool_]) -> tuple[int, ...]:
    """Class counts of the dealer's hands over the deals in which the player folds, by inclusion-exclusion over
    the player's three cards a, b, c (see :mod:`trey.cards.hand_table`): the dealer hands disjoint from them are
    all hands, less those holding a, b or c, plus those holding two of them, less the player's own hand."""
    table = hand_table()
    n = len(reading.classes)
    classes = reading.classify(Deals(table.cards, table.cards))  # the player's cards are not looked at here
    one_hot = np.eye(n, dtype=np.int64)[classes]  # (22100, n)
    by_card = np.zeros((52, n), dtype=np.int64)
    by_pair = np.zeros((52 * 52, n), dtype=np.int64)
    a, b, c = table.cards[:, 0], table.cards[:, 1], table.cards[:, 2]
    for card in (a, b, c):
        np.add.at(by_card, card, one_hot)
    for x, y in ((a, b), (a, c), (b, c)):
        np.add.at(by_pair, x * 52 + y, one_hot)
    disjoint = one_hot.sum(axis=0) - by_card[a] - by_card[b] - by_card[c]
    disjoint += by_pair[a * 52 + b] + by_pair[a * 52 + c] + by_pair[b * 52 + c] - one_hot
    return tuple(int(x) for x in disjoint[~plays].sum(axis=0))


def _folded_counts(reading: Reading, plays: npt.NDArray[np.bool_]) -> tuple[int, ...]:
    """Class counts over the player/dealer deals in which the player folds, by enumerating the dealer's 18,424
    hands against one player hand of each suit pattern and weighting it by how many hands share the pattern.

    Exact because the player's decision depends on the hand's strength, which suits never change: the reading's
    suit symmetries map the folded deals onto themselves, so classes exchanged by them (``suit_groups``) get equal
    counts."""
    table = hand_table()
    representatives, members = suit_orbits(reading.symmetries)
    if not np.array_equal(plays, plays[representatives][members]):
        raise ValueError("the player's decisions must not depend on suits")
    weights = np.bincount(members, minlength=len(representatives))
    folded_reps = [i for i, hand in enumerate(representatives.tolist()) if not plays[hand]]
    counts = np.zeros(len(reading.classes), dtype=np.int64)
    contains = _hands_containing()
    for start in range(0, len(folded_reps), 64):  # 64 x 18,424 deals at a time
        batch = folded_reps[start : start + 64]
        hands = representatives[batch]
        disjoint = np.concatenate([np.flatnonzero(~contains[table.cards[h]].any(axis=0)) for h in hands.tolist()])
        players = np.repeat(table.cards[hands], DEALER_HANDS, axis=0)
        weight = np.repeat(weights[batch], DEALER_HANDS)
        deals = Deals(
            players,
            table.cards[disjoint],
            player_hands=np.repeat(hands, DEALER_HANDS),
            dealer_hands=disjoint,  # the hands' indexes are known: not looked up from the cards again
        )
        classes = reading.classify(deals)
        counts += np.bincount(classes, weights=weight, minlength=len(reading.classes)).astype(np.int64)
    for group in reading.suit_groups:  # the symmetry above: each class of a group gets the group's mean
        total = int(counts[list(group)].sum())
        assert total % len(group) == 0
        counts[list(group)] = total // len(group)
    return tuple(int(n) for n in counts)


@cache
def _hands_containing() -> npt.NDArray[np.bool_]:
    """``(52, 22100)``: whether each hand of the hand table holds each card."""
    table = hand_table()
    contains = np.zeros((52, HANDS), dtype=bool)
    for column in range(3):
        contains[table.cards[:, column], np.arange(HANDS)] = True
    return contains


@cache
def suit_orbits(symmetries: tuple[tuple[int, int, int, int], ...]) -> tuple[IntArray, IntArray]:
    """(a representative hand index per suit pattern, each hand's pattern number): hands that one of the
    ``symmetries`` maps onto each other share a pattern."""
    cards = hand_table().cards
    codes = []
    for perm in symmetries:
        mapped = np.sort((cards // 4) * 4 + np.array(perm)[cards % 4], axis=1)
        codes.append(mapped[:, 0] * 2704 + mapped[:, 1] * 52 + mapped[:, 2])
    canonical = np.min(np.stack(codes), axis=0)
    _, first, members = np.unique(canonical, return_index=True, return_inverse=True)
    return first.astype(np.int64), members.astype(np.int64)
