"""The game description: a frozen, validated model of one paytable file (format version 3, which may describe the
round in a ``game:`` section; 2 and 1, the standard game, are read too).

Everything here is exact (ints, Fractions via :class:`~trey.paytable.odds.Odds`) and immutable. The YAML loader in
:mod:`trey.paytable.load` builds it; :meth:`GameSpec.canonical` writes it back as plain data with every default made
explicit, which is what certificates embed and hash.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from trey.cards.card import ACE, rank_from_char, ranks_label
from trey.cards.hands import ThreeCardCategory, high_card_key, lowest_key
from trey.core.numbers import MoneyStyle
from trey.paytable.odds import Odds
from trey.paytable.pays import Pay, exact_number_text, percent_text_exact

FORMAT_VERSION = 2  # the version canonical paytables of the standard game are written in
GAME_FORMAT_VERSION = 3  # and those of another game of the family: format 2 with a `game:` section
READABLE_VERSIONS = (1, 2, 3)  # format 1 is format 2 without side_bets; 3 is 2 with a `game:` section

ANTE_PLAY = "ante_play"  # the id of the main game among the wagers
ANTE_PLAY_TITLE = "Ante & Play"
# Ante Bonus rows, rarest first: read on the player's hand (a mini-royal not listed is paid as a straight flush).
ANTE_BONUS_OUTCOMES = ("mini_royal", "straight_flush", "three_of_a_kind", "straight")
SIDE_BET_ID = re.compile(r"[a-z][a-z0-9_]*")
MAX_OTHER_BETTORS = 6  # a Three Card Poker table seats about seven


class OnFold(StrEnum):
    """What becomes of a side bet when the player folds the Ante."""

    STANDS = "stands"  # settled on its own, as if the player had played
    LOST = "lost"  # lost with the Ante


SIDE_BET_ON_FOLD = OnFold.STANDS  # a side bet of the file's own stands unless it says otherwise


class EnvyOnFold(StrEnum):
    """What a fold does to the envy bonus of a bet lost on a fold: the bettor who folds his hand may still be paid
    for another bettor's (the envy is the table's, not the hand's), or not (his bet went with the fold)."""

    PAID = "paid"  # paid whatever the bettor decides: trey 0.4.0's count, the default
    LOST = "lost"  # not paid on a round the bettor folds


ENVY_ON_FOLD = EnvyOnFold.PAID


@dataclass(frozen=True)
class Preset:
    """A side bet every table knows by name: written under ``wagers:`` with its pays alone."""

    id: str
    title: str
    reads: str
    on_fold: OnFold | None  # None: set by the rules (Pair Plus: rules.pair_plus_on_fold)


PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        Preset("pair_plus", "Pair Plus", "player_hand", None),
        Preset("prime", "Prime", "colours", OnFold.STANDS),
        Preset("six_card_bonus", "Six Card Bonus", "six_cards", OnFold.STANDS),
    )
}


def default_title(bet_id: str) -> str:
    """The id in words: ``dealer_bonus`` → ``Dealer Bonus``."""
    return " ".join(word.capitalize() for word in bet_id.split("_"))


@dataclass(frozen=True)
class Paytable:
    """A pay per paying outcome (odds, an amount or a meter share; see :mod:`trey.paytable.pays`), in the order of
    ``outcomes`` (a reading's, rarest first). Outcomes left out do not pay; a deal is paid by the rarest listed
    outcome it belongs to."""

    outcomes: tuple[str, ...]
    rows: tuple[tuple[str, Pay], ...]

    def __post_init__(self) -> None:
        names = [name for name, _ in self.rows]
        unknown = [n for n in names if n not in self.outcomes]
        if unknown:
            raise ValueError(f"unknown outcomes {unknown}; expected some of {list(self.outcomes)}")
        if names != sorted(names, key=self.outcomes.index) or len(set(names)) != len(names):
            raise ValueError("paytable rows must follow the reading's outcome order, each once")

    @classmethod
    def from_mapping(cls, outcomes: tuple[str, ...], pays: Mapping[str, Pay]) -> Paytable:
        return cls(outcomes, tuple((name, pays[name]) for name in outcomes if name in pays))

    @property
    def listed(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.rows)

    def get(self, outcome: str) -> Pay | None:
        return dict(self.rows).get(outcome)

    def odds(self, outcome: str) -> Odds | None:
        """The odds of a row of a table that pays odds only (the Ante Bonus)."""
        pay = self.get(outcome)
        assert pay is None or isinstance(pay, Odds)
        return pay

    @property
    def all_odds(self) -> tuple[tuple[str, Odds], ...]:
        """The rows of a table that pays odds only."""
        assert all(isinstance(pay, Odds) for _, pay in self.rows)
        return tuple((name, pay) for name, pay in self.rows if isinstance(pay, Odds))

    def __iter__(self) -> Iterator[tuple[str, Pay]]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def canonical(self) -> dict[str, Any]:
        return {name: pay.canonical() for name, pay in self.rows}


