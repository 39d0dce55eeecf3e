"""Issue 30.1, no figure is ever cut: for every command, at 60, 80 and 120 columns and piped, every figure its JSON
holds appears whole in its text, over the shipped paytables.

Each command's JSON is walked leaf by leaf. Every key is classified: a figure (rendered as the text renders it,
from the JSON's own value: a fraction as a percentage, a count grouped, an amount as money), words (a title, an
outcome), or one of the few figures the tables do not print (NOT_PRINTED, each with its reason; the test fails when
one of those no longer occurs, so the list cannot go stale). A key that is none of these fails the test: a new
figure in a JSON must be shown, or listed with its reason. "Whole" means not preceded or followed by more of a
number, and no "…" anywhere.

The views are printed through :func:`trey.present.layout.terminal_console` with ``COLUMNS`` set (or unset: piped),
the engine's results made once per paytable; one run of each command through the CLI shows it uses that width.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import ALL_PAYTABLES, DATA, PAYTABLES, STANDARD, Run
from trey.choose.compare import Comparison, comparison_json, file_labels
from trey.choose.compare import compare as run_comparison
from trey.choose.solve import grid, solve
from trey.cli import app
from trey.core.errors import TreyError
from trey.core.numbers import decimal_text, fraction_text, percent_text
from trey.engine import analyze
from trey.engine.results import GameAnalysis
from trey.figures.export import analysis_json
from trey.paytable.load import load_spec
from trey.paytable.model import money_style
from trey.paytable.pays import percent_text_exact
from trey.play.shards import merge_parts
from trey.play.simulate import SimulationResult, simulation_json
from trey.play.simulate import simulate as run_simulation
from trey.present.layout import terminal_console
from trey.present.protection_view import net_words, print_protection
from trey.present.solve_view import grid_json, solution_json
from trey.present.terminal import print_analysis, print_comparison, print_simulation, terminal_money, units_text
from trey.protect.protection import protect, protection_json

WIDTHS = (60, 80, 120, None)  # None: piped, unlimited
Render = Callable[[Any], str | tuple[str, ...]]  # a tuple: each of its figures whole

# Words, not figures: they must not be confused with one (an id, a name, a version, a verdict).
WORDS = {
    "trey_version", "spec_sha256", "name", "title", "outcome", "kind", "decision", "rule", "wager", "generator",
    "scenario", "seen", "weakest_played", "why", "file", "label", "currency", "code", "severity", "path",
    "json_path", "message", "hint", "check", "result", "detail", "row", "rows", "test", "hand", "verdict",
}  # fmt: skip


def _percent(value: Any) -> str:
    return percent_text(Fraction(value))


def _grouped(value: Any) -> str:
    return f"{value:,}"


def _decimal4(value: Any) -> str:
    return decimal_text(Fraction(value), 4)


def _float4(value: Any) -> str:
    return f"{value:.4f}"


def _as_is(value: Any) -> str:
    return str(value)


def _points(value: Any) -> str:
    return f"{decimal_text(Fraction(value) * 100, 4)} pt"


def whole(text: str, figure: str) -> bool:
    """``figure`` occurs in ``text`` with no more of a number either side (``132,652,8`` is not 132,652,800)."""
    start = text.find(figure)
    while start >= 0:
        before = text[start - 1] if start else " "
        after = text[start + len(figure) : start + len(figure) + 2]
        if not (before.isalnum() or before in ",./-_") and not (
            after[:1].isalnum() or after[:1] in "/-_" or (after[:1] in ".," and after[1:2].isdigit())
        ):
            return True
        start = text.find(figure, start + 1)
    return False


def leaves(data: Any, path: str = "$") -> Iterator[tuple[str, str, Any]]:
    """(path, key, value) of every leaf; a list's items keep the list's key."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from (
                ((f"{path}.{key}", key, value),)
                if not isinstance(value, dict | list)
                else leaves(value, f"{path}.{key}")
            )
    elif isinstance(data, list):
        key = path.rsplit(".", 1)[-1]
        for index, value in enumerate(data):
            if isinstance(value, dict | list):
                yield from leaves(value, f"{path}[{index}]")
            else:
                yield f"{path}[{index}]", key, value


