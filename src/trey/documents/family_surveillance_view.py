"""The surveillance sheet of a game of the Three Card Poker family other than the standard one (issue 31), from
``trey protect``'s family figures (:func:`trey.protect.family.protect_family`): what a player gains, per Ante, who
knows more of the dealer's cards than the game shows — a hole card beyond the face-up one, its rank, its class —
and how often such a player's decisions leave the optimal strategy's, by option taken."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

from trey.core.numbers import decimal_text, percent_text, sqrt_decimal
from trey.core.version import __version__
from trey.documents.environment import render
from trey.figures.family import option_name, strategy_sentence
from trey.paytable.model import money_style
from trey.protect.family import FamilyProtection
from trey.protect.money import LeakMoney
from trey.rules.round import FOLD


def _signed_points(value: Fraction) -> str:
    text = decimal_text(value * 100, 2)
    return f"{text} pt" if text.startswith("-") else f"+{text} pt"


def family_surveillance_context(
    found: FamilyProtection, *, paper: str, day: date, leaks: LeakMoney | None = None
) -> dict[str, Any]:
    """The sheet's figures, rounded once here: each scenario's exact player edge and gain per Ante, its standard
    deviation per Ante, the deals per 1,000 whose informed option is not the optimal one, and the share of the
    deals taking each option; the colluders' sampled figures with their standard error; with ``leaks``, each
    scenario's cost an hour and the hours until it shows."""
    from trey.documents.surveillance_view import leak_cost_cells, leak_money_context

    style = money_style(found.spec.table)
    costs = {c.scenario: leak_cost_cells(c, style) for c in leaks.costs} if leaks is not None else {}
    options = [option for option, _ in found.scenarios[0].by_option]
    leak_rows = [
        {
            "knows": s.scenario,
            "edge": percent_text(s.stats.mean, 2),
            "gain": _signed_points(s.gain),
            "sd": decimal_text(sqrt_decimal(s.stats.variance), 4),
            "off": decimal_text(Fraction(s.deviations * 1000, s.deals), 1),
            "shares": [percent_text(Fraction(n, s.deals), 1) for _, n in s.by_option],
            **costs.get(s.scenario, {"cost": "", "shows": ""}),
        }
        for s in found.scenarios
    ]
    sampled = [
        {
            "knows": f"{c.scenario} (sampled: ±{100 * c.gain_error:.2f} pt, {c.samples:,} samples, seed {c.seed})",
            "edge": f"{100 * c.edge:.2f}%",
            "gain": f"{100 * c.gain:+.2f} pt",
            "sd": f"{c.std_dev:.4f}",
        }
        for c in found.sampled
    ]
    analysis = found.analysis
    return {
        "game": found.spec.name,
        "paper": paper,
        "date": day.isoformat(),
        "normal_edge": percent_text(analysis.house_edge_per_ante, 2),
        "normal_rule": strategy_sentence(analysis),
        "face_up": found.spec.game.face_up,
        "options": ["folds" if o == FOLD else f"plays {option_name(o)}" for o in options],
        "leaks": leak_rows,
        "money": leak_money_context(leaks, style),
        "sampled": sampled,
        "trey_version": __version__,
    }


def render_family_surveillance_html(
    found: FamilyProtection, *, paper: str, day: date, leaks: LeakMoney | None = None
) -> str:
    """The sheet as HTML (``stem.surveillance.html``; its PDF is laid out from it)."""
    context = family_surveillance_context(found, paper=paper, day=day, leaks=leaks)
    return render("family_surveillance.html.j2", **context)
