"""Progressive jackpots: RTP against the meter, break-even, envy, long-run RTP, a simulation that carries the meter,
and the certificate, verification and dealer sheet of a progressive written in YAML alone."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import PAYTABLES, run_cli
from trey.core.jsonschemas import validator
from trey.core.numbers import percent_text
from trey.documents.dealer_view import _pick_worked_hands, dealer_sheet_context
from trey.engine import analyze
from trey.paytable.load import check_bytes, load_spec
from trey.paytable.model import GameSpec, Paytable
from trey.paytable.pays import Amount, MeterShare
from trey.play.settle import Settler
from trey.play.simulate import simulate

PROGRESSIVE = PAYTABLES / "progressive" / "three-card-progressive.yaml"
SPEC = load_spec(PROGRESSIVE)
RESULT = analyze(SPEC).wagers["progressive"]
P = RESULT.progressive
assert P is not None

# A tiny synthetic progressive that hits often: the meter on a pair, half of it on a straight (docs/progressive.md).
PAIR_JACKPOT = b"""trey: 2
name: Pair jackpot
side_bets:
  jackpot:
    reads: player_hand
    stake: 5
    pays:
      three_of_a_kind: {amount: 60}
      straight: {meter: 50%}
      pair: {meter: 100%}
    envy: {three_of_a_kind: 10}
    progressive: {reset: 20, increment: 20%, other_bettors: 2}
"""


def pair_jackpot() -> GameSpec:
    spec = check_bytes(PAIR_JACKPOT, "pair.yaml").spec
    assert spec is not None
    return spec


def test_the_published_break_even_meters() -> None:
    """docs/side-bets.md (Progressive): $11,520 with no envy, $175 less for each other bettor."""
    assert P.break_even(0) == 11_520
    for k in range(1, 7):
        assert P.break_even(k) == 11_520 - 175 * k
    # by hand: fixed = (3 x 500 + 44 x 100 + 52 x 90) / 22,100, the meter paid 1 time in 22,100
    assert P.fixed == Fraction(10_580, 22_100)
    assert P.meter_coefficient == Fraction(1, 22_100)
    assert P.envy_per_bettor == Fraction(1 * 100 + 3 * 25, 22_100)
    assert P.rtp_at_reset == Fraction(10_580 + 5_000, 22_100)  # 70.5% at a $5,000 meter


@pytest.mark.parametrize("meter", [Fraction(0), Fraction(5_000), Fraction(11_520), Fraction(123_456, 7)])
def test_rtp_is_linear_in_the_meter_with_the_printed_coefficients(meter: Fraction) -> None:
    """The engine's RTP of the same bet with the meter row paid as a fixed amount of M equals fixed + b x M."""
    bet = SPEC.wagers.side_bet("progressive")
    as_amount = Paytable(
        bet.pays.outcomes, tuple((o, Amount(meter) if isinstance(p, MeterShare) else p) for o, p in bet.pays)
    )
    fixed_bet = replace(bet, pays=as_amount, progressive=None)
    spec = replace(SPEC, wagers=replace(SPEC.wagers, ante_play=None, side_bets=(fixed_bet,)))
    assert analyze(spec).wagers["progressive"].stats.rtp == P.rtp_at(meter) == P.fixed + P.meter_coefficient * meter


def test_envy_for_k_bettors_is_k_times_one() -> None:
    table = P.envy_table()
    assert [row.other_bettors for row in table] == list(range(7))
    for row in table:
        assert row.rtp_at_reset - P.rtp_at_reset == row.other_bettors * P.envy_per_bettor
        assert row.long_run_rtp - P.long_run_rtp == row.other_bettors * P.envy_per_bettor


# Issue 30.9: the shipped progressive lost on a fold, its envy bonus paid to a bettor who folds or not, as the file
# says.
def _envy_on_fold(rule: str | None) -> GameSpec:
    text = PROGRESSIVE.read_text().replace("on_fold: stands", "on_fold: lost")
    if rule is not None:
        text = text.replace("on_fold: lost", f"on_fold: lost\n    envy_on_fold: {rule}")
    spec = check_bytes(text.encode(), "envy.yaml").spec
    assert spec is not None
    return spec


