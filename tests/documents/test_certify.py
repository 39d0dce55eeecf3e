"""trey certify and trey verify: the certificate's content, files, determinism and tamper detection."""

from __future__ import annotations

import json
import re
import shutil
from fractions import Fraction
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from conftest import PAYTABLES, REPO, STANDARD, run_cli
from trey import __version__
from trey.core.jsonschemas import validator
from trey.core.numbers import percent_text
from trey.engine import analyze
from trey.paytable.load import load_spec, load_spec_bytes
from trey.trust.certificate import content_id

DATE = "2026-01-01"
SIMULATION = ("--simulate", "1000000", "--seed", "2026")  # as `make reports` renders reports/


def certify(out: Path, *args: str, paytable: Path = STANDARD) -> tuple[int, str, str]:
    result = run_cli("certify", paytable, "--out", out, "--date", DATE, *args)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def standard_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cert")
    code, stdout, stderr = certify(out, *SIMULATION)
    assert code == 0, stderr
    assert stdout.splitlines() == [str(out / f"standard.certificate.{k}") for k in ("json", "html", "pdf")]
    return out


def pdf_pages(path: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(path).pages]


@pytest.fixture(scope="module")
def standard_pages(standard_dir: Path) -> list[str]:
    """The standard certificate's pages as text, read once for the tests that read them."""
    return pdf_pages(standard_dir / "standard.certificate.pdf")


def test_json_follows_its_schema_and_carries_the_analysis(standard_dir: Path) -> None:
    data = json.loads((standard_dir / "standard.certificate.json").read_text())
    assert list(validator("certificate").iter_errors(data)) == []
    assert data["issue_date"] == DATE
    assert data["overall"] == "PASS"
    assert data["paytable"]["file"] == "standard.yaml"
    assert data["paytable"]["size"] == STANDARD.stat().st_size
    assert data["paytable"]["canonical"] == load_spec(STANDARD).canonical()
    assert list(validator("analysis").iter_errors(data["analysis"])) == []
    assert data["analysis"]["wagers"]["ante_play"]["house_edge"] == "686689/20358520"
    assert (data["simulation"]["rounds"], data["simulation"]["seed"], data["simulation"]["passed"]) == (
        1_000_000,
        2026,
        True,
    )


def test_the_pdf_holds_the_figures_and_the_id_on_every_page(standard_dir: Path, standard_pages: list[str]) -> None:
    data = json.loads((standard_dir / "standard.certificate.json").read_text())
    cert_id = data["certificate_id"]
    pages = standard_pages
    assert len(pages) >= 8
    for number, text in enumerate(pages, start=1):
        assert f"Certificate {cert_id} rev 1" in text
        assert f"Page {number} of {len(pages)}" in text
    everything = "\n".join(pages)
    analysis = analyze(load_spec(STANDARD))
    for result in analysis.wagers.values():
        assert percent_text(result.stats.rtp) in everything
        assert percent_text(result.stats.house_edge) in everything
    assert "96.6270% (19671831/20358520)" in everything
    assert "2.0147% (686689/34084400)" in everything  # element of risk
    assert "Q-6-4" in everything
    assert "Ante & Play: theoretical return to player with optimal strategy: 97.99% of the total amount wagered" in (
        everything.replace("\n", " ")
    )
    assert "not a regulator's approval" in everything.replace("\n", " ")


def test_the_html_holds_every_section_and_real_charts(standard_dir: Path) -> None:
    html = (standard_dir / "standard.certificate.html").read_text()
    for heading in (
        "How to verify",
        "1. Scope",
        "2. Rules in force",
        "3. Paytables",
        "4. Method",
        "5. Figures of each wager",
        "5.1 Ante &amp; Play",
        "Ante &amp; Play by the player's hand",
        "5.4 Six Card Bonus",
        "6. Compliance checks",
        "7. Simulation confirmation",
        "1,000,000 rounds dealt from freshly shuffled decks, seed 2026",
        "8. Range of the realised RTP",
        "9. Contributions to RTP",
        "10. Player disclosure",
        "Appendix A. The paytable as parsed",
        "Appendix B. Reproduce and verify",
    ):
        assert heading in html
    assert html.count('src="data:image/svg+xml;base64,') == 1  # the contributions, drawn once for all wagers
    assert "<figcaption>Every row of the PAR tables of section 5 that contributes to RTP" in html
    assert "set in Trey Sans (DejaVu Sans 2.37," in html  # the tool environment names the font
    assert "108,290.00" in html  # the royal flush: 1 in 108,290
    # Ante & Play's losing outcome, named as every document names it: in the PAR table and by each hand category
    assert html.count("<td>Dealer higher</td>") == 1 + 6
    assert html.count("<td>No paying hand</td>") == 3  # the side bets' losing rows
    assert "<td>Six cards of one colour</td>" in html
    assert '<td class="num">12/5525</td>' in html  # exact probability of a straight flush


