"""The table's money: the blended edge against the single-seat figures weighted by the money on each wager, the
hour's range from the whole table's moments, and ``trey analyze --mix``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conftest import run_cli
from trey.engine import analyze
from trey.engine.money import BetMix, MixBet, parse_mix_bet, table_mix, table_money
from trey.engine.table import round_variance
from trey.paytable.load import load_spec
from trey.play.table import table_moments

REPO = Path(__file__).resolve().parents[2]
STANDARD = REPO / "paytables" / "standard.yaml"
PAIR_PLUS = REPO / "paytables" / "pair_plus" / "40-30-6-3-1.yaml"


def test_blended_edge_is_the_edges_weighted_by_the_money_on_them() -> None:
    analysis = analyze(load_spec(STANDARD))
    mix = BetMix(
        (
            MixBet("ante_play", Fraction(1), Fraction(25)),
            MixBet("pair_plus", Fraction(3, 5), Fraction(10)),
            MixBet("six_card_bonus", Fraction(1, 5), Fraction(5)),
        ),
        seats=6,
        occupancy=Fraction(3, 4),
        decisions_per_hour=50,
    )
    money = table_money(analysis, mix)
    edges = {w: analysis.wagers[w].stats.house_edge for w in ("ante_play", "pair_plus", "six_card_bonus")}
    weighted = (25 * edges["ante_play"] + 6 * edges["pair_plus"] + 1 * edges["six_card_bonus"]) / 32
    assert money.blended_edge == weighted
    assert money.theo_per_hour == weighted * 32 * Fraction(9, 2) * 50  # 4.5 seats seated, 50 rounds an hour
    assert money.variance_per_hour is None and money.range_per_hour() is None


def test_the_hour_of_a_pair_plus_table() -> None:
    spec = load_spec(PAIR_PLUS)
    analysis, moments = analyze(spec), table_moments(spec)
    mix = BetMix((MixBet("pair_plus", Fraction(1), Fraction(10)),), seats=7, decisions_per_hour=60)
    money = table_money(analysis, mix, moments)
    stats = analysis.wagers["pair_plus"].stats
    cov = moments.covariance_other_seat("pair_plus", "pair_plus")
    assert money.variance_per_hour == 60 * 100 * (7 * stats.variance + 42 * cov)
    assert money.variance_per_hour == 60 * round_variance(moments, mix.seating, 7)
    assert money.independent_variance_per_hour == 60 * 100 * 7 * stats.variance
    low, high = money.range_per_hour() or (0.0, 0.0)
    assert low < float(money.theo_per_hour) < high


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pair_plus", "'pair_plus': write WAGER=BET or WAGER=SHARE@BET, e.g. pair_plus=60%@10"),
        ("pair_plus=ten", "'pair_plus=ten': the average bet 'ten' is not a number"),
        ("pair_plus=half@10", "'half' is not a share (write 0.6, 60% or 3/5)"),
        ("pair_plus=60%@0", "the average bet on pair_plus must be positive"),
        ("pair_plus=1e300", "'pair_plus=1e300': the average bet '1e300' is not a number"),
        ("pair_plus=2000000000", "the average bet on pair_plus must be at most 1,000,000,000"),
        ("pair_plus=1e-300@10", "'1e-300' is not a share (write 0.6, 60% or 3/5)"),
    ],
)
def test_bad_mix_texts(text: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_mix_bet(text)
    assert str(caught.value) == message


def test_parsed_mix() -> None:
    assert parse_mix_bet("pair_plus=60%@10") == MixBet("pair_plus", Fraction(3, 5), Fraction(10))
    assert parse_mix_bet("ante_play=25") == MixBet("ante_play", Fraction(1), Fraction(25))


def test_analyze_with_a_mix_terminal_and_json() -> None:
    run = run_cli("analyze", str(PAIR_PLUS), "--mix", "pair_plus=10", "--occupancy", "80%", "--seats", "7")
    assert run.exit_code == 0
    assert "The table's money" in run.stdout
    assert "seats 7, occupancy 80%, 60 decisions an hour" in run.stdout
    assert "theoretical win per table-hour: 244.47 USD of 3,360.00 wagered" in run.stdout
    run = run_cli(
        "analyze", str(PAIR_PLUS), "--mix", "pair_plus=10", "--seats", "7", "--occupancy", "1", "--format", "json"
    )
    data = json.loads(run.stdout)
    schema = json.loads((REPO / "schemas" / "analysis.schema.json").read_text())
    Draft202012Validator(schema).validate(data)
    assert data["table_money"]["blended_house_edge_exact"] == "402/5525"
    assert data["table_money"]["theoretical_win_per_hour"] == 305.59


def test_analyze_refuses_a_wager_the_game_does_not_offer() -> None:
    run = run_cli("analyze", str(PAIR_PLUS), "--mix", "ante_play=10")
    assert run.exit_code == 1
    assert run.stderr == (
        "error: --mix: the game offers no wager 'ante_play' (it offers pair_plus) "
        "(e.g. --mix ante_play=25 --mix pair_plus=60%@10)\n"
    )


def test_compare_with_a_mix() -> None:
    other = REPO / "paytables" / "pair_plus" / "35-25-6-4-1.yaml"
    table = ("--seats", "7", "--occupancy", "100%")
    run = run_cli("compare", str(PAIR_PLUS), str(other), "--mix", "pair_plus=60%@10", *table, "--format", "json")
    assert run.exit_code == 0
    data = json.loads(run.stdout)
    schema = json.loads((REPO / "schemas" / "comparison.schema.json").read_text())
    Draft202012Validator(schema).validate(data)
    for row, path in zip(data["table_money"], (PAIR_PLUS, other), strict=True):
        edge = analyze(load_spec(path)).wagers["pair_plus"].stats.house_edge
        assert row["blended_house_edge_exact"] == str(edge)
        assert row["theoretical_win_per_hour"] == round(float(edge * 6 * 7 * 60), 2)
    run = run_cli("compare", str(PAIR_PLUS), str(other), "--mix", "pair_plus=60%@10", "--format", "csv")
    assert run.exit_code == 2


# The shipped example's table: every seat on Pair Plus at 10, 6 seats 75% full, 60 rounds an hour.
PAIR_PLUS_MIX = BetMix((MixBet("pair_plus", Fraction(1), Fraction(10)),), 6, Fraction(3, 4), 60)


def test_the_paytable_s_table_is_read_as_the_bet_mix() -> None:
    spec = load_spec(PAIR_PLUS)
    assert table_mix(spec) == PAIR_PLUS_MIX
    assert spec.table is not None and spec.table.canonical()["side_bets"] == {
        "pair_plus": {"share": "100%", "average_bet": 10}
    }
    assert table_mix(load_spec(STANDARD)) is None  # limits and chips alone describe no mix


def test_analyze_takes_the_mix_from_the_table_and_the_command_line_overrides_it() -> None:
    edge = analyze(load_spec(PAIR_PLUS)).wagers["pair_plus"].stats.house_edge
    run = run_cli("analyze", str(PAIR_PLUS), "--format", "json")
    assert run.exit_code == 0, run.stderr
    data = json.loads(run.stdout)
    Draft202012Validator(json.loads((REPO / "schemas" / "analysis.schema.json").read_text())).validate(data)
    money = data["table_money"]
    assert money["from"] == {
        "bets": "paytable",
        "seats": "paytable",
        "occupancy": "paytable",
        "decisions_per_hour": "paytable",
    }
    assert (money["seats"], money["occupancy"], money["decisions_per_hour"]) == (6, 0.75, 60)
    assert money["theoretical_win_per_hour"] == round(float(edge * 10 * Fraction(9, 2) * 60), 2) == 196.45
    run = run_cli("analyze", str(PAIR_PLUS), "--seats", "7", "--decisions-per-hour", "50")
    assert run.exit_code == 0, run.stderr
    assert (
        "  from the paytable (table:): bets, occupancy; the command line: seats, decisions per hour\n"
        "  bet mix: pair_plus 100% at 10.00\n"
        "  seats 7, occupancy 75%, 50 decisions an hour\n"
    ) in run.stdout
    assert f"theoretical win per table-hour: {float(edge * 10 * Fraction(21, 4) * 50):,.2f} USD" in run.stdout
    run = run_cli("analyze", str(PAIR_PLUS), "--mix", "pair_plus=60%@5", "--format", "json")
    money = json.loads(run.stdout)["table_money"]
    assert money["from"]["bets"] == "command line" and money["from"]["seats"] == "paytable"
    assert money["bets"] == [{"wager": "pair_plus", "share": 0.6, "average_bet": 5.0}]


def test_without_a_mix_seats_are_refused_and_analyze_is_unchanged() -> None:
    run = run_cli("analyze", str(STANDARD), "--seats", "6")
    assert run.exit_code == 2
    assert "--seats and --occupancy go with a bet mix: --mix, or the paytable's table:" in run.stderr
    run = run_cli("analyze", str(PAIR_PLUS), "--format", "csv")
    assert run.exit_code == 0 and "table's money" not in run.stdout


def test_compare_takes_the_first_file_s_table() -> None:
    other = REPO / "paytables" / "pair_plus" / "35-25-6-4-1.yaml"
    run = run_cli("compare", str(PAIR_PLUS), str(other), "--format", "json")
    assert run.exit_code == 0, run.stderr
    data = json.loads(run.stdout)
    Draft202012Validator(json.loads((REPO / "schemas" / "comparison.schema.json").read_text())).validate(data)
    assert data["table_money_from"]["bets"] == "paytable"
    for row, path in zip(data["table_money"], (PAIR_PLUS, other), strict=True):
        edge = analyze(load_spec(path)).wagers["pair_plus"].stats.house_edge
        assert row["theoretical_win_per_hour"] == round(float(edge * 10 * Fraction(9, 2) * 60), 2)
    run = run_cli("compare", str(other), str(PAIR_PLUS))
    assert run.exit_code == 0 and "table's money" not in run.stdout  # the first file has no table: mix


def test_the_round_payout_bound_holds_for_one_seat() -> None:
    """One seat of Pair Plus at 10: the exact tail of its net (from the outcome table) is under Cantelli's bound."""
    spec = load_spec(PAIR_PLUS)
    analysis = analyze(spec)
    money = table_money(
        analysis, BetMix((MixBet("pair_plus", Fraction(1), Fraction(10)),), seats=1), table_moments(spec)
    )
    rows = analysis.wagers["pair_plus"].outcomes
    for amount in (Fraction(10), Fraction(60), Fraction(300), Fraction(400)):
        exact = sum((r.probability for r in rows if 10 * r.pays >= amount), Fraction(0))
        bound = money.liability_bound(amount)
        assert bound is not None and float(exact) <= bound < 1


