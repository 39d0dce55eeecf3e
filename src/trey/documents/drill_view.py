"""A payout drill as HTML: the practice hands, then the answer key on a page of its own."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

from trey.cards.card import cards_text
from trey.documents.environment import render
from trey.floor.drill import Drill
from trey.play.payouts import PayRule
from trey.present.labels import card_faces


def _amount_text(part: str, amount: Fraction, rule: PayRule) -> str:
    if amount == 0:
        return "nothing" if part == "Ante Bonus" else "push"  # no bonus is not a push of a bet
    return ("+" if amount > 0 else "") + rule.money(amount)


def drill_context(drill: Drill, *, paper: str, day: date) -> dict[str, Any]:
    rule = PayRule.of(drill.spec.table)
    hands = []
    for hand in drill.hands:
        decision = hand.decision or (None if hand.plays is None else ("plays" if hand.plays else "folds"))
        hands.append(
            {
                "number": hand.number,
                "player": card_faces(cards_text(hand.player)),
                "up": card_faces(cards_text(hand.dealer[: hand.face_up])) if hand.face_up else [],
                "dealer": card_faces(cards_text(hand.dealer[hand.face_up :])),
                "decision": decision,
                "bets": [f"{title} {rule.money(bet)}" for title, bet in hand.bets],
                "parts": list(hand.blanks),
                "lines": [
                    {
                        "part": line.part,
                        "amount": _amount_text(line.part, line.amount, rule),
                        "reason": line.reason,
                    }
                    for line in hand.lines
                ],
            }
        )
    chip = rule.money(rule.chip)
    cap = ""
    if rule.cap is not None:
        cap = f"; wins above {rule.money(rule.cap)} are paid the cap"
        if any(b.progressive is not None for b in drill.spec.wagers.side_bets):
            cap += ", progressive pays included" if rule.cap_covers_progressive else " (progressive pays in full)"
    intro = (
        "For each hand, write what the dealer pays (+) or takes (−) on every bet. Wins are paid at the odds, the "
        "stake returned besides; fixed amounts and meter shares are paid for the bet; every win is rounded down to "
        f"the smallest chip ({chip}){cap}."
    )
    key_intro = (
        f"Every amount is computed by trey's settlement of the round ({len(drill.hands)} hands, seed {drill.seed}, "
        f"level {drill.level})."
    )
    if not drill.spec.is_standard_game:  # a family game (issue 31): the decision is the optimal strategy's
        intro += (
            " The dealer's first card is dealt face up before the player decides; the player's decision is the "
            "optimal strategy's, the Play bet its multiple of the Ante."
        )
        key_intro = (
            "Every amount is computed from the game's settlement (trey.rules.round) of the round and the optimal "
            f"strategy's decision (trey's engine) ({len(drill.hands)} hands, seed {drill.seed}, level {drill.level})."
        )
    return {
        "paper": paper,
        "game": drill.spec.name,
        "seed": drill.seed,
        "level": str(drill.level),
        "date": day.isoformat(),
        "intro": intro,
        "key_intro": key_intro,
        "hands": hands,
    }


def render_drill_html(drill: Drill, *, paper: str, day: date) -> str:
    return render("drill.html.j2", **drill_context(drill, paper=paper, day=day))
