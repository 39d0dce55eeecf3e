"""The dealer payout sheet of a game of the Three Card Poker family (issue 31), on one landscape page: what every win
pays at the table's bet sizes (the Ante and each Play bet, the Blind's table, the Ante Bonus), the raise rule, the
resolution grid of the game's wagers in every situation (:func:`~trey.play.resolution.resolution_grid`, read from
:func:`~trey.rules.round.settle`: no second statement of the rules), and worked hands dealt as the optimal player
plays them (:class:`~trey.floor.family.FamilyTable`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from fractions import Fraction
from typing import Any, NoReturn

import numpy as np

from trey.cards.card import cards_text
from trey.core.errors import TreyError
from trey.documents.dealer_view import AMOUNT_SIZES, WORKED_HANDS_SEED, FittedSheet, _cell, _row, pay_tables_fit
from trey.documents.environment import render
from trey.documents.payoff_keys import payoff_key
from trey.engine.family import FamilyAnalysis
from trey.floor.family import FamilyRound, FamilyTable, family_answer_lines, option_words
from trey.paytable.model import GameSpec, RoundShape
from trey.paytable.odds import net_odds_text
from trey.play.payouts import DEFAULT_BETS, PayRule, bet_columns
from trey.play.resolution import WAGERS, cell_text, resolution_grid
from trey.present.labels import HAND_ORDER, card_faces, outcome_label, qualifier_sentence
from trey.rules.round import Showdown

HEADS = {"ante": "Ante", "play": "Play", "blind": "Blind", "bonus": "Bonus"}


def raise_rule(shape: RoundShape) -> list[str]:
    """The player's decision as the dealer tells it: what is face up, and the bets open to which hands."""
    up = "The dealer deals one card face up before the player decides." if shape.face_up else ""
    fold = "folds (losing the Ante and the Blind)" if shape.blind is not None else "folds (losing the Ante)"
    bets = "; or ".join(f"plays {option.label} (a Play bet of {option.multiple}× the Ante)" for option in shape.options)
    return [line for line in (up, f"The player {fold}; or {bets}.") if line]


def _play_rows(shape: RoundShape, bets: tuple[int, ...], rule: PayRule) -> list[dict[str, Any]]:
    rows = [_row("Ante wins", Fraction(1), bets, rule)]
    for multiple in shape.multiples:
        rows.append(
            {
                "label": f"Play {multiple}x wins",
                "odds": "1 to 1" if multiple == 1 else f"1 to 1 on {multiple}× the Ante",
                "table_says": "",
                "net": Fraction(1),
                "cells": [_cell(rule.pay(multiple * b, Fraction(1)), rule) for b in bets],
            }
        )
    return rows


def _payout_tables(spec: GameSpec, bets: tuple[int, ...], rule: PayRule) -> list[dict[str, Any]]:
    columns = [rule.money(b) for b in bets]
    game = spec.wagers.ante_play
    assert game is not None
    tables = [{"title": "Ante & Play", "bet": "Ante", "columns": columns, "rows": _play_rows(spec.game, bets, rule)}]
    if spec.game.blind is not None:
        rows = [_row(outcome_label(o), odds, bets, rule) for o, odds in spec.game.blind.all_odds]
        tables.append({"title": "Blind (a bet equal to the Ante)", "bet": "Blind", "columns": columns, "rows": rows})
    if len(game.ante_bonus):
        rows = [_row(outcome_label(o), odds, bets, rule) for o, odds in game.ante_bonus.all_odds]
        tables.append({"title": "Ante Bonus", "bet": "Ante", "columns": columns, "rows": rows})
    for table in tables:
        table["note"] = ""
    return tables


def _shown(spec: GameSpec) -> list[str]:
    game = spec.wagers.ante_play
    assert game is not None
    return [
        w
        for w in WAGERS
        if w in ("ante", "play") or (w == "blind" and spec.game.blind) or (w == "bonus" and len(game.ante_bonus))
    ]


def _resolution(spec: GameSpec) -> list[dict[str, Any]]:
    shown = _shown(spec)
    return [
        {
            "decision": "Fold" if row.option == 0 else f"{row.option}x",
            "situation": row.situation.replace("dealer qualifies, ", "qualifies, ").replace(
                "dealer does not qualify, ", "does not qualify, "
            ),
            "cells": [cell_text(row.cell(w)) for w in shown],
        }
        for row in resolution_grid(spec.game, spec.rules)
        if spec.rules.dealer_qualifier.minimum_key or row.deal is None or row.deal.qualifies
    ]


