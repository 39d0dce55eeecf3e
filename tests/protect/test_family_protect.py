"""Game protection of the family's games (issue 31): the informed player's decision is the engine's
(:meth:`Expectations.decide`), its values the plain count's on sampled contexts (tests/family_brute.py, apart from
trey), and the standard game counted as a family game gives the standard protection's exact figures, which
docs/published-figures.md holds against the published ones (Jacobson's 3.4829% for one dealer card)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import family_brute as brute
from conftest import PAYTABLES, STANDARD, run_cli, standard_protection
from trey.cards.hand_table import hand_indexes
from trey.core.errors import TreyError
from trey.engine.decide import Expectations, hidden_counts, seen_cell_counts, suit_swap
from trey.engine.family import analyze_family
from trey.paytable.load import load_spec, load_spec_bytes
from trey.protect.family import FamilyProtection, protect_family

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"


@cache
def fu() -> Expectations:
    spec = load_spec(FACE_UP_ULTIMATE)
    assert spec.wagers.ante_play is not None
    return Expectations(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)


def plain_values(
    rules: brute.Rules, player: tuple[int, ...], dealer_cards: list[tuple[int, ...]]
) -> dict[int, Fraction]:
    """Each option's EV per Ante over the dealer hands listed, counted plainly."""
    mine = brute.hand_strength(tuple(sorted(player)))
    values = {}
    for option in brute.allowed_options(rules, mine):
        total = Fraction(0)
        for dealer in dealer_cards:
            theirs = brute.hand_strength(tuple(sorted(dealer)))
            qualifies = rules.qualifier is None or theirs >= rules.qualifier
            total += brute.net(rules, option, brute.row(mine), qualifies, (mine > theirs) - (mine < theirs))
        values[option] = total / len(dealer_cards)
    return values


def test_a_hole_card_seen_beyond_the_face_up_one_is_valued_and_decided_as_the_plain_count_says() -> None:
    rules = brute.RULE_SETS["face_up_ultimate"]
    rng = random.Random(32)
    expect = fu()
    q = load_spec(FACE_UP_ULTIMATE).rules.dealer_qualifier.minimum_key
    for _ in range(8):
        cards = rng.sample(range(52), 5)
        player, up, hole = tuple(cards[:3]), cards[3], cards[4]
        rest = [c for c in range(52) if c not in cards]
        plain = plain_values(rules, player, [(up, hole, last) for last in rest])
        hand = int(hand_indexes(np.array([player]))[0])
        counts = seen_cell_counts((up, hole), q)
        assert expect.values(counts[hand], hand) == plain
        assert int(expect.decide(counts[hand : hand + 1], np.array([hand]))[0]) == brute.best(plain)


def test_the_rank_of_the_hole_card_is_valued_over_every_hole_card_of_that_rank() -> None:
    rules = brute.RULE_SETS["face_up_ultimate"]
    expect = fu()
    q = load_spec(FACE_UP_ULTIMATE).rules.dealer_qualifier.minimum_key
    player, up, rank = (0, 17, 50), 44, 9  # 2c 6d Ah against the Q of clubs, the hole card a jack
    holes = [rank * 4 + s for s in range(4)]
    deals = [(up, h, last) for h in holes for last in range(52) if last not in (*player, up, h)]
    hand = int(hand_indexes(np.array([player]))[0])
    counts = sum(seen_cell_counts((up, h), q) for h in holes)
    assert expect.values(counts[hand], hand) == plain_values(rules, player, deals)


def test_one_seen_card_counts_as_the_engine_s_up_card_and_suits_swap_back() -> None:
    for up in (0, 37):
        assert np.array_equal(seen_cell_counts((up,), 2048), hidden_counts(up, 2048))
    swap = suit_swap(1, 3)
    assert np.array_equal(swap[swap], np.arange(len(swap)))


@cache
def standard_as_family() -> FamilyProtection:
    return protect_family(load_spec(STANDARD))


def test_the_standard_game_counted_as_a_family_game_is_the_standard_protection_exactly() -> None:
    family = {s.scenario: s for s in standard_as_family().scenarios}
    standard = {s.scenario: s for s in standard_protection().scenarios}
    assert family["one dealer card"].stats == standard["one dealer card"].stats
    assert family["one dealer card"].stats.mean == Fraction(443162, 12724075)  # +3.4829%, Jacobson
    for name in ("ace-face-other", "high-low"):
        assert (
            family[f"the class of one dealer card ({name})"].stats
            == standard[f"the class of one dealer card ({name})"].stats
        )
    assert family["the rank of one dealer card"].stats == family["one dealer card"].stats  # no flush without suits


