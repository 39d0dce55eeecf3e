"""The family's games in the workbench (issue 33.8, issue 31): a game with a face-up card, options, a Blind or an
Ante that pushes is listed with its house edge, opens in the form with its round's parts as fields, and its figures
follow every edit, as `trey analyze` prints them; what the workbench makes of the standard game only (solve, compare,
documents) make of it what `trey solve`, `trey compare`, `trey certify`, `trey cheatsheet` and `trey drill` make of
the same file. In-process (httpx over ASGI): no server, no browser."""

from __future__ import annotations

import json
import re
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conftest import STANDARD, run_cli
from trey.core.numbers import percent_text
from trey.paytable.load import load_spec
from trey.web.app import workbench
from workbench import PAYTABLES, InProcess

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
OWN = {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"}


def test_a_family_game_is_listed_opened_and_edited_with_its_figures(tmp_path: Path) -> None:
    shutil.copyfile(STANDARD, tmp_path / "standard.yaml")
    shutil.copyfile(FACE_UP_ULTIMATE, tmp_path / "fu.yaml")
    client = InProcess(workbench(tmp_path, writable=True), "http://127.0.0.1:8000")
    index = client.get("/").text
    assert re.search(
        r"fu.yaml</td>\s*<td>Face Up Ultimate Three Card Poker</td>\s*<td><span class=\"edge\">"
        r"Ante &amp; Play <b>3.8807%</b>",
        index,
    )  # published 3.8807% per Ante (docs/published-figures.md: Stephen How)
    page = client.get("/edit", params={"file": "fu.yaml"}).text.replace("&#34;", '"')
    printed = run_cli("analyze", FACE_UP_ULTIMATE).stdout
    for line in ("One dealer card face up before the player decides: fold, or play 1x, 3x with a pair or better.",):
        assert line in printed and line in page
    # The round's parts are fields: the face-up card a choice, each option's bet and weakest hand, the Blind's rows.
    assert '<select data-path=\'["game", "face_up"]\' data-kind="select-int">' in page
    assert '<select data-path=\'["game", "options", 1, "at_least"]\' data-kind="hand">' in page
    assert 'data-path=\'["game", "blind", "straight"]\'' in page
    data = load_spec(FACE_UP_ULTIMATE).canonical()
    data["game"]["blind"]["flush"] = 2
    answer = client.post("/api/figures", json={"paytable": data, "origin": "fu.yaml"}, headers=OWN).json()
    variant = tmp_path / "flush-2.yaml"
    variant.write_text(FACE_UP_ULTIMATE.read_text().replace("    flush: 1 to 1\n", "    flush: 2 to 1\n"))
    edge = re.search(r"House edge per Ante\s+(-?[0-9.]+%)", run_cli("analyze", variant).stdout)
    assert edge is not None and answer["valid"]
    assert f'<span class="before">3.8807%</span> → <b>{edge.group(1)}</b>' in answer["summary"]
    assert f"<th>House edge per Ante</th><td>{edge.group(1)}</td>" in answer["figures"]
    # The JSON API answers as trey analyze --format json does.
    posted = client.post(
        "/api/analyze", content=FACE_UP_ULTIMATE.read_bytes(), headers={"Content-Type": "application/yaml"}
    )
    assert posted.json() == json.loads(run_cli("analyze", FACE_UP_ULTIMATE, "--format", "json").stdout)
    # Saved as any table.
    saved = client.post("/api/save", json={"paytable": data, "origin": "fu.yaml", "file": "fu-2"}, headers=OWN)
    assert saved.status_code == 200 and run_cli("validate", tmp_path / "fu-2.yaml").exit_code == 0


# A game of the family with no card face up (a Blind, 3x with a pair, the Ante pushing): a second's counting, where
# Face Up Ultimate's takes five.
DOWN = """trey: 3
name: Ultimate face down
game:
  options:
    - play: 1
    - play: 3
      at_least: pair
  ante_when_dealer_does_not_qualify: pushes
  play_needs_qualifier: false
  blind:
    mini_royal: 100 to 1
    straight_flush: 8 to 1
    three_of_a_kind: 6 to 1
    straight: 3 to 2
    flush: 1 to 1
rules:
  dealer_qualifier: Q-high
wagers:
  ante_play:
    strategy: optimal
    ante_bonus: {straight_flush: 5, three_of_a_kind: 4, straight: 1}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("family-bench")
    shutil.copyfile(STANDARD, here / "standard.yaml")
    (here / "down.yaml").write_text(DOWN)
    return here


def test_a_family_game_s_blind_and_ante_bonus_rows_are_solved_as_trey_solve_solves_them(folder: Path) -> None:
    client = InProcess(workbench(folder), "http://127.0.0.1:8000")
    page = client.get("/edit", params={"file": "down.yaml"}).text
    # Each row of the Blind has its solve button, named as trey solve --row names it.
    assert '<button type="button" class="solve" data-wager="ante_play" data-row="blind.flush">solve</button>' in page
    data = load_spec(folder / "down.yaml").canonical()
    for row, target, percent in (("blind.flush", "2%", "2.0000%"), ("straight", "2.5%", "2.5000%")):
        asked = {"paytable": data, "origin": "down.yaml", "wager": "ante_play", "row": row, "house_edge": target}
        answer = client.post("/api/solve", json=asked, headers=OWN)
        assert answer.status_code == 200, answer.text
        said = answer.json()
        printed = run_cli(
            "solve",
            folder / "down.yaml",
            "--wager",
            "ante_play",
            "--row",
            row,
            "--house-edge",
            target,
            "--format",
            "json",
        )
        assert printed.exit_code == 0, printed.stderr
        cli = json.loads(printed.stdout)
        assert {k: said[k] for k in cli} == cli and said["target_percent"] == percent
    unknown = {"paytable": data, "origin": "down.yaml", "wager": "ante_play", "row": "blind.royal", "house_edge": "2%"}
    refused = client.post("/api/solve", json=unknown, headers=OWN)
    assert (refused.status_code, refused.json()["error"]) == (400, "ante_play has no row 'blind.royal'")
    assert refused.json()["hint"] == "did you mean 'blind.mini_royal'?"
    cli_refused = run_cli(
        "solve", folder / "down.yaml", "--wager", "ante_play", "--row", "blind.royal", "--house-edge", "2%"
    )
    assert (cli_refused.exit_code, cli_refused.stderr) == (
        1,
        "error: ante_play has no row 'blind.royal' (did you mean 'blind.mini_royal'?)\n",
    )


def test_a_family_game_is_compared_with_the_folder_s_tables_as_trey_compare_compares_them(folder: Path) -> None:
    client = InProcess(workbench(folder), "http://127.0.0.1:8000")
    index = client.get("/").text
    assert re.search(r'down.yaml</td>\s*<td>Ultimate face down</td>\s*<td><span class="edge">Ante &amp; Play', index)
    data = load_spec(folder / "down.yaml").canonical()
    panel = client.post("/api/compare", json={"paytable": data, "origin": "down.yaml"}, headers=OWN)
    assert panel.status_code == 200, panel.text
    html = panel.json()["html"]
    printed = run_cli("compare", folder / "down.yaml", folder / "standard.yaml", "--format", "json")
    rows = {(r["label"], r["wager"]): r for r in json.loads(printed.stdout)["rows"]}
    family = rows[("down.yaml", "ante_play")]
    standard = rows[("standard.yaml", "ante_play")]
    for row in (family, standard):
        edge = percent_text(Fraction(row["house_edge"]))
        risk = percent_text(Fraction(row["element_of_risk"]))
        assert re.search(rf"{re.escape(row['name'])}</span></td><td>[^<]*</td><td>{edge}</td>.*<td>{risk}</td>", html)
    # The edited table (the family game, unchanged) is the baseline: the standard game is so many points below.
    vs = percent_text(Fraction(standard["house_edge"]) - Fraction(family["house_edge"])).removesuffix("%")
    assert f"<td>{vs} pt</td>" in html
    # The comparison page (a form's POST) is trey compare --out's page.
    token = re.search(r'name="token" value="([^"]+)"', client.get("/edit", params={"file": "down.yaml"}).text)
    assert token is not None
    sent = json.dumps({"paytable": data, "origin": "down.yaml"})
    compared = client.post("/compare", data={"request": sent, "token": token.group(1)}, headers=OWN)
    assert compared.status_code == 200 and "Ultimate face down" in compared.text
    assert percent_text(Fraction(family["house_edge"])) in compared.text


@pytest.fixture(scope="module")
def documents(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[bytes, bytes]]:
    """Each document of the family game, from the workbench and from the CLI, as the HTML its PDF is laid out from:
    the PDF step is stubbed to give back that HTML (and a certificate's embedded files), since laying out PDFs is
    seconds each (tests/documents renders a family certificate's PDF; the stub keeps nothing for verification)."""
    import trey.documents.family_dealer_view as dealer_view
    import trey.documents.pdf as pdf
    import trey.documents.pdf_evidence as evidence

    client = InProcess(workbench(folder), "http://127.0.0.1:8000")
    page = client.get("/edit", params={"file": "down.yaml"}).text
    token = re.search(r'name="token" value="([^"]+)"', page)
    sha = re.search(r"&#34;origin_sha256&#34;: &#34;([0-9a-f]{64})&#34;", page)
    assert token is not None and sha is not None
    data = load_spec(folder / "down.yaml").canonical()
    sent = json.dumps({"paytable": data, "origin": "down.yaml", "origin_sha256": sha.group(1)})
    out = tmp_path_factory.mktemp("cli-documents")
    made: dict[str, tuple[bytes, bytes]] = {}
    laid_out: list[str] = []  # the dealer sheet's HTML, as fitted to its pages (its PDF is written from that)
    fit = dealer_view.fit_family_dealer_sheet

    def fitted(*args: Any, **options: Any) -> Any:
        sheet = fit(*args, **options)
        laid_out.append(sheet.html)
        return sheet

    def stub(html: str, *_: Any, embedded: tuple[pdf.Embedded, ...] = (), **__: Any) -> bytes:
        return json.dumps({"html": html, "embedded": {e.name: e.content.decode() for e in embedded}}).encode()

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(dealer_view, "fit_family_dealer_sheet", fitted)
        patched.setattr(pdf, "document_to_pdf", lambda *_, **__: laid_out[-1].encode())
        patched.setattr(pdf, "html_to_pdf", stub)
        patched.setattr(evidence, "remember_rendering", lambda *_: None)
        form = {"request": sent, "token": token.group(1)}
        certificate = client.post("/download/certificate", data=form, headers=OWN)
        assert certificate.status_code == 200, certificate.text
        assert run_cli("certify", folder / "down.yaml", "--out", out).exit_code == 0
        made["certificate"] = (certificate.content, (out / "down.certificate.json").read_bytes())
        for kind, command in (("dealer-sheet", "cheatsheet"), ("drill", "drill")):
            answer = client.post(f"/download/{kind}", data=form, headers=OWN)
            assert answer.status_code == 200, answer.text
            assert answer.headers["content-disposition"] == f'attachment; filename="down.{kind}.pdf"'
            assert run_cli(command, folder / "down.yaml", "--out", out).exit_code == 0
            mine = answer.content if kind == "dealer-sheet" else json.loads(answer.content)["html"].encode()
            made[kind] = (mine, (out / f"down.{kind}.html").read_bytes())
    return made


def test_a_family_game_s_certificate_from_the_workbench_is_trey_certify_s(
    documents: dict[str, tuple[bytes, bytes]],
) -> None:
    laid_out, cli_json = documents["certificate"]
    pdf = json.loads(laid_out)
    mine = json.loads(pdf["embedded"]["down.certificate.json"])
    assert pdf["embedded"]["down.yaml"] == DOWN  # the file's own bytes: the table is the file's
    theirs = json.loads(cli_json)
    different = {key for key in theirs if mine.get(key) != theirs[key]}
    assert different <= {"certificate_id", "issue_date"}, different  # the day each was made (SOURCE_DATE_EPOCH)
    assert mine["certificate_format"] == theirs["certificate_format"] == 4
    assert mine["analysis"]["game"]["house_edge_per_ante"] == theirs["analysis"]["game"]["house_edge_per_ante"]
    assert f"<title>Certificate {mine['certificate_id'][:12]}: Ultimate face down</title>" in pdf["html"]


@pytest.mark.parametrize("kind", ["dealer-sheet", "drill"])
def test_a_family_game_s_dealer_sheet_and_drill_from_the_workbench_are_the_cli_s(
    documents: dict[str, tuple[bytes, bytes]], kind: str
) -> None:
    mine, theirs = documents[kind]
    assert mine == theirs
    assert b"Ultimate face down" in mine and b"Blind" in mine
