"""``trey analyze`` of a game of the Three Card Poker family (issue 31) for a terminal: its round in words, its
figures (each named for what it is per, from :data:`~trey.figures.family.FAMILY_FIGURES`) and the optimal strategy
by face-up card."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console

from trey.cards.card import cards_text
from trey.cards.hand_table import hand_table
from trey.cards.hands import describe_key
from trey.engine.family import ChartException, FamilyAnalysis, chart_exceptions
from trey.figures.family import FAMILY_FIGURES, option_name, rule_hand, strategy_sentence, up_rank_name
from trey.figures.theo import theoretical_wins
from trey.paytable.model import AnteWithoutQualifier, RoundShape, Rules, Ties, money_style
from trey.paytable.odds import net_odds_text
from trey.present.layout import TextTable, figure, label, print_all, say, terminal_console
from trey.present.terminal import terminal_money, wager_parts


def round_words(shape: RoundShape, rules: Rules) -> list[str]:
    """The round as a table-games manager says it, a sentence a part."""
    options = ", ".join(option.label for option in shape.options)
    up = {0: "no dealer card face up", 1: "one dealer card face up"}[shape.face_up]
    ante = "wins 1 to 1" if shape.ante_when_dealer_does_not_qualify is AnteWithoutQualifier.WINS else "pushes"
    play = "pushes" if shape.play_needs_qualifier else "is decided against the dealer's hand all the same"
    if shape.play_pays_when_dealer_does_not_qualify:
        play = "is paid as a win, whatever the hands"
    words = [
        f"{up.capitalize()} before the player decides: fold, or play {options}.",
        f"The dealer qualifies with {rules.dealer_qualifier.weakest_hand} or better; when not, the Ante {ante} and "
        f"the Play {play}.",
        "Ties push." if rules.ties is Ties.PUSH else "Ties go to the player (the Ante and the Play win).",
    ]
    if shape.blind is not None:
        pays = ", ".join(f"{row.replace('_', ' ')} {net_odds_text(odds.net)}" for row, odds in shape.blind.all_odds)
        words.append(
            "A Blind equal to the Ante, decided against the dealer's hand without the qualifier: a win pays "
            f"{pays or 'nothing'} (a lower winning hand pushes); a loss or a fold loses it, a tie pushes."
        )
    if shape.play_pays is not None or shape.play_pays_on_tie:
        table = shape.play_pays.all_odds if shape.play_pays is not None else ()
        pays = ", ".join(f"{row.replace('_', ' ')} {net_odds_text(odds.net)}" for row, odds in table)
        on_tie = "; a tie pays it as a win" if shape.play_pays_on_tie else ""
        words.append(
            f"The Play is paid by the player's hand when it wins: {pays or 'every hand'} "
            f"{'(any other hand 1 to 1)' if pays else '1 to 1'}{on_tie}."
        )
    if shape.bad_beat is not None:
        pays = ", ".join(f"{row.replace('_', ' ')} {net_odds_text(odds.net)}" for row, odds in shape.bad_beat.all_odds)
        words.append(f"A losing Play is paid all the same (the bad beat): {pays or 'no hand'}.")
    return words


def family_parts(analysis: FamilyAnalysis, *, exact: bool = False) -> list[TextTable | str]:
    """The round, its figures, and the strategy chart by face-up card; then an empty line."""
    shape, spec = analysis.game, analysis.spec
    head = (
        f"Ante & Play  —  cycle {analysis.cycle:,} deals: {analysis.cells:,} cells "
        f"({'a player hand and the face-up card' if shape.face_up else 'player hands'}) × "
        f"{analysis.deals_per_cell:,} sets of the dealer's hidden cards"
    )
    figures = TextTable(
        (label(bold=True), label()),
        [(f.label, f.text(analysis, exact=exact)) for f in FAMILY_FIGURES if f.name not in ("cycle", "cells")],
        pairs=True,
    )
    taken = ", ".join(f"{option_name(o.option)} {o.cells:,}" for o in analysis.options)
    multiples = shape.multiples
    columns = (
        label("face-up card"),
        *(label(f"weakest {option_name(m)}") for m in multiples),
        *(figure(f"{option_name(m)} exceptions") for m in multiples),
        *(figure(f"{option_name(o.option)} cells") for o in analysis.options),
    )
    rows = [
        (
            up_rank_name(row.up_rank),
            *("never" if key is None else describe_key(key) for key in row.weakest),
            *(f"{n:,}" for n in row.exceptions),
            *(f"{n:,}" for n in row.cells),
        )
        for row in analysis.chart
    ]
    by = "by face-up card" if shape.face_up else "(no dealer card face up)"
    chart = TextTable(
        columns,
        rows,
        title=f"Optimal strategy {by}: the weakest hand making each bet (or a larger one) in some cell; "
        "exceptions: the cells of stronger hands that bet less all the same (their suits decide)",
    )
    return [
        head,
        *round_words(shape, spec.rules),
        figures,
        f"Strategy: optimal, cell by cell (cells taking each option: {taken})",
        chart,
        f"As a rule {by}: {strategy_sentence(analysis)}",
        rule_table(analysis),
        "",
    ]


EXAMPLES = 3  # exceptions shown per face-up rank on a terminal (the JSON and the workbook list every one)


def rule_table(analysis: FamilyAnalysis) -> TextTable:
    """The rule by face-up rank, the cells it decides otherwise (over the four suits of the up card) and the first
    of them, each as ``2d 5c 9c 1x (rule: fold)`` against the up card of clubs (``, by ranks`` when every cell of
    that strength decides so: the ranks, not the suits, break the rule)."""
    multiples = analysis.game.multiples
    by_up: dict[int, list[ChartException]] = {}
    for exception in chart_exceptions(analysis):
        by_up.setdefault(exception.up_card, []).append(exception)
    rows = []
    for index, row in enumerate(analysis.chart):
        up = index * 4 if row.up_rank is not None else -1
        found = by_up.get(up, [])
        shown = [
            f"{cards_text(hand_table().cards[e.hand])} {option_name(e.option)} (rule: {option_name(e.rule)}"
            + ("" if e.by_suits else ", by ranks")
            + ")"
            for e in found[:EXAMPLES]
        ]
        more = f"; {len(found) - EXAMPLES:,} more" if len(found) > EXAMPLES else ""
        rows.append(
            (
                up_rank_name(row.up_rank),
                *("never" if key is None else rule_hand(key) for key in row.rule),
                f"{len(found) * (4 if up >= 0 else 1):,}",
                "; ".join(shown) + more if found else "none",
            )
        )
    columns = (
        label("face-up card"),
        *(label(f"rule {option_name(m)}") for m in multiples),
        figure("exceptions"),
        label("first exceptions (against the up card of clubs)"),
    )
    by = "by face-up card" if analysis.game.face_up else "(no dealer card face up)"
    suits = " (over the up card's four suits)" if analysis.game.face_up else ""
    return TextTable(
        columns,
        rows,
        title=f"The rule {by}: the threshold of each bet the optimal choices disagree with least; exceptions: the "
        f"cells{suits} the suits decide otherwise",
    )


def print_family_analysis(
    analysis: FamilyAnalysis,
    *,
    exact: bool = False,
    meter: Fraction | None = None,
    console: Console | None = None,
) -> None:
    """``trey analyze --format table`` of a family game: its Ante & Play, then each side bet as beside the standard
    game."""
    console = console or terminal_console()
    say(console, f"{analysis.spec.name}  (sha256 {analysis.spec.sha256[:12]})", bold=True)
    say(console, "")
    print_all(console, family_parts(analysis, exact=exact))
    sides = analysis.side_bet_analysis
    style = terminal_money(money_style(analysis.spec.table))
    theos = theoretical_wins(sides)
    for wager, result in sides.wagers.items():
        print_all(console, wager_parts(result, exact=exact, style=style, meter=meter, theo=theos[wager]))
