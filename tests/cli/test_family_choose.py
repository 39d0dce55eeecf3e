"""Choosing among games of the family (issue 31): ``trey solve`` and its grid re-derive a family game's strategy for a
row of its Blind, Play or bad-beat table (``blind.flush``, ``play_pays.pair``) as for an Ante Bonus row; ``trey
compare`` sets games of different shapes side by side on the per-Ante and per-action figures. Figures are held to
the brute force's (tests/engine/test_family.py states them, benchmarks/bruteforce_family.py prints them) and to the
published 3.8807%."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import trey
from conftest import PAYTABLES, run_cli, validate_json
from trey.choose.solve import grid, with_pay
from trey.engine.family import analyze_family
from trey.paytable.load import load_spec_bytes

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
STANDARD_541 = PAYTABLES / "ante_bonus" / "5-4-1.yaml"
COMPARISON_SCHEMA = json.loads((Path(trey.__file__).parent / "schemas" / "comparison.schema.json").read_text())
# tests/family_brute.RULE_SETS["prime_style"]: the Play paid by a table on a win, a tie and a dealer who does not
# qualify, a bad beat on a losing straight or better; its house edge over every deal is the brute force's.
PRIME_STYLE = b"""trey: 3
name: Prime style
game:
  ante_when_dealer_does_not_qualify: pushes
  play_pays: {mini_royal: 20, straight_flush: 5, three_of_a_kind: 4, straight: 2, flush: 3 to 2, pair: 1}
  play_pays_on_tie: true
  play_pays_when_dealer_does_not_qualify: true
  bad_beat: {mini_royal: 20, straight_flush: 5, three_of_a_kind: 4, straight: 2}
wagers:
  ante_play: {}
"""
PRIME_STYLE_EDGE = Fraction(59821, 5816720)  # the brute force's


@pytest.fixture
def prime(tmp_path: Path) -> Path:
    path = tmp_path / "prime.yaml"
    path.write_bytes(PRIME_STYLE)
    return path


def test_solve_a_play_pays_row_re_derives_the_strategy_and_hits_the_target_exactly(prime: Path) -> None:
    result = run_cli("solve", prime, "--wager", "ante_play", "--row", "play_pays.straight", "--house-edge", "1.5%")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[0] == (
        "ante_play.play_pays.straight: a house edge of 1.5000% needs a pay of exactly 12034733/6497388 to 1 "
        "(1.8522 to 1)"
    )
    data = json.loads(
        run_cli(
            "solve",
            prime,
            "--wager",
            "ante_play",
            "--row",
            "play_pays.straight",
            "--house-edge",
            "1.5%",
            "--format",
            "json",
        ).stdout
    )
    assert data["exact_pay"] == "12034733/6497388"
    candidates = {c["pays"]: c["house_edge"] for c in data["candidates"]}
    assert candidates["2 to 1"] == str(PRIME_STYLE_EDGE)  # the file's own pay: the brute force's edge
    spec = load_spec_bytes(PRIME_STYLE, "prime.yaml")
    solved = with_pay(spec, "ante_play", "play_pays.straight", Fraction(12034733, 6497388))
    assert analyze_family(solved).house_edge_per_ante == Fraction(3, 200)  # counted again at the pay found


def test_a_grid_of_the_blind_s_rows_re_derives_the_strategy_as_the_brute_force_counts_it() -> None:
    """Face Up Ultimate with the brute force's other Blind table, 50-10-5-2-1: its house edge per Ante over every
    deal, 440451/14541800 (tests/engine/test_family.py, BRUTE_FORCE), from a grid's one point."""
    text = FACE_UP_ULTIMATE.read_text().replace("straight: 3 to 2", "straight: 2 to 1")
    spec = load_spec_bytes(text.encode(), "fu.yaml")
    ranges = [("blind.mini_royal", 50, 50), ("blind.straight_flush", 10, 10), ("blind.three_of_a_kind", 5, 5)]
    [point] = grid(spec, "ante_play", ranges, (Fraction(0), Fraction(1, 20)))
    assert (point.pays, point.house_edge, point.in_band) == ((50, 10, 5), Fraction(440451, 14541800), True)