def test_trey_protect_of_a_family_game_prints_its_exact_figures(tmp_path: object) -> None:
    text = "trey: 3\nname: Ante pushes\ngame: {ante_when_dealer_does_not_qualify: pushes}\nwagers: {ante_play: {}}\n"
    path = tmp_path / "pushes.yaml"  # type: ignore[operator]
    path.write_text(text)
    result = run_cli("protect", path, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [s["scenario"] for s in data["scenarios"]] == [
        "one dealer card",
        "the rank of one dealer card",
        "the class of one dealer card (ace-face-other)",
        "the class of one dealer card (high-low)",
    ]
    house_edge = analyze_family(load_spec_bytes(text.encode(), "pushes.yaml")).house_edge_per_ante
    assert data["house_edge"] == f"{house_edge}"
    for scenario in data["scenarios"]:
        assert Fraction(scenario["player_edge"]) - Fraction(scenario["gain"]) == -house_edge
        assert Fraction(scenario["gain"]) > 0 and scenario["deals"] == 22100 * 18424 * 3


def test_the_surveillance_sheet_of_a_family_game_lists_every_scenario_with_its_exact_edge(tmp_path: Path) -> None:
    from pypdf import PdfReader

    from trey.core.numbers import decimal_text, percent_text

    text = "trey: 3\nname: Ante pushes\ngame: {ante_when_dealer_does_not_qualify: pushes}\nwagers: {ante_play: {}}\n"
    path = tmp_path / "pushes.yaml"
    path.write_text(text)
    out = tmp_path / "sheet"
    money = ("--average-ante", "25")  # and the default pace: each leak's cost an hour and the hours until it shows
    result = run_cli("protect", path, "--out", out, "--date", "2026-12-01", *money, "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"wrote {out / 'pushes.surveillance.html'}\nwrote {out / 'pushes.surveillance.pdf'}\n"
    data = json.loads(result.stdout)
    leaks = {leak["scenario"]: leak for leak in data["leaks_in_money"]["leaks"]}
    assert data["leaks_in_money"]["decisions_per_hour"] == 60
    html = (out / "pushes.surveillance.html").read_text()
    house_edge = analyze_family(load_spec_bytes(text.encode(), "pushes.yaml")).house_edge_per_ante
    assert f"Normal play: house edge {percent_text(house_edge, 2)} per Ante with the" in html
    assert "some of the dealer's cards (all three dealt face down)" in html
    assert len(data["scenarios"]) == 4
    for s in data["scenarios"]:
        edge, gain = Fraction(s["player_edge"]), Fraction(s["gain"])
        off = decimal_text(Fraction(s["deviations"] * 1000, s["deals"]), 1)
        row = (
            f'<tr><td>{s["scenario"]}</td><td class="num">{percent_text(edge, 2)}</td>'
            f'<td class="num">+{decimal_text(gain * 100, 2)} pt</td><td class="num">'
        )
        leak = leaks[s["scenario"]]
        assert leak["cost_per_hour"] == round(float(gain * 25 * 60), 2)  # gain per Ante x Ante x pace
        money_cells = (
            f'<td class="num">${leak["cost_per_hour"]:,.2f}</td><td class="num">{leak["hours_to_show"]:,.1f} h'
        )
        assert row in html and f'<td class="num">{off}</td>{money_cells}</td></tr>' in html
        shares = "".join(
            f'<td class="num">{percent_text(Fraction(n, s["deals"]), 1)}</td>' for n in s["by_option"].values()
        )
        assert f"<tr><td>{s['scenario']}</td>{shares}</tr>" in html
    pages = PdfReader(out / "pushes.surveillance.pdf").pages
    assert len(pages) == 1
    words = " ".join(pages[0].extract_text().split())
    first = data["scenarios"][0]
    assert f"{first['scenario']} {percent_text(Fraction(first['player_edge']), 2)}" in words
    assert "Ante pushes · surveillance sheet" in words
    assert "one informed player at $25 an Ante (--average-ante) and 60 decisions an hour (the default)" in words
    # Written once: not replaced without --force, and nothing computed then.
    before = (out / "pushes.surveillance.pdf").read_bytes()
    again = run_cli("protect", path, "--out", out)
    assert (again.exit_code, again.stdout) == (1, "")
    assert again.stderr == (
        f"error: would overwrite {out / 'pushes.surveillance.html'}, {out / 'pushes.surveillance.pdf'} (use --force "
        "to replace them, or choose another --out)\n"
    )
    assert (out / "pushes.surveillance.pdf").read_bytes() == before


@pytest.mark.parametrize("card", [0, 51])
def test_seen_cards_holding_a_player_card_are_no_cell(card: int) -> None:
    counts = seen_cell_counts((card, 20), 2048)
    holding = hand_indexes(np.array([[card, 1, 2] if card else [0, 5, 9]]))
    assert counts[holding[0]].sum() == 0


def test_each_colluders_sample_is_decided_as_the_plain_count_over_the_dealer_hands_left() -> None:
    from trey.engine.decide import decision_table
    from trey.protect.family import _nets, colluder_sample_figures

    spec = load_spec(FACE_UP_ULTIMATE)
    assert spec.wagers.ante_play is not None
    expect = fu()
    normal = decision_table(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)
    rng = np.random.Generator(np.random.PCG64(7))
    cards = np.argsort(rng.random((40, 52)), axis=1)[:, : 3 + 1 + 6]  # the player, the up card, two colluders
    informed, optimal, staked, _, _ = colluder_sample_figures(spec, expect, normal, _nets(expect), cards)
    assert (informed >= optimal - 1e-12).all()  # the informed option is the best of the sample's
    rules = brute.RULE_SETS["face_up_ultimate"]
    for row in cards[:3].tolist():
        player, up, known = tuple(row[:3]), row[3], set(row)
        rest = [c for c in range(52) if c not in known]
        plain = plain_values(rules, player, [(up, a, b) for i, a in enumerate(rest) for b in rest[i + 1 :]])
        i = cards.tolist().index(row)
        assert informed[i] == pytest.approx(float(plain[brute.best(plain)]), abs=1e-12)
        assert staked[i] == 2 + brute.best(plain)


def test_the_colluders_figures_of_a_family_game_are_seeded() -> None:
    from trey.protect.family import family_colluders

    spec = load_spec(FACE_UP_ULTIMATE)
    analysis = analyze_family(spec)
    one = family_colluders(spec, analysis, colluders=1, samples=300, seed=3)
    assert one == family_colluders(spec, analysis, colluders=1, samples=300, seed=3)
    assert (one.scenario, one.samples, one.seed) == ("1 colluding seat's hands", 300, 3)
    assert one.gain >= 0 and one.edge == pytest.approx(float(analysis.stats.mean) + one.gain)
    with pytest.raises(TreyError, match="7 colluders and 300 samples"):
        family_colluders(spec, analysis, colluders=7, samples=300, seed=3)