@dataclass(frozen=True)
class Progressive:
    """A progressive meter: where it starts and is reset to, and the share of every stake added to it."""

    reset: Fraction
    increment: Fraction
    other_bettors: int = 0  # the other progressive bettors assumed at the table, for the envy figures

    def __post_init__(self) -> None:
        if self.reset < 0 or not 0 <= self.increment < 1 or not 0 <= self.other_bettors <= MAX_OTHER_BETTORS:
            raise ValueError("a progressive needs a reset of at least 0, an increment below 100% and 0-6 others")

    def canonical(self) -> dict[str, Any]:
        return {
            "reset": exact_number_text(self.reset),
            "increment": percent_text_exact(self.increment),
            "other_bettors": self.other_bettors,
        }


@dataclass(frozen=True)
class SideBet:
    """A wager paid on one reading of the cards: a preset (Pair Plus, Prime, Six Card Bonus) or the operator's."""

    id: str
    title: str
    reads: str  # the name of a reading in trey.cards.readings
    pays: Paytable
    on_fold: OnFold = SIDE_BET_ON_FOLD
    stake: Fraction | None = None  # the fixed wager, when a pay is an amount or a meter share
    # Amounts paid to this bettor when ANOTHER bettor's hand is the outcome (rarest listed), in the reading's order.
    envy: tuple[tuple[str, Fraction], ...] = ()
    progressive: Progressive | None = None
    envy_on_fold: EnvyOnFold = ENVY_ON_FOLD  # LOST only for a bet with envy that is lost on a fold

    @property
    def envy_lost_on_fold(self) -> bool:
        """Whether a fold loses this bet's envy bonus too."""
        return self.envy_on_fold is EnvyOnFold.LOST

    def __post_init__(self) -> None:
        if not SIDE_BET_ID.fullmatch(self.id) or self.id == ANTE_PLAY:
            raise ValueError(f"{self.id!r} is not a side bet id")
        if self.id in PRESETS and PRESETS[self.id].reads != self.reads:
            raise ValueError(f"{self.id} reads {PRESETS[self.id].reads}")
        fixed_money = any(not pay.scales_with_bet for _, pay in self.pays) or bool(self.envy)
        if fixed_money and (self.stake is None or self.stake <= 0):
            raise ValueError(f"{self.id} pays amounts: it needs a positive stake")
        if any(pay.reads_meter for _, pay in self.pays) and self.progressive is None:
            raise ValueError(f"{self.id} pays meter shares: it needs its progressive meter")
        if self.envy_lost_on_fold and (not self.envy or self.on_fold is not OnFold.LOST):
            raise ValueError(f"{self.id}: only an envy bonus of a bet lost on a fold can be lost on a fold")

    @property
    def unit(self) -> Fraction:
        """What one bet stakes, in the figures' unit: the fixed stake, or 1 for a bet of any size."""
        return self.stake if self.stake is not None else Fraction(1)

    @property
    def meter_rows(self) -> tuple[str, ...]:
        return tuple(name for name, pay in self.pays if pay.reads_meter)

    def net(self, pay: Pay, meter: Fraction | None = None) -> Fraction:
        """The net result per unit staked of a row, a meter share valued at ``meter`` (default: the reset)."""
        if meter is None:
            meter = self.progressive.reset if self.progressive is not None else Fraction(0)
        return pay.net_per_unit(stake=self.unit, meter=meter)

    @classmethod
    def of_preset(cls, preset_id: str, pays: Mapping[str, Pay], on_fold: OnFold | None = None) -> SideBet:
        """A preset side bet (Pair Plus, Prime, Six Card Bonus) with these pays, for specs built in code."""
        from trey.cards.readings import READINGS

        preset = PRESETS[preset_id]
        table = Paytable.from_mapping(READINGS[preset.reads].outcome_slugs, pays)
        return cls(preset.id, preset.title, preset.reads, table, on_fold or preset.on_fold or OnFold.LOST)

    @property
    def preset(self) -> Preset | None:
        return PRESETS.get(self.id)

    def canonical(self, *, folds: bool = True) -> dict[str, Any]:
        """Custom side bets written out in full; a preset is its pays (its on_fold is a rule or fixed). ``folds``:
        whether the game has a fold at all (without Ante & Play ``on_fold`` says nothing and is left out)."""
        if self.preset is not None:
            return self.pays.canonical()
        data: dict[str, Any] = {"title": self.title, "reads": self.reads}
        if self.stake is not None:
            data["stake"] = exact_number_text(self.stake)
        data["pays"] = self.pays.canonical()
        if self.envy:
            data["envy"] = {name: exact_number_text(amount) for name, amount in self.envy}
        if self.progressive is not None:
            data["progressive"] = self.progressive.canonical()
        if folds:
            data["on_fold"] = str(self.on_fold)
            if self.envy_lost_on_fold:  # the default is left out: files and certificates written before read alike
                data["envy_on_fold"] = str(self.envy_on_fold)
        return data


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