@pytest.mark.parametrize("rule", [None, "paid", "lost"])
def test_an_envy_bonus_on_a_fold_is_counted_as_the_file_says(rule: str | None) -> None:
    """Counted another way, over every (this bettor's hand, another bettor's hand) deal of 22,100 x 18,424: the four
    mini-royals another bettor may hold (100 for spades, 25 for the others) that share no card with this bettor's
    hand, on every deal ("paid", the default) or only on those this bettor plays ("lost")."""
    from trey.cards.card import parse_cards
    from trey.cards.hand_table import hand_table
    from trey.present.labels import fold_sentence, variant_rows

    spec = _envy_on_fold(rule)
    analysis = analyze(spec)
    p = analysis.wagers["progressive"].progressive
    assert p is not None and analysis.plays is not None
    royals = [(set(parse_cards(f"A{s} K{s} Q{s}")), 100 if s == "s" else 25) for s in "shdc"]
    envy = 0
    for hand, played in zip(hand_table().cards.tolist(), analysis.plays.tolist(), strict=True):
        if played or rule != "lost":
            envy += sum(amount for royal, amount in royals if royal.isdisjoint(hand))
    assert p.envy_per_bettor == Fraction(envy, 22_100 * 18_424)
    assert (p.envy_per_bettor == P.envy_per_bettor) == (rule != "lost")  # the default is today's count
    # every figure with envy follows; the one bettor's own figures do not move
    assert p.rtp_at_reset_with_envy == p.rtp_at_reset + p.other_bettors * p.envy_per_bettor
    assert p.break_even(2) == (1 - p.fixed - 2 * p.envy_per_bettor) / p.meter_coefficient
    # the file says it only when it is not the default, so that the files and certificates written before read alike
    bet = spec.wagers.side_bet("progressive")
    assert bet.canonical().get("envy_on_fold") == ("lost" if rule == "lost" else None)
    words = "not paid: lost with the bet" if rule == "lost" else "paid all the same"
    assert ("Three Card Progressive's envy bonus when the player folds", words) in variant_rows(spec)
    assert f"Three Card Progressive is lost with the Ante (its envy bonus {words})." in fold_sentence(spec)


def test_the_long_run_rtp_by_hand() -> None:
    # fixed + increment + P(100% jackpot) x reset / stake
    assert P.long_run_rtp == Fraction(10_580, 22_100) + Fraction(1, 10) + Fraction(5_000, 22_100)
    assert P.jackpot_probability == Fraction(1, 22_100)


def test_figures_at_reset_and_at_break_even() -> None:
    assert RESULT.stats.rtp == P.rtp_at_reset == P.stats_at_reset.rtp
    assert P.stats_at_break_even is not None and P.stats_at_break_even.rtp == 1
    assert P.stats_at_reset.hit_frequency == Fraction(1 + 3 + 44 + 52, 22_100)
    assert RESULT.cycle == 22_100
    # at reset the spade mini-royal nets 5,000 - 1 on the $1 stake
    assert [(r.outcome, r.pays) for r in RESULT.outcomes][:2] == [("mini_royal_spades", 4999), ("mini_royal", 499)]


def test_a_simulation_carries_the_meter_and_agrees_with_the_long_run_formula() -> None:
    spec = pair_jackpot()
    exact = analyze(spec).wagers["jackpot"].progressive
    assert exact is not None
    one = simulate(spec, 1_500_000, 3, workers=1)
    two = simulate(spec, 1_500_000, 3, workers=2)
    assert one.wagers == two.wagers  # the meter is carried in chunk order, whatever the workers
    result = one.wagers["jackpot"]
    assert result.passed, result
    assert result.exact_rtp == exact.long_run_rtp  # the bettor's own hand: envy is exact, not simulated
    meter = result.meter
    assert meter is not None and meter.jackpots > 50_000
    # conservation: paid from the meter + what is left on it - the reset = every increment + every reseed
    increments = Fraction(1, 5) * 5 * 1_500_000
    assert meter.paid_from_meter + meter.final_meter - 20 == increments + meter.reseeded
    assert abs(float(meter.paid_rtp - exact.long_run_rtp)) < 0.01


def test_analysis_json_of_a_progressive_follows_its_schema() -> None:
    result = run_cli("analyze", PROGRESSIVE, "--format", "json", "--meter", "25000")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    validator("analysis").validate(data)
    progressive = data["wagers"]["progressive"]["progressive"]
    assert progressive["break_even_meter"] == "11520"
    assert progressive["rtp_formula"] == {
        "fixed": "529/1105",
        "envy_per_other_bettor": "7/884",
        "per_unit_of_meter": "1/22100",
    }
    assert progressive["at_meter"] == {"meter": "25000", "rtp_at_meter": str(Fraction(10_580 + 25_000, 22_100))}
    assert [row["break_even_meter"] for row in progressive["envy_table"]] == [str(11520 - 175 * k) for k in range(7)]


def test_analyze_prints_the_meter_figures() -> None:
    result = run_cli("analyze", PROGRESSIVE, "--meter", "25000")
    assert result.exit_code == 0
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    assert "RTP against the meter M 529/1105 + 1/22100 × M + 7/884 per other bettor" in lines
    assert "RTP at $25,000, lone bettor 160.9955%" in lines
    assert "Break-even meter, lone bettor $11,520 (11520)" in lines
    assert run_cli("analyze", PROGRESSIVE, "--meter", "lots").exit_code == 2