def check(text: str, data: Any, figures: dict[str, Render], not_printed: dict[str, str], where: str) -> set[str]:
    """Every figure of ``data`` whole in ``text``; returns the keys of NOT_PRINTED met (the list is not stale)."""
    assert "…" not in text, where
    met = set()
    for path, key, value in leaves(data):
        hidden = next((k for k in not_printed if f".{k}." in f"{path}." or f".{k}[" in path), None)
        if hidden is not None:
            met.add(hidden)
        elif value is None or isinstance(value, bool) or key in WORDS:
            continue
        elif key in figures:
            shown = figures[key](value)
            for piece in (shown,) if isinstance(shown, str) else shown:
                assert whole(text, piece), f"{where}: {path} = {value!r} is not whole in the text as {piece!r}"
        else:
            pytest.fail(f"{where}: {path} is not classified: show it, or say why the table does not print it")
    return met


def printed(view: Callable[..., None], width: int | None) -> str:
    stream = io.StringIO()
    view(console=terminal_console({"COLUMNS": str(width)} if width else {}, stream))
    return stream.getvalue()


def cli(width: int | None, *args: str | Path) -> Run:
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": str(width) if width else None})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


@pytest.fixture(scope="module")
def analyses() -> dict[Path, GameAnalysis]:
    # The standard game's tables (a family game's figures are printed whole in tests/cli/test_family_commands.py).
    specs = {path: load_spec(path) for path in ALL_PAYTABLES}
    return {path: analyze(spec) for path, spec in specs.items() if spec.is_standard_game}


# --- analyze ------------------------------------------------------------------------------------------------------

ANALYSIS_NOT_PRINTED = {
    "net_results": "the distribution of net results: the table gives the outcomes, whose pays make it",
    "largest_win": "the largest pay, in the outcome table's pays column",
    "jackpot_probability": "a progressive's meter rows' probability, in the outcome table's probabilities",
    "at_break_even": "a progressive's figures at its break-even meter (the JSON's, for a lab)",
    "rtp_range": "the realised RTP's range after N rounds: the certificate's table, made from the volatility index",
    "risk": "N0, the desirability index and the most likely outcome: trey risk prints them (analyze's table is kept)",
}
EXACT = ("rtp", "house_edge", "hit_frequency", "variance", "probability", "element_of_risk")


def analysis_figures(analysis: GameAnalysis, exact: bool) -> dict[str, Render]:
    money = terminal_money(money_style(analysis.spec.table)).money

    def amount(value: Any) -> str:
        return money(Fraction(value))

    def break_even(value: Any) -> str:  # below the reset: the RTP is above 100% at every meter the game shows
        resets = {r.progressive.reset for r in analysis.wagers.values() if r.progressive is not None}
        return amount(value) if Fraction(value) >= min(resets) else "none: above 100% at every meter"

    figures: dict[str, Render] = {
        **dict.fromkeys(("cycle", "combinations", "hands_played", "hands_folded"), _grouped),
        **dict.fromkeys(
            ("rtp", "house_edge", "hit_frequency", "probability", "element_of_risk", "dealer_qualifies"), _percent
        ),
        **dict.fromkeys(("rtp_at_reset", "rtp_at_reset_with_envy", "long_run_rtp", "long_run_rtp_with_envy"), _percent),
        **dict.fromkeys(("variance", "average_wager"), _decimal4),
        **dict.fromkeys(("std_dev", "volatility_index_90", "volatility_index_95"), _float4),
        **dict.fromkeys(("pays", "fixed", "envy_per_other_bettor", "per_unit_of_meter"), _as_is),
        **dict.fromkeys(("decisions_per_hour", "other_bettors"), _as_is),
        **dict.fromkeys(("average_bet", "per_hour", "average_action", "reset", "stake"), amount),
        **dict.fromkeys(("break_even_meter", "break_even_meter_with_envy"), break_even),
        "increment": lambda v: percent_text_exact(Fraction(v)),
    }
    if exact:  # --exact: the exact fraction beside each rounded figure that has one (a line may part them)
        for key in EXACT:
            figures[key] = lambda v, render=figures[key]: (str(render(v)), f"({fraction_text(Fraction(v))})")
    return figures


