"""Side bets beside a game of the family (issue 31): ``trey analyze`` shows them after Ante & Play in its table and
its JSON (each as a standard game's wager), ``trey solve`` solves them with the family's strategy. Pair Plus beside
Face Up Ultimate is paid on every pair or better, each of which the optimal strategy plays 3x against every up card
(tests/engine/test_family.py holds that against the brute force): its house edge is 40-30-6-3-1's always played,
7.2760% (docs/published-figures.md)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import trey
from conftest import PAYTABLES, run_cli, validate_json

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
ANALYSIS_SCHEMA = json.loads((Path(trey.__file__).parent / "schemas" / "analysis.schema.json").read_text())
PAIR_PLUS = "  pair_plus: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}\n"


@pytest.fixture
def with_pair_plus(tmp_path: Path) -> Path:
    path = tmp_path / "fu-pair-plus.yaml"
    text = FACE_UP_ULTIMATE.read_text()
    assert text.endswith("    strategy: optimal\n")
    path.write_text(text + PAIR_PLUS)
    return path


def test_analyze_shows_a_side_bet_beside_a_family_game(with_pair_plus: Path) -> None:
    result = run_cli("analyze", with_pair_plus)
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert "House edge per Ante          3.8807%" in lines  # Ante & Play as without the side bet
    assert "Pair Plus  —  cycle 1,082,900 deals" in lines
    assert "House edge          7.2760%" in lines
    data = json.loads(run_cli("analyze", with_pair_plus, "--format", "json").stdout)
    validate_json(data, ANALYSIS_SCHEMA)
    pair_plus = data["game"]["side_bets"]["pair_plus"]
    assert (pair_plus["house_edge"], pair_plus["cycle"]) == ("402/5525", 1_082_900)


def test_solve_a_side_bet_beside_a_family_game(with_pair_plus: Path) -> None:
    result = run_cli(
        "solve", with_pair_plus, "--wager", "pair_plus", "--row", "flush", "--house-edge", "2.32%", "--format", "json"
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    # every paying hand is played: the exact pay is the standard game's, Pair Plus always played (docs/commands)
    assert data["exact_pay"] == "54791/13700"
    assert {c["pays"]: c["house_edge"] for c in data["candidates"]}["4 to 1"] == str(Fraction(256, 11050))
