"""The dealer payout sheet: what every winning bet pays at the table's bet sizes, on one landscape page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any, NoReturn

import numpy as np

from trey.cards.card import Card, cards_of
from trey.core.errors import TreyError
from trey.documents.environment import render
from trey.documents.payoff_keys import payoff_key
from trey.engine import GameAnalysis
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.paytable.odds import Odds, net_odds_text
from trey.paytable.pays import Pay
from trey.play.payouts import DEFAULT_BETS, Payout, PayRule, bet_columns
from trey.play.settle import SettledWager, Settler, ante_play_parts
from trey.present.labels import (
    HAND_ORDER,
    card_faces,
    fold_sentence,
    outcome_label,
    qualifier_sentence,
    resolution_rows,
)
from trey.rules.ante_play import AntePlayOutcome, Situation

WORKED_HANDS_SEED = 2026
AMOUNT_SIZES = (12, 11, 10, 9, 8)  # point sizes tried for the payout amounts, largest first
ANTE_PLAY_SETTLEMENT_ORDER = ["Play", "Ante Bonus", "Ante"]  # then each side bet, in the game's order


def _cell(p: Payout, rule: PayRule) -> dict[str, Any]:
    if p.capped:
        return {"text": "CAP", "capped": True, "rounded": False}
    return {"text": rule.style.amount(p.amount), "capped": False, "rounded": p.rounded}


def _row(label: str, odds: Odds | Fraction, bets: tuple[int, ...], rule: PayRule) -> dict[str, Any]:
    net = odds.net if isinstance(odds, Odds) else odds
    odds_text = net_odds_text(net)
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


def _fixed_stake_row(label: str, pay: Pay, stake: Fraction, rule: PayRule, progressive: bool) -> dict[str, Any]:
    """A row of a bet with a fixed stake: the odds' win on the stake, an amount (the table's pay rule applies),
    or a meter share."""
    if isinstance(pay, Odds):
        won = rule.pay(stake, pay, progressive=progressive)
        text = "CAP" if won.capped else rule.money(won.amount)
        cell = {"text": text, "capped": won.capped, "rounded": won.rounded}
        return {"label": label, "odds": pay.to_one_text, "table_says": "", "net": pay.net, "cells": [cell]}
    if pay.reads_meter:  # its amount is the meter's, read when it is won
        cell = {"text": pay.words(rule.money), "capped": False, "rounded": False}
        return {"label": label, "odds": "", "table_says": "", "net": None, "cells": [cell]}
    won = rule.pay(stake, pay, progressive=progressive)
    cell = {"text": "CAP" if won.capped else rule.money(won.amount), "capped": won.capped, "rounded": won.rounded}
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
        progressive = side_bet.progressive is not None
        rows = [_fixed_stake_row(outcome_label(o), pay, side_bet.stake, rule, progressive) for o, pay in side_bet.pays]
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


def _pick_worked_hands(settler: Settler, count: int = 3) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Deal with a fixed seed and keep the first hand of each kind worth showing, so the examples are varied."""
    from trey.play.simulate import deal

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
    return [(cards_of(cards[r, :3]), cards_of(cards[r, 3:])) for r in chosen_rows]


def _progressive_cap_note(spec: GameSpec, rule: PayRule) -> str:
    """Whether the cap holds a progressive's pays too (the house rule), said where a progressive is dealt."""
    if not any(bet.progressive is not None for bet in spec.wagers.side_bets):
        return ""
    return ", progressives included" if rule.cap_covers_progressive else " (progressive pays are paid in full)"


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
                # A fixed-stake bet: what the dealer pays on its stake, by the table's pay rule like every win.
                pay = side_bet.pays.get(str(result.outcome))
                reset = side_bet.progressive.reset if side_bet.progressive is not None else None
                if pay is not None and pay.reads_meter and reset is not None:
                    won = f" ({outcome_label(str(result.outcome)).lower()}: {pay} at {rule.money(reset)})"
                if pay is None:
                    net = -side_bet.stake
                else:
                    progressive = side_bet.progressive is not None
                    net = rule.net(side_bet.stake, pay, meter=reset, progressive=progressive)
                text = "push" if net == 0 else f"+{rule.money(net)}" if net > 0 else f"−{rule.money(-net)}"
                lines.append((side_bet.title, f"{text}{won}"))
        hands.append(
            {
                "player": card_faces(" ".join(map(str, player))),
                "dealer": card_faces(" ".join(map(str, dealer))),
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
    continued: bool = False,
) -> dict[str, Any]:
    table = spec.table
    rule = PayRule.of(table)
    money = rule.money
    columns = bets or bet_columns(table)
    chip, cap = rule.chip, rule.cap
    settler = Settler(spec, analysis.plays)
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
        "continued": continued,
        "game": spec.name,
        "operator": spec.operator or "",
        "effective": effective.isoformat(),
        "sha256": spec.sha256,
        "limits": ", ".join(limits) if limits else "no limits in the paytable file",
        "cap": (f"{money(cap)} per wager per round" + _progressive_cap_note(spec, rule)) if cap is not None else "none",
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
            (net_odds_text(net), payoff_key(net))
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
    continued: bool = False,
) -> str:
    context = dealer_sheet_context(
        spec, analysis, paper=paper, effective=effective, bets=bets, amount_pt=amount_pt, continued=continued
    )
    return render("dealer_sheet.html.j2", **context)