@pytest.mark.parametrize("exact", [False, True], ids=["rounded", "exact"])
def test_analyze_prints_every_figure_of_its_json_whole(analyses: dict[Path, GameAnalysis], exact: bool) -> None:
    met: set[str] = set()
    for path, analysis in analyses.items():
        data = analysis_json(analysis)
        figures = analysis_figures(analysis, exact)
        for width in WIDTHS:
            text = printed(lambda console, a=analysis: print_analysis(a, exact=exact, console=console), width)
            met |= check(text, data, figures, ANALYSIS_NOT_PRINTED, f"{path.name} at {width}")
    assert met == set(ANALYSIS_NOT_PRINTED)


def test_analyze_in_an_80_column_terminal_cuts_nothing_it_did_in_0_4_0() -> None:
    """The findings: the fold count read 132,652,8…, the tie's 1 in N 1,521…, a Six Card royal's pay 10…; with
    --exact the pays column vanished; piped, COLUMNS was ignored."""
    text = cli(80, "analyze", STANDARD).stdout
    assert whole(text, "132,652,800") and whole(text, "1,521.29") and "…" not in text
    assert re.search(r"│ royal flush +│ +1000 │ +188 │", text)
    exact = cli(80, "analyze", STANDARD, "--exact").stdout
    assert "  pays: -1\n  combinations: 132,652,800\n  probability: 32.5792%  (72/221)\n" in exact  # blocks
    assert max(len(line) for line in exact.splitlines()) <= 80
    assert max(len(line) for line in cli(60, "analyze", STANDARD).stdout.splitlines()) <= 60
    piped = cli(None, "analyze", STANDARD, "--exact").stdout
    assert max(len(line) for line in piped.splitlines()) > 120  # unlimited: nothing wrapped
    assert "│ dealer not qualify          │    1 │   85,493,652 │ 20.9970%  (21373413/101792600) │" in piped


# --- compare ------------------------------------------------------------------------------------------------------

COMPARISON_NOT_PRINTED = {"variance": "the table gives the standard deviation, its square root"}


def comparison_figures(rows: Comparison) -> dict[str, Render]:
    styles = {r.style.currency: r.style for r in rows}
    money = {currency: terminal_money(style).money for currency, style in styles.items()}
    assert len(money) == 1, "the shipped tables are in one currency"
    (in_currency,) = money.values()
    return {
        **dict.fromkeys(("house_edge", "rtp", "long_run_rtp", "hit_frequency", "element_of_risk"), _percent),
        **dict.fromkeys(("std_dev", "volatility_index_90"), _float4),
        "average_wager": _decimal4,
        "theoretical_win_per_hour": lambda v: in_currency(Fraction(v)),
        "house_edge_vs_first": _points,
    }


@pytest.fixture(scope="module")
def comparison(analyses: dict[Path, GameAnalysis]) -> Comparison:
    games = [(str(path.relative_to(PAYTABLES.parent)), a.spec) for path, a in analyses.items()]
    return run_comparison([games[-1], *games[:-1]])  # standard.yaml first: the baseline