def test_a4_and_letter_pages(tmp_path: Path, standard_dir: Path) -> None:
    a4 = PdfReader(standard_dir / "standard.certificate.pdf").pages[0].mediabox
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)
    code, _, _ = certify(tmp_path, "--paper", "letter", paytable=PAYTABLES / "prime" / "3-4.yaml")
    assert code == 0
    letter = PdfReader(tmp_path / "3-4.certificate.pdf").pages[0].mediabox
    assert (round(float(letter.width)), round(float(letter.height))) == (612, 792)


def test_committed_reports_equal_a_fresh_render(standard_dir: Path) -> None:
    for kind in ("html", "json"):
        name = f"standard.certificate.{kind}"
        assert (REPO / "reports" / name).read_bytes() == (standard_dir / name).read_bytes(), f"run make reports: {name}"


def test_verify_an_untouched_certificate(standard_dir: Path) -> None:
    cert = standard_dir / "standard.certificate.json"
    result = run_cli("verify", cert, "--paytable", STANDARD)
    cert_id = json.loads(cert.read_text())["certificate_id"]
    assert result.exit_code == 0, result.stderr
    issued = f"certificate {cert_id}, overall PASS (generic profile), issued by trey {__version__}; not signed"
    assert result.stdout == f"{cert} and {STANDARD}: verified; {issued}\n"


def tamper(source: Path, target: Path, change: object) -> Path:
    data = json.loads(source.read_text())
    change(data)  # type: ignore[operator]
    target.write_text(json.dumps(data, indent=2))
    return target


@pytest.mark.parametrize(
    ("name", "change", "fields"),
    [
        (
            "rtp",
            lambda d: d["analysis"]["wagers"]["pair_plus"].__setitem__("rtp", "93/100"),
            ["certificate_id (it does not match the certificate's content)", "analysis.wagers.pair_plus.rtp"],
        ),
        (
            "pay",
            lambda d: d["paytable"]["canonical"]["wagers"]["pair_plus"].__setitem__("flush", 4),
            [
                "certificate_id (it does not match the certificate's content)",
                "analysis.wagers.pair_plus.outcomes[3].pays",
            ],
        ),
        (
            "id",
            lambda d: d.__setitem__("certificate_id", "0123456789ab"),
            ["certificate_id (it does not match the certificate's content)"],
        ),
        (
            "date",
            lambda d: d.__setitem__("issue_date", "2027-01-01"),
            ["certificate_id (it does not match the certificate's content)"],
        ),
    ],
)
def test_verify_names_each_tampered_field(
    tmp_path: Path, standard_dir: Path, name: str, change: object, fields: list[str]
) -> None:
    forged = tamper(standard_dir / "standard.certificate.json", tmp_path / f"{name}.json", change)
    result = run_cli("verify", forged)
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert (
        lines[0] == f"error: {forged}: the certificate does not verify; these fields differ from a fresh computation:"
    )
    reported = [line.strip() for line in lines[1:]]
    for field in fields:
        assert field in reported


def test_verify_detects_another_paytable_file(standard_dir: Path) -> None:
    result = run_cli(
        "verify", standard_dir / "standard.certificate.json", "--paytable", PAYTABLES / "prime" / "3-4.yaml"
    )
    assert result.exit_code == 1
    assert "  paytable.sha256 (the file given with --paytable has another SHA-256)" in result.stderr.splitlines()


def test_verify_refuses_an_invalid_embedded_paytable(tmp_path: Path, standard_dir: Path) -> None:
    forged = tamper(
        standard_dir / "standard.certificate.json",
        tmp_path / "forged.json",
        lambda d: d["paytable"]["canonical"]["wagers"]["pair_plus"].__setitem__("pair", 1.5),
    )
    result = run_cli("verify", forged)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"error: {forged}: not a valid certificate: $.paytable.canonical.wagers.pair_plus.pair: 1.5 "
    )
    assert "Traceback" not in result.stderr


def test_verify_refuses_what_is_not_a_certificate(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"certificate_id": 3}')
    result = run_cli("verify", bad)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {bad}: not a valid certificate: $: ")
    bad.write_text("not json")
    assert run_cli("verify", bad).stderr.startswith(f"error: {bad}: not a certificate: ")
    assert run_cli("verify", tmp_path / "missing.json").exit_code == 1


