"""The dealer payout sheet: what every winning bet pays at the table's bet sizes, on one landscape page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

import numpy as np

from trey.cards import card_text
from trey.engine import GameAnalysis
from trey.engine.ante_play import AntePlayOutcome, Situation, resolution_table
from trey.errors import TreyError
from trey.numbers import MoneyStyle, money_style
from trey.odds import Odds
from trey.payouts import DEFAULT_BETS, Payout, bet_columns, payout, smallest_chip
from trey.pays import Amount, MeterShare, Pay, percent_text_exact
from trey.report.environment import render
from trey.report.labels import (
    HAND_ORDER,
    card_faces,
    fold_sentence,
    outcome_label,
    qualifier_sentence,
    resolution_rows,
)
from trey.report.payoff_keys import payoff_key
from trey.settle import SettledWager, Settler
from trey.spec import ANTE_PLAY, GameSpec

WORKED_HANDS_SEED = 2026
AMOUNT_SIZES = (12, 11, 10, 9, 8)  # point sizes tried for the payout amounts, largest first
ANTE_PLAY_SETTLEMENT_ORDER = ["Play", "Ante Bonus", "Ante"]  # then each side bet, in the game's order


@dataclass(frozen=True)
class PayRule:
    """How this table pays: its currency, the smallest chip wins are rounded down to, and the payout cap."""

    style: MoneyStyle
    chip: Fraction
    cap: int | None

    def money(self, amount: Fraction | int) -> str:
        return self.style.money(amount)

    def pay(self, bet: Fraction | int, odds: Odds | Fraction) -> Payout:
        return payout(bet, odds, chip=self.chip, cap=self.cap)


def _cell(p: Payout, rule: PayRule) -> dict[str, Any]:
    if p.capped:
        return {"text": "CAP", "capped": True, "rounded": False}
    return {"text": rule.style.amount(p.amount), "capped": False, "rounded": p.rounded}


def _row(label: str, odds: Odds | Fraction, bets: tuple[int, ...], rule: PayRule) -> dict[str, Any]:
    net = odds.net if isinstance(odds, Odds) else odds
    odds_text = f"{net.numerator} to {net.denominator}"
    # "for" odds are restated as the "to" odds the dealer pays; the table's wording goes on a line of its own so
    # that the label column stays narrow enough for the amounts.
    table_says = f"(table says {odds})" if isinstance(odds, Odds) and odds.wording.value == "for" else ""
    return {
        "label": label,
        "odds": odds_text,
        "table_says": table_says,
        "net": net,
        "cells": [_cell(rule.pay(b, odds), rule) for b in bets],
    }


def _fixed_stake_row(label: str, pay: Pay, stake: Fraction, rule: PayRule) -> dict[str, Any]:
    """A row of a bet with a fixed stake: the odds' win on the stake, an amount (CAP applies), or a meter share."""
    if isinstance(pay, Odds):
        won = rule.pay(int(stake), pay) if stake.denominator == 1 else None
        text = rule.money(won.amount) if won is not None and not won.capped else "CAP" if won else str(pay)
        cell = {"text": text, "capped": bool(won and won.capped), "rounded": bool(won and won.rounded)}
        return {"label": label, "odds": pay.to_one_text, "table_says": "", "net": pay.net, "cells": [cell]}
    if isinstance(pay, Amount):
        capped = rule.cap is not None and pay.amount > rule.cap
        cell = {"text": "CAP" if capped else rule.money(pay.amount), "capped": capped, "rounded": False}
        return {"label": label, "odds": "", "table_says": "", "net": None, "cells": [cell]}
    cell = {"text": f"{percent_text_exact(pay.share)} of the meter", "capped": False, "rounded": False}
    return {"label": label, "odds": "", "table_says": "", "net": None, "cells": [cell]}