def _worked_hands(spec: GameSpec, table: FamilyTable, bet: int, rule: PayRule) -> list[dict[str, Any]]:
    """Three seeded deals worth showing: a Blind paid by its table, a Play won against a dealer who does not qualify
    (or any win, when the dealer always qualifies), a fold."""
    from trey.play.simulate import deal

    cards = deal(np.random.Generator(np.random.PCG64(WORKED_HANDS_SEED)), 400).astype(np.int64)
    rounds = [table.round(tuple(int(c) for c in row[:3]), tuple(int(c) for c in row[3:])) for row in cards]
    wanted: list[
        list[Callable[[FamilyRound], bool]]
    ] = [  # each hand: the first kind the deals show, in order of preference
        [lambda r: r.nets.blind > 0 or r.nets.bonus > 0],
        [
            lambda r: r.option != 0 and r.deal.showdown is Showdown.WIN and not r.deal.qualifies,
            lambda r: r.option != 0 and r.deal.showdown is Showdown.WIN,
        ],
        [lambda r: r.option == 0],
    ]
    hands = []
    used: set[int] = set()
    for kinds in wanted:
        found = next(
            (i for want in kinds for i, r in enumerate(rounds) if i not in used and want(r)),
            None,
        )
        if found is not None:
            used.add(found)
            hands.append(_worked(spec, rounds[found], bet, rule))
    return hands


def _worked(spec: GameSpec, played: FamilyRound, bet: int, rule: PayRule) -> dict[str, Any]:
    lines = family_answer_lines(spec, played, Fraction(bet), rule)
    face_up = spec.game.face_up
    return {
        "player": card_faces(cards_text(played.player)),
        "up": card_faces(cards_text(played.dealer[:face_up])),
        "dealer": card_faces(cards_text(played.dealer[face_up:])),
        "decision": option_words(played.option),
        "lines": [(line.part, _amount(line.amount, line.piece, rule)) for line in lines],
    }


def _amount(amount: Fraction, piece: str, rule: PayRule) -> str:
    if amount == 0:
        return "nothing" if piece == "ante_bonus" else "push"  # no bonus is not a push of a bet
    return ("+" if amount > 0 else "−") + rule.money(abs(amount))


def family_dealer_sheet_context(
    spec: GameSpec, family: FamilyAnalysis, *, paper: str, effective: date, bets: tuple[int, ...] | None, amount_pt: int
) -> dict[str, Any]:
    table = spec.table
    rule = PayRule.of(table)
    money = rule.money
    columns = bets or bet_columns(table)
    tables = _payout_tables(spec, columns, rule)
    any_rounded = any(cell["rounded"] for t in tables for r in t["rows"] for cell in r["cells"])
    limits = []
    if table is not None and table.minimum is not None:
        limits.append(f"minimum {money(table.minimum)}")
    if table is not None and table.maximum is not None:
        limits.append(f"maximum {money(table.maximum)}")
    cap = rule.cap
    worked_bet = columns[1] if len(columns) > 1 else columns[0]
    shown = _shown(spec)
    order = ["Play", *(["Blind"] if "blind" in shown else []), *(["Ante Bonus"] if "bonus" in shown else []), "Ante"]
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
        "bets_note": (
            "Bet sizes from --bets."
            if bets
            else "Bet sizes between the table's limits."
            if table is not None and (table.minimum or table.maximum)
            else f"No table limits in the paytable file: common bets {', '.join(money(b) for b in DEFAULT_BETS)}."
        ),
        "rounding": (
            f"Wins that are not a whole number of the smallest chip ({money(rule.chip)}) are rounded down to it"
            + (" (marked *)." if any_rounded else "; none on this sheet.")
        ),
        "tables": tables,
        "any_capped": any(cell["capped"] for t in tables for r in t["rows"] for cell in r["cells"]),
        "hand_strip": [(name, card_faces(cards)) for name, cards, _ in HAND_ORDER],
        "raise_rule": raise_rule(spec.game),
        "qualifier": qualifier_sentence(spec),
        "heads": [HEADS[w] for w in shown],
        "resolution": _resolution(spec),
        "keys": [
            (net_odds_text(net), payoff_key(net))
            for net in sorted({row["net"] for t in tables for row in t["rows"] if row["net"] is not None}, reverse=True)
        ],
        "order": order,
        "worked_bet": money(worked_bet),
        "worked_hands": _worked_hands(spec, FamilyTable(spec, family), worked_bet, rule),
    }


def fit_family_dealer_sheet(
    spec: GameSpec, family: FamilyAnalysis, *, paper: str, effective: date, bets: tuple[int, ...] | None = None
) -> FittedSheet:
    """The sheet with its amounts at the largest size at which every column stays on its one page; else the bets
    are refused, never printed off the page."""
    from trey.documents.pdf import render_document

    tables = len(_payout_tables(spec, bets or bet_columns(spec.table), PayRule.of(spec.table)))
    for size in AMOUNT_SIZES:
        context = family_dealer_sheet_context(spec, family, paper=paper, effective=effective, bets=bets, amount_pt=size)
        html = render("family_dealer_sheet.html.j2", **context)
        document = render_document(html)
        if pay_tables_fit(document, tables):
            return FittedSheet(html, document, size)
    return _refuse(spec, bets)


def _refuse(spec: GameSpec, bets: tuple[int, ...] | None) -> NoReturn:
    columns = ", ".join(f"{b:,}" for b in (bets or bet_columns(spec.table)))
    raise TreyError(
        f"the payouts of the bets {columns} do not fit the sheet, even at {AMOUNT_SIZES[-1]} pt",
        hint="give fewer or smaller bets with --bets",
    )
