from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import REPO, STANDARD, run_cli, validate_json
from trey.cards.hands import high_card_key, three_card_keys
from trey.engine import analyze
from trey.paytable.load import check_data, load_spec
from trey.paytable.model import GameSpec
from trey.play import simulate as simulate_module
from trey.play.chisquare import chi_square_sf
from trey.play.settle import Settler
from trey.play.simulate import deal, rounds_to_test, simulate

SCHEMA = json.loads((REPO / "schemas" / "simulation.schema.json").read_text())


def test_chi_square_survival_function_matches_tabulated_values() -> None:
    # Critical values at 5% (1, 2, 10 df) and 1e-6 (4 df) from standard tables; P(X >= 0.5) for 3 df.
    assert chi_square_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_sf(5.991464547107979, 2) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_sf(18.307038053275146, 10) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_sf(0.5, 3) == pytest.approx(0.918891411654676, rel=1e-9)
    assert chi_square_sf(100, 5) == pytest.approx(5.285148360943e-20, rel=1e-6)
    assert chi_square_sf(0, 3) == 1.0


def test_deal_gives_six_different_cards_uniformly() -> None:
    cards = deal(np.random.Generator(np.random.PCG64(3)), 200_000)
    assert cards.shape == (200_000, 6)
    assert all(len(set(row)) == 6 for row in cards[:2000].tolist())
    assert (np.sort(cards, axis=1)[:, 1:] != np.sort(cards, axis=1)[:, :-1]).all()
    # every card in every seat about equally often: chi-square with 51 df per seat
    for seat in range(6):
        counts = np.bincount(cards[:, seat], minlength=52)
        expected = 200_000 / 52
        assert chi_square_sf(float(((counts - expected) ** 2 / expected).sum()), 51) > 1e-6


def outcome_counts(result: simulate_module.SimulationResult) -> dict[str, list[int]]:
    return {str(w): [c.observed for c in s.outcomes] for w, s in result.wagers.items()}


def test_fixed_seed_gives_the_recorded_numbers() -> None:
    result = simulate(load_spec(STANDARD), 10_000, 1)
    assert outcome_counts(result) == {
        "ante_play": [3306, 2151, 2337, 8, 2198],
        "pair_plus": [27, 27, 320, 508, 1698, 7420],
        "prime": [212, 2124, 7664],
        "six_card_bonus": [0, 0, 7, 75, 107, 202, 359, 9250],
    }
    assert (result.seed, result.rounds, result.generator) == (1, 10_000, "numpy PCG64")
    # Totals from the recorded counts by hand: each round stakes 1 Ante, plus a Play unless it folds (3,306 did);
    # Pair Plus hands back 41, 31, 7, 4 and 2 units for its paying hands.
    ante, pair_plus = result.wagers["ante_play"], result.wagers["pair_plus"]
    assert ante.total_wagered == 10_000 + (10_000 - 3306)
    assert pair_plus.total_wagered == 10_000
    assert pair_plus.total_returned == 27 * 41 + 27 * 31 + 320 * 7 + 508 * 4 + 1698 * 2
    assert pair_plus.observed_rtp == Fraction(9612, 10_000)


def test_same_seed_same_numbers_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "CHUNK_ROUNDS", 20_000)
    spec = load_spec(STANDARD)
    one = simulate(spec, 70_000, 5, workers=1)
    two = simulate(spec, 70_000, 5, workers=2)
    again = simulate(spec, 70_000, 5, workers=2)
    assert outcome_counts(one) == outcome_counts(two) == outcome_counts(again)
    assert outcome_counts(simulate(spec, 70_000, 6, workers=2)) != outcome_counts(one)


def variant(**rules: Any) -> GameSpec:
    data = load_spec(STANDARD).canonical()
    strategy = rules.pop("strategy", None)
    data["rules"] = rules
    if strategy is not None:
        data["wagers"]["ante_play"]["strategy"] = strategy
    spec = check_data(data, "variant").spec
    assert spec is not None
    return spec