@dataclass(frozen=True)
class Rules:
    dealer_qualifier: DealerQualifier = field(default_factory=lambda: DealerQualifier.parse("Q-high"))
    ties: Ties = Ties.PUSH
    ante_bonus_requires_play: bool = True
    pair_plus_on_fold: OnFold = OnFold.LOST  # what a fold does to Pair Plus

    def canonical(self) -> dict[str, Any]:
        return {
            "dealer_qualifier": self.dealer_qualifier.label,
            "ties": str(self.ties),
            "ante_bonus_requires_play": self.ante_bonus_requires_play,
            "pair_plus_on_fold": str(self.pair_plus_on_fold),
        }


class AnteWithoutQualifier(StrEnum):
    """What the Ante does when the dealer does not qualify."""

    WINS = "wins"  # 1 to 1, the standard game
    PUSHES = "pushes"  # the Ante is returned (Face Up Ultimate Three Card Poker)


# The rows a Blind's paytable may list, rarest first (the player's hand, as the player_hand reading reads it; a
# mini-royal not listed is paid as a straight flush).
BLIND_OUTCOMES = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")
# The rows the Play's paytable and its bad-beat pay may list: the Blind's (a hand no row lists is paid 1 to 1 when
# the Play is paid, and loses the Play when it loses).
PLAY_OUTCOMES = BLIND_OUTCOMES
MAX_FACE_UP = 1  # the dealer cards a game may show before the player decides: none, or one
MAX_MULTIPLE = 10  # the largest Play bet a game may allow, in Antes (the family's are 1 and 3)
MAX_OPTIONS = 4  # the Play bets a game may offer besides the fold


@dataclass(frozen=True)
class PlayOption:
    """One of the player's options besides the fold: a Play bet of ``multiple`` Antes, open to the hands at least as
    strong as ``at_least`` (the dealer qualifier's vocabulary: ``pair``, ``Q-high``, ``Q-6-4``; None: every hand)."""

    multiple: int
    at_least: DealerQualifier | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.multiple <= MAX_MULTIPLE:
            raise ValueError(f"a Play bet is 1 to {MAX_MULTIPLE} Antes, not {self.multiple}")
        if self.at_least is not None and self.at_least.kind is QualifierKind.NONE:
            raise ValueError("an option open to every hand has no at_least (None), not 'none'")

    @property
    def minimum_key(self) -> int:
        """The hands with a key at least this may take the option."""
        return self.at_least.minimum_key if self.at_least is not None else 0

    @property
    def label(self) -> str:
        """``1x``, ``3x with a pair or better``, ``2x with Q-6-4 or better``."""
        if self.at_least is None:
            return f"{self.multiple}x"
        weakest = "a pair" if self.at_least.kind is QualifierKind.PAIR else self.at_least.weakest_hand
        return f"{self.multiple}x with {weakest} or better"

    def canonical(self) -> dict[str, Any]:
        data: dict[str, Any] = {"play": self.multiple}
        if self.at_least is not None:
            data["at_least"] = self.at_least.label
        return data


