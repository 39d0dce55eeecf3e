"""``trey risk``: one library call (trey.protect.risk), its JSON following its schema, its terminal at 80 columns,
the informed player's published figures, and bad input refused with its reason."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from conftest import STANDARD, run_cli
from trey.core.errors import TreyError
from trey.core.jsonschemas import validator
from trey.core.numbers import percent_text
from trey.engine.risk import risk_figures, rounds_distribution, ruin_within
from trey.paytable.load import load_spec
from trey.paytable.model import StrategyKind
from trey.protect.risk import parse_strategy, risk, risk_report_json

SPEC = load_spec(STANDARD)


def test_the_json_is_the_library_calls_and_follows_its_schema() -> None:
    result = run_cli("risk", STANDARD, "--bankroll", "40", "--rounds", "60", "--wager", "ante_play", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == risk_report_json(risk(SPEC, bankroll=Fraction(40), rounds=60, wager="ante_play"))
    assert list(validator("risk").iter_errors(data)) == []
    (wager,) = data["wagers"]
    assert wager["player"] == "strategy: optimal" and wager["most_likely"][0]["net"] == "-1"
    # small enough to be exact: the figures are those of the engine's exact calls
    analysis = risk(SPEC, bankroll=Fraction(40), rounds=60, wager="ante_play").wagers[0]
    exact = ruin_within(analysis.distribution, Fraction(40), 60, exact=True)
    chance = {"value": round(float(exact.probability), 12), "exact": str(exact.probability)}
    assert wager["ruin_within"] == {"exact": True, "probability": chance, "relative_error_bound": 0.0}
    session = rounds_distribution(analysis.distribution, 60, exact=True)
    assert wager["session"]["behind"]["exact"] == str(session.below(Fraction(0)))
    assert wager["ruin_unlimited"]["exact"] == "1"  # a house-favourable bet ruins every bankroll in the end


def test_the_informed_player_gives_jacobsons_figures_on_the_terminal_at_80_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    result = run_cli("risk", STANDARD, "--bankroll", "250", "--rounds", "500", "--seen-card", "one")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    pairs = {tuple(re.split(r"\s{2,}", line.strip(), maxsplit=1)) for line in lines}
    assert ("Played", "informed: one dealer card seen") in pairs
    assert ("Player edge", "3.4829% (SD 1.7417)") in pairs
    assert ("Desirability index", "19.9966") in pairs
    assert ("N0 (SD / edge)²", "2,500.8 rounds") in pairs
    assert ("Most likely round", "lose 2 (34.03%)") in pairs
    assert ("Ruin, no limit", "0.3109% to 0.3183% (proven lattice bounds)") in pairs
    assert ("Lundberg's bounds", "0.3038% to 0.3183% (proven, wider)") in pairs
    assert ("diffusion approx.", "0.3213% (an approximation, no bound)") in pairs
    assert ("Ending 250 units down", "below 3e-08%") in pairs  # within the FFT's error of 0: never 0.0000%


def test_another_strategy_is_counted_and_the_optimal_threshold_changes_nothing() -> None:
    optimal = risk(SPEC, bankroll=Fraction(10), rounds=5, wager="ante_play").wagers[0]
    threshold = risk(SPEC, bankroll=Fraction(10), rounds=5, wager="ante_play", strategy=parse_strategy("Q-6-4"))
    always = risk(SPEC, bankroll=Fraction(10), rounds=5, wager="ante_play", strategy=parse_strategy("always-play"))
    assert threshold.wagers[0].distribution == optimal.distribution
    assert always.wagers[0].player == "strategy: always-play"
    assert always.wagers[0].figures.stats.mean < optimal.figures.stats.mean
    assert risk_figures(optimal.distribution) == optimal.figures
    assert parse_strategy("mimic-dealer").kind is StrategyKind.MIMIC_DEALER


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (
            ("--bankroll", "0", "--rounds", "10"),
            1,
            "error: a bankroll of 0 units (give more than 0 and at most 1,000,000 units)\n",
        ),
        (("--bankroll", "lots", "--rounds", "10"), 2, "'lots' is not a number of units such as 250 or 12.5"),
        (("--bankroll", "1e999999", "--rounds", "10"), 2, "'1e999999' is not a number of units such as 250 or 12.5"),
        (
            ("--bankroll", "10", "--rounds", "10", "--loss", "-3"),
            2,
            "'-3' is not a number of units such as 250 or 12.5",
        ),
        (("--bankroll", "10", "--rounds", "0"), 1, "error: 0 rounds (give 1 to 10,000,000 rounds)\n"),
        (
            ("--bankroll", "10", "--rounds", "10", "--wager", "bingo"),
            1,
            "error: the game has no wager 'bingo' (give one of ante_play, pair_plus, prime, six_card_bonus)\n",
        ),
        (
            ("--bankroll", "10", "--rounds", "10", "--seen-card", "one", "--wager", "pair_plus"),
            1,
            "error: a seen dealer card changes Ante & Play's decisions, not pair_plus (give --wager ante_play)\n",
        ),
        (
            ("--bankroll", "10", "--rounds", "10", "--seen-card", "three"),
            1,
            "error: --seen-card 'three' (give one of one, two, ace-face-other, high-low)\n",
        ),
        (
            ("--bankroll", "10", "--rounds", "10", "--strategy", "sometimes"),
            1,
            "error: cannot read the strategy 'sometimes': 'sometimes' is not a three-card hand written like Q-6-4 "
            "(give always-play, mimic-dealer, optimal or a high-card hand such as Q-6-4)\n",
        ),
        (
            ("--bankroll", "10", "--rounds", "10", "--strategy", "optimal", "--seen-card", "one"),
            1,
            "error: --seen-card plays the informed strategy (give --seen-card or --strategy, not both)\n",
        ),
    ],
)
def test_bad_input_is_refused_with_its_reason(args: tuple[str, ...], code: int, message: str) -> None:
    result = run_cli("risk", STANDARD, *args)
    assert result.exit_code == code
    assert result.stderr == message if code == 1 else message in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_a_figure_beyond_its_bound_says_why_and_the_others_are_given() -> None:
    report = risk(SPEC, bankroll=Fraction(5), rounds=4_200, wager="six_card_bonus")  # 4,204,201 results
    (w,) = report.wagers
    assert w.session is None and w.session_why is not None and "at most 4,194,304 are computed" in w.session_why
    assert w.ruin is not None and w.eventual.exact == 1
    with pytest.raises(TreyError, match="a bankroll of 2000000 units"):
        risk(SPEC, bankroll=Fraction(2_000_000), rounds=10)


def test_the_chance_of_a_loss_is_the_sessions_and_the_bankroll_is_printed_as_given() -> None:
    result = run_cli("risk", STANDARD, "--bankroll", "12.5", "--rounds", "50", "--wager", "prime", "--loss", "3")
    assert result.exit_code == 0, result.stderr
    report = risk(SPEC, bankroll=Fraction(25, 2), rounds=50, wager="prime", loss=Fraction(3))
    (w,) = report.wagers
    assert w.session is not None and w.session.exact
    brute = sum(  # P(result <= -3), from the session's own exact counts, lattice point by point
        (Fraction(c, w.session.total) for k, c in enumerate(w.session.counts or ()) if w.session.value(k) <= -3),
        Fraction(0),
    )
    assert w.session.at_most(Fraction(-3)) == brute
    line = next(line for line in result.stdout.splitlines() if line.startswith("Ending 3 units down"))
    assert line.split()[-1] == percent_text(brute)
    assert "Ruin of 12.5 units in 50 rounds" in result.stdout


def test_a_session_too_long_to_count_is_the_normal_law_within_its_berry_esseen_error() -> None:
    """Red team: at 10,000,000 rounds trey risk gave no session figure and no ruin at all. Past what is counted,
    the normal approximation with the Berry–Esseen bound on its error; here checked against sessions that are
    counted (1,000 and 20,000 rounds): every counted chance lies within the stated error of the normal one."""
    from trey.engine.risk import normal_session

    distribution = risk(SPEC, bankroll=Fraction(40), rounds=60, wager="ante_play").wagers[0].distribution
    for rounds in (1_000, 20_000):
        counted = rounds_distribution(distribution, rounds)
        normal = normal_session(distribution, rounds)
        assert 0 < normal.error < 0.03
        for x in (-400, -100, -40, 0, 40):
            assert abs(float(counted.at_most(Fraction(x))) - normal.at_most(Fraction(x))) <= normal.error + 1e-12
        for p in (Fraction(1, 20), Fraction(1, 2), Fraction(19, 20)):
            low, high = normal.quantile_bracket(p)
            assert low is not None and high is not None and low <= float(counted.quantile(p)) <= high + 1
    result = run_cli("risk", STANDARD, "--bankroll", "250", "--rounds", "10000000", "--wager", "ante_play")
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "normal approx. (too long to count), Berry–Esseen: chances ±0.02 pt" in text
    assert "Ruin of 250 units in 10,000,000 rounds at least 99.9801%" not in text
    assert (
        "Ruin of 250 units in 10,000,000 rounds 99.9801% to 100% (proven: ending it down, ruin with no limit)" in text
    )
    data = json.loads(
        run_cli(
            "risk", STANDARD, "--bankroll", "250", "--rounds", "10000000", "--wager", "ante_play", "--format", "json"
        ).stdout
    )
    assert list(validator("risk").iter_errors(data)) == []
    (wager,) = data["wagers"]
    assert wager["session"] is None and wager["session_normal"]["error_bound"] == 0.000199
    assert wager["ruin_within"] is None and wager["ruin_within_at_least"] > 0.9998
