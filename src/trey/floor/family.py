"""A round of a game of the Three Card Poker family dealt at the table (issue 31), for the floor: the option the
optimal strategy takes (the engine's decision, :func:`~trey.engine.family.analyze_family`), the deal's class, and
what each base wager nets (:func:`~trey.rules.round.settle`); and the payout drill of such a game, its answer key
from them.

The engine decides for the cells of the clubs' up cards (``choices``); a deal whose up card is of another suit is
decided as the deal with that suit and the clubs swapped, which deals the same figures (a permutation of the suits
maps every cell onto another with the same expectations).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from trey.cards.card import Card, cards_of
from trey.cards.hand_table import hand_indexes, hand_table
from trey.cards.hands import IntArray
from trey.engine.decide import Expectations
from trey.engine.family import FamilyAnalysis
from trey.floor.drill import MAX_HANDS, POOL_DEALS, Drill, DrillHand, Level
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.paytable.odds import net_odds_text
from trey.play.pay_lines import Line, win_text
from trey.play.payouts import PayRule, bet_columns
from trey.play.resolution import situation_words
from trey.rules.round import DEAL_CLASSES, FOLD, DealClass, Nets, Showdown

SUITS = 4


@dataclass(frozen=True)
class FamilyRound:
    """One dealt round: the player's option (FOLD or the Play bet in Antes), how it ended (None on a fold), what
    each wager nets per Ante, and the rows of the Blind's and the Ante Bonus's tables the player's hand falls in."""

    player: tuple[Card, ...]
    dealer: tuple[Card, ...]  # the face-up card first, when the game shows one
    option: int
    deal: DealClass
    nets: Nets
    blind_row: str | None
    bonus_row: str | None

    @property
    def folded(self) -> bool:
        return self.option == FOLD


class FamilyTable:
    """Deals rounds of one family game as its optimal player plays them."""

    def __init__(self, spec: GameSpec, family: FamilyAnalysis) -> None:
        game = spec.wagers.ante_play
        if game is None or family.spec != spec:
            raise ValueError("a family table deals the Ante & Play of the game it was analysed for")
        self.spec = spec
        self.family = family
        self.expect = Expectations(spec.game, spec.rules, game.ante_bonus)
        blind = spec.game.blind
        self.blind_rows: list[str | None] = [*(name for name, _ in blind.all_odds), None] if blind else [None]
        self.bonus_rows: list[str | None] = [*(name for name, _ in game.ante_bonus.all_odds), None]

    def options(self, players: IntArray, ups: IntArray | None) -> IntArray:
        """The optimal option of each deal: ``players`` (n, 3) the player's cards, ``ups`` (n,) the face-up card
        (None in a game that shows none)."""
        if ups is None:
            chosen: IntArray = self.family.choices[0][hand_indexes(players)]
            return chosen
        suits = ups % SUITS
        ranks = ups // SUITS
        swapped = players.astype(np.int64)
        player_suits = swapped % SUITS
        # the up card's suit and the clubs (suit 0) swapped: the up card becomes its rank's club
        new_suits = np.where(
            player_suits == suits[:, None], 0, np.where(player_suits == 0, suits[:, None], player_suits)
        )
        swapped = swapped - player_suits + new_suits
        chosen = self.family.choices[ranks, hand_indexes(swapped)]
        if (chosen < 0).any():
            raise ValueError("a player hand holds the face-up card")
        return chosen

    def classify(self, players: IntArray, dealers: IntArray) -> tuple[IntArray, IntArray, IntArray]:
        """For each deal (``players``, ``dealers``: (n, 3) cards, the dealer's face-up card first): the option
        taken, the index of its class in :data:`~trey.rules.round.DEAL_CLASSES`, and the player hand's group (its
        Blind and Ante Bonus rows, :class:`~trey.engine.decide.Expectations`)."""
        ups = dealers[:, 0].astype(np.int64) if self.spec.game.face_up else None
        option = self.options(players, ups)
        keys = hand_table().keys
        index = hand_indexes(players)
        mine, theirs = keys[index], keys[hand_indexes(dealers)]
        qualifies = theirs >= self.spec.rules.dealer_qualifier.minimum_key
        showdown = np.sign(mine - theirs)  # Showdown's values: -1, 0, 1
        deal_class: IntArray = qualifies.astype(np.int64) * len(Showdown) + (showdown + 1)
        group: IntArray = self.expect.group_of_hand[index]
        return option, deal_class, group

    def round(self, player: tuple[int, ...], dealer: tuple[int, ...]) -> FamilyRound:
        """The round of these cards (the dealer's face-up card first)."""
        option, deal_class, group = (int(a[0]) for a in self.classify(np.array([player]), np.array([dealer])))
        deal = DEAL_CLASSES[deal_class]
        nets = self.expect.nets(option, deal, group)
        blind_row, bonus_row = divmod(group, len(self.expect.bonus_pays))
        return FamilyRound(
            cards_of(player),
            cards_of(dealer),
            option,
            deal,
            nets,
            self.blind_rows[blind_row],
            self.bonus_rows[bonus_row],
        )