def _payout_tables(spec: GameSpec, bets: tuple[int, ...], rule: PayRule) -> list[dict[str, Any]]:
    columns = [rule.money(b) for b in bets]
    tables = []
    if spec.wagers.ante_play is not None:
        rows = [_row("Ante or Play wins", Fraction(1), bets, rule)]
        rows += [
            _row(f"Bonus: {outcome_label(o).lower()}", odds, bets, rule)
            for o, odds in spec.wagers.ante_play.ante_bonus.all_odds
        ]
        tables.append({"title": "Ante & Play", "bet": "Ante", "columns": columns, "rows": rows, "note": ""})
    for side_bet in spec.wagers.side_bets:
        if not len(side_bet.pays):
            continue
        if side_bet.stake is None:
            rows = [_row(outcome_label(o), pay, bets, rule) for o, pay in side_bet.pays.all_odds]
            tables.append({"title": side_bet.title, "bet": "Bet", "columns": columns, "rows": rows, "note": ""})
            continue
        stake = rule.money(side_bet.stake)
        rows = [_fixed_stake_row(outcome_label(o), pay, side_bet.stake, rule) for o, pay in side_bet.pays]
        note = f"A {stake} bet. Amounts and meter shares are paid for the bet: it is not returned besides."
        tables.append({"title": side_bet.title, "bet": "Hand", "columns": ["Pays"], "rows": rows, "note": note})
        if side_bet.envy:
            envy = [
                {
                    "label": outcome_label(o),
                    "odds": "",
                    "table_says": "",
                    "net": None,
                    "cells": [{"text": rule.money(amount), "capped": False, "rounded": False}],
                }
                for o, amount in side_bet.envy
            ]
            tables.append(
                {
                    "title": f"{side_bet.title}: envy bonus",
                    "bet": "Another bettor's hand",
                    "columns": ["Pays each other bettor"],
                    "rows": envy,
                    "note": "Paid to every other progressive bettor at the table, whatever their own hand.",
                }
            )
    return tables


def ante_play_parts(settled: SettledWager, spec: GameSpec) -> dict[str, Fraction | None]:
    """Ante, Play and Ante Bonus results (per unit Ante) of a settled Ante & Play round, read from the rules'
    resolution table. None for the Play when the player folded, and for the Ante Bonus when none is paid."""
    outcome = settled.outcome
    game = spec.wagers.ante_play
    assert isinstance(outcome, AntePlayOutcome) and game is not None
    resolution = resolution_table(spec.rules)[outcome.situation]
    bonus_odds = game.ante_bonus.odds(outcome.bonus) if outcome.bonus is not None else None
    bonus = bonus_odds.net if bonus_odds is not None and resolution.bonus_paid else None
    if resolution.round_net(bonus or Fraction(0)) != settled.net:  # the settlement's own sum, as a check
        raise AssertionError(f"the rules and the settlement disagree on {outcome}")
    return {"Ante": resolution.ante, "Play": resolution.play, "Ante Bonus": bonus}