def test_operator_names_are_escaped(tmp_path: Path) -> None:
    paytable = tmp_path / "evil.yaml"
    paytable.write_text(
        "trey: 1\nname: Evil <b>table</b>\noperator: <script>alert(1)</script>\n"
        "wagers:\n  pair_plus: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}\n"
    )
    code, _, _ = certify(tmp_path / "out", paytable=paytable)
    assert code == 0
    html = (tmp_path / "out" / "evil.certificate.html").read_text()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>table</b>" not in html
    assert "<script>alert(1)</script>" in "\n".join(pdf_pages(tmp_path / "out" / "evil.certificate.pdf"))


def test_existing_files_are_not_overwritten_without_force(tmp_path: Path, standard_dir: Path) -> None:
    """And with --force they are replaced by the same files: the same inputs give identical files."""
    shutil.copytree(standard_dir, tmp_path, dirs_exist_ok=True)
    (tmp_path / "standard.certificate.html").write_text("keep me")
    code, stdout, stderr = certify(tmp_path, *SIMULATION)
    assert code == 1
    assert stdout == ""
    assert stderr.startswith(f"error: would overwrite {tmp_path / 'standard.certificate.html'}, ")
    assert stderr.endswith("(use --force to replace them, or choose another --out)\n")
    assert (tmp_path / "standard.certificate.html").read_text() == "keep me"
    for kind in ("json", "pdf"):  # so that each file compared below is one --force wrote
        (tmp_path / f"standard.certificate.{kind}").write_bytes(b"stale")
    code, _, _ = certify(tmp_path, "--force", *SIMULATION)
    assert code == 0
    for kind in ("html", "json", "pdf"):
        name = f"standard.certificate.{kind}"
        assert (tmp_path / name).read_bytes() == (standard_dir / name).read_bytes(), kind


def test_a_failure_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.documents.pdf

    def disk_full(_html: str, _day: object, **_options: object) -> bytes:
        raise OSError(28, "No space left on device", str(tmp_path / "out"))

    monkeypatch.setattr(trey.documents.pdf, "html_to_pdf", disk_full)
    code, _, stderr = certify(tmp_path / "out")
    assert code == 1
    message = f"error: cannot write {tmp_path / 'out'}: No space left on device"
    assert stderr == message + " (check the directory and its permissions)\n"
    assert not (tmp_path / "out").exists()
    (tmp_path / "kept").mkdir()
    code, _, _ = certify(tmp_path / "kept")
    assert code == 1
    assert list((tmp_path / "kept").iterdir()) == []


def test_a_player_favourable_table_fails_the_generic_profile(tmp_path: Path) -> None:
    paytable = tmp_path / "generous.yaml"
    paytable.write_text("trey: 1\nname: Generous\nwagers:\n  pair_plus: {straight: 20, flush: 10, pair: 5}\n")
    code, stdout, stderr = certify(tmp_path / "out", paytable=paytable)
    assert code == 1
    assert len(stdout.splitlines()) == 3  # the certificate is written: it documents the failure
    assert stderr.endswith(": overall FAIL (generic profile)\n")
    data = json.loads((tmp_path / "out" / "generous.certificate.json").read_text())
    edge = [c for c in data["checks"] if c["check"] == "house_edge_positive"]
    assert edge == [
        {
            "check": "house_edge_positive",
            "requirement": "house edge above zero",
            "wager": "pair_plus",
            "result": "FAIL",
            # (20 x 720 + 10 x 1,096 + 5 x 3,744 - 16,540) / 22,100 = +1.246154 per unit bet
            "detail": "house edge -124.6154% (player-favourable)",
        }
    ]


def test_rng_85_profile_floor_and_for_wording(tmp_path: Path) -> None:
    paytable = tmp_path / "stingy.yaml"
    paytable.write_text("trey: 1\nname: Stingy\nwagers:\n  pair_plus: {straight_flush: '41 for 1', pair: 1}\n")
    code, _, _ = certify(tmp_path / "out", "--profile", "rng-85", paytable=paytable)
    assert code == 1
    checks = json.loads((tmp_path / "out" / "stingy.certificate.json").read_text())["checks"]
    results = {c["check"]: (c["result"], c["detail"]) for c in checks}
    # 1 + (48 x 40 + 3,744 x 1 - 18,308) / 22,100 = 0.427873
    assert results["rtp_floor_percent"] == ("FAIL", "RTP 42.7873%")
    assert results["odds_wording"] == ("FAIL", "'for' wording: straight flush '41 for 1'")
    assert results["rarest_award_one_in_at_most"] == ("PASS", "rarest award straight flush: 1 in 460.42")


