"""``trey solve`` for people and programs: the solution and grids as text tables and JSON."""

from __future__ import annotations

from typing import Any

from trey.choose.solve import GridPoint, Solution
from trey.core.numbers import fraction_text, percent_text
from trey.present.terminal import user_text, wide_console


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


def print_solution(solution: Solution) -> None:
    console = wide_console()
    pay = solution.exact_pay
    console.print(
        f"{user_text(solution.wager)}.{user_text(solution.row)}: a house edge of {percent_text(solution.target)} needs "
        f"a pay of exactly {fraction_text(pay)} to 1 ({float(pay):.4f} to 1)",
        highlight=False,
    )
    console.print("nearest printable pays (the two that bracket the target first):", highlight=False)
    for c in solution.candidates:
        console.print(f"  {c.odds_text:>12}  house edge {percent_text(c.house_edge)}  ({fraction_text(c.house_edge)})")


def grid_json(wager: str, rows: list[str], points: list[GridPoint]) -> dict[str, Any]:
    return {
        "wager": wager,
        "rows": rows,
        "points": [
            {"pays": list(p.pays), "house_edge": fraction_text(p.house_edge), "in_band": p.in_band} for p in points
        ],
    }


def print_grid(wager: str, rows: list[str], points: list[GridPoint]) -> None:
    console = wide_console()
    console.print(f"{user_text(wager)}: {len(points):,} combinations of {', '.join(rows)}", highlight=False)
    for p in points:
        mark = "  in band" if p.in_band else ""
        pays = ", ".join(f"{r} {x} to 1" for r, x in zip(rows, p.pays, strict=True))
        console.print(f"  {pays}: house edge {percent_text(p.house_edge)}{mark}", highlight=False)
    console.print(f"{sum(p.in_band for p in points):,} in band", highlight=False)
