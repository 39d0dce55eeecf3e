"""The resolution grid of a game of the Three Card Poker family (issue 31): what each base wager does in each
situation, for each of the player's options, read from :func:`trey.rules.round.settle` (the one statement of the
rules) and never written again. The certificate's rules, the dealer sheet and the drill's answers all read it.

A row is the fold, or one Play bet in one :data:`~trey.rules.round.DEAL_CLASSES` (the dealer qualifies or not; the
player's hand higher, equal or lower). Each wager's cell is a whole number of Antes, or :data:`BY_TABLE` when what it
nets is the pay of a table of the player's hand (the Blind on a win, the Ante Bonus): :func:`settle` is asked with
two different pays, and a net that follows them is the table's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from trey.paytable.model import RoundShape, Rules
from trey.rules.round import DEAL_CLASSES, FOLD, DealClass, Showdown, settle

BY_TABLE: Final = "table"  # the wager nets its table's pay for the player's hand
Cell = Fraction | str  # a whole number of Antes, or BY_TABLE

WAGERS = ("ante", "play", "blind", "bonus")  # the base wagers, in the order of the grid's columns


@dataclass(frozen=True)
class ResolutionRow:
    """One situation of the grid: the option (FOLD or a Play bet in Antes), the deal class (None for the fold) and
    what each base wager nets in it, per Ante (``cells`` in the order of :data:`WAGERS`)."""

    option: int
    deal: DealClass | None
    cells: tuple[Cell, Cell, Cell, Cell]

    def cell(self, wager: str) -> Cell:
        return self.cells[WAGERS.index(wager)]

    @property
    def situation(self) -> str:
        """``fold``; ``dealer qualifies, player higher``; ``dealer does not qualify, tie``."""
        return "fold" if self.deal is None else situation_words(self.deal)


def situation_words(deal: DealClass) -> str:
    dealer = "dealer qualifies" if deal.qualifies else "dealer does not qualify"
    player = {Showdown.WIN: "player higher", Showdown.TIE: "tie", Showdown.LOSE: "player lower"}[deal.showdown]
    return f"{dealer}, {player}"


def _cells(shape: RoundShape, rules: Rules, option: int, deal: DealClass) -> tuple[Cell, Cell, Cell, Cell]:
    # A cell whose net follows the pay given for a table (1, then 2) is paid by that table.
    one, two = (
        settle(
            shape,
            rules,
            option,
            deal,
            blind_pay=pay,
            bonus=pay,
            play_pay=pay if shape.play_pays is not None else None,
            bad_beat_pay=pay if shape.bad_beat is not None else None,
        )
        for pay in (Fraction(1), Fraction(2))
    )
    cells: list[Cell] = []
    for wager in WAGERS:
        a, b = getattr(one, wager), getattr(two, wager)
        cells.append(a if a == b else BY_TABLE)
    return cells[0], cells[1], cells[2], cells[3]


def resolution_grid(shape: RoundShape, rules: Rules) -> tuple[ResolutionRow, ...]:
    """The fold, then every Play bet (ascending) in every deal class: the game's rules as a grid."""
    fold = ResolutionRow(FOLD, None, _cells(shape, rules, FOLD, DEAL_CLASSES[0]))
    rows = [fold]
    for option in shape.multiples:
        rows += [ResolutionRow(option, deal, _cells(shape, rules, option, deal)) for deal in DEAL_CLASSES]
    return tuple(rows)


def cell_text(cell: Cell) -> str:
    """``+3``, ``-1``, ``push``, ``table``: a cell as a sheet writes it."""
    if isinstance(cell, str):
        return cell
    if cell == 0:
        return "push"
    return f"{'+' if cell > 0 else '−'}{abs(cell)}"
