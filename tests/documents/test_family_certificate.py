"""trey certify and trey verify of a game of the Three Card Poker family (issue 31): certificate format 4, what its
rules, PAR tables and figures say, signed PDF/A-3b, verified from its JSON and from its PDF, tampering detected.
One signed certificate is rendered for the whole module (PDF renders are the suite's slowest thing)."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

import family_brute
from conftest import PAYTABLES, run_cli
from trey.core.jsonschemas import validator
from trey.engine.family import analyze_family
from trey.figures.family_par import family_par
from trey.paytable.load import load_spec
from trey.play.resolution import BY_TABLE, WAGERS, resolution_grid
from trey.rules.round import FOLD, Showdown

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
DATE = "2026-01-01"
EDGE = "1975131/50896300"  # 3.8807% per Ante: Stephen How and Eliot Jacobson (docs/published-figures.md)


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("keys")
    assert run_cli("keygen", "--out", out, "--name", "Example Lab").exit_code == 0
    return out


@pytest.fixture(scope="module")
def issued(tmp_path_factory: pytest.TempPathFactory, keys: Path) -> Path:
    out = tmp_path_factory.mktemp("family")
    key = keys / "trey-signing-key.pem"
    result = run_cli("certify", FACE_UP_ULTIMATE, "--out", out, "--date", DATE, "--sign", key)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        str(out / f"face-up-ultimate.certificate.{k}") for k in ("json", "html", "pdf")
    ]
    assert result.stderr.startswith("certificate ") and result.stderr.endswith(": overall PASS (generic profile)\n")
    return out / "face-up-ultimate.certificate.json"


@pytest.fixture(scope="module")
def data(issued: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(issued.read_text())
    return loaded


@pytest.fixture(scope="module")
def pages(issued: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(issued.with_suffix(".pdf")).pages]


def test_the_json_is_format_4_follows_its_schema_and_carries_the_family_figures(data: dict[str, Any]) -> None:
    assert list(validator("certificate").iter_errors(data)) == []
    assert data["certificate_format"] == 4
    game = data["analysis"]["game"]
    assert "wagers" not in data["analysis"]
    assert (game["house_edge_per_ante"], game["cycle"], game["cells"]) == (EDGE, 1_221_511_200, 1_082_900)
    assert data["paytable"]["canonical"] == load_spec(FACE_UP_ULTIMATE).canonical()
    assert [(c["check"], c["result"]) for c in data["checks"]] == [
        ("odds_wording", "PASS"),
        ("rarest_award_one_in_at_most", "PASS"),
        ("house_edge_positive", "PASS"),
    ]
    assert data["checks"][2]["detail"] == "house edge 3.8807% per Ante"
    assert data["overall"] == "PASS"


def test_the_par_tables_add_up_and_agree_with_counts_made_by_hand(data: dict[str, Any]) -> None:
    outcomes = data["outcomes"]
    cycle = data["analysis"]["game"]["cycle"]
    rows = outcomes["situations"]
    assert sum(r["combinations"] for r in rows) == cycle
    assert sum((Fraction(r["net"]) for r in rows), Fraction(0)) / cycle == -Fraction(EDGE)
    # Each option's rows hold the deals the engine says it takes.
    taken = {o["option"]: o["deals"] for o in data["analysis"]["game"]["options"]}
    for option, deals in taken.items():
        assert sum(r["combinations"] for r in rows if r["option"] == option) == deals
    # 3x needs a pair or better, which beats every hand that does not qualify: no such deal is lower or tied.
    short = {r["situation"]: r["combinations"] for r in rows if r["option"] == "3x"}
    assert (short["does_not_qualify_player_lower"], short["does_not_qualify_tie"]) == (0, 0)
    # A mini-royal is always played and wins its Blind against every dealer hand but another mini-royal: 4 hands,
    # 3 ways to show one of the dealer's three cards, the C(49, 3) dealer hands less the 3 other mini-royals.
    blind = {r["row"]: (r["pays"], r["combinations"]) for r in outcomes["blind"]}
    assert blind["mini_royal"] == ("100", 4 * 3 * (comb(49, 3) - 3))
    assert blind["below_the_table"][0] is None
    assert outcomes["ante_bonus"] == []


def test_the_resolution_grid_is_the_brute_forces_settlement() -> None:
    """Every cell of the grid, summed, is what tests/family_brute.net (written apart from trey) nets a hand no table
    pays (high card), and a cell marked "table" follows the table's pay (a flush: the Blind pays 1)."""
    for name, path in (("face_up_ultimate", FACE_UP_ULTIMATE), ("standard", PAYTABLES / "standard.yaml")):
        spec = load_spec(path)
        rules = family_brute.RULE_SETS[name]
        for row in resolution_grid(spec.game, spec.rules):
            result = 0 if row.deal is None else int(row.deal.showdown)
            qualifies = row.deal is not None and row.deal.qualifies
            fixed = sum((c for c in row.cells if not isinstance(c, str)), Fraction(0))
            assert fixed == family_brute.net(rules, row.option, "high_card", qualifies, result), (name, row)
            blind = row.cell("blind")
            wins = row.deal is not None and row.deal.showdown is Showdown.WIN and row.option != FOLD
            assert (blind == BY_TABLE) == (name == "face_up_ultimate" and wins), row
            with_flush = family_brute.net(rules, row.option, "flush", qualifies, result)
            assert with_flush == fixed + (1 if blind == BY_TABLE else 0), row
        assert len(resolution_grid(spec.game, spec.rules)) == 1 + 6 * len(spec.game.multiples)
    assert WAGERS == ("ante", "play", "blind", "bonus")