def option_words(option: int) -> str:
    """``folds``, ``plays 1x``, ``plays 3x``."""
    return "folds" if option == FOLD else f"plays {option}x"


# --- the answer key ------------------------------------------------------------------------------------------------


def _won(part: str, piece: str, why: str, odds: Fraction, bet: Fraction, rule: PayRule) -> Line:
    amount, text = win_text(why, f"{part} wins {net_odds_text(odds)}", bet, rule, odds)
    return Line(part, amount, text, wager=ANTE_PLAY, piece=piece)


def _line(part: str, piece: str, why: str, net: Fraction, bet: Fraction, rule: PayRule) -> Line:
    """A wager of ``bet`` netting ``net`` times its stake."""
    if net > 0:
        return _won(part, piece, why, net, bet, rule)
    if net == 0:
        return Line(part, Fraction(0), f"{why}: {part} pushes", wager=ANTE_PLAY, piece=piece)
    return Line(part, -bet, f"{why}: {part} loses {rule.money(bet)}", wager=ANTE_PLAY, piece=piece)


def family_answer_lines(spec: GameSpec, played: FamilyRound, ante: Fraction, rule: PayRule) -> list[Line]:
    """Per wager, what the dealer pays or takes and why, at an Ante of ``ante``: the Ante, the Play (its bet the
    option's multiple of the Ante), the Blind (a bet equal to the Ante) and the Ante Bonus, from the round's nets."""
    nets = played.nets
    why = "player folds" if played.folded else situation_words(played.deal)
    lines = [_line("Ante", "ante", why, nets.ante, ante, rule)]
    if not played.folded:
        bet = ante * played.option
        lines.append(_line(f"Play ({played.option}x)", "play", why, nets.play / played.option, bet, rule))
    if spec.game.blind is not None:
        if nets.blind > 0:
            row = (played.blind_row or "").replace("_", " ")
            lines.append(_won("Blind", "blind", f"{why}, {row}", nets.blind, ante, rule))
        elif nets.blind == 0 and not played.folded and played.deal.showdown is Showdown.WIN:
            pushed = f"{why}: Blind pushes (a win below the Blind's table)"
            lines.append(Line("Blind", Fraction(0), pushed, wager=ANTE_PLAY, piece="blind"))
        else:
            lines.append(_line("Blind", "blind", why, nets.blind, ante, rule))
    game = spec.wagers.ante_play
    if game is not None and len(game.ante_bonus):
        if nets.bonus > 0:
            row = (played.bonus_row or "").replace("_", " ")
            lines.append(_won("Ante Bonus", "ante_bonus", row, nets.bonus, ante, rule))
        else:
            said = "not paid: the player folded" if played.folded and played.bonus_row else "no bonus hand"
            lines.append(Line("Ante Bonus", Fraction(0), said, wager=ANTE_PLAY, piece="ante_bonus"))
    return lines


# --- the drill -----------------------------------------------------------------------------------------------------


