"""Words for people: outcome names, odds and rule sentences shared by the certificate and the dealer sheet."""

from __future__ import annotations

from trey.cards import SUIT_SYMBOLS, parse_cards, rank_label
from trey.odds import Odds
from trey.spec import GameSpec, PairPlusOnFold, QualifierKind, Ties, WagerName

ANTE_PLAY_LABELS = {
    "fold": "Player folds",
    "dealer_not_qualify": "Dealer does not qualify",
    "win": "Player wins",
    "tie": "Tie",
    "lose": "Dealer wins",
}
OUTCOME_LABELS = {
    "lose": "No paying hand",
    "mini_royal": "Mini-royal (A-K-Q suited)",
    "six_same_colour": "Six cards of one colour",
    "three_same_colour": "Three cards of one colour",
}


def outcome_label(outcome: str, *, wager: WagerName | None = None, bonus: bool = False) -> str:
    """A person's name for an outcome; Ante & Play's own outcomes (win, lose...) need ``wager``."""
    if bonus:
        return f"Ante Bonus: {outcome.replace('_', ' ')}"
    labels = ANTE_PLAY_LABELS if wager is WagerName.ANTE_PLAY else OUTCOME_LABELS
    return labels.get(outcome) or outcome.replace("_", " ").capitalize()


def odds_label(odds: Odds) -> str:
    """Odds as a regulator wants them: "X to 1" wording; a 'for' row is restated and flagged."""
    if odds.wording.value == "for":
        return f"{odds.to_one_text} (written '{odds}')"
    return str(odds)


def qualifier_sentence(spec: GameSpec) -> str:
    q = spec.rules.dealer_qualifier
    if q.kind is QualifierKind.NONE:
        return "The dealer always qualifies."
    if q.kind is QualifierKind.PAIR:
        return "The dealer qualifies with a pair or better."
    return f"The dealer qualifies with {q.weakest_hand} or better ({q.label})."


def resolution_rows(spec: GameSpec, *, short: bool = False) -> list[tuple[str, str, str, str]]:
    """(situation, Ante, Play, Ante Bonus) for the Ante & Play resolution grid; ``short`` for the dealer sheet."""
    rules = spec.rules
    bonus = "paid" if not rules.ante_bonus_requires_play else "not paid"
    wins = "1 to 1" if short else "wins 1 to 1"
    push = "push" if short else "pushes"
    tie_ante = wins if rules.ties is Ties.PLAYER_WINS else push
    qualifies = "" if short else "Dealer qualifies, "
    rows = [
        ("Player folds", "loses", "—", bonus),
        ("Dealer does not qualify", wins, push, "paid"),
        (f"{qualifies}player higher".capitalize(), wins, wins, "paid"),
        (f"{qualifies}tie".capitalize(), tie_ante, tie_ante, "paid"),
        (f"{qualifies}dealer higher".capitalize(), "loses", "loses", "paid"),
    ]
    if spec.rules.dealer_qualifier.kind is QualifierKind.NONE:
        rows.pop(1)
    return rows


def variant_rows(spec: GameSpec) -> list[tuple[str, str]]:
    rules = spec.rules
    return [
        ("Dealer qualifier", f"{rules.dealer_qualifier.label}: {qualifier_sentence(spec)}"),
        ("Ties", "Ante and Play win" if rules.ties is Ties.PLAYER_WINS else "Ante and Play push"),
        (
            "Ante Bonus",
            "paid only when the player plays"
            if rules.ante_bonus_requires_play
            else "paid on the Ante even when the player folds",
        ),
        (
            "Pair Plus when the player folds",
            "lost with the Ante" if rules.pair_plus_on_fold is PairPlusOnFold.LOST else "settled on its own",
        ),
    ]


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
    faces = []
    for card in parse_cards(text):
        suit = card % 4
        faces.append((rank_label(card // 4) + SUIT_SYMBOLS[suit], suit in (1, 2)))
    return faces