@dataclass(frozen=True)
class RoundShape:
    """The shape of a round of the main game (issue 31): what is dealt face up before the player decides, which
    options the player has besides the fold, and what the base wagers do in each situation. The defaults are the
    standard game's; the qualifier, the ties and the Ante Bonus are :class:`Rules`' and :class:`AntePlay`'s, as
    in every game.

    - ``face_up``: dealer cards shown before the player decides (0 or 1);
    - ``options``: the Play bets besides the fold, ascending, each with its requirement on the player's hand;
    - ``ante_when_dealer_does_not_qualify``: the Ante wins 1 to 1 (standard) or pushes;
    - ``play_needs_qualifier``: True, the Play pushes when the dealer does not qualify (standard); False, the Play
      is decided against the dealer's hand whatever it is;
    - ``blind``: None, no Blind (standard); else a mandatory bet equal to the Ante, settled against the dealer's
      hand without a qualifier: on a win paid by this table of the player's hand (a win below its lowest row
      pushes), lost when the dealer's hand is higher, pushed on a tie, lost on a fold;
    - ``play_pays``: None, a Play won is paid 1 to 1 (standard); else this table of the player's hand pays it, per
      unit of the Play bet (a hand no row lists is paid 1 to 1), as Three Card Prime pays it;
    - ``play_pays_on_tie``: True, a tie pays the Play as a win (by ``play_pays``) instead of as ``ties`` says;
    - ``play_pays_when_dealer_does_not_qualify``: True, a dealer who does not qualify pays the Play as a win, whatever
      the hands (the Play must need the qualifier: it would push there otherwise);
    - ``bad_beat``: None, a Play lost is lost (standard); else a losing Play of a hand this table lists is paid its
      row instead (the bad-beat pay; a hand no row lists loses the Play).
    """

    face_up: int = 0
    options: tuple[PlayOption, ...] = (PlayOption(1),)
    ante_when_dealer_does_not_qualify: AnteWithoutQualifier = AnteWithoutQualifier.WINS
    play_needs_qualifier: bool = True
    blind: Paytable | None = None
    play_pays: Paytable | None = None
    play_pays_on_tie: bool = False
    play_pays_when_dealer_does_not_qualify: bool = False
    bad_beat: Paytable | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.face_up <= MAX_FACE_UP:
            raise ValueError(f"a game shows 0 to {MAX_FACE_UP} dealer cards before the player decides")
        multiples = [option.multiple for option in self.options]
        if not 1 <= len(multiples) <= MAX_OPTIONS or multiples != sorted(set(multiples)):
            raise ValueError(f"1 to {MAX_OPTIONS} Play bets of different sizes, ascending, not {multiples}")
        if self.blind is not None and self.blind.outcomes != BLIND_OUTCOMES:
            raise ValueError("the Blind's paytable must use the Blind's outcomes")
        for table in (self.play_pays, self.bad_beat):
            if table is not None and table.outcomes != PLAY_OUTCOMES:
                raise ValueError("the Play's paytables must use the Play's outcomes")
        if self.play_pays_when_dealer_does_not_qualify and not self.play_needs_qualifier:
            raise ValueError(
                "a Play decided without the qualifier is not paid for a dealer who does not qualify: "
                "play_pays_when_dealer_does_not_qualify needs play_needs_qualifier"
            )

    @property
    def play_is_paid_by_table(self) -> bool:
        """Whether the Play nets other than whole Antes: paid by a table, or on a bad beat."""
        return self.play_pays is not None or self.bad_beat is not None

    @property
    def is_standard(self) -> bool:
        """Whether this is standard Three Card Poker's round (a file without a ``game:`` section)."""
        return self == STANDARD_ROUND

    @property
    def multiples(self) -> tuple[int, ...]:
        """The Play bets offered, in Antes, ascending."""
        return tuple(option.multiple for option in self.options)

    @property
    def initial_bet(self) -> int:
        """Antes bet before the cards are seen: the Ante, and the Blind when there is one."""
        return 1 if self.blind is None else 2

    def canonical(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "face_up": self.face_up,
            "options": [option.canonical() for option in self.options],
            "ante_when_dealer_does_not_qualify": str(self.ante_when_dealer_does_not_qualify),
            "play_needs_qualifier": self.play_needs_qualifier,
        }
        if self.blind is not None:
            data["blind"] = self.blind.canonical()
        # The Play's pays are written only when the game has them: the canonical form of a game without stays as
        # it was before they could be described (certificates embed and hash it).
        if self.play_pays is not None:
            data["play_pays"] = self.play_pays.canonical()
        if self.play_pays_on_tie:
            data["play_pays_on_tie"] = True
        if self.play_pays_when_dealer_does_not_qualify:
            data["play_pays_when_dealer_does_not_qualify"] = True
        if self.bad_beat is not None:
            data["bad_beat"] = self.bad_beat.canonical()
        return data