def test_unknown_profile_and_bad_date(tmp_path: Path) -> None:
    result = run_cli("certify", STANDARD, "--out", tmp_path, "--profile", "nevada")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: unknown profile 'nevada' (choose one of: example-approved, generic, rng-85, or a file's path)\n",
    )
    result = run_cli("certify", STANDARD, "--out", tmp_path, "--date", "01/02/2026")
    assert result.exit_code == 2
    assert "'01/02/2026' is not a date written YYYY-MM-DD" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_source_date_epoch_sets_the_issue_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01T00:00:00Z
    result = run_cli("certify", PAYTABLES / "prime" / "3-4.yaml", "--out", tmp_path)
    assert result.exit_code == 0
    assert json.loads((tmp_path / "3-4.certificate.json").read_text())["issue_date"] == "2026-01-01"


def test_simulation_section_is_certified_and_verified(tmp_path: Path) -> None:
    code, _, _ = certify(tmp_path, "--simulate", "60000", "--seed", "4", paytable=PAYTABLES / "prime" / "3-4.yaml")
    assert code == 0
    cert = tmp_path / "3-4.certificate.json"
    data = json.loads(cert.read_text())
    assert list(validator("certificate").iter_errors(data)) == []
    sim = data["simulation"]
    assert (sim["rounds"], sim["seed"], sim["generator"], sim["passed"]) == (60000, 4, "numpy PCG64", True)
    assert "7. Simulation confirmation" in (tmp_path / "3-4.certificate.html").read_text()
    assert "60,000 rounds dealt" in " ".join(pdf_pages(tmp_path / "3-4.certificate.pdf")).replace("\n", " ")
    assert run_cli("verify", cert).exit_code == 0
    # A forger who recomputes the ID: the simulation is re-run and the forged figure named.
    forged = tamper(cert, tmp_path / "forged.json", lambda d: reidentify(forge_observed_rtp(d)))
    result = run_cli("verify", forged)
    assert result.exit_code == 1
    assert "  simulation.wagers.prime.observed_rtp" in result.stderr.splitlines()
    # A forger who does not: the ID gives it away before anything is re-run.
    forged = tamper(cert, tmp_path / "forged.json", forge_observed_rtp)
    lines = run_cli("verify", forged).stderr.splitlines()
    assert lines[1:] == [
        "  certificate_id (it does not match the certificate's content)",
        "  simulation (not re-run: the certificate was altered after it was issued)",
    ]


def forge_observed_rtp(data: dict[str, Any]) -> dict[str, Any]:
    data["simulation"]["wagers"]["prime"]["observed_rtp"] = "1"
    return data


def reidentify(data: dict[str, Any]) -> dict[str, Any]:
    """What a forger does after editing: recompute the content-derived ID."""
    data["certificate_id"] = content_id(data)
    return data


def test_the_library_makes_the_certificate_the_command_writes(tmp_path: Path) -> None:
    """``trey.certify`` returns the three files' bytes; ``trey certify`` only writes them."""
    from datetime import date

    import trey

    paytable = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"
    made = trey.certify(paytable.read_bytes(), paytable.name, issue_date=date(2026, 1, 1))
    assert sorted(made.files) == [f"40-30-6-4-1.certificate.{kind}" for kind in ("html", "json", "pdf")]
    assert run_cli("certify", paytable, "--out", tmp_path, "--date", "2026-01-01").exit_code == 0
    for name, content in made.files.items():
        assert (tmp_path / name).read_bytes() == content, name
    assert made.certificate.certificate_id == json.loads(made.files["40-30-6-4-1.certificate.json"])["certificate_id"]


# --- a certificate agrees with itself (issue 30.3) -------------------------------------------------------------------


def headings(text: str) -> list[str]:
    """The numbered headings of a certificate's text, in order: "1. Scope", "5.1 Ante & Play"."""
    return re.findall(r"^(\d+(?:\.\d+)?)\.? [A-Z]", text, re.M)


def assert_numbered_consecutively(text: str) -> None:
    found = headings(text)
    sections = [n for n in found if "." not in n]
    assert sections == [str(n) for n in range(1, len(sections) + 1)], found
    wagers = [n for n in found if n.startswith("5.")]
    assert wagers == [f"5.{n}" for n in range(1, len(wagers) + 1)] and wagers, found


def test_sections_are_numbered_consecutively(standard_pages: list[str]) -> None:
    """Finding 30.3: section 5 had no heading and game protection no number (it is numbered in
    tests/protect/test_protection_documents.py)."""
    text = "\n".join(standard_pages)
    assert_numbered_consecutively(text)
    assert "5. Figures of each wager" in text
    assert headings(text)[-1] == "10"