def test_the_par_of_an_ante_bonus_game_counts_the_bonus_rows() -> None:
    """The standard round counted by the family engine: its Ante Bonus rows pay on the hands played, as the
    standard engine's PAR table counts them."""
    from trey.engine import analyze

    spec = load_spec(PAYTABLES / "standard.yaml")
    par = family_par(analyze_family(spec))
    standard = analyze(spec).ante_play
    assert standard is not None
    assert {r.row: r.combinations for r in par.ante_bonus} == {r.outcome: r.combinations for r in standard.ante_bonus}
    assert sum(r.expected_net for r in par.situations) == -standard.stats.house_edge
    assert par.blind == ()


def test_the_pdf_says_what_the_game_does(data: dict[str, Any], pages: list[str]) -> None:
    text = "\n".join(pages)
    flat = " ".join(text.split())
    for number, page in enumerate(pages, start=1):
        assert f"Certificate {data['certificate_id']} rev 1" in page
        assert f"Page {number} of {len(pages)}" in page
    for said in (
        "One dealer card face up before the player decides: fold, or play 1x, 3x with a pair or better.",
        "House edge per Ante 3.8807% (1975131/50896300)",
        "House edge per initial bet 1.9403% (1975131/101792600)",
        "Element of risk 1.1822% (1975131/167065448)",
        "Optimal strategy by face-up card",
        "Mini-royal (A-K-Q suited) 100 221,052",
        "a win below the table (pushes) push 497,102,232",
        "house edge 3.88% of the Ante, 1.94% of the initial bet (the Ante and the Blind), 1.18% of the total amount "
        "wagered (element of risk)",
    ):
        assert said in flat, said
    assert "A A-8-5" in flat  # the chart's ace row: the weakest hand played 1x (How's simple strategy says A-8-5)


def test_the_pdf_is_signed_pdf_a_3b(issued: Path) -> None:
    reader = PdfReader(issued.with_suffix(".pdf"))
    metadata = reader.xmp_metadata
    assert metadata is not None
    xml = metadata.stream.get_data().decode()
    assert 'pdfaid:part="3"' in xml and 'pdfaid:conformance="B"' in xml
    assert any(field.get("/FT") == "/Sig" for field in (reader.get_fields() or {}).values())


def test_it_verifies_from_its_json_and_from_its_pdf(issued: Path, keys: Path) -> None:
    trust = ("--trust", keys / "trey-signing-cert.pem")
    result = run_cli("verify", issued, "--paytable", FACE_UP_ULTIMATE, *trust)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{issued} and {FACE_UP_ULTIMATE}: verified; certificate ")
    result = run_cli("verify", issued.with_suffix(".pdf"), *trust)
    assert result.exit_code == 0, result.stderr
    assert "the PDF is signed by Example Lab" in result.stdout


def test_an_altered_par_figure_or_format_fails(data: dict[str, Any], tmp_path: Path) -> None:
    forged = json.loads(json.dumps(data))
    forged["outcomes"]["situations"][3]["combinations"] += 1
    forged.pop("signature")
    path = tmp_path / "forged.certificate.json"
    path.write_text(json.dumps(forged))
    result = run_cli("verify", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {path}: the certificate does not verify; these fields differ from a fresh computation:\n"
        "  certificate_id (it does not match the certificate's content)\n"
        "  outcomes.situations[3].combinations\n"
    )
    older = json.loads(json.dumps(data))
    older["certificate_format"] = 2
    path.write_text(json.dumps(older))
    result = run_cli("verify", path)
    assert result.exit_code == 1
    assert "not a valid certificate: $.certificate_format: 4 was expected" in result.stderr


PUSHES = "trey: 3\nname: Ante pushes\ngame: {ante_when_dealer_does_not_qualify: pushes}\nwagers: {ante_play: {}}\n"


