"""``trey risk --seats K --pays-over X``: one round's payout at a table. The command prints the library's exact
fractions (one seat, two seats) and its proven bounds (three or more), the same figures in the terminal and in JSON
(which follows its schema); the seeded simulation of K seats dealt from one deck agrees with them; bad input is
refused with its reason. Pair Plus alone: its count needs no dealer loop (a fraction of a second), shared by every
test of the module through the library's per-process cache."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import PAYTABLES, STANDARD, run_cli
from trey.core.jsonschemas import validator
from trey.core.numbers import fraction_text
from trey.paytable.load import load_spec
from trey.play.binomial import clopper_pearson
from trey.play.round_payout import RoundPayout, round_payout
from trey.play.table_round import table_round, table_round_json
from trey.play.table_simulation import deal_table, simulate_round_totals
from trey.present.risk_view import probability_text

SPEC = load_spec(STANDARD)
WAGER = "pair_plus"


@pytest.fixture(scope="module")
def payout() -> RoundPayout:
    return round_payout(SPEC, WAGER)


def _pairs(text: str) -> list[tuple[str, str]]:
    """The ``label  value`` lines of the terminal (titles and headings left out)."""
    split = [re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in text.splitlines()]
    return [(parts[0], parts[1]) for parts in split if len(parts) == 2]


def test_two_seats_print_the_exact_fraction_and_the_simulation_holds_it(payout: RoundPayout) -> None:
    args = ("risk", STANDARD, "--seats", "2", "--pays-over", "30", "--wager", WAGER, "--simulate-rounds", "100000")
    table, data = run_cli(*args), run_cli(*args, "--format", "json")
    assert table.exit_code == data.exit_code == 0, table.stderr + data.stderr
    exact = payout.two_seats_above(Fraction(30))
    assert exact == payout.tail_bound(2, Fraction(30))[0] == Fraction(141391, 25448150)
    pairs = _pairs(table.stdout)
    assert ("P(T > 30)", f"{probability_text(exact)} = 1 in 180 (exact)") in pairs
    assert ("exact fraction", fraction_text(exact)) in pairs
    document = json.loads(data.stdout)
    assert list(validator("risk").iter_errors(document)) == []
    (wager,) = document["table_round"]["wagers"]
    assert wager["exact"] == {"kind": "exact", "exact": "141391/25448150", "value": 0.005556042384, "one_in": 179.98}
    assert wager["lower_bound"] is None and wager["upper_bound"] is None
    simulated = wager["simulated"]
    assert (simulated["rounds"], simulated["seed"], simulated["kind"]) == (100_000, 34, "simulated")
    low, high = simulated["interval"]["low"], simulated["interval"]["high"]
    assert low <= float(exact) <= high  # seeded: the same rounds every run
    assert (low, high) == clopper_pearson(simulated["rounds_over"], 100_000)
    over = simulated["rounds_over"]
    assert ("simulated", f"{over:,} of 100,000 rounds (seed 34): {probability_text(Fraction(over, 100_000))}") in pairs
    interval = f"{probability_text(Fraction(low), up=False)} to {probability_text(Fraction(high), up=True)}"
    assert ("99% interval", f"{interval} (Clopper-Pearson (exact binomial))") in pairs


def test_one_seat_is_the_seats_own_exact_tail(payout: RoundPayout) -> None:
    report = table_round(SPEC, seats=1, pays_over=Fraction(5), wager=WAGER, rounds=0, seed=1)
    (w,) = report.wagers
    assert (
        w.exact == payout.one_seat_above(Fraction(5)) == Fraction(720 + 52 + 48, 22100)
    )  # a straight, trips or a straight flush
    assert w.simulated is None and table_round_json(report)["table_round"]["wagers"][0]["simulated"] is None


@pytest.mark.parametrize(("seats", "x"), [(3, 30), (7, 30), (7, 100)])
def test_more_seats_give_bounds_that_hold_the_simulation(payout: RoundPayout, seats: int, x: int) -> None:
    args = ("risk", STANDARD, "--seats", str(seats), "--pays-over", str(x), "--wager", WAGER)
    result = run_cli(*args, "--simulate-rounds", "50000", "--format", "json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert list(validator("risk").iter_errors(document)) == []
    (wager,) = document["table_round"]["wagers"]
    lower, upper = payout.lower_bound(seats, Fraction(x)), payout.upper_bound(seats, Fraction(x))
    assert wager["exact"] is None
    assert wager["lower_bound"] == {
        "kind": "lower bound",
        "exact": fraction_text(lower.value),
        "value": wager["lower_bound"]["value"],
        "rule": lower.rule,
    }
    assert wager["upper_bound"]["exact"] == fraction_text(upper.value) and wager["upper_bound"]["rule"] == upper.rule
    assert wager["lower_bound"]["value"] <= float(lower.value) <= float(upper.value) <= wager["upper_bound"]["value"]
    interval = wager["simulated"]["interval"]
    assert lower.value <= upper.value and interval["high"] >= lower.value and interval["low"] <= upper.value
    # a sharper bound than the plain union bounds: a full table's Pair Plus over 100 units
    if (seats, x) == (7, 100):
        assert upper.value < Fraction(1, 2000) < 7 * payout.one_seat_above(Fraction(100, 7))


def test_the_terminal_and_the_json_give_the_same_figures(payout: RoundPayout, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # every rule on one line
    args = ("risk", STANDARD, "--seats", "7", "--pays-over", "30", "--wager", WAGER, "--simulate-rounds", "20000")
    table, data = run_cli(*args), run_cli(*args, "--format", "json")
    assert table.exit_code == data.exit_code == 0
    (wager,) = json.loads(data.stdout)["table_round"]["wagers"]
    upper, lower = Fraction(wager["upper_bound"]["exact"]), Fraction(wager["lower_bound"]["exact"])
    assert (upper, lower) == (payout.upper_bound(7, Fraction(30)).value, payout.lower_bound(7, Fraction(30)).value)
    pairs = _pairs(table.stdout)
    assert ("P(T > 30)", f"at most {probability_text(upper, up=True)} (proven upper bound)") in pairs
    assert ("P(T > 30)", f"at least {probability_text(lower, up=False)} (proven lower bound)") in pairs
    assert [v for k, v in pairs if k == "fraction"] == [fraction_text(upper), fraction_text(lower)]
    assert [v for k, v in pairs if k == "rule"] == [wager["upper_bound"]["rule"], wager["lower_bound"]["rule"]]
    s = wager["simulated"]
    assert f"{s['rounds_over']:,} of 20,000 rounds (seed 34)" in table.stdout


def test_the_terminal_fits_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    result = run_cli(
        "risk", STANDARD, "--seats", "5", "--pays-over", "12.5", "--wager", WAGER, "--simulate-rounds", "99"
    )
    assert result.exit_code == 0, result.stderr
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "P(T > 12.5)" in result.stdout


def test_the_simulation_deals_one_deck_and_depends_on_the_seed_alone() -> None:
    import numpy as np

    cards = deal_table(np.random.default_rng(1), 5000, 8)
    assert cards.shape == (5000, 24) and all(len(set(row)) == 24 for row in cards.tolist())
    assert np.bincount(cards[:, 0], minlength=52).min() > 50  # every card can come first (about 96 times each)
    once = simulate_round_totals(SPEC, [WAGER], 3, 3000, seed=7)
    assert once == simulate_round_totals(SPEC, [WAGER], 3, 3000, seed=7)
    assert once != simulate_round_totals(SPEC, [WAGER], 3, 3000, seed=8)
    assert [sum(c.values()) for c in once.totals[WAGER]] == [3000, 3000, 3000]


def test_clopper_pearson_meets_its_closed_forms() -> None:
    low, high = clopper_pearson(0, 1000)
    assert low == 0 and abs(high - (1 - 0.005 ** (1 / 1000))) < 2e-11 and high >= 1 - 0.005 ** (1 / 1000)
    low, high = clopper_pearson(1000, 1000)
    assert high == 1 and abs(low - 0.005 ** (1 / 1000)) < 2e-9 and low <= 0.005 ** (1 / 1000)
    low, high = clopper_pearson(7, 40)  # both tails at the ends are 0.5%, summed exactly here
    from math import comb

    def at_least(k: int, p: Fraction) -> Fraction:
        return sum((comb(40, i) * p**i * (1 - p) ** (40 - i) for i in range(k, 41)), Fraction(0))

    assert abs(float(at_least(7, Fraction(low))) - 0.005) < 1e-10 and at_least(7, Fraction(low)) <= Fraction(5, 1000)
    assert abs(1 - float(at_least(8, Fraction(high))) - 0.005) < 1e-9


FAMILY = PAYTABLES / "family" / "face-up-ultimate.yaml"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--seats", "8", "--pays-over", "10"), 1, "error: a table of 8 seats (give 1 to 7 seats)\n"),
        (("--seats", "0", "--pays-over", "10"), 1, "error: a table of 0 seats (give 1 to 7 seats)\n"),
        (("--seats", "3", "--pays-over", "lots"), 2, "'lots' is not a number of units such as 250 or 12.5"),
        (("--seats", "3", "--pays-over", "1e9"), 2, "'1e9' is not a number of units such as 250 or 12.5"),
        (
            ("--seats", "3", "--pays-over", "10", "--wager", "bingo"),
            1,
            "error: the game has no wager 'bingo' (give one of ante_play, pair_plus, prime, six_card_bonus)\n",
        ),
        (
            ("--seats", "3", "--pays-over", "10", "--simulate-rounds", "10000001"),
            1,
            "error: 10,000,001 simulated rounds (give 0 to 10,000,000 rounds (0: no simulation))\n",
        ),
        (
            ("--seats", "3", "--pays-over", "10", "--simulate-rounds", "-1"),
            1,
            "error: -1 simulated rounds (give 0 to 10,000,000 rounds (0: no simulation))\n",
        ),
        (
            ("--seats", "3"),
            1,
            "error: a round at a table needs both --seats and --pays-over (give --seats K --pays-over X)\n",
        ),
        (
            ("--pays-over", "10", "--bankroll", "10", "--rounds", "5"),
            1,
            "error: --bankroll, --rounds belong to a session's risk, not to a round at a table (--seats) (give "
            "--seats and --pays-over, or --bankroll and --rounds)\n",
        ),
        (
            ("--seats", "3", "--pays-over", "10", "--seen-card", "one"),
            1,
            "error: --seen-card belong to a session's risk, not to a round at a table (--seats) (give --seats and "
            "--pays-over, or --bankroll and --rounds)\n",
        ),
        (
            (),
            1,
            "error: trey risk needs --bankroll and --rounds (a session's risk) or --seats and --pays-over (a round at "
            "a table) (give --bankroll B --rounds N, or --seats K --pays-over X)\n",
        ),
        (
            ("--bankroll", "10", "--rounds", "5", "--simulate-rounds", "10"),
            1,
            "error: --simulate-rounds simulates a table (give it with --seats and --pays-over)\n",
        ),
    ],
)
def test_bad_input_is_refused_with_its_reason(args: tuple[str, ...], code: int, message: str) -> None:
    result = run_cli("risk", STANDARD, *args)
    assert result.exit_code == code
    assert result.stderr == message if code == 1 else message in result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr


def test_a_family_game_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli("risk", FAMILY, "--seats", "3", "--pays-over", "10")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{FAMILY}: $.game: trey risk is not yet supported for games other than standard Three Card Poker "
        "(trey validate and trey analyze read this game)\n"
    )
    assert list(tmp_path.iterdir()) == []