VARIANTS = {
    "standard": {},
    "no-qualifier, ties to the player": {"dealer_qualifier": "none", "ties": "player_wins"},
    "J-high, mimic the dealer": {"dealer_qualifier": "J-high", "strategy": "mimic-dealer"},
    "pair qualifier, always play": {"dealer_qualifier": "pair", "strategy": "always-play"},
    "Q-6-4 qualifier, K-8-2 threshold, bonus on a fold, Pair Plus stands": {
        "dealer_qualifier": "Q-6-4",
        "strategy": {"play_at_least": "K-8-2"},
        "ante_bonus_requires_play": False,
        "pair_plus_on_fold": "stands",
    },
}


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
def test_a_few_hundred_thousand_rounds_agree_with_the_exact_engine(rules: dict[str, Any]) -> None:
    spec = variant(**dict(rules))
    result = simulate(spec, 300_000, 2026)
    assert list(result.wagers) == ["ante_play", "pair_plus", "prime", "six_card_bonus"]
    for wager in result.wagers.values():
        assert abs(wager.z_score) <= 4, wager
        assert wager.p_value >= 1e-6, wager
        assert wager.interval_95[0] - 0.05 < float(wager.exact_rtp) < wager.interval_95[1] + 0.05
    assert result.passed


_true_settle = Settler.settle


def pay_flush_as_straight(self: Settler, player: Any, dealer: Any) -> dict[str, Any]:
    """A deliberately wrong settlement: Pair Plus pays a flush as a straight."""
    outcomes = _true_settle(self, player, dealer)
    names = self.tables["pair_plus"].names
    pair_plus = outcomes["pair_plus"]
    pair_plus[pair_plus == names.index("flush")] = names.index("straight")
    return outcomes


class FlushPaidAsStraight(Settler):
    settle = pay_flush_as_straight


def test_a_wrong_settlement_is_caught() -> None:
    spec = load_spec(STANDARD)
    result = simulate(spec, 300_000, 2026, settler_factory=FlushPaidAsStraight)
    assert not result.passed
    pair_plus = result.wagers["pair_plus"]
    assert not pair_plus.passed
    assert pair_plus.p_value < 1e-6 and pair_plus.z_score > 4
    assert all(w.passed for name, w in result.wagers.items() if name != "pair_plus")


def test_simulated_decisions_are_the_engines() -> None:
    """With the optimal strategy the simulator folds exactly the hands below Q-6-4."""
    spec = load_spec(STANDARD)
    analysis = analyze(spec)
    assert analysis.ante_play is not None
    settler = Settler(spec, analysis.ante_play.plays)
    cards = deal(np.random.Generator(np.random.PCG64(9)), 50_000)
    outcomes = settler.settle(cards[:, :3], cards[:, 3:])["ante_play"]
    rows = settler.tables["ante_play"].rows
    folds = sum(1 for i in outcomes.tolist() if rows[i] == "fold")
    assert folds == int((three_card_keys(cards[:, :3].astype(np.int64)) < high_card_key((10, 4, 2))).sum())


def test_cli_json_is_schema_valid_and_quiet_on_stderr() -> None:
    result = run_cli("simulate", STANDARD, "--rounds", "20000", "--seed", "3", "--format", "json")
    assert result.exit_code == 0
    assert result.stderr == ""
    data = json.loads(result.stdout)
    validate_json(data, SCHEMA)
    assert (data["rounds"], data["seed"], data["generator"], data["passed"]) == (20000, 3, "numpy PCG64", True)


def test_cli_table_names_seed_generator_and_verdict() -> None:
    result = run_cli("simulate", STANDARD, "--rounds", "20000", "--seed", "3")
    assert result.exit_code == 0
    assert result.stdout.startswith("20,000 rounds, seed 3, generator numpy PCG64, 1 worker(s)\n")
    assert result.stdout.rstrip().endswith("PASS: the simulation agrees with the exact figures")


def test_cli_exits_1_when_the_simulation_disagrees(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Settler, "settle", pay_flush_as_straight)
    result = run_cli("simulate", STANDARD, "--rounds", "300000", "--seed", "3")
    assert result.exit_code == 1
    assert "FAIL: the simulation disagrees with the exact figures (|z| > 4 or p < 1e-6)" in result.stdout


