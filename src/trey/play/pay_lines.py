"""The lines of a payout: per wager and part of a wager, what the dealer pays (+) or takes (−) on a settled round and
why, in words (issue 31: below both the dealer drill, whose answer key they are, and the audit, which words what is
due with them). Each line names its wager by id and its part by a fixed name (:data:`ANTE_PLAY_PARTS`): readers
match lines by those, never by the words a document shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from trey.engine.side_bet import LOSE
from trey.paytable.model import ANTE_PLAY, GameSpec, OnFold
from trey.paytable.odds import Odds, net_odds_text
from trey.play.payouts import Payout, PayRule
from trey.play.settle import FamilyOutcome, SettledWager, ante_play_parts
from trey.rules.ante_play import AntePlayOutcome, Situation

# The parts of Ante & Play's payout, by their names in a line (and a hand history's split): the Blind is a family
# game's (issue 31).
ANTE_PLAY_PARTS = ("ante", "play", "ante_bonus", "blind")
_PART_OF_LABEL = {"Ante": "ante", "Play": "play", "Ante Bonus": "ante_bonus"}


@dataclass(frozen=True)
class Line:
    part: str  # as a document shows it: "Ante", "Play", "Ante Bonus", or a side bet's title
    amount: Fraction  # paid to the player (+), taken (−), 0 for a push
    reason: str
    wager: str = field(kw_only=True)  # the wager's id: ante_play, or a side bet's
    piece: str = field(kw_only=True)  # within Ante & Play one of ANTE_PLAY_PARTS; a side bet's line, its id


def lines_of(lines: list[Line], wager: str) -> list[Line]:
    """The lines of one wager, by its id."""
    return [line for line in lines if line.wager == wager]


def parts_of(lines: list[Line], parts: tuple[str, ...] = ANTE_PLAY_PARTS[:3]) -> dict[str, Fraction]:
    """Ante & Play's net split part by part (a hand history's ``ante``, ``play``, ``ante_bonus``), by the parts'
    names."""
    split = {name: Fraction(0) for name in parts}
    for line in lines:
        if line.wager == ANTE_PLAY and line.piece in split:
            split[line.piece] += line.amount
    return split


def win_text(label: str, odds_text: str, bet: Fraction, rule: PayRule, net: Fraction) -> tuple[Fraction, str]:
    won = rule.pay(bet, net)
    return won.amount, f"{label}: {odds_text} × {rule.money(bet)} = {rule.money(won.exact)}" + paid_note(won, rule)


def paid_note(won: Payout, rule: PayRule) -> str:
    """How the table's pay rule changed the exact win, if it did."""
    if won.capped:
        return f", capped at {rule.money(won.amount)}"
    if won.rounded:
        return f", rounded down to {rule.money(won.amount)} (smallest chip {rule.money(rule.chip)})"
    return ""


def answer_lines(
    spec: GameSpec,
    settled: dict[str, SettledWager],
    bets: dict[str, Fraction],
    rule: PayRule,
    meters: Mapping[str, Fraction] | None = None,
) -> list[Line]:
    """Per wager, what the dealer pays or takes and why, from the settled round; a progressive's meter share at
    ``meters`` (by wager id: the meter as the round was dealt), by default at its reset. A family game's Ante & Play
    (:class:`~trey.play.settle.FamilyOutcome`) has no lines here (:meth:`FamilySettler.dues` states them): it only
    tells its side bets whether the player folded."""
    lines: list[Line] = []
    for wager, result in settled.items():
        bet = bets[wager]
        outcome = result.outcome
        if isinstance(outcome, FamilyOutcome):
            continue
        if isinstance(outcome, AntePlayOutcome):
            parts = ante_play_parts(result, spec)
            label = outcome.situation.label
            why = label[0].lower() + label[1:]  # within a sentence: "player higher: Ante wins 1 to 1"
            for part in ("Ante", "Play"):
                value = parts[part]
                if value is None:
                    continue
                if value > 0:
                    amount, text = win_text(why, f"{part} wins {net_odds_text(value)}", bet, rule, value)
                elif value == 0:
                    amount, text = Fraction(0), f"{why}: {part} pushes"
                else:
                    amount, text = -bet, f"{why}: {part} loses {rule.money(bet)}"
                lines.append(Line(part, amount, text, wager=wager, piece=_PART_OF_LABEL[part]))
            bonus = parts["Ante Bonus"]
            if bonus is not None and bonus > 0 and outcome.bonus is not None:
                label = outcome.bonus.replace("_", " ")
                amount, text = win_text(label, net_odds_text(bonus), bet, rule, bonus)
                if outcome.situation in (Situation.LOSE, Situation.FOLD):
                    text += " (paid whatever the dealer holds)"
                lines.append(Line("Ante Bonus", amount, text, wager=wager, piece="ante_bonus"))
            elif spec.wagers.ante_play is not None and len(spec.wagers.ante_play.ante_bonus):
                why = "not paid: the player folded" if outcome.bonus is not None else "no bonus hand"
                lines.append(Line("Ante Bonus", Fraction(0), why, wager=wager, piece="ante_bonus"))
            continue
        side_bet = spec.wagers.side_bet(wager)
        row = str(outcome)
        if row == LOSE:
            ante = settled[ANTE_PLAY].outcome if ANTE_PLAY in settled else None
            folded = side_bet.on_fold is OnFold.LOST and (
                (isinstance(ante, AntePlayOutcome) and ante.situation is Situation.FOLD)
                or (isinstance(ante, FamilyOutcome) and ante.deal is None)
            )
            why = f"player folds: {side_bet.title} lost with the Ante" if folded else "no paying hand"
            lines.append(Line(side_bet.title, -bet, f"{why}: {rule.money(bet)} taken", wager=wager, piece=wager))
            continue
        pay = side_bet.pays.get(row)
        label = row.replace("_", " ")
        if isinstance(pay, Odds):
            amount, text = win_text(label, pay.to_one_text, bet, rule, pay.net)
        else:
            assert pay is not None
            meter = None
            if side_bet.progressive is not None:
                meter = (meters or {}).get(wager, side_bet.progressive.reset)
            won = rule.pay(bet, pay, meter=meter, progressive=side_bet.progressive is not None)
            if pay.reads_meter:
                assert meter is not None
                text = f"{label}: {pay} at {rule.money(meter)} = {rule.money(won.exact)} for the {rule.money(bet)} bet"
            else:
                text = f"{label}: {rule.money(won.exact)} for the {rule.money(bet)} bet"
            text += paid_note(won, rule)
            amount = won.amount - bet  # paid for the bet: the dealer keeps the stake
            text += f" (net {rule.money(amount)})"
        lines.append(Line(side_bet.title, amount, text, wager=wager, piece=wager))
    return lines