@dataclass(frozen=True)
class FittedSheet:
    html: str
    document: Any  # the WeasyPrint layout of ``html``, measured to fit, ready to write as PDF
    amount_pt: int


def _boxes(page: Any, tag: str, css_class: str) -> list[Any]:
    """The laid-out boxes of the elements ``tag.css_class`` on a page, one per element (a table's wrapper box and
    the table box share their element: the wrapper, which holds the caption and borders, is kept)."""
    # WeasyPrint exposes the laid-out boxes of a page only as ``_page_box``; these measurements are all we use it for.
    found: dict[int, Any] = {}
    for b in page._page_box.descendants():
        if getattr(b, "element_tag", None) == tag and css_class in (b.element.get("class") or "").split():
            found.setdefault(id(b.element), b)
    return list(found.values())


def _inside(page: Any, box: Any) -> bool:
    """The box ends above the page's bottom margin (a float that runs past it is cut off, not continued)."""
    bottom = page._page_box.content_box_y() + page._page_box.height
    return bool(box.position_y + box.margin_height() <= bottom + 0.01)


def pay_tables_fit(document: Any, tables: int | None = None) -> bool:
    """One page holding all ``tables`` payout tables, each ending left of the side column (no amount runs into it
    or off the page) and above the bottom margin."""
    if len(document.pages) != 1:
        return False
    page = document.pages[0]
    side = _boxes(page, "div", "side")[0]
    laid_out = _boxes(page, "table", "pay")
    if tables is not None and len(laid_out) != tables:
        return False
    return all(t.position_x + t.margin_width() <= side.position_x and _inside(page, t) for t in laid_out) and all(
        _inside(page, box) for box in _boxes(page, "div", "side")
    )


def continued_sheet_fits(document: Any, tables: int) -> bool:
    """All ``tables`` payout tables laid out, each within the page's content width and height, none split across
    two pages."""
    seen: set[int] = set()
    for page in document.pages:
        limit = page._page_box.content_box_x() + page._page_box.width  # the right edge of the printable area
        on_page = _boxes(page, "table", "pay")
        if any(id(t.element) in seen for t in on_page):  # a table begun on an earlier page: split
            return False
        for table in on_page:
            if table.position_x + table.margin_width() > limit or not _inside(page, table):
                return False
        seen |= {id(t.element) for t in on_page}
    return len(seen) == tables


def fit_dealer_sheet(
    spec: GameSpec, analysis: GameAnalysis, *, paper: str, effective: date, bets: tuple[int, ...] | None = None
) -> FittedSheet:
    """The dealer sheet with its amounts at the largest size (12 pt for every shipped table) at which every
    column stays on the page; large bets and pays shrink the amounts, down to 8 pt, and beyond that the bets are
    refused, never printed off the page."""
    from trey.documents.pdf import render_document

    tables = len(_payout_tables(spec, bets or bet_columns(spec.table), PayRule.of(spec.table)))
    for size in AMOUNT_SIZES:
        html = render_dealer_sheet_html(spec, analysis, paper=paper, effective=effective, bets=bets, amount_pt=size)
        document = render_document(html)
        if pay_tables_fit(document, tables):
            return FittedSheet(html, document, size)
        if len(document.pages) > 1 or len(_boxes(document.pages[0], "table", "pay")) < tables:
            break  # too many wagers for one page, whatever the size: continue on the next pages
    else:
        return _refuse_bets(spec, bets)
    for size in AMOUNT_SIZES:
        html = render_dealer_sheet_html(
            spec, analysis, paper=paper, effective=effective, bets=bets, amount_pt=size, continued=True
        )
        document = render_document(html)
        if continued_sheet_fits(document, tables):
            return FittedSheet(html, document, size)
    return _refuse_bets(spec, bets)


def _refuse_bets(spec: GameSpec, bets: tuple[int, ...] | None) -> NoReturn:
    columns = ", ".join(f"{b:,}" for b in (bets or bet_columns(spec.table)))
    raise TreyError(
        f"the payouts of the bets {columns} do not fit the sheet, even at {AMOUNT_SIZES[-1]} pt",
        hint="give fewer or smaller bets with --bets",
    )