def test_compare_prints_every_figure_of_its_json_whole(comparison: Comparison) -> None:
    data = comparison_json(comparison)
    figures = comparison_figures(comparison)
    for width in WIDTHS:
        text = printed(lambda console: print_comparison(comparison, console=console), width)
        assert check(text, data, figures, COMPARISON_NOT_PRINTED, f"compare at {width}") == {"variance"}
        for row in data["rows"]:  # the label a row is known by, whole: the file's name (all differ here)
            assert row["label"] == Path(row["file"]).name and whole(text, row["label"]), row["file"]
        words = " ".join(text.split())  # a title may wrap between its words
        assert words.count("vs first: against standard.yaml, the first file given") == 4  # each names the baseline


def test_compare_labels_rows_by_the_file_names_suffix_and_names_its_baseline() -> None:
    """0.4.0 cut seven names to paytables/ante_…, ranked "vs first" against the first file given without saying
    which, and gave the theoretical win without a currency."""
    files = sorted((PAYTABLES / "ante_bonus").glob("*.yaml"))
    given = [files[2], *files[:2], *files[3:]]  # 5-3-1.yaml first: it ranks 4th
    result = cli(80, "compare", *given, "--format", "json")
    data = json.loads(result.stdout)
    assert data["baseline"] == {"file": str(given[0]), "label": "5-3-1.yaml"}
    assert [r["label"] for r in data["rows"]] == [
        "5-4-1.yaml", "5-4-1-mimic-dealer.yaml", "5-3-1.yaml", "4-3-1.yaml", "3-2-1.yaml", "5-4-1-always-play.yaml",
        "no-bonus.yaml",
    ]  # fmt: skip
    assert data["rows"][2]["house_edge_vs_first"] == "0" and {r["currency"] for r in data["rows"]} == {"USD"}
    text = cli(80, "compare", *given, "--wager", "ante_play").stdout
    assert text.startswith(
        "Ante & Play: ranked by house edge; vs first: against 5-3-1.yaml, the first file\ngiven\n"
        "file: 5-4-1.yaml\n  house edge: 3.3730%\n  vs first: -0.2353 pt\n"
    )
    assert "  theo/hour: $2.02\n" in text and "paytables/" not in text
    wide = cli(None, "compare", *given, "--wager", "ante_play").stdout
    assert "│ 5-3-1.yaml              │    3.6083% │  0.0000 pt │" in wide


def test_a_file_is_labelled_by_the_shortest_suffix_no_other_path_ends_with() -> None:
    assert file_labels(["a/x/t.yaml", "b/x/t.yaml", "c/u.yaml"]) == ["a/x/t.yaml", "b/x/t.yaml", "u.yaml"]
    assert file_labels(["t.yaml", "d/t.yaml", "../d/t.yaml"]) == ["t.yaml", "d/t.yaml", "../d/t.yaml"]
    assert file_labels(["paytables/standard.yaml"]) == ["standard.yaml"]
    with pytest.raises(TreyError, match=r"^\./d//t\.yaml is d/t\.yaml given again \(give each file once\)$"):
        file_labels(["d/t.yaml", "e.yaml", "./d//t.yaml"])  # the same path, written otherwise


def test_compare_refuses_a_file_given_twice() -> None:
    result = cli(None, "compare", STANDARD, PAYTABLES / "prime" / "3-4.yaml", STANDARD)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"error: {STANDARD} is given twice (give each file once)\n"


# --- solve --------------------------------------------------------------------------------------------------------

SOLVE_FIGURES: dict[str, Render] = {
    "target_house_edge": _percent,
    "exact_pay": _as_is,
    "pays": _as_is,
    "house_edge": _as_is,  # the exact house edge column
    "house_edge_percent": _as_is,
}


