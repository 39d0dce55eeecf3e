"""The Three Card Poker family counted plainly, one dealer hand at a time, apart from trey's engine.

A round is described by `Rules`; `cell_evs` gives the exact expected value per Ante of each of the player's options
for one cell (the player's three cards and the dealer's face-up card, if any) by walking every set of the dealer's
hidden cards, and `optimal_option` picks the best. Nothing here imports trey: it is the yardstick trey's tests hold
the engine to on sampled cells, and benchmarks/bruteforce_family.py counts every deal with the same settlement.

A card is rank * 4 + suit, rank 0 a deuce and 12 an ace. Hand strengths come from plain_hands.strength (tuples
compared lexicographically: category first, straight flush 5 .. high card 0, then the ranks that break ties; suits
never break ties). An option is a multiple of the Ante bet on the Play: 0 is the fold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from itertools import combinations

from plain_hands import strength

Strength = tuple[int, ...]

FOLD = 0

# The weakest hand of a threshold, as a strength tuple. (1,) sorts above every high card (0, ...) and below every
# pair (1, pair rank, kicker), so it reads "any pair or better".
Q_HIGH: Strength = (0, 10, 1, 0)  # Q-3-2, the weakest Q-high hand
K_HIGH: Strength = (0, 11, 1, 0)  # K-3-2, the weakest K-high hand
PAIR_OR_BETTER: Strength = (1,)

CATEGORIES = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")  # by strength[0]
ROWS = ("mini_royal", *reversed(CATEGORIES))  # the rows a paytable may have, rarest first


@dataclass(frozen=True)
class Rules:
    """One game of the family. Paytables map a row of ROWS to what it pays per unit bet (a Fraction)."""

    face_up: int = 0  # dealer cards shown before the player decides: 0 or 1
    options: tuple[tuple[int, Strength | None], ...] = ((1, None),)  # (multiple, weakest hand allowed to bet it)
    qualifier: Strength | None = Q_HIGH  # the dealer qualifies with at least this hand; None: always
    ante_when_dealer_does_not_qualify: str = "wins"  # "wins" (1 to 1) or "pushes"
    play_needs_qualifier: bool = True  # True: the Play pushes when the dealer does not qualify
    ties: str = "push"  # a tie in the showdown: "push" or "player_wins"
    blind: Mapping[str, Fraction] | None = field(default=None, hash=False)
    ante_bonus: Mapping[str, Fraction] | None = field(default=None, hash=False)
    # The Play paid by a table (Three Card Prime): per unit of the Play bet when the Play is won (a hand the table
    # does not list: 1 to 1); a tie and a dealer who does not qualify paid as a win when the flags say so; a losing
    # Play of a hand the bad-beat table lists paid its row instead of lost.
    play_pays: Mapping[str, Fraction] | None = field(default=None, hash=False)
    play_pays_on_tie: bool = False
    play_pays_when_dealer_does_not_qualify: bool = False
    bad_beat: Mapping[str, Fraction] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        if self.face_up not in (0, 1):
            raise ValueError(f"face_up is 0 or 1, not {self.face_up}")
        multiples = [multiple for multiple, _ in self.options]
        if not multiples or len(set(multiples)) != len(multiples) or min(multiples) < 1:
            raise ValueError(f"options need distinct multiples of at least 1, not {multiples}")
        if self.ante_when_dealer_does_not_qualify not in ("wins", "pushes"):
            raise ValueError(
                f"ante_when_dealer_does_not_qualify is wins or pushes, not {self.ante_when_dealer_does_not_qualify}"
            )
        if self.ties not in ("push", "player_wins"):
            raise ValueError(f"ties is push or player_wins, not {self.ties}")
        if self.play_pays_when_dealer_does_not_qualify and not self.play_needs_qualifier:
            raise ValueError("a Play decided without the qualifier is not paid for a dealer who does not qualify")
        for table in (self.blind, self.ante_bonus, self.play_pays, self.bad_beat):
            if table is not None and (not table or set(table) - set(ROWS)):
                raise ValueError(f"a paytable's rows are among {ROWS}, not {sorted(table)}")


STANDARD = Rules(
    ante_bonus={"straight_flush": Fraction(5), "three_of_a_kind": Fraction(4), "straight": Fraction(1)},
)
FACE_UP_ULTIMATE = Rules(
    face_up=1,
    options=((1, None), (3, PAIR_OR_BETTER)),
    ante_when_dealer_does_not_qualify="pushes",
    play_needs_qualifier=False,
    blind={
        "mini_royal": Fraction(100),
        "straight_flush": Fraction(8),
        "three_of_a_kind": Fraction(6),
        "straight": Fraction(3, 2),
        "flush": Fraction(1),
    },
)


PRIME_STYLE_PLAY = {
    "mini_royal": Fraction(20),
    "straight_flush": Fraction(5),
    "three_of_a_kind": Fraction(4),
    "straight": Fraction(2),
    "flush": Fraction(3, 2),
    "pair": Fraction(1),
}

# The games benchmarks/bruteforce_family.py counts in full and tests/engine/test_family.py holds trey to.
RULE_SETS: dict[str, Rules] = {
    "standard": STANDARD,
    "face_up_ultimate": FACE_UP_ULTIMATE,
    "face_up_ultimate_k_high": replace(FACE_UP_ULTIMATE, qualifier=K_HIGH),
    "face_up_ultimate_blind_50_10_5_2_1": replace(
        FACE_UP_ULTIMATE,
        blind={
            "mini_royal": Fraction(50),
            "straight_flush": Fraction(10),
            "three_of_a_kind": Fraction(5),
            "straight": Fraction(2),
            "flush": Fraction(1),
        },
    ),
    "ante_pushes_no_face_up": replace(STANDARD, ante_when_dealer_does_not_qualify="pushes", ante_bonus=None),
    "face_up_no_raises": replace(STANDARD, face_up=1),
    # The Play paid by a table, with pays of this file's own (no published Three Card Prime table was found): paid
    # on a win, a tie and a dealer who does not qualify, with a bad-beat pay on a losing straight or better.
    "prime_style": replace(
        STANDARD,
        ante_when_dealer_does_not_qualify="pushes",
        ante_bonus=None,
        play_pays=PRIME_STYLE_PLAY,
        play_pays_on_tie=True,
        play_pays_when_dealer_does_not_qualify=True,
        bad_beat={row: pay for row, pay in PRIME_STYLE_PLAY.items() if row not in ("flush", "pair")},
    ),
    # Face Up Ultimate with its Play paid by a table on a win alone, and a bad beat of its own (odds in halves).
    "face_up_ultimate_play_pays_bad_beat": replace(
        FACE_UP_ULTIMATE,
        play_pays={"straight_flush": Fraction(5), "three_of_a_kind": Fraction(3), "straight": Fraction(3, 2)},
        bad_beat={"straight_flush": Fraction(2), "three_of_a_kind": Fraction(1, 2)},
    ),
    # One card up and a Play of 10x whose win with a pair or a flush pushes: pairs fold against some up cards, so a
    # side bet on the player's hand lost on a fold is lost in some of their cells (the engine counts it).
    "face_up_10x_pairs_push": replace(
        STANDARD,
        face_up=1,
        options=((10, None),),
        ante_bonus=None,
        play_pays={"flush": Fraction(0), "pair": Fraction(0)},
    ),
}


@cache
def hand_strength(cards: tuple[int, ...]) -> Strength:
    """plain_hands.strength, remembered (the count asks for the same hands over and over)."""
    return strength(cards)


def row(player: Strength) -> str:
    """The paytable row of a hand: its category, or mini_royal for A-K-Q suited (a straight flush topped by an ace;
    the wheel A-2-3 is topped by its three)."""
    return "mini_royal" if player == (5, 12) else CATEGORIES[player[0]]


def pays(table: Mapping[str, Fraction] | None, hand_row: str) -> Fraction | None:
    """What a paytable pays for a hand: the rarest of its rows that applies (a mini royal is a straight flush too),
    or None when no row applies."""
    if table is None:
        return None
    for applies in ("mini_royal", "straight_flush") if hand_row == "mini_royal" else (hand_row,):
        if applies in table:
            return table[applies]
    return None


def allowed_options(rules: Rules, player: Strength) -> list[int]:
    """The options open to a hand: the fold, then each multiple whose requirement the hand meets."""
    return [FOLD, *sorted(m for m, weakest in rules.options if weakest is None or player >= weakest)]


def wager(rules: Rules, option: int) -> int:
    """Units bet in all on a round: the Ante, the Blind if the game has one, and the Play."""
    return 1 + (rules.blind is not None) + option


def net(rules: Rules, option: int, hand_row: str, dealer_qualifies: bool, result: int) -> Fraction:
    """The player's net result per unit Ante of one deal. result: 1 the player's hand beats the dealer's, 0 a tie,
    -1 the dealer's is better."""
    if option == FOLD:
        return Fraction(-1 - (rules.blind is not None))  # the Ante (and the Blind) lost
    showdown = {1: 1, 0: 1 if rules.ties == "player_wins" else 0, -1: -1}[result]
    ante_when_short = 1 if rules.ante_when_dealer_does_not_qualify == "wins" else 0
    ante = showdown if dealer_qualifies else ante_when_short
    won = pays(rules.play_pays, hand_row)
    play_won = option * (Fraction(1) if won is None else won)  # a hand the Play's table does not list: 1 to 1
    if not dealer_qualifies and rules.play_pays_when_dealer_does_not_qualify:
        play = play_won  # whatever the two hands
    elif not dealer_qualifies and rules.play_needs_qualifier:
        play = Fraction(0)
    elif result == 1 or (result == 0 and rules.play_pays_on_tie):
        play = play_won
    elif result == 0:
        play = Fraction(option * showdown)
    else:
        beat = pays(rules.bad_beat, hand_row)  # the bad-beat pay of a losing Play, if the hand has a row
        play = Fraction(-option) if beat is None else option * beat
    blind = Fraction(0)
    if rules.blind is not None:  # qualifier not needed; a tie pushes it (whatever `ties` says of the Ante and Play)
        if result == 1:
            blind = pays(rules.blind, hand_row) or Fraction(0)  # a win below the table's lowest row pushes
        elif result == -1:
            blind = Fraction(-1)
    bonus = pays(rules.ante_bonus, hand_row) or Fraction(0)  # whatever the dealer holds
    return ante + play + blind + bonus