def _pick_worked_hands(settler: Settler, count: int = 3) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Deal with a fixed seed and keep the first hand of each kind worth showing, so the examples are varied."""
    from trey.simulate import deal

    def situation(s: dict[str, SettledWager]) -> AntePlayOutcome:
        outcome = s[ANTE_PLAY].outcome
        assert isinstance(outcome, AntePlayOutcome)
        return outcome

    wanted: list[Callable[[dict[str, SettledWager]], bool]]
    if ANTE_PLAY in settler.tables:
        wanted = [
            lambda s: situation(s).situation is Situation.WIN and situation(s).bonus is not None,
            lambda s: situation(s).situation is Situation.DEALER_NOT_QUALIFY,
            lambda s: situation(s).situation is Situation.FOLD and any(w.net > 0 for w in s.values()),
            lambda s: situation(s).situation is Situation.LOSE and any(w.net > 0 for w in s.values()),
        ]
    else:
        wanted = [lambda s: any(w.net > 0 for w in s.values())] * (count - 1) + [lambda _: True]
    cards = deal(np.random.Generator(np.random.PCG64(WORKED_HANDS_SEED)), 5000)
    outcomes = settler.settle(cards[:, :3], cards[:, 3:])  # settle the candidates once, then pick
    chosen_rows: list[int] = []
    for want in wanted[:count]:
        for row in range(len(cards)):
            if row not in chosen_rows and want(settler.settled(outcomes, row)):
                chosen_rows.append(row)
                break
    chosen = [(tuple(cards[r, :3].tolist()), tuple(cards[r, 3:].tolist())) for r in chosen_rows]
    return chosen


def _signed(amount: Fraction, bet: int, rule: PayRule) -> str:
    if amount == 0:
        return "push"
    if amount < 0:
        return f"−{rule.money(-amount * bet)}"
    return f"+{rule.money(rule.pay(bet, amount).amount)}"


def _worked_hands(spec: GameSpec, settler: Settler, bet: int, rule: PayRule) -> list[dict[str, Any]]:
    hands = []
    for player, dealer in _pick_worked_hands(settler):
        settled = settler.settle_round(player, dealer)
        lines = []
        decision = ""
        for wager, result in settled.items():
            if wager == ANTE_PLAY:
                parts = ante_play_parts(result, spec)
                decision = "folds" if parts["Play"] is None else "plays"
                for part, value in parts.items():
                    if value is not None:
                        lines.append(
                            (part.removeprefix("Ante ") if part == "Ante Bonus" else part, _signed(value, bet, rule))
                        )
            else:
                side_bet = spec.wagers.side_bet(wager)
                won = f" ({outcome_label(str(result.outcome)).lower()})" if result.net > 0 else ""
                if side_bet.stake is None:
                    lines.append((side_bet.title, f"{_signed(result.net, bet, rule)}{won}"))
                    continue
                # A fixed-stake bet: the net on its stake, exact (amounts and meter shares are not rounded to chips).
                pay = side_bet.pays.get(str(result.outcome))
                if isinstance(pay, MeterShare) and side_bet.progressive is not None:
                    meter = rule.money(side_bet.progressive.reset)
                    won = f" ({outcome_label(str(result.outcome)).lower()}: {pay} at {meter})"
                net = result.net * side_bet.stake
                text = "push" if net == 0 else f"+{rule.money(net)}" if net > 0 else f"−{rule.money(-net)}"
                lines.append((side_bet.title, f"{text}{won}"))
        hands.append(
            {
                "player": card_faces(" ".join(card_text(c) for c in player)),
                "dealer": card_faces(" ".join(card_text(c) for c in dealer)),
                "decision": decision,
                "lines": lines,
            }
        )
    return hands


def dealer_sheet_context(
    spec: GameSpec,
    analysis: GameAnalysis,
    *,
    paper: str,
    effective: date,
    bets: tuple[int, ...] | None,
    amount_pt: int = AMOUNT_SIZES[0],
) -> dict[str, Any]:
    table = spec.table
    style = money_style(table)
    money = style.money
    columns = bets or bet_columns(table)
    chip = smallest_chip(table)
    cap = table.payout_cap if table is not None else None
    rule = PayRule(style, chip, cap)
    plays = analysis.ante_play.plays if analysis.ante_play is not None else None
    settler = Settler(spec, plays)
    tables = _payout_tables(spec, columns, rule)
    any_rounded = any(cell["rounded"] for t in tables for r in t["rows"] for cell in r["cells"])
    limits = []
    if table is not None and table.minimum is not None:
        limits.append(f"minimum {money(table.minimum)}")
    if table is not None and table.maximum is not None:
        limits.append(f"maximum {money(table.maximum)}")
    order = (ANTE_PLAY_SETTLEMENT_ORDER if spec.wagers.ante_play is not None else []) + [
        bet.title for bet in spec.wagers.side_bets
    ]
    rules = []
    if spec.wagers.ante_play is not None:
        rules.append(qualifier_sentence(spec))
        if spec.wagers.side_bets:
            rules.append(fold_sentence(spec))
    worked_bet = columns[1] if len(columns) > 1 else columns[0]
    return {
        "paper": paper,
        "landscape": True,
        "amount_pt": amount_pt,
        "game": spec.name,
        "operator": spec.operator or "",
        "effective": effective.isoformat(),
        "sha256": spec.sha256,
        "limits": ", ".join(limits) if limits else "no limits in the paytable file",
        "cap": f"{money(cap)} per wager per round" if cap is not None else "none",
        "cap_amount": money(cap) if cap is not None else "",
        "bets": [money(b) for b in columns],
        "bets_note": (
            "Bet sizes from --bets."
            if bets
            else "Bet sizes between the table's limits."
            if table is not None and (table.minimum or table.maximum)
            else f"No table limits in the paytable file: common bets {', '.join(money(b) for b in DEFAULT_BETS)}."
        ),
        "rounding": (
            f"Wins that are not a whole number of the smallest chip ({money(chip)}) are rounded down to it"
            + (" (marked *)." if any_rounded else "; none on this sheet.")
        ),
        "tables": tables,
        "hand_strip": [(name, card_faces(cards)) for name, cards, _ in HAND_ORDER],
        "any_capped": any(cell["capped"] for t in tables for r in t["rows"] for cell in r["cells"]),
        "resolution": resolution_rows(spec, short=True) if spec.wagers.ante_play is not None else [],
        "keys": [
            (f"{net.numerator} to {net.denominator}", payoff_key(net))
            for net in sorted({row["net"] for t in tables for row in t["rows"] if row["net"] is not None}, reverse=True)
        ],
        "rules": rules,
        "order": order,
        "worked_bet": money(worked_bet),
        "worked_hands": _worked_hands(spec, settler, worked_bet, rule),
    }


def render_dealer_sheet_html(
    spec: GameSpec,
    analysis: GameAnalysis,
    *,
    paper: str,
    effective: date,
    bets: tuple[int, ...] | None = None,
    amount_pt: int = AMOUNT_SIZES[0],
) -> str:
    context = dealer_sheet_context(spec, analysis, paper=paper, effective=effective, bets=bets, amount_pt=amount_pt)
    return render("dealer_sheet.html.j2", **context)


@dataclass(frozen=True)
class FittedSheet:
    html: str
    document: Any  # the WeasyPrint layout of ``html``, measured to fit, ready to write as PDF
    amount_pt: int


def pay_tables_fit(document: Any) -> bool:
    """One page, and every payout table ends left of the side column (no amount runs into it or off the page)."""
    if len(document.pages) != 1:
        return False
    # WeasyPrint exposes the laid-out boxes of a page only as ``_page_box``; this measurement is all we use it for.
    boxes = list(document.pages[0]._page_box.descendants())
    side = next(b for b in boxes if getattr(b, "element_tag", None) == "div" and b.element.get("class") == "side")
    tables = [
        b
        for b in boxes
        if getattr(b, "element_tag", None) == "table" and "pay" in (b.element.get("class") or "").split()
    ]
    return all(t.position_x + t.margin_width() <= side.position_x for t in tables)


def fit_dealer_sheet(
    spec: GameSpec, analysis: GameAnalysis, *, paper: str, effective: date, bets: tuple[int, ...] | None = None
) -> FittedSheet:
    """The dealer sheet with its amounts at the largest size (12 pt for every shipped table) at which every
    column stays on the page; large bets and pays shrink the amounts, down to 8 pt, and beyond that the bets are
    refused, never printed off the page."""
    from trey.report.pdf import render_document

    for size in AMOUNT_SIZES:
        html = render_dealer_sheet_html(spec, analysis, paper=paper, effective=effective, bets=bets, amount_pt=size)
        document = render_document(html)
        if pay_tables_fit(document):
            return FittedSheet(html, document, size)
    columns = ", ".join(f"{b:,}" for b in (bets or bet_columns(spec.table)))
    raise TreyError(
        f"the payouts of the bets {columns} do not fit the sheet, even at {AMOUNT_SIZES[-1]} pt",
        hint="give fewer or smaller bets with --bets",
    )