def test_certify_protection_of_a_family_game_states_trey_protect_s_exact_scenarios(tmp_path: Path) -> None:
    """Game protection in a family game's certificate (format 4, an optional protection section): the exact
    scenarios ``trey protect --format json`` prints for the same file, rendered in its section 9, verified by a
    fresh computation. A game with no card face up (a second's counting); the HTML, not the PDF (laid out from it)."""
    from datetime import date

    from trey.documents.family_certificate_view import render_family_certificate_html
    from trey.trust.certificate import build_certificate

    path = tmp_path / "pushes.yaml"
    path.write_text(PUSHES)
    spec = load_spec(path)
    cert = build_certificate(
        spec, file_name=path.name, file_size=len(PUSHES), issue_date=date(2026, 1, 1), protection=True
    )
    data = cert.data
    assert list(validator("certificate").iter_errors(data)) == []
    assert data["certificate_format"] == 4 and data["overall"] == "PASS"
    printed = json.loads(run_cli("protect", path, "--format", "json").stdout)
    assert data["protection"] == {key: printed[key] for key in ("per", "house_edge", "scenarios")}
    assert data["protection"]["house_edge"] == data["analysis"]["game"]["house_edge_per_ante"]
    html = render_family_certificate_html(cert, json_name="pushes.certificate.json", paytable_name=path.name)
    assert "<h2>9. Game protection</h2>" in html
    for s in data["protection"]["scenarios"]:
        edge = f"{float(Fraction(s['player_edge'])) * 100:.4f}%"
        gain = f"{float(Fraction(s['gain'])) * 100:.4f} pt"
        assert f'<tr><td>{s["scenario"]}</td><td class="num">{edge}</td><td class="num">{gain}</td>' in html
    # Verified by a fresh computation; a scenario's figure altered fails on that field.
    issued = tmp_path / "pushes.certificate.json"
    issued.write_text(json.dumps(data, indent=2) + "\n")
    result = run_cli("verify", issued, "--paytable", path)
    assert result.exit_code == 0, result.stderr
    forged = json.loads(json.dumps(data))
    forged["protection"]["scenarios"][1]["gain"] = "1/10"
    issued.write_text(json.dumps(forged))
    result = run_cli("verify", issued)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {issued}: the certificate does not verify; these fields differ from a fresh computation:\n"
        "  certificate_id (it does not match the certificate's content)\n"
        "  protection.scenarios[1].gain\n"
    )
    # Without --protection, no such section (and the certificate as before).
    plain = build_certificate(spec, file_name=path.name, file_size=len(PUSHES), issue_date=date(2026, 1, 1))
    assert "protection" not in plain.data
    rendered = render_family_certificate_html(plain, json_name="pushes.certificate.json", paytable_name=path.name)
    assert "Game protection" not in rendered


def test_certify_simulate_of_a_family_game(tmp_path: Path) -> None:
    result = run_cli("certify", FACE_UP_ULTIMATE, "--out", tmp_path, "--date", DATE, "--simulate", "100000")
    assert result.exit_code == 0, result.stderr
    simulation = json.loads((tmp_path / "face-up-ultimate.certificate.json").read_text())["simulation"]
    assert simulation["rounds"] == 100_000 and simulation["passed"] is True
    # A certificate with its simulation follows the schema (its outcomes named by their net per Ante) and verifies.
    assert simulation["wagers"]["ante_play"]["outcomes"][0]["outcome"] == "net -5"
    checked = run_cli("verify", tmp_path / "face-up-ultimate.certificate.json")
    assert checked.exit_code == 0, checked.stderr


def test_the_docs_example_is_what_certify_prints(data: dict[str, Any]) -> None:
    """docs/commands/certify.md shows the family certificate's ID: the content's, whether signed or not."""
    from conftest import REPO

    page = (REPO / "docs" / "commands" / "certify.md").read_text()
    assert f"certificate {data['certificate_id']}: overall PASS (generic profile)" in page


def test_validate_with_a_profile_judges_a_family_game_as_certify_does() -> None:
    """The rarest award is a mini-royal played 3x against a dealer who does not qualify (the Ante pushes: 3 + 100),
    counted here by the brute force's hand order: 4 suits x 3 up-card positions x the dealer hands below Q-high."""
    from itertools import combinations

    royal = (48, 44, 40)  # A, K, Q of clubs
    deck = [c for c in range(52) if c not in royal]
    short = sum(1 for h in combinations(deck, 3) if family_brute.hand_strength(tuple(sorted(h))) < family_brute.Q_HIGH)
    one_in = Fraction(1_221_511_200, 4 * 3 * short)
    assert f"{float(one_in):,.2f}" == "15,147.71"
    result = run_cli("validate", FACE_UP_ULTIMATE, "--profile", "rng-85")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == [
        f"{FACE_UP_ULTIMATE}: ante_play: PASS: every row worded 'to'",
        f"{FACE_UP_ULTIMATE}: ante_play: PASS: rarest award net win of 103 Antes: 1 in 15,147.71",
        f"{FACE_UP_ULTIMATE}: ante_play: PASS: house edge 3.8807% per Ante",
        f"{FACE_UP_ULTIMATE}: ante_play: PASS: RTP 96.1193% per Ante",
    ]