def test_cli_refuses_zero_rounds() -> None:
    assert run_cli("simulate", STANDARD, "--rounds", "0").exit_code == 2


def test_replace_keeps_specs_usable() -> None:
    spec = replace(load_spec(STANDARD), name="renamed")
    assert simulate(spec, 1000, 1).rounds == 1000


def test_progress_bar_only_for_long_runs_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from trey.cli.app import progress_bar

    with progress_bar(5_000_000, enabled=True) as advance:
        assert advance is None  # stderr is not a terminal under pytest
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with progress_bar(5_000_000, enabled=False) as advance:
        assert advance is None  # --format json
    with progress_bar(100_000, enabled=True) as advance:
        assert advance is None  # well under a second
    with progress_bar(5_000_000, enabled=True) as advance:
        assert advance is not None
        advance(1_000_000)


def test_games_without_ante_play_simulate_too() -> None:
    from conftest import PAYTABLES

    for path in (PAYTABLES / "prime" / "3-4.yaml", PAYTABLES / "pair_plus" / "40-30-5-4-1-mini-royal-100.yaml"):
        result = simulate(load_spec(path), 100_000, 8)
        assert result.passed, path
        assert len(result.wagers) == 1


def test_rounds_too_few_to_test_anything_are_not_a_pass(tmp_path: Path) -> None:
    """Red team: `simulate --rounds 1` printed PASS with a 95% interval of zero width. A wager is tested only when two
    of its outcomes are expected 5 times or more; certify refuses a simulation too small before dealing it."""
    one = run_cli("simulate", STANDARD, "--rounds", "1", "--seed", "1")
    assert one.exit_code == 1
    assert one.stdout.splitlines()[-1] == (
        "NOT TESTED: 1 round is too few to test Ante & Play, Pair Plus, Prime, Six Card Bonus (a wager is tested "
        "when two of its outcomes are expected 5 times or more: deal more rounds)"
    )
    assert "│ not tested │" in one.stdout
    data = json.loads(run_cli("simulate", STANDARD, "--rounds", "1", "--seed", "1", "--format", "json").stdout)
    assert data["passed"] is False
    spec = load_spec(STANDARD)
    analysis = analyze(spec)
    needed = rounds_to_test(analysis)  # each wager's second likeliest outcome expected 5 times
    assert needed == max(
        math.ceil(5 / sorted((r.probability for r in w.outcomes if r.probability), reverse=True)[1])
        for w in analysis.wagers.values()
    )
    enough = simulate(spec, needed, 1)
    assert all(w.tested for w in enough.wagers.values())
    assert not all(w.tested for w in simulate(spec, needed - 1, 1).wagers.values())
    refused = run_cli("certify", STANDARD, "--out", tmp_path / "c", "--simulate", "100", "--seed", "1")
    assert (refused.exit_code, refused.stderr) == (
        1,
        f"error: a simulation of 100 rounds is too few to test every wager of this game (--simulate {needed} or "
        "more: a wager is tested when two of its outcomes are expected 5 times or more)\n",
    )
    assert not (tmp_path / "c").exists()


def test_a_log_named_csv_is_refused_as_trey_audit_would_read_it_as_csv(tmp_path: Path) -> None:
    refused = run_cli("simulate", STANDARD, "--rounds", "3", "--seed", "1", "--log", tmp_path / "log.csv")
    assert refused.exit_code == 2
    assert "--log writes JSON Lines, which trey audit reads from a name ending .jsonl" in refused.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_log_whose_temporary_name_is_too_long_leaves_no_folder_behind(tmp_path: Path) -> None:
    """Red team: the folders `--log` created stayed when its temporary file could not be made."""
    log = tmp_path / "new1" / "new2" / ("a" * 245 + ".jsonl")  # fits; ".NAME.XXXXXXXX.tmp" does not
    failed = run_cli("simulate", STANDARD, "--rounds", "10", "--seed", "1", "--log", log)
    assert failed.exit_code == 1
    assert failed.stderr.endswith(": a name is too long for the file system (use shorter names)\n")
    assert list(tmp_path.iterdir()) == []