def reader_text(html: str) -> str:
    """What a reader reads: the HTML's text without the code boxes (the canonical paytable is a file's own text)
    and without attributes."""
    body = re.sub(r"<pre>.*?</pre>|<style>.*?</style>|<title>.*?</title>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", body))


IDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(?:mimic-dealer|always-play|play_at_least)\b")


def test_readers_see_titles_never_ids(standard_dir: Path) -> None:
    """Finding 30.3: internal reading ids (player_hand, colours, six_cards) appeared in the reader's text, and so
    did a strategy's id (mimic-dealer): a table that mimics the dealer, with every reading, is named in words."""
    from datetime import date

    from trey.documents.certificate_view import render_certificate_html
    from trey.trust.certificate import build_certificate

    assert IDS.findall(reader_text((standard_dir / "standard.certificate.html").read_text())) == []
    text = (PAYTABLES / "ante_bonus" / "5-4-1-mimic-dealer.yaml").read_text().replace("mimic-dealer", "the dealer's")
    text = text.replace("strategy: the dealer's", "strategy: mimic-dealer")  # the names are the file's own words
    side_bets = "\nside_bets:\n" + "".join(
        f"  bet_{name}:\n    reads: {name}\n    pays: {{{outcome}: 1}}\n"
        for name, outcome in (("player_hand", "pair"), ("colours", "three_same_colour"), ("six_cards", "flush"))
    )
    spec = load_spec_bytes((text.replace("trey: 1", "trey: 2") + side_bets).encode(), "mimic.yaml")
    cert = build_certificate(spec, file_name="mimic.yaml", file_size=1, issue_date=date(2026, 1, 1))
    html = render_certificate_html(cert, json_name="mimic.certificate.json", paytable_name="mimic.yaml")
    assert IDS.findall(reader_text(html)) == []
    for words in ("Paid on the player's three cards;", "mimic the dealer: Q-3-2", "the strategy 'mimic the dealer'"):
        assert words in " ".join(reader_text(html).split())


def test_the_par_tables_return_column_adds_up_to_minus_the_house_edge(standard_dir: Path) -> None:
    """Issue 30.3: a return column (probability × net) beside the contribution to RTP, as PAR sheets give it."""
    data = json.loads((standard_dir / "standard.certificate.json").read_text())["analysis"]["wagers"]
    html = (standard_dir / "standard.certificate.html").read_text()
    totals = re.findall(
        r"<tr><th>Total</th><th></th><th class=\"num\">[\d,]+</th><th class=\"num\">1</th>"
        r"<th class=\"num\">1</th><th></th><th class=\"num\">([-\d.]+%)</th>"
        r"<th class=\"num\">([-\d.]+%)</th></tr>",
        html,
    )
    assert [t[1] for t in totals] == [percent_text(-Fraction(w["house_edge"])) for w in data.values()]
    assert [t[0] for t in totals] == [percent_text(Fraction(w["rtp"])) for w in data.values()]
    ante = data["ante_play"]
    returns = [Fraction(o["probability"]) * Fraction(o["pays"]) for o in ante["outcomes"] + ante["ante_bonus"]]
    assert sum(returns, Fraction(0)) == -Fraction(ante["house_edge"])
    for value in returns:
        assert f'<td class="num">{percent_text(value)}</td></tr>' in html


def split_elements(html: str) -> list[str]:
    """The tables and code boxes of a document laid out on more than one page, by their first words."""
    from trey.documents.pdf import render_document

    pages: dict[Any, set[int]] = {}
    for number, page in enumerate(render_document(html).pages):
        # WeasyPrint exposes the laid-out boxes only as _page_box (as the dealer sheet measures its pages).
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is not None and element.tag in ("table", "pre"):
                pages.setdefault(element, set()).add(number)
    return [" ".join("".join(e.itertext()).split())[:40] for e, on in pages.items() if len(on) > 1]


def test_no_table_or_code_box_is_split_across_pages(standard_dir: Path) -> None:
    """Finding 30.3: the Appendix B command box split across pages 12–13. The check itself finds a split: a table
    longer than a page must be split, and is named."""
    assert split_elements((standard_dir / "standard.certificate.html").read_text()) == []
    rows = "".join(f"<tr><td>row {n}</td></tr>" for n in range(120))
    (split,) = split_elements(f"<html><body><table>{rows}</table><pre>x</pre></body></html>")
    assert split.startswith("row 0row 1")