def test_a_grid_of_a_family_game_prints_each_combination_s_edge(prime: Path) -> None:
    result = run_cli(
        "solve",
        prime,
        "--wager",
        "ante_play",
        "--grid",
        "play_pays.straight=2..3",
        "--band",
        "0%..2%",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    points = json.loads(result.stdout)["points"]
    assert points[0]["pays"] == [2] and points[0]["house_edge"] == str(PRIME_STYLE_EDGE)
    assert points[0]["in_band"] is True and points[1]["in_band"] is False


@pytest.mark.parametrize(
    ("file", "row", "message"),
    [
        (
            STANDARD_541,
            "blind.flush",
            "error: blind.flush: the standard game's round has no blind table (solve the Ante Bonus's rows, or "
            "describe the round in a game: section (format 3))\n",
        ),
        (None, "blind.flush", "error: blind.flush: the game has no Blind (give the Blind's table under game: first)\n"),
        (None, "play_pays.nope", "error: ante_play has no row 'play_pays.nope' (did you mean 'play_pays.pair'?)\n"),
    ],
)
def test_solve_refuses_a_row_the_round_does_not_have(file: Path | None, row: str, message: str, prime: Path) -> None:
    result = run_cli("solve", file or prime, "--wager", "ante_play", "--row", row, "--house-edge", "3%")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", message)


def test_a_family_grid_is_bounded_for_it_counts_every_deal_again(prime: Path) -> None:
    result = run_cli("solve", prime, "--wager", "ante_play", "--grid", "play_pays.flush=1..20,bad_beat.straight=0..9")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "error: a grid of 200 combinations (100 at most for ante_play (each re-derives the player's strategy): "
        "narrow the ranges)\n"
    )


def test_compare_sets_games_of_different_shapes_side_by_side_per_ante_and_per_action() -> None:
    result = run_cli("compare", STANDARD_541, FACE_UP_ULTIMATE, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    validate_json(data, COMPARISON_SCHEMA)
    rows = {row["label"]: row for row in data["rows"]}
    fu, standard = rows["face-up-ultimate.yaml"], rows["5-4-1.yaml"]
    assert (fu["house_edge"], fu["element_of_risk"], fu["average_wager"]) == (
        "1975131/50896300",  # per Ante: the published 3.8807%
        "1975131/167065448",  # per total action
        "888646/270725",
    )
    assert (standard["house_edge"], standard["average_wager"]) == ("686689/20358520", "370/221")
    assert fu["house_edge_vs_first"] == str(Fraction(1975131, 50896300) - Fraction(686689, 20358520))
    table = run_cli("compare", STANDARD_541, FACE_UP_ULTIMATE).stdout
    fu_line = next(line for line in table.splitlines() if "face-up-ultimate.yaml" in line)
    assert [cell.strip() for cell in fu_line.split("│")[1:-1]][:3] == ["face-up-ultimate.yaml", "3.8807%", "0.5077 pt"]


def test_analyze_says_how_the_play_is_paid(prime: Path) -> None:
    result = run_cli("analyze", prime)
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert (
        "The dealer qualifies with Q-3-2 or better; when not, the Ante pushes and the Play is paid as a win, whatever "
        "the hands." in lines
    )
    assert (
        "The Play is paid by the player's hand when it wins: mini royal 20 to 1, straight flush 5 to 1, three of a "
        "kind 4 to 1, straight 2 to 1, flush 3 to 2, pair 1 to 1 (any other hand 1 to 1); a tie pays it as a win."
        in lines
    )
    assert (
        "A losing Play is paid all the same (the bad beat): mini royal 20 to 1, straight flush 5 to 1, three of a kind "
        "4 to 1, straight 2 to 1." in lines
    )
    assert "House edge per Ante          1.0284%" in lines  # the brute force's 59821/5816720
    assert "As a rule (no dealer card face up): 1x Q-6-4 or better; otherwise fold." in lines