def test_a_family_game_s_table_mix_is_said_not_shown(tmp_path: Path) -> None:
    text = (
        "trey: 3\nname: Ante pushes\ngame: {ante_when_dealer_does_not_qualify: pushes}\n"
        "table: {average_bet: 25, seats: 6}\nwagers: {ante_play: {}}\n"
    )
    path = tmp_path / "pushes.yaml"
    path.write_text(text)
    run = run_cli("analyze", str(path), "--format", "json")
    assert run.exit_code == 0 and "table_money" not in json.loads(run.stdout)
    assert run.stderr == (
        "note: Ante pushes: the table's money (table: seats, occupancy, side_bets) is worked out for standard "
        "Three Card Poker; not shown\n"
    )


def test_an_occupancy_option_is_read_as_a_share_and_named_when_wrong() -> None:
    """Red team: --occupancy 1e-300 ended in a ZeroDivisionError's traceback, and its error was located at the
    paytable's table: when it was the option's."""
    for command in ("analyze", "compare"):
        other = PAIR_PLUS.parent / "35-25-6-4-1.yaml"
        files = [str(PAIR_PLUS), str(other)] if command == "compare" else [str(PAIR_PLUS)]
        run = run_cli(command, *files, "--occupancy", "1e-300")
        assert (run.exit_code, run.stderr) == (
            1,
            "error: --occupancy: '1e-300' is not a share (write 0.6, 60% or 3/5) (e.g. --occupancy 75%)\n",
        )