def test_solve_prints_every_figure_of_its_json_whole(analyses: dict[Path, GameAnalysis]) -> None:
    from trey.present.solve_view import print_grid, print_solution

    spec = analyses[STANDARD].spec
    solution = solve(spec, "pair_plus", "flush", Fraction(232, 10000))
    points = grid(
        spec, "pair_plus", [("straight_flush", 30, 60), ("flush", 3, 5)], (Fraction(2, 100), Fraction(5, 100))
    )
    grid_data = grid_json("pair_plus", ["straight_flush", "flush"], points)
    grid_figures = {"pays": _as_is, "house_edge": _percent}
    for width in WIDTHS:
        text = printed(lambda console: print_solution(solution, console=console), width)
        check(text, solution_json(solution), SOLVE_FIGURES, {}, f"solve at {width}")
        text = printed(lambda console: print_grid("pair_plus", ["straight_flush", "flush"], points, console), width)
        check(text, grid_data, grid_figures, {}, f"solve --grid at {width}")
        assert whole(text, f"{sum(p['in_band'] for p in grid_data['points'])} in band")


# --- protect ------------------------------------------------------------------------------------------------------

PROTECT_NOT_PRINTED = {
    "rtp": "the player's edge is printed, of which the RTP is 1 +",
    "deals": "every (player, dealer, seen card) deal: the count the figures are exact over",
    "variance": "the table gives the standard deviation, its square root",
    "plays_below_per_1000": "the tells per 1,000 hands to 4 decimals: printed to 2, from the exact fraction",
    "folds_above_per_1000": "the same",
}


def test_protect_prints_every_figure_of_its_json_whole(analyses: dict[Path, GameAnalysis]) -> None:
    analysis = analyses[STANDARD]
    found = protect(analysis.spec, two=False, analysis=analysis)
    per_1000: Render = lambda v: decimal_text(Fraction(v) * 1000, 2)  # noqa: E731
    figures: dict[str, Render] = {
        **dict.fromkeys(("player_edge", "hit_frequency", "informed_rtp"), _percent),
        "gain": _points,
        "std_dev": _float4,
        "average_wager": _decimal4,
        "folded_at_or_above": _grouped,
        **dict.fromkeys(("plays_below_normal", "folds_above_normal"), per_1000),
        # the risk table: N0 to whole rounds, the DI to 4 decimals, the most likely round and its probability
        "n0": lambda v: decimal_text(Fraction(v), 0, grouping=True),
        "desirability_index": _float4,
        "net": lambda v: net_words(Fraction(v)),
        "probability": _percent,
    }
    data = protection_json(found)
    side_bets = data.pop("side_bets")
    for width in WIDTHS:
        text = printed(lambda console: print_protection(found, console=console), width)
        assert check(text, data, figures, PROTECT_NOT_PRINTED, f"protect at {width}") == set(PROTECT_NOT_PRINTED)
        check(text, side_bets, {"rtp": _percent, "informed_rtp": _percent}, {}, f"protect's side bets at {width}")


# --- simulate and merge -------------------------------------------------------------------------------------------


def simulation_figures() -> dict[str, Render]:
    return {
        "rounds": _grouped,
        "seed": _as_is,
        "workers": _as_is,
        **dict.fromkeys(("total_wagered", "total_returned"), lambda v: units_text(Fraction(v))),
        **dict.fromkeys(("observed_rtp", "exact_rtp", "paid_rtp"), _percent),
        **dict.fromkeys(("std_error", "interval_95"), lambda v: f"{v:.4%}"),
        "z_score": lambda v: f"{v:+.2f}",
        "chi_square": lambda v: f"{v:.2f}",
        "degrees_of_freedom": _as_is,
        "p_value": lambda v: f"{v:.4g}",
        "observed": _grouped,
        "expected": lambda v: decimal_text(Fraction(v), 1, grouping=True),
        "jackpots": _grouped,
        **{
            key: lambda v: decimal_text(Fraction(v), 2, grouping=True)
            for key in ("paid_from_meter", "largest_jackpot", "reseeded", "final_meter")
        },
    }


def _check_simulation(result: SimulationResult, data: dict[str, Any], where: str) -> None:
    for width in WIDTHS:
        text = printed(lambda console: print_simulation(result, console=console), width)
        check(text, data, simulation_figures(), {}, f"{where} at {width}")