def test_a_progressive_is_certified_verified_and_judged_on_its_named_figures(tmp_path: Path) -> None:
    result = run_cli("certify", PROGRESSIVE, "--out", tmp_path, "--date", "2026-01-01", "--simulate", "50000")
    assert result.exit_code == 0, result.stderr
    data = json.loads((tmp_path / "three-card-progressive.certificate.json").read_text())
    edge = [c["detail"] for c in data["checks"] if c["wager"] == "progressive" and c["check"] == "house_edge_positive"]
    # the long-run RTP with six other bettors' envy: 1779/2210 + 6 x 7/884
    worst = 1 - Fraction(1779, 2210) - 6 * Fraction(7, 884)
    assert edge == [f"house edge {percent_text(worst)} (long run, 6 other bettors' envy included)"]
    assert data["simulation"]["wagers"]["progressive"]["meter"]["jackpots"] >= 0
    assert run_cli("verify", tmp_path / "three-card-progressive.certificate.json").exit_code == 0
    text = " ".join(
        " ".join(p.extract_text().split())
        for p in PdfReader(tmp_path / next(p.name for p in tmp_path.glob("*.pdf"))).pages
    )
    assert "Progressive: Three Card Progressive" in text
    assert "Break-even meter (RTP = 100%), lone bettor $11,520 (11520)" in text
    assert "Increment (share of every stake added to the meter) 10%" in text
    assert "RTP at a meter M (exact coefficients) 529/1105 + 1/22100 × M + 7/884 × other bettors" in text
    html = (tmp_path / "three-card-progressive.certificate.html").read_text()
    assert html.count("data:image/svg+xml;base64,") == 1 + 1  # the contributions to RTP, the RTP-meter chart
    assert (
        "<figcaption>Three Card Progressive: a lone bettor&#39;s RTP against the meter, from the reset to $23,040; "
        "the dashed line is 100%, the red line the break-even meter.</figcaption>"
    ) in html


def test_the_dealer_sheet_prints_amounts_meter_shares_and_envy(tmp_path: Path) -> None:
    result = run_cli("cheatsheet", PROGRESSIVE, "--out", tmp_path, "--date", "2026-01-01")
    assert result.exit_code == 0, result.stderr
    text = " ".join(PdfReader(next(tmp_path.glob("*.pdf"))).pages[0].extract_text().split())
    assert "Mini royal spades 100% of the meter" in text
    assert "Mini-royal (A-K-Q suited) $500" in text
    assert "Three of a kind $90" in text
    assert "Three Card Progressive: envy bonus" in text
    assert "A $1 bet. Amounts and meter shares are paid for the bet" in text


def test_worked_hands_that_hit_the_jackpot_are_settled_by_the_settlement() -> None:
    spec = pair_jackpot()
    settler = Settler(spec)
    hands = _pick_worked_hands(settler)
    context = dealer_sheet_context(spec, analyze(spec), paper="letter", effective=date(2026, 1, 1), bets=None)
    hits = 0
    for (player, dealer), shown in zip(hands, context["worked_hands"], strict=True):
        settled = settler.settle_round(player, dealer)["jackpot"]
        ((label, text),) = shown["lines"]
        assert label == "Jackpot"
        net = settled.net * 5  # on the $5 stake, the meter at its reset of $20
        assert net.denominator == 1
        expected = "push" if net == 0 else f"+${int(net):,}" if net > 0 else f"−${int(-net):,}"
        assert text.startswith(expected)
        if "of the meter at $20" in text:
            hits += 1
            assert settled.net == Fraction(20, 5) * (1 if "100%" in text else Fraction(1, 2)) - 1
    assert hits >= 1


def test_a_meter_share_is_paid_in_cents_so_a_long_run_costs_no_more_per_round() -> None:
    """Issue 18.12: a 12.5% share on a frequent row, never reset. Exact fractions of fractions made the meter's
    denominator grow with every hit (160,000 rounds took 22 s); paid in whole cents, it stays bounded and the
    meter's books still balance exactly."""
    text = PAIR_JACKPOT.replace(b"pair: {meter: 100%}", b"pair: {meter: 12.5%}").replace(b"20%", b"1/3")
    spec = check_bytes(text, "share.yaml").spec
    assert spec is not None
    result = simulate(spec, 300_000, 5, workers=1)
    meter = result.wagers["jackpot"].meter
    assert meter is not None and meter.jackpots > 40_000
    # each stake of 5 adds 5/3 to the meter: the meter never needs a finer unit than a cent and a third
    assert (meter.final_meter * 300).denominator == 1
    assert (meter.paid_from_meter * 100).denominator == 1  # whole cents paid
    stakes = 5 * 300_000
    assert meter.paid_from_meter + meter.final_meter - 20 == Fraction(stakes, 3) + meter.reseeded