def cell_evs(rules: Rules, player_cards: tuple[int, ...], up_cards: tuple[int, ...]) -> dict[int, Fraction]:
    """The exact EV per Ante of each option open to the player holding player_cards when the dealer shows up_cards,
    over every set of the dealer's hidden cards from the rest of the deck (1,128 with a card up, 18,424 without)."""
    cards = (*player_cards, *up_cards)
    if len(player_cards) != 3 or len(up_cards) != rules.face_up:
        raise ValueError(f"3 player cards and {rules.face_up} face-up, not {len(player_cards)} and {len(up_cards)}")
    if len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
        raise ValueError(f"cards are distinct, 0 to 51: {cards}")
    player = hand_strength(tuple(sorted(player_cards)))
    deck = [c for c in range(52) if c not in cards]
    tally: Counter[tuple[bool, int]] = Counter()  # (dealer qualifies, result) -> number of deals
    for hidden in combinations(deck, 3 - len(up_cards)):
        dealer = hand_strength(tuple(sorted((*up_cards, *hidden))))
        qualifies = rules.qualifier is None or dealer >= rules.qualifier
        result = (player > dealer) - (player < dealer)
        tally[qualifies, result] += 1
    deals = sum(tally.values())
    hand_row = row(player)
    return {
        option: sum((n * net(rules, option, hand_row, q, r) for (q, r), n in tally.items()), Fraction(0)) / deals
        for option in allowed_options(rules, player)
    }


def best(evs: Mapping[int, Fraction]) -> int:
    """The option of highest EV; on equal EVs the one that wagers less."""
    return max(evs, key=lambda option: (evs[option], -option))


def optimal_option(rules: Rules, player_cards: tuple[int, ...], up_cards: tuple[int, ...]) -> int:
    """The optimal player's option for a cell (0 the fold, else the multiple played)."""
    return best(cell_evs(rules, player_cards, up_cards))