STANDARD_ROUND = RoundShape()


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
    chips: tuple[Fraction, ...] = ()  # may be fractions of the unit (0.50)
    payout_cap: int | None = None
    decisions_per_hour: int | None = None  # for the theoretical win; None: the usual 60
    average_bet: Fraction | None = None  # for the theoretical win; None: per unit bet
    locale: str | None = None  # how amounts are written (CLDR, e.g. de_DE); None: en_US
    # The table's bet mix (trey.engine.money): seats, occupancy and, per side bet, the share of seated players on it
    # and their average bet; average_bet is then the average Ante. None/(): not described (see has_mix).
    seats: int | None = None
    occupancy: Fraction | None = None
    side_bet_mix: tuple[tuple[str, Fraction, Fraction], ...] = ()
    # A house rule: whether a progressive's pays are held to payout_cap (by default a jackpot is paid in full).
    payout_cap_covers_progressive: bool = False

    def __post_init__(self) -> None:
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"the table minimum {self.minimum} exceeds the maximum {self.maximum}")
        if any(c <= 0 for c in self.chips):
            raise ValueError("chip denominations must be positive")

    @property
    def has_mix(self) -> bool:
        """Whether the table describes its bet mix (seats, occupancy or the side bets' shares and bets)."""
        return self.seats is not None or self.occupancy is not None or bool(self.side_bet_mix)

    def canonical(self) -> dict[str, Any]:
        data: dict[str, Any] = {"currency": self.currency}
        if self.locale is not None:
            data["locale"] = self.locale
        for name in ("minimum", "maximum", "payout_cap"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.payout_cap_covers_progressive:
            data["payout_cap_covers_progressive"] = True
        if self.chips:
            data["chips"] = [exact_number_text(chip) for chip in self.chips]
        if self.decisions_per_hour is not None:
            data["decisions_per_hour"] = self.decisions_per_hour
        if self.average_bet is not None:
            data["average_bet"] = exact_number_text(self.average_bet)
        if self.seats is not None:
            data["seats"] = self.seats
        if self.occupancy is not None:
            data["occupancy"] = percent_text_exact(self.occupancy)
        if self.side_bet_mix:
            data["side_bets"] = {
                wager: {"share": percent_text_exact(share), "average_bet": exact_number_text(bet)}
                for wager, share, bet in self.side_bet_mix
            }
        return data


# A real table carries a handful of side bets; every one adds to every document, check and verification, so the
# file may not choose how many (schemas/paytable.schema.json says the same: side_bets maxProperties).
MAX_SIDE_BETS = 16


@dataclass(frozen=True)
class Wagers:
    """The wagers a game offers: Ante & Play (optional) and its side bets, in order, each under its id."""

    ante_play: AntePlay | None = None
    side_bets: tuple[SideBet, ...] = ()

    def __post_init__(self) -> None:
        if not self.ids:
            raise ValueError("a game offers at least one wager")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError("wager ids must differ")
        if len(self.side_bets) > MAX_SIDE_BETS + len(PRESETS):
            raise ValueError(f"a game offers at most {MAX_SIDE_BETS} side bets of its own besides the presets")

    @property
    def ids(self) -> tuple[str, ...]:
        return ((ANTE_PLAY,) if self.ante_play is not None else ()) + tuple(b.id for b in self.side_bets)

    def title(self, wager_id: str) -> str:
        return ANTE_PLAY_TITLE if wager_id == ANTE_PLAY else self.side_bet(wager_id).title

    @property
    def titles(self) -> tuple[str, ...]:
        return tuple(self.title(i) for i in self.ids)

    def paytable(self, wager_id: str) -> Paytable:
        """The pays of a wager: the Ante Bonus for Ante & Play, a side bet's own."""
        if wager_id == ANTE_PLAY:
            assert self.ante_play is not None
            return self.ante_play.ante_bonus
        return self.side_bet(wager_id).pays

    def side_bet(self, wager_id: str) -> SideBet:
        for bet in self.side_bets:
            if bet.id == wager_id:
                return bet
        raise KeyError(wager_id)

    def canonical(self) -> dict[str, Any]:
        """The ``wagers:`` section: Ante & Play and the presets (the ``side_bets:`` section holds the others)."""
        data: dict[str, Any] = {}
        if self.ante_play is not None:
            data[ANTE_PLAY] = {
                "ante_bonus": self.ante_play.ante_bonus.canonical(),
                "strategy": self.ante_play.strategy.canonical(),
            }
        for bet in self.side_bets:
            if bet.preset is not None:
                data[bet.id] = bet.canonical()
        return data

    def canonical_side_bets(self) -> dict[str, Any]:
        folds = self.ante_play is not None  # without Ante & Play nobody folds
        return {bet.id: bet.canonical(folds=folds) for bet in self.side_bets if bet.preset is None}


SIDE_BET_NOT_COUNTED = (
    "a side bet lost on a fold beside a face-up card is counted only on the player's own cards, without a "
    "progressive or an envy bonus"
)


def side_bet_counted_beside(game: RoundShape, bet: SideBet) -> bool:
    """Whether the engine counts ``bet`` beside a game of this round: every bet that stands on a fold (its cards do
    not depend on the decision), every bet without a card up (the decision is one per hand, as the standard game's),
    and with a card up a bet lost on a fold that reads the player's own cards alone (the fold then depends on the up
    card, which the bet does not read), without a progressive or an envy bonus."""
    if bet.on_fold is OnFold.STANDS or game.face_up == 0:
        return True
    from trey.cards.readings import READINGS
    from trey.cards.readings.base import Seat

    reading = READINGS.get(bet.reads)
    return reading is not None and reading.seat is Seat.PLAYER and bet.progressive is None and not bet.envy


@dataclass(frozen=True)
class GameSpec:
    """One Three Card Poker game: its rules, table limits and the paytables of the wagers it offers; ``game``, the
    shape of its round (the standard game's unless the file describes another)."""

    name: str
    wagers: Wagers
    rules: Rules = field(default_factory=Rules)
    table: Table | None = None
    operator: str | None = None
    description: str | None = None
    source: str | None = None
    sha256: str = ""  # of the bytes the spec was loaded from; "" for a spec built in code
    game: RoundShape = STANDARD_ROUND

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("a game needs a name")
        if not self.game.is_standard:
            if self.wagers.ante_play is None:
                raise ValueError("a game's round is its Ante & Play's: describing it needs Ante & Play")
            uncounted = [bet.id for bet in self.wagers.side_bets if not side_bet_counted_beside(self.game, bet)]
            if uncounted:
                raise ValueError(f"{uncounted[0]}: {SIDE_BET_NOT_COUNTED}")
            if self.wagers.ante_play.strategy.kind is not StrategyKind.OPTIMAL:
                raise ValueError("a game other than standard Three Card Poker is played with the optimal strategy")

    @property
    def is_standard_game(self) -> bool:
        """Whether the game is standard Three Card Poker (whatever its pays and rule variants)."""
        return self.game.is_standard

    def canonical(self) -> dict[str, Any]:
        """The spec as plain data, defaults explicit: loading it back gives an equal spec (bar sha256). The standard
        game is written as format 2, as before the round could be described; another game as format 3, its
        ``game:`` section after the descriptive fields."""
        version = FORMAT_VERSION if self.game.is_standard else GAME_FORMAT_VERSION
        data: dict[str, Any] = {"trey": version, "name": self.name}
        for name in ("operator", "description", "source"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if not self.game.is_standard:
            data["game"] = self.game.canonical()
        if self.wagers.ante_play is not None:  # the rules are Ante & Play's (and what a fold does to Pair Plus)
            data["rules"] = self.rules.canonical()
        if self.table is not None:
            data["table"] = self.table.canonical()
        data["wagers"] = self.wagers.canonical()
        side_bets = self.wagers.canonical_side_bets()
        if side_bets:
            data["side_bets"] = side_bets
        return data


def money_style(table: Table | None) -> MoneyStyle:
    """The money style of a game's table (USD in en_US when the file gives none)."""
    if table is None:
        return MoneyStyle()
    return MoneyStyle(table.currency, table.locale or "en_US")


NOT_YET_SUPPORTED = "not yet supported for games other than standard Three Card Poker"


def refuse_other_games(spec: GameSpec, tool: str, file: str | None = None, *, hint: str | None = None) -> None:
    """Refuse a game other than standard Three Card Poker for ``tool`` (``trey certify``), which cannot deal it yet:
    a :class:`~trey.core.errors.SpecError` of one problem, located at the file's ``game:`` section, rather than a
    figure of the standard game's. ``file``: how the message names the paytable (default: the game's name)."""
    if spec.game.is_standard:
        return
    from trey.core.codes import Code
    from trey.core.errors import Problem, SpecError

    raise SpecError(
        [
            Problem(
                file or spec.name,
                f"{tool} is {NOT_YET_SUPPORTED}",
                path=("game",),
                hint=hint or "trey validate and trey analyze read this game",
                code=Code.GAME_NOT_YET_SUPPORTED,
            )
        ]
    )
