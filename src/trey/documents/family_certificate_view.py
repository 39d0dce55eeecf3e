"""The certificate of a game of the Three Card Poker family other than the standard one (issue 31), as HTML: what
the game does (the face-up card, the options and their requirements, each wager's resolution in each situation,
from :func:`~trey.play.resolution.resolution_grid`), its PAR tables by decision and situation and by the rows of its
tables, its figures each named for what it is per (:data:`~trey.figures.family.FAMILY_FIGURES`) and the optimal
strategy by face-up card. Every figure is formatted here, once; the template only places strings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from trey.cards.hands import describe_key
from trey.core.numbers import decimal_text, fraction_text, one_in_text, percent_text
from trey.documents.certificate_view import NOTICE, footer_name, reader_commands, signed_by_line, simulation_rows
from trey.documents.environment import render
from trey.engine.family import FamilyAnalysis
from trey.figures.family import FAMILY_FIGURES, option_name, up_rank_name
from trey.figures.family_par import BELOW_THE_TABLE, FamilyPar, TableRow
from trey.paytable.model import money_style
from trey.paytable.odds import Odds
from trey.paytable.yamldoc import canonical_yaml
from trey.play.resolution import WAGERS, cell_text, resolution_grid
from trey.present.family_view import round_words
from trey.present.labels import HAND_ORDER, outcome_label, pay_label, qualifier_sentence
from trey.trust.certificate import Certificate, python_version

PLACES = 4
WAGER_TITLES = {"ante": "Ante", "play": "Play", "blind": "Blind", "bonus": "Ante Bonus"}


def _wagers_shown(cert: Certificate) -> list[str]:
    """The base wagers the game has: the Ante and the Play, the Blind when there is one, the Ante Bonus when its
    table pays a row."""
    game = cert.spec.wagers.ante_play
    assert game is not None
    shown = ["ante", "play"]
    if cert.spec.game.blind is not None:
        shown.append("blind")
    if len(game.ante_bonus):
        shown.append("bonus")
    return shown


def _option_words(option: int) -> str:
    return "Fold" if option == 0 else f"Play {option}x"


def _resolution(cert: Certificate, shown: list[str]) -> list[dict[str, Any]]:
    """The rules as a grid: each option in each situation, what each wager nets per Ante."""
    rows = []
    for row in resolution_grid(cert.spec.game, cert.spec.rules):
        cells = [cell_text(row.cells[WAGERS.index(w)]) for w in shown]
        rows.append({"option": _option_words(row.option), "situation": row.situation, "cells": cells})
    return rows


def _par(par: FamilyPar, cert: Certificate, shown: list[str]) -> dict[str, Any]:
    grid = {(r.option, r.deal): r for r in resolution_grid(cert.spec.game, cert.spec.rules)}
    rows = []
    for r in par.situations:
        nets = grid[r.option, r.deal]
        rows.append(
            {
                "option": _option_words(r.option),
                "situation": nets.situation,
                "cells": [cell_text(nets.cells[WAGERS.index(w)]) for w in shown],
                "average": "—" if r.average_net is None else decimal_text(r.average_net, PLACES),
                "combinations": f"{r.combinations:,}",
                "probability": decimal_text(r.probability, 8),
                "return": percent_text(r.expected_net, PLACES),
            }
        )
    total = sum((r.expected_net for r in par.situations), Fraction(0))
    return {
        "rows": rows,
        "total_combinations": f"{sum(r.combinations for r in par.situations):,}",
        "total_return": percent_text(total, PLACES),
    }


def _table_rows(rows: tuple[TableRow, ...], wager: str) -> list[dict[str, str]]:
    return [
        {
            "row": "a win below the table (pushes)" if r.row == BELOW_THE_TABLE else outcome_label(r.row, wager=wager),
            "pays": "push" if r.pays is None else fraction_text(r.pays),
            "combinations": f"{r.combinations:,}",
            "probability": decimal_text(r.probability, 8),
            "one_in": one_in_text(Fraction(r.cycle, r.combinations)).removeprefix("1 in ") if r.combinations else "—",
        }
        for r in rows
    ]


def _paytables(cert: Certificate) -> list[dict[str, Any]]:
    spec = cert.spec
    style = money_style(spec.table)
    game = spec.wagers.ante_play
    assert game is not None
    tables = []
    if spec.game.blind is not None:
        rows = [
            (outcome_label(o), pay_label(pay, style), isinstance(pay, Odds) and pay.wording.value == "for")
            for o, pay in spec.game.blind
        ]
        tables.append(
            {
                "title": "Blind",
                "rows": rows,
                "empty": "no paying row",
                "reads": "Paid on the player's hand when it beats the dealer's, whether or not the dealer qualifies; "
                "a winning hand below the lowest row pushes.",
            }
        )
    rows = [
        (outcome_label(o), pay_label(pay, style), isinstance(pay, Odds) and pay.wording.value == "for")
        for o, pay in game.ante_bonus
    ]
    tables.append({"title": "Ante Bonus", "rows": rows, "empty": "no Ante Bonus", "reads": ""})
    return tables


def _chart(family: FamilyAnalysis) -> dict[str, Any]:
    multiples = family.game.multiples
    return {
        "weakest": [option_name(m) for m in multiples],
        "options": [option_name(o.option) for o in family.options],
        "rows": [
            {
                "up": up_rank_name(row.up_rank),
                "weakest": ["never" if key is None else describe_key(key) for key in row.weakest],
                "exceptions": [f"{n:,}" for n in row.exceptions],
                "cells": [f"{n:,}" for n in row.cells],
            }
            for row in family.chart
        ],
    }


def _method(family: FamilyAnalysis) -> list[str]:
    shape = family.game
    cells = (
        f"{family.cells:,} cells (the face-up card, and a player hand without it), each over the "
        f"{family.deals_per_cell:,} pairs of the dealer's hidden cards"
        if shape.face_up
        else f"{family.cells:,} player hands, each over the {family.deals_per_cell:,} dealer hands left"
    )
    lines = [
        f"Ante & Play counts every deal: {cells}, {family.cycle:,} deals in all. Each cell's deals are split by "
        "whether the dealer qualifies and how the hands compare, by inclusion–exclusion over the player's three "
        "cards on the sorted strengths of the dealer's hands.",
        "For each cell the exact expected value per Ante of every option open to the hand (the fold, and each Play "
        "bet whose requirement it meets) is computed from those counts, and the optimal option taken: the highest "
        "expectation, the smaller bet on equal ones.",
    ]
    if shape.face_up:
        lines.append(
            "The four up cards of a rank deal the same figures (a permutation of the suits maps the cells of one "
            "onto another's): the up cards of one suit are counted, each four times."
        )
    return lines


def family_certificate_context(cert: Certificate, *, json_name: str, paytable_name: str) -> dict[str, Any]:
    """Every string the family certificate template places."""
    family, par = cert.family, cert.par
    assert family is not None and par is not None
    data = cert.data
    spec = cert.spec
    shown = _wagers_shown(cert)
    figures = [
        (f.label, f.text(family, exact=f.exact and not isinstance(f.value(family), int))) for f in FAMILY_FIGURES
    ]
    taken = ", ".join(f"{option_name(o.option)} {o.cells:,} cells ({o.deals:,} deals)" for o in family.options)
    edge = family.house_edge_per_ante
    return {
        "paper": data["paper"],
        "certificate_id": data["certificate_id"],
        "revision": data["revision"],
        "issue_date": data["issue_date"],
        "game": spec.name,
        "footer_game": footer_name(spec.name),
        "operator": spec.operator or "not stated",
        "description": spec.description or "",
        "source": spec.source or "not stated",
        "profile_title": cert.profile.title,
        "profile_name": cert.profile.name if "profile_sha256" not in data else cert.profile_label,
        "profile_description": cert.profile.description,
        "trey_version": data["trey_version"],
        "overall": data["overall"],
        "signed_by": signed_by_line(data.get("signature")),
        "artefacts": [
            {
                "file": data["paytable"]["file"],
                "size": f"{data['paytable']['size']:,} bytes",
                "sha256": data["paytable"]["sha256"],
            }
        ],
        "paytable_name": paytable_name,
        **reader_commands(cert, json_name, paytable_name),
        "notice": NOTICE,
        "round": round_words(spec.game, spec.rules),
        "hand_order": HAND_ORDER,
        "qualifier": qualifier_sentence(spec),
        "wager_heads": [WAGER_TITLES[w] for w in shown],
        "wager_titles": ["Ante & Play" + (" (with its Blind)" if spec.game.blind is not None else "")],
        "resolution": _resolution(cert, shown),
        "paytables": _paytables(cert),
        "method": _method(family),
        "cycle": f"{family.cycle:,}",
        "figures": figures,
        "taken": taken,
        "par": _par(par, cert, shown),
        "blind_rows": _table_rows(par.blind, "blind"),
        "bonus_rows": _table_rows(par.ante_bonus, "ante_play"),
        "chart": _chart(family),
        "checks": [
            {
                "wager": spec.wagers.title(c.wager),
                "requirement": c.requirement,
                "detail": c.detail,
                "result": str(c.verdict),
            }
            for c in cert.checks
        ],
        "simulation": simulation_rows(cert),
        "disclosure": (
            f"Ante & Play with the optimal strategy: house edge {percent_text(edge, 2)} of the Ante, "
            f"{percent_text(family.house_edge_per_initial_bet, 2)} of the initial bet (the Ante"
            f"{' and the Blind' if spec.game.blind is not None else ''}), {percent_text(family.element_of_risk, 2)} of "
            f"the total amount wagered (element of risk): theoretical return to player "
            f"{percent_text(1 - family.element_of_risk, 2)} of the total amount wagered."
        ),
        "canonical_yaml": canonical_yaml(data["paytable"]["canonical"]),
        "python_version": python_version(),
        "protection": _protection(data.get("protection")),
    }


def _protection(section: dict[str, Any] | None) -> dict[str, Any] | None:
    """The game protection section (certify --protection), from the certificate's data: each scenario's exact
    player edge and gain per Ante, the deals per 1,000 off the optimal strategy, the share taking each option."""
    if section is None:
        return None
    scenarios = section["scenarios"]
    options = list(scenarios[0]["by_option"])
    return {
        "house_edge": percent_text(Fraction(section["house_edge"]), 2),
        "options": ["Folds" if o == "0" else f"Plays {o}x" for o in options],
        "scenarios": [
            {
                "knows": s["scenario"],
                "edge": percent_text(Fraction(s["player_edge"]), PLACES),
                "gain": f"{decimal_text(Fraction(s['gain']) * 100, PLACES)} pt",
                "off": decimal_text(Fraction(s["deviations"] * 1000, s["deals"]), 1),
                "shares": [percent_text(Fraction(s["by_option"][o], s["deals"]), 2) for o in options],
            }
            for s in scenarios
        ],
    }


def render_family_certificate_html(cert: Certificate, *, json_name: str, paytable_name: str) -> str:
    context = family_certificate_context(cert, json_name=json_name, paytable_name=paytable_name)
    return render("family_certificate.html.j2", **context)
