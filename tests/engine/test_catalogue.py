"""The wager catalogue end to end: side bets written in YAML alone are analysed, simulated, certified, verified
and printed on the dealer sheet, with figures equal to the built-in tables they restate."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from conftest import DATA, PAYTABLES, run_cli
from trey.core.numbers import percent_text
from trey.engine import analyze
from trey.paytable.load import check_bytes, load_spec
from trey.play.simulate import simulate

SIDE_BETS = PAYTABLES / "side_bets"


@pytest.mark.parametrize(
    ("side_bet_file", "built_in", "edge"),
    [
        ("pair-plus-mini-royal-100.yaml", "pair_plus/40-30-5-4-1-mini-royal-100.yaml", "4.49%"),
        ("pair-plus-mini-royal-50.yaml", "pair_plus/40-30-5-4-1-mini-royal-50.yaml", "5.39%"),
        ("pair-plus-40-30-6-3-1-mini-royal-50.yaml", "pair_plus/40-30-6-3-1-mini-royal-50.yaml", "7.10%"),
    ],
)
def test_mini_royal_side_bets_have_the_figures_of_the_pair_plus_tables(
    side_bet_file: str, built_in: str, edge: str
) -> None:
    side_bet = analyze(load_spec(SIDE_BETS / side_bet_file)).wagers["pair_plus_mini_royal"]
    preset = analyze(load_spec(PAYTABLES / built_in)).wagers["pair_plus"]
    assert side_bet.stats == preset.stats
    assert percent_text(side_bet.stats.house_edge, 2) == edge  # docs/published-figures.md


def test_a_dealer_bonus_in_yaml_has_the_figures_of_the_same_pair_plus() -> None:
    analysis = analyze(load_spec(SIDE_BETS / "dealer-bonus.yaml"))
    assert analysis.wagers["dealer_bonus"].stats == analysis.wagers["pair_plus"].stats
    assert analysis.wagers["dealer_bonus"].title == "Dealer Bonus"
    assert percent_text(analysis.wagers["dealer_bonus"].stats.house_edge, 2) == "7.28%"  # 40-30-6-3-1


def test_the_suited_royal_is_paid_apart_from_the_others() -> None:
    result = analyze(load_spec(SIDE_BETS / "six-card-diamond-royal.yaml")).wagers["diamond_royal"]
    rows = {r.outcome: (r.pays, r.combinations) for r in result.outcomes}
    assert rows["royal_flush_diamonds"] == (20000, 47)  # 188 royal flushes, a quarter of them in diamonds
    assert rows["royal_flush"] == (2000, 141)
    assert rows["straight_flush"] == (200, 1656)
    # by hand: every paying class times its pay, less the losing sets, over C(52, 6)
    paid = 47 * 20000 + 141 * 2000 + 1656 * 200 + 14664 * 50 + 165984 * 20 + 205792 * 15 + 361620 * 10 + 732160 * 5
    paying = 47 + 141 + 1656 + 14664 + 165984 + 205792 + 361620 + 732160
    assert result.stats.mean == Fraction(paid - (20358520 - paying), 20358520)


def test_a_side_bet_simulates_against_its_exact_figures() -> None:
    spec = load_spec(SIDE_BETS / "dealer-bonus.yaml")
    result = simulate(spec, 300_000, 7)
    assert list(result.wagers) == ["ante_play", "pair_plus", "dealer_bonus"]
    assert result.wagers["dealer_bonus"].passed and result.passed


def test_side_bets_lost_on_a_fold_simulate_against_their_exact_figures(tmp_path: Path) -> None:
    """Bets on the dealer's hand, the six cards and the colours, each lost when the player folds: the exact
    counts over played deals (inclusion-exclusion and suit patterns) against dealt rounds."""
    path = tmp_path / "lost.yaml"
    path.write_text(
        "trey: 2\nname: Lost on a fold\nwagers:\n  ante_play: {}\nside_bets:\n"
        "  dealer: {reads: dealer_hand, pays: {pair: 2, flush: 4}, on_fold: lost}\n"
        "  six: {reads: six_cards, pays: {two_pair: 2, three_of_a_kind: 5}, on_fold: lost}\n"
        "  colours: {reads: colours, pays: {three_same_colour: 3}, on_fold: lost}\n"
    )
    spec = load_spec(path)
    exact = analyze(spec)
    for wager in ("dealer", "six", "colours"):
        assert exact.wagers[wager].cycle == 407_170_400
        lose = exact.wagers[wager].outcomes[-1]
        assert lose.combinations >= 7_200 * 18_424  # every folded deal loses
    result = simulate(spec, 400_000, 11, analysis=exact)
    for wager in ("dealer", "six", "colours"):
        assert result.wagers[wager].passed, result.wagers[wager]


def test_a_side_bet_is_certified_verified_and_printed(tmp_path: Path) -> None:
    paytable = SIDE_BETS / "dealer-bonus.yaml"
    result = run_cli("certify", paytable, "--out", tmp_path, "--date", "2026-01-01", "--simulate", "100000")
    assert result.exit_code == 0, result.stderr
    data = json.loads((tmp_path / "dealer-bonus.certificate.json").read_text())
    assert list(data["analysis"]["wagers"]) == ["ante_play", "pair_plus", "dealer_bonus"]
    assert data["paytable"]["canonical"]["side_bets"]["dealer_bonus"]["reads"] == "dealer_hand"
    assert [c["wager"] for c in data["checks"] if c["check"] == "house_edge_positive"] == list(
        data["analysis"]["wagers"]
    )
    assert run_cli("verify", tmp_path / "dealer-bonus.certificate.json", "--paytable", paytable).exit_code == 0
    text = " ".join(
        " ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "dealer-bonus.certificate.pdf").pages
    )
    # the reading's title, not its id
    assert "Paid on the dealer's three cards; a deal is paid by the rarest row it fits." in text
    assert "Dealer Bonus: theoretical return to player 92.72%" in text
    result = run_cli("cheatsheet", paytable, "--out", tmp_path, "--date", "2026-01-01")
    assert result.exit_code == 0, result.stderr
    sheet = " ".join(PdfReader(tmp_path / "dealer-bonus.dealer-sheet.pdf").pages[0].extract_text().split())
    assert "Dealer Bonus Bet" in sheet
    assert "Settle in this order: Play → Ante Bonus → Ante → Pair Plus → Dealer Bonus." in sheet
    assert "When the player folds: Pair Plus is lost with the Ante; Dealer Bonus stands (settled on its own)." in sheet


RELEASE_0_1 = sorted((DATA / "release-0.1-analysis").glob("*.json"))


@pytest.mark.parametrize("reference", RELEASE_0_1, ids=lambda p: p.stem)
def test_format_1_files_give_the_figures_of_release_0_1(reference: Path) -> None:
    """`trey analyze --format json` of every shipped format-1 paytable, as release 0.1.0 printed it (before the
    catalogue): every figure identical. Only fields added since (titles, the strategy's decision, the range of the
    realised RTP, the outcomes by hand, the dealer's qualifying and the risk figures) are set aside."""
    from trey.figures.export import analysis_json

    assert len(RELEASE_0_1) == 22
    paytable = PAYTABLES / (reference.stem.replace("__", "/") + ".yaml")
    assert "\ntrey: 1\n" in "\n" + paytable.read_text()  # a format-1 file
    before = json.loads(reference.read_text())
    text = paytable.read_text()
    if "side_bets" in yaml.safe_load(text).get("table", {}):  # a table: bet mix added since (issue 34), at the end
        text = text[: text.index("\n# The table's money") + 1]  # the file as release 0.1 read it
    checked = check_bytes(text.encode(), paytable.name)
    assert checked.spec is not None, checked.errors
    after = analysis_json(analyze(checked.spec))
    assert before.pop("trey_version") == "0.1.0"
    after.pop("trey_version")
    for wager in after["wagers"].values():
        wager.pop("title")
        wager.pop("theoretical_win")
        wager.pop("rtp_range")
        wager.pop("by_hand", None)
        wager.pop("dealer_qualifies", None)
        wager.pop("risk")
        wager.get("strategy", {}).pop("decision", None)
    assert after == before


def test_the_ante_bonus_pays_a_mini_royal_row() -> None:
    data = load_spec(PAYTABLES / "standard.yaml").canonical()
    data["wagers"]["ante_play"]["ante_bonus"] = {"mini_royal": 50, "straight_flush": 5, "three_of_a_kind": 4}
    from trey.paytable.load import check_data

    spec = check_data(data, "mini-royal bonus").spec
    assert spec is not None
    ante = analyze(spec).ante_play
    assert ante is not None
    # every straight flush is played: 4 mini-royals and 44 other straight flushes, against 18,424 dealer hands each
    assert [(r.outcome, r.pays, r.combinations) for r in ante.ante_bonus] == [
        ("mini_royal", 50, 4 * 18_424),
        ("straight_flush", 5, 44 * 18_424),
        ("three_of_a_kind", 4, 52 * 18_424),
    ]


@pytest.mark.parametrize(
    ("rules", "strategy", "sentence"),
    [
        ({"dealer_qualifier": "pair"}, "optimal", "The player's decisions: play every hand."),
        ({}, "optimal", "The player's decisions: play Q-6-4 or better and fold the rest."),
        ({}, "mimic-dealer", "The player's decisions: play Q-3-2 or better and fold the rest."),
    ],
)
def test_the_strategy_is_worded_from_its_structure(rules: dict[str, str], strategy: str, sentence: str) -> None:
    from datetime import date

    from trey.documents.certificate_view import certificate_context
    from trey.paytable.load import check_data
    from trey.trust.certificate import build_certificate

    data = load_spec(PAYTABLES / "standard.yaml").canonical()
    data["rules"].update(rules)
    data["wagers"]["ante_play"]["strategy"] = strategy
    spec = check_data(data, "variant").spec
    assert spec is not None
    cert = build_certificate(spec, file_name="v.yaml", file_size=1, issue_date=date(2026, 1, 1))
    text = certificate_context(cert, json_name="v.json", paytable_name="v.yaml")["strategy_text"]
    assert text.endswith(sentence)
    assert "'play every hand' or better" not in text
