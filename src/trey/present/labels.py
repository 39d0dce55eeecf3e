"""Words for people: outcome names, odds and rule sentences shared by the certificate and the dealer sheet."""

from __future__ import annotations

from fractions import Fraction

from trey.cards.card import SUIT_SYMBOLS, Colour, colour_of, parse_cards, rank_label, rank_of, suit_of
from trey.core.numbers import MoneyStyle
from trey.paytable.model import ANTE_PLAY, GameSpec, OnFold, QualifierKind, SideBet, StrategyKind, Ties
from trey.paytable.odds import net_odds_text
from trey.paytable.pays import Pay
from trey.rules.ante_play import Resolution, Situation, resolution_table

ANTE_PLAY_LABELS = {str(situation): situation.label for situation in Situation}  # its outcomes are its situations
OUTCOME_LABELS = {
    "lose": "No paying hand",
    "mini_royal": "Mini-royal (A-K-Q suited)",
    "six_same_colour": "Six cards of one colour",
    "three_same_colour": "Three cards of one colour",
}


def outcome_label(outcome: str, *, wager: str | None = None, bonus: bool = False) -> str:
    """A person's name for an outcome; Ante & Play's own outcomes (win, lose...) need ``wager``."""
    if bonus:
        return f"Ante Bonus: {outcome.replace('_', ' ')}"
    labels = ANTE_PLAY_LABELS if wager == ANTE_PLAY else OUTCOME_LABELS
    return labels.get(outcome) or outcome.replace("_", " ").capitalize()


def strategy_kind_words(kind: StrategyKind) -> str:
    """A strategy's kind as a reader is told it (files and JSON keep its id): "mimic the dealer"."""
    return {
        StrategyKind.OPTIMAL: "optimal",
        StrategyKind.MIMIC_DEALER: "mimic the dealer",
        StrategyKind.ALWAYS_PLAY: "always play",
        StrategyKind.PLAY_AT_LEAST: "a fixed rule",
    }[kind]


def hand_label(hand: str) -> str:
    """A row of the outcomes by the player's hand: "Straight flush", "Mini-royal (A-K-Q suited)"."""
    return outcome_label(hand)


def pay_label(pay: Pay, style: MoneyStyle) -> str:
    """A pay in words (its kind's): odds in "X to 1" wording, ``$500 for the bet``, ``100% of the meter``."""
    return pay.words(style.money)


def qualifier_sentence(spec: GameSpec) -> str:
    q = spec.rules.dealer_qualifier
    if q.kind is QualifierKind.NONE:
        return "The dealer always qualifies."
    if q.kind is QualifierKind.PAIR:
        return "The dealer qualifies with a pair or better."
    return f"The dealer qualifies with {q.weakest_hand} or better ({q.label})."


def _bet_result(net: Fraction | None, short: bool) -> str:
    if net is None:
        return "—"
    if net > 0:
        return net_odds_text(net) if short else f"wins {net_odds_text(net)}"
    return ("push" if short else "pushes") if net == 0 else "loses"


def resolution_rows(spec: GameSpec, *, short: bool = False) -> list[tuple[str, str, str, str]]:
    """(situation, Ante, Play, Ante Bonus) for the Ante & Play resolution grid, read from the rules' resolution
    table; ``short`` for the dealer sheet."""
    rows = []
    qualifies = "" if short else "Dealer qualifies, "
    resolution: Resolution
    for situation, resolution in resolution_table(spec.rules).items():
        if situation is Situation.DEALER_NOT_QUALIFY and spec.rules.dealer_qualifier.kind is QualifierKind.NONE:
            continue  # the dealer always qualifies
        label = situation.label
        if situation in (Situation.WIN, Situation.TIE, Situation.LOSE) and qualifies:
            label = f"{qualifies}{label[0].lower()}{label[1:]}"
        rows.append(
            (
                label,
                _bet_result(resolution.ante, short),
                _bet_result(resolution.play, short),
                "paid" if resolution.bonus_paid else "not paid",
            )
        )
    return rows


def envy_on_fold_words(bet: SideBet) -> str | None:
    """What a fold does to the envy bonus of a bet lost on a fold (None: the bet has none, or stands)."""
    if not bet.envy or bet.on_fold is not OnFold.LOST:
        return None
    return "not paid: lost with the bet" if bet.envy_lost_on_fold else "paid all the same"


def fold_sentence(spec: GameSpec) -> str:
    """What a fold does to each side bet (and to the envy bonus of one lost on a fold)."""
    parts = []
    for bet in spec.wagers.side_bets:
        part = f"{bet.title} {'is lost with the Ante' if bet.on_fold is OnFold.LOST else 'stands (settled on its own)'}"
        envy = envy_on_fold_words(bet)
        parts.append(f"{part} (its envy bonus {envy})" if envy is not None else part)
    return "When the player folds: " + "; ".join(parts) + "." if parts else ""


def variant_rows(spec: GameSpec) -> list[tuple[str, str]]:
    """The rule switches of the game: the dealer, ties and Ante Bonus rules and what a fold does to each side bet
    only where there is Ante & Play (without it there is no dealer qualifying and no fold)."""
    if spec.wagers.ante_play is None:
        return []
    rules = spec.rules
    rows = [
        ("Dealer qualifier", f"{rules.dealer_qualifier.label}: {qualifier_sentence(spec)}"),
        ("Ties", "Ante and Play win" if rules.ties is Ties.PLAYER_WINS else "Ante and Play push"),
        (
            "Ante Bonus",
            "paid only when the player plays"
            if rules.ante_bonus_requires_play
            else "paid on the Ante even when the player folds",
        ),
    ]
    for bet in spec.wagers.side_bets:
        rows.append(
            (
                f"{bet.title} when the player folds",
                "lost with the Ante" if bet.on_fold is OnFold.LOST else "settled on its own",
            )
        )
        envy = envy_on_fold_words(bet)
        if envy is not None:
            rows.append((f"{bet.title}'s envy bonus when the player folds", envy))
    return rows


# (hand, an example for the dealer sheet's card faces, the rule in words), strongest first.
HAND_ORDER = [
    ("Straight flush", "Qh Kh Ah", "three suited cards in sequence; A-K-Q suited (mini-royal) is the highest"),
    ("Three of a kind", "7c 7d 7s", "three cards of one rank"),
    ("Straight", "4s 5h 6c", "three cards in sequence; A-2-3 is the lowest, A-K-Q the highest"),
    ("Flush", "2d 8d Jd", "three cards of one suit"),
    ("Pair", "9c 9h 4s", "two cards of one rank"),
    ("High card", "Qs 6d 4c", "none of the above: highest card, then the next, then the third"),
]


def card_faces(text: str) -> list[tuple[str, bool]]:
    """``"Ah Kd"`` → [("A♥", True), ("K♦", True)]: face text and whether it prints red."""
    return [
        (rank_label(rank_of(card)) + SUIT_SYMBOLS[suit_of(card)], colour_of(card) is Colour.RED)
        for card in parse_cards(text)
    ]


def return_units(spec: GameSpec) -> str:
    """What an audit's returns are per: the standard game's per unit of the initial bet; a family game's Ante & Play
    per Ante (issue 31: in a game with a Blind the initial bet is two Antes), each side bet per unit of its bet."""
    if spec.game.is_standard:
        return "per unit of the initial bet"
    return "Ante & Play per Ante, a side bet per unit of its bet" if spec.wagers.side_bets else "per Ante"
