"""The game description: a frozen, validated model of one paytable file (format version 1).

Everything here is exact (ints, Fractions via :class:`~trey.odds.Odds`) and immutable. The YAML loader in
:mod:`trey.loader` builds it; :meth:`GameSpec.canonical` writes it back as plain data with every default made
explicit, which is what certificates embed and hash.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from trey.cards import ACE, rank_from_char, ranks_label
from trey.hands import ThreeCardCategory, high_card_key, lowest_key
from trey.odds import Odds

FORMAT_VERSION = 1


class WagerName(StrEnum):
    ANTE_PLAY = "ante_play"
    PAIR_PLUS = "pair_plus"
    PRIME = "prime"
    SIX_CARD_BONUS = "six_card_bonus"

    @property
    def display_name(self) -> str:
        return _WAGER_TITLES[self]


_WAGER_TITLES = {
    WagerName.ANTE_PLAY: "Ante & Play",
    WagerName.PAIR_PLUS: "Pair Plus",
    WagerName.PRIME: "Prime",
    WagerName.SIX_CARD_BONUS: "Six Card Bonus",
}

# Paying outcomes of each paytable, rarest first. A hand that fits two rows (a mini-royal is also a straight
# flush) is paid by the first listed row it fits.
ANTE_BONUS_OUTCOMES = ("straight_flush", "three_of_a_kind", "straight")
PAIR_PLUS_OUTCOMES = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")
PRIME_OUTCOMES = ("six_same_colour", "three_same_colour")
SIX_CARD_OUTCOMES = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
)


@dataclass(frozen=True)
class Paytable:
    """Odds per paying outcome, in the wager's fixed order. Outcomes left out do not pay."""

    outcomes: tuple[str, ...]
    rows: tuple[tuple[str, Odds], ...]

    def __post_init__(self) -> None:
        names = [name for name, _ in self.rows]
        unknown = [n for n in names if n not in self.outcomes]
        if unknown:
            raise ValueError(f"unknown outcomes {unknown}; expected some of {list(self.outcomes)}")
        if names != sorted(names, key=self.outcomes.index) or len(set(names)) != len(names):
            raise ValueError("paytable rows must follow the wager's outcome order, each once")

    @classmethod
    def from_mapping(cls, outcomes: tuple[str, ...], pays: dict[str, Odds]) -> Paytable:
        return cls(outcomes, tuple((name, pays[name]) for name in outcomes if name in pays))

    def get(self, outcome: str) -> Odds | None:
        return dict(self.rows).get(outcome)

    def __iter__(self) -> Iterator[tuple[str, Odds]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def canonical(self) -> dict[str, int | str]:
        return {name: odds.canonical() for name, odds in self.rows}


class QualifierKind(StrEnum):
    NONE = "none"
    HIGH_CARD = "high_card"
    PAIR = "pair"


# Named qualifiers and the weakest hand each admits. A-3-2 is the wheel straight, so the weakest ace-high is A-4-2.
NAMED_HIGH_CARD_QUALIFIERS: dict[str, tuple[int, int, int]] = {
    "J-high": (9, 1, 0),
    "Q-high": (10, 1, 0),
    "K-high": (11, 1, 0),
    "A-high": (ACE, 2, 0),
}


@dataclass(frozen=True)
class DealerQualifier:
    """The weakest dealer hand that qualifies (``none``: every hand qualifies)."""

    label: str
    kind: QualifierKind
    ranks: tuple[int, int, int] | None = None

    def __post_init__(self) -> None:
        if (self.kind is QualifierKind.HIGH_CARD) != (self.ranks is not None):
            raise ValueError("a high-card qualifier needs its three ranks, and only it")
        if self.ranks is not None:
            high_card_key(self.ranks)  # raises for pairs and straights

    @classmethod
    def parse(cls, text: str) -> DealerQualifier:
        if text == "none":
            return cls("none", QualifierKind.NONE)
        if text == "pair":
            return cls("pair", QualifierKind.PAIR)
        if text in NAMED_HIGH_CARD_QUALIFIERS:
            return cls(text, QualifierKind.HIGH_CARD, NAMED_HIGH_CARD_QUALIFIERS[text])
        ranks = parse_high_card_hand(text)
        return cls(ranks_label(ranks), QualifierKind.HIGH_CARD, ranks)

    @property
    def minimum_key(self) -> int:
        """Dealer hands with a key at least this qualify."""
        if self.kind is QualifierKind.NONE:
            return 0
        if self.kind is QualifierKind.PAIR:
            return lowest_key(ThreeCardCategory.PAIR)
        assert self.ranks is not None
        return high_card_key(self.ranks)

    @property
    def weakest_hand(self) -> str:
        """The weakest qualifying hand in words, for rules text and sheets."""
        if self.kind is QualifierKind.NONE:
            return "any hand"
        if self.kind is QualifierKind.PAIR:
            return "a pair of 2s"
        assert self.ranks is not None
        return ranks_label(self.ranks)


def parse_high_card_hand(text: str) -> tuple[int, int, int]:
    """``"Q-6-4"`` → rank indexes, highest first. Raises ``ValueError`` unless a high-card hand."""
    parts = text.split("-")
    if len(parts) != 3:
        raise ValueError(f"{text!r} is not a three-card hand written like Q-6-4")
    r1, r2, r3 = sorted((rank_from_char(p) for p in parts), reverse=True)
    high_card_key((r1, r2, r3))
    return (r1, r2, r3)


class Ties(StrEnum):
    PUSH = "push"
    PLAYER_WINS = "player_wins"


class PairPlusOnFold(StrEnum):
    LOST = "lost"
    STANDS = "stands"


@dataclass(frozen=True)
class Rules:
    dealer_qualifier: DealerQualifier = field(default_factory=lambda: DealerQualifier.parse("Q-high"))
    ties: Ties = Ties.PUSH
    ante_bonus_requires_play: bool = True
    pair_plus_on_fold: PairPlusOnFold = PairPlusOnFold.LOST

    def canonical(self) -> dict[str, Any]:
        return {
            "dealer_qualifier": self.dealer_qualifier.label,
            "ties": str(self.ties),
            "ante_bonus_requires_play": self.ante_bonus_requires_play,
            "pair_plus_on_fold": str(self.pair_plus_on_fold),
        }


class StrategyKind(StrEnum):
    OPTIMAL = "optimal"
    MIMIC_DEALER = "mimic-dealer"
    ALWAYS_PLAY = "always-play"
    PLAY_AT_LEAST = "play_at_least"


@dataclass(frozen=True)
class Strategy:
    kind: StrategyKind = StrategyKind.OPTIMAL
    ranks: tuple[int, int, int] | None = None

    def __post_init__(self) -> None:
        if (self.kind is StrategyKind.PLAY_AT_LEAST) != (self.ranks is not None):
            raise ValueError("play_at_least needs its hand, and only it has one")
        if self.ranks is not None:
            high_card_key(self.ranks)

    @property
    def label(self) -> str:
        if self.ranks is not None:
            return f"play {ranks_label(self.ranks)} or better"
        return str(self.kind)

    def canonical(self) -> str | dict[str, str]:
        if self.ranks is not None:
            return {"play_at_least": ranks_label(self.ranks)}
        return str(self.kind)


@dataclass(frozen=True)
class AntePlay:
    ante_bonus: Paytable = field(default_factory=lambda: Paytable(ANTE_BONUS_OUTCOMES, ()))
    strategy: Strategy = field(default_factory=Strategy)

    def __post_init__(self) -> None:
        if self.ante_bonus.outcomes != ANTE_BONUS_OUTCOMES:
            raise ValueError("the Ante Bonus paytable must use the Ante Bonus outcomes")


@dataclass(frozen=True)
class Table:
    """Table limits for dealer sheets (whole currency units)."""

    currency: str = "USD"
    minimum: int | None = None
    maximum: int | None = None
    chips: tuple[int, ...] = ()
    payout_cap: int | None = None

    def __post_init__(self) -> None:
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"the table minimum {self.minimum} exceeds the maximum {self.maximum}")
        if any(c <= 0 for c in self.chips):
            raise ValueError("chip denominations must be positive")

    def canonical(self) -> dict[str, Any]:
        data: dict[str, Any] = {"currency": self.currency}
        for name in ("minimum", "maximum", "payout_cap"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.chips:
            data["chips"] = list(self.chips)
        return data


@dataclass(frozen=True)
class Wagers:
    ante_play: AntePlay | None = None
    pair_plus: Paytable | None = None
    prime: Paytable | None = None
    six_card_bonus: Paytable | None = None

    def __post_init__(self) -> None:
        if not self.offered:
            raise ValueError("a game offers at least one wager")

    @property
    def offered(self) -> tuple[WagerName, ...]:
        return tuple(w for w in WagerName if getattr(self, w.value) is not None)

    def canonical(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.ante_play is not None:
            data["ante_play"] = {
                "ante_bonus": self.ante_play.ante_bonus.canonical(),
                "strategy": self.ante_play.strategy.canonical(),
            }
        for name in (WagerName.PAIR_PLUS, WagerName.PRIME, WagerName.SIX_CARD_BONUS):
            table: Paytable | None = getattr(self, name.value)
            if table is not None:
                data[name.value] = table.canonical()
        return data


@dataclass(frozen=True)
class GameSpec:
    """One Three Card Poker game: its rules, table limits and the paytables of the wagers it offers."""

    name: str
    wagers: Wagers
    rules: Rules = field(default_factory=Rules)
    table: Table | None = None
    operator: str | None = None
    description: str | None = None
    source: str | None = None
    sha256: str = ""  # of the bytes the spec was loaded from; "" for a spec built in code

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("a game needs a name")

    def canonical(self) -> dict[str, Any]:
        """The spec as plain data, defaults explicit: loading it back gives an equal spec (bar sha256)."""
        data: dict[str, Any] = {"trey": FORMAT_VERSION, "name": self.name}
        for name in ("operator", "description", "source"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        data["rules"] = self.rules.canonical()
        if self.table is not None:
            data["table"] = self.table.canonical()
        data["wagers"] = self.wagers.canonical()
        return data
