"""How a round of any game of the Three Card Poker family is settled, stated once (issue 31).

A deal the player plays ends in one of six :data:`DEAL_CLASSES`: whether the dealer qualifies, and how the player's
hand compares with the dealer's (:class:`Showdown`). :func:`settle` says what each base wager nets in it, per Ante,
for the player's option (0: the fold; else the Play bet in Antes) under the round's shape
(:class:`~trey.paytable.model.RoundShape`) and rules:

- the **Ante**: against a qualifying dealer, +1 when the player's hand is higher, -1 when it is lower, a tie
  pushing (winning 1 to 1 under ``ties: player_wins``); when the dealer does not qualify it wins 1 to 1 or pushes,
  as the shape says; lost on a fold;
- the **Play** (``option`` Antes): as the Ante against a qualifying dealer; when the dealer does not qualify it
  pushes, or, in a game whose Play needs no qualifier, is decided against the dealer's hand all the same. A game
  may pay it by a table (Three Card Prime): a Play *won* is paid the table's row for the player's hand per unit
  (``play_pay``; a hand no row lists, 1 to 1); a tie may be paid as a win (``play_pays_on_tie``), and so may a dealer
  who does not qualify, whatever the hands (``play_pays_when_dealer_does_not_qualify``); a *losing* Play of a hand
  the bad-beat table lists is paid its row instead (``bad_beat_pay``);
- the **Blind** (a bet equal to the Ante, when the game has one): decided against the dealer's hand without a
  qualifier; a higher hand is paid by the Blind's table (``blind_pay``; a hand below its lowest row pushes), a lower
  one loses, a tie pushes (whatever ``ties`` says of the Ante and the Play); lost on a fold;
- the **Ante Bonus**: the table's pay for the player's hand (``bonus``), whatever the dealer holds, when the player
  plays, and on a fold too when the rules do not require the Play bet.

The engine's decision, its counts and the standard game's resolution table are all read from :func:`settle`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction

from trey.paytable.model import AnteWithoutQualifier, RoundShape, Rules, Ties

FOLD = 0  # the option of folding; any other option is its Play bet in Antes


class Showdown(IntEnum):
    """The player's hand against the dealer's."""

    LOSE = -1
    TIE = 0
    WIN = 1


@dataclass(frozen=True)
class DealClass:
    """How a played deal ends, before any pay: whether the dealer qualifies, and the showdown."""

    qualifies: bool
    showdown: Showdown


# The six classes, in the order every count over them is kept in.
DEAL_CLASSES = tuple(DealClass(qualifies, showdown) for qualifies in (False, True) for showdown in Showdown)


@dataclass(frozen=True)
class Nets:
    """What each base wager nets on one deal, per Ante (0 for a wager the game or the option does not have)."""

    ante: Fraction
    play: Fraction
    blind: Fraction
    bonus: Fraction

    @property
    def total(self) -> Fraction:
        return self.ante + self.play + self.blind + self.bonus


def settle(
    shape: RoundShape,
    rules: Rules,
    option: int,
    deal: DealClass,
    *,
    blind_pay: Fraction | None = None,
    bonus: Fraction = Fraction(0),
    play_pay: Fraction | None = None,
    bad_beat_pay: Fraction | None = None,
) -> Nets:
    """The nets of one deal, per Ante: the player took ``option`` (:data:`FOLD`, or a Play bet of that many Antes)
    and the deal ended as ``deal`` (ignored on a fold). ``blind_pay``: the Blind table's net pay for the player's
    hand (None: no row pays it); ``bonus``: the Ante Bonus table's (0: none); ``play_pay``: the Play table's net pay
    per unit for the player's hand (None: no table, or no row: 1 to 1); ``bad_beat_pay``: the bad-beat table's
    (None: no row, the losing Play is lost)."""
    has_blind = shape.blind is not None
    if option == FOLD:
        paid = bonus if not rules.ante_bonus_requires_play else Fraction(0)
        return Nets(Fraction(-1), Fraction(0), Fraction(-1 if has_blind else 0), paid)
    if option not in shape.multiples:
        raise ValueError(f"the game offers no Play bet of {option}x (it offers {list(shape.multiples)})")
    tie = 1 if rules.ties is Ties.PLAYER_WINS else 0
    showdown = Fraction(tie if deal.showdown is Showdown.TIE else int(deal.showdown))
    if deal.qualifies:
        ante = showdown
    else:
        ante = Fraction(1 if shape.ante_when_dealer_does_not_qualify is AnteWithoutQualifier.WINS else 0)
    won = Fraction(1) if play_pay is None else play_pay  # a Play won, per unit
    if not deal.qualifies and shape.play_pays_when_dealer_does_not_qualify:
        play = option * won
    elif not deal.qualifies and shape.play_needs_qualifier:
        play = Fraction(0)
    elif deal.showdown is Showdown.WIN or (deal.showdown is Showdown.TIE and shape.play_pays_on_tie):
        play = option * won
    elif deal.showdown is Showdown.TIE:
        play = option * showdown
    else:
        play = Fraction(-option) if bad_beat_pay is None else option * bad_beat_pay
    blind = Fraction(0)
    if has_blind and deal.showdown is Showdown.WIN:
        blind = blind_pay if blind_pay is not None else Fraction(0)
    elif has_blind and deal.showdown is Showdown.LOSE:
        blind = Fraction(-1)
    return Nets(ante, play, blind, bonus)


def staked(shape: RoundShape, option: int) -> int:
    """Antes bet in all on a round: the Ante, the Blind when there is one, and the Play bet."""
    return shape.initial_bet + option