def family_features(spec: GameSpec, played: FamilyRound) -> set[str]:
    """What a round shows: its option and situation, the Blind's row paid, the Ante Bonus row paid."""
    found = {"fold" if played.folded else f"{played.option}x:{played.deal.qualifies}:{played.deal.showdown.name}"}
    if played.nets.blind > 0 and played.blind_row is not None:
        found.add(f"blind:{played.blind_row}")
    if (
        spec.game.blind is not None
        and not played.folded
        and played.deal.showdown is Showdown.WIN
        and played.nets.blind == 0
    ):
        found.add("blind:push")
    if played.nets.bonus > 0 and played.bonus_row is not None:
        found.add(f"bonus:{played.bonus_row}")
    return found


def make_family_drill(spec: GameSpec, family: FamilyAnalysis, *, hands: int, seed: int, level: Level) -> Drill:
    """A drill of a family game: ``basic`` takes seeded deals, every other one a hand where something is paid;
    ``full`` first takes a deal of every option in every situation, of every Blind row paid and of a winning Blind
    pushing, and of every Ante Bonus row, met in a seeded pool of deals (what it does not meet is reported by
    :func:`~trey.floor.drill.uncovered`)."""
    if not 1 <= hands <= MAX_HANDS:
        raise ValueError(f"a drill has 1 to {MAX_HANDS} hands")
    from trey.play.simulate import deal

    table = FamilyTable(spec, family)
    rng = np.random.Generator(np.random.PCG64(seed))
    pool = deal(rng, POOL_DEALS).astype(np.int64)
    rule = PayRule.of(spec.table)
    sizes = [Fraction(b) for b in bet_columns(spec.table)]
    needed: list[str] = []
    if level is Level.FULL:
        needed = _possible_features(family)
    chosen: list[int] = []
    if needed:
        # A round's features are a function of its option, class and group: the first deal of each kind is tried.
        option, deal_class, group = table.classify(pool[:, :3], pool[:, 3:])
        kinds = np.stack([option, deal_class, group], axis=1)
        _, first = np.unique(kinds, axis=0, return_index=True)
        covered: set[str] = set()
        for row in sorted(int(r) for r in first):
            shown = family_features(spec, table.round(*_cards(pool, row)))
            if (shown - covered) & set(needed):
                chosen.append(row)
                covered |= shown
    row = 0
    while len(chosen) < hands and row < POOL_DEALS:
        if row not in chosen:
            played = table.round(*_cards(pool, row))
            paying = played.nets.total > 0
            if paying or len(chosen) % 2:
                chosen.append(row)
        row += 1
    drill_hands = []
    for number, row in enumerate(chosen, 1):
        played = table.round(*_cards(pool, row))
        ante = sizes[(row * 7) % len(sizes)]
        bets = [("Ante", ante)] + ([("Blind", ante)] if spec.game.blind is not None else [])
        if not played.folded:  # the Play bet, made once the player has seen the cards
            bets.append((f"Play ({played.option}x)", ante * played.option))
        drill_hands.append(
            DrillHand(
                number,
                played.player,
                played.dealer,
                not played.folded,
                tuple(bets),
                tuple(family_answer_lines(spec, played, ante, rule)),
                tuple(sorted(family_features(spec, played))),
                decision=option_words(played.option),
                face_up=spec.game.face_up,
            )
        )
    return Drill(spec, seed, level, tuple(drill_hands), tuple(needed))


def _cards(pool: IntArray, row: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(int(c) for c in pool[row, :3]), tuple(int(c) for c in pool[row, 3:])


def _possible_features(family: FamilyAnalysis) -> list[str]:
    """Every feature some deal of the game shows under the optimal strategy: each option in each situation its
    deals reach (from the PAR counts), each Blind row and Ante Bonus row paid."""
    from trey.figures.family_par import family_par

    par = family_par(family)
    found = []
    for r in par.situations:
        if r.combinations:
            found.append("fold" if r.deal is None else f"{r.option}x:{r.deal.qualifies}:{r.deal.showdown.name}")
    for t in par.blind:
        if t.combinations:
            found.append("blind:push" if t.pays is None else f"blind:{t.row}")
    found += [f"bonus:{t.row}" for t in par.ante_bonus if t.combinations and (t.pays or 0) > 0]
    return found


__all__ = ["FamilyRound", "FamilyTable", "family_answer_lines", "make_family_drill"]
