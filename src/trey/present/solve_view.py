"""``trey solve`` for people and programs: the solution and grids as text tables and JSON."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from trey.choose.solve import GridPoint, Solution
from trey.core.numbers import fraction_text, percent_text
from trey.present.layout import TextTable, figure, label, print_table, say, terminal_console


def solution_json(solution: Solution) -> dict[str, Any]:
    return {
        "wager": solution.wager,
        "row": solution.row,
        "target_house_edge": fraction_text(solution.target),
        "exact_pay": fraction_text(solution.exact_pay),
        "candidates": [
            {
                "pays": c.odds_text,
                "house_edge": fraction_text(c.house_edge),
                "house_edge_percent": percent_text(c.house_edge),
            }
            for c in solution.candidates
        ],
    }


def print_solution(solution: Solution, console: Console | None = None) -> None:
    console = console or terminal_console()
    pay = solution.exact_pay
    say(
        console,
        f"{solution.wager}.{solution.row}: a house edge of {percent_text(solution.target)} needs "
        f"a pay of exactly {fraction_text(pay)} to 1 ({float(pay):.4f} to 1)",
    )
    rows = [(c.odds_text, percent_text(c.house_edge), fraction_text(c.house_edge)) for c in solution.candidates]
    columns = (figure("pays"), figure("house edge"), figure("exact house edge"))
    title = "nearest printable pays (the two that bracket the target first)"
    print_table(console, TextTable(columns, rows, title=title, bold_title=False))


def grid_json(wager: str, rows: list[str], points: list[GridPoint]) -> dict[str, Any]:
    return {
        "wager": wager,
        "rows": rows,
        "points": [
            {"pays": list(p.pays), "house_edge": fraction_text(p.house_edge), "in_band": p.in_band} for p in points
        ],
    }


def print_grid(wager: str, rows: list[str], points: list[GridPoint], console: Console | None = None) -> None:
    console = console or terminal_console()
    say(console, f"{wager}: {len(points):,} combinations of {', '.join(rows)}")
    columns = (*(figure(f"{row} (to 1)") for row in rows), figure("house edge"), label("band"))
    cells = [(*(str(x) for x in p.pays), percent_text(p.house_edge), "in band" if p.in_band else "") for p in points]
    print_table(console, TextTable(columns, cells))
    say(console, f"{sum(p.in_band for p in points):,} in band")