@pytest.mark.parametrize("paytable", [STANDARD, PAYTABLES / "progressive" / "three-card-progressive.yaml"])
def test_simulate_prints_every_figure_of_its_json_whole(analyses: dict[Path, GameAnalysis], paytable: Path) -> None:
    spec = analyses[paytable].spec
    result = run_simulation(spec, 3_000, 7)
    _check_simulation(result, simulation_json(result, spec), f"simulate {paytable.name}")


def test_merge_prints_what_simulate_prints_and_uses_the_width(tmp_path: Path) -> None:
    part = tmp_path / "part-1.json"  # one shard: two would need two chunks of 2^20 rounds
    assert cli(None, "simulate", STANDARD, "--rounds", "2000", "--shard", "1/1", "--out", part).exit_code == 0
    merged = merge_parts([part])
    data = {**simulation_json(merged.result, merged.spec), "merge": merged.json()}
    text = cli(60, "merge", part).stdout  # print_simulation's, which the test above holds at every width
    figures = {**simulation_figures(), **dict.fromkeys(("parts", "chunks", "checked"), _grouped)}
    check(text, data, figures, {}, "merge at 60")
    assert max(len(line) for line in text.splitlines()) <= 60


# --- validate -----------------------------------------------------------------------------------------------------


def test_validate_prints_every_figure_of_its_json_whole() -> None:
    """validate prints lines, not tables: the same at any width, every problem located whole."""
    shipped = [STANDARD, PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml", PAYTABLES / "prime" / "3-4.yaml"]
    files = [*shipped, *sorted((DATA / "warn").glob("*.yaml")), *sorted((DATA / "bad").glob("*.yaml"))[:8]]
    data = json.loads(cli(None, "validate", *files, "--format", "json", "--profile", "example-approved").stdout)
    narrow, piped = (cli(width, "validate", *files, "--profile", "example-approved") for width in (60, None))
    assert (narrow.stdout, narrow.stderr) == (piped.stdout, piped.stderr)
    text = piped.stdout + piped.stderr
    for entry in data["files"]:
        lines = [line for line in text.splitlines() if line.startswith(f"{entry['file']}:")]
        problem_lines = [line for line in lines if re.match(r"[^:]+:\d+:\d+: ", line)]
        warnings = sum(": warning: " in line for line in problem_lines)
        assert (len(problem_lines) - warnings, warnings) == (entry["errors"], entry["warnings"]), entry["file"]
        for problem in entry["problems"]:
            if problem["line"]:
                assert whole(text, f"{problem['file']}:{problem['line']}:{problem['column']}"), problem
        if entry["warnings"] and not entry["errors"]:
            assert whole(text, f"{entry['warnings']} warning(s)")
        for found in entry.get("profile_checks", []):
            assert f"{entry['file']}: {found['wager']}: {found['result']}: {found['detail']}" in lines


# --- the CLI uses the width ---------------------------------------------------------------------------------------


def test_every_table_command_fits_its_width_through_the_cli(tmp_path: Path) -> None:
    """The commands whose views the tests above print directly (analyze, compare and merge, which prints
    simulate's view, run through the CLI there; protect's command prints the same view, in seconds)."""
    log = tmp_path / "rounds.jsonl"
    assert cli(None, "simulate", STANDARD, "--rounds", "200", "--log", log).exit_code == 0
    commands: list[tuple[str | Path, ...]] = [
        ("solve", STANDARD, "--wager", "pair_plus", "--row", "flush", "--house-edge", "2.32%"),
        ("audit", STANDARD, log),
    ]
    for command in commands:
        text = cli(60, *command).stdout
        assert "…" not in text and max(len(line) for line in text.splitlines()) <= 60, command
        piped = cli(None, *command).stdout
        assert "…" not in piped and max(len(line) for line in piped.splitlines()) > 60, command
