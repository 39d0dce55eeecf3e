"""A game of the Three Card Poker family other than the standard one (issue 31, phase 1): ``trey analyze`` prints its
figures, each named for what it is per; every other tool refuses it in one located line, exit 1, writing nothing:
never the standard game's figures for it. The library's standard engine refuses it too."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

import trey
from conftest import PAYTABLES, STANDARD, Run, run_cli
from trey.cli import app
from trey.core.errors import SpecError
from trey.engine.family import analyze_family
from trey.figures.family import FAMILY_FIGURES
from trey.paytable.load import load_spec

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
ANALYSIS_SCHEMA = json.loads((Path(trey.__file__).parent / "schemas" / "analysis.schema.json").read_text())
NOT_YET = "is not yet supported for games other than standard Three Card Poker"
HINT = "(trey validate and trey analyze read this game)"


def refusal(tool: str, file: Path | str = FACE_UP_ULTIMATE, hint: str = HINT) -> str:
    return f"{file}: $.game: {tool} {NOT_YET} {hint}\n"


# --- analyze --------------------------------------------------------------------------------------------------------


def test_analyze_prints_the_round_its_figures_and_the_chart_by_face_up_card() -> None:
    result = run_cli("analyze", FACE_UP_ULTIMATE)
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "Face Up Ultimate Three Card Poker  (sha256 af7cfd02f72f)"
    assert lines[2] == (
        "Ante & Play  —  cycle 1,221,511,200 deals: 1,082,900 cells (a player hand and the face-up card) × 1,128 "
        "sets of the dealer's hidden cards"
    )
    assert "One dealer card face up before the player decides: fold, or play 1x, 3x with a pair or better." in lines
    assert (
        "The dealer qualifies with Q-3-2 or better; when not, the Ante pushes and the Play is decided against the "
        "dealer's hand all the same." in lines
    )
    for line in (
        "House edge per Ante          3.8807%",
        "House edge per initial bet   1.9403%",
        "Element of risk              1.1822%",
        "Initial bet                  2 Antes",
        "Average total action         3.2825 Antes",
        "Variance per Ante            10.6780",
        "Strategy: optimal, cell by cell (cells taking each option: fold 248,796, 1x 556,764, 3x 277,340)",
    ):
        assert line in lines, line
    queen = next(line for line in lines if line.startswith("│ Q "))
    assert queen.split("│")[2:5] == [" Q-8-3      ", " pair of 2s, 3 kicker ", "           132 "]


def test_analyze_exact_gives_the_fractions() -> None:
    text = run_cli("analyze", FACE_UP_ULTIMATE, "--exact").stdout
    assert "House edge per Ante          3.8807%  (1975131/50896300)" in text.splitlines()


def test_analyze_prints_every_family_figure_of_its_json_whole_on_a_narrow_terminal() -> None:
    analysis = analyze_family(load_spec(FACE_UP_ULTIMATE))
    result = CliRunner().invoke(app, ["analyze", str(FACE_UP_ULTIMATE)], env={"COLUMNS": "60"})
    assert result.exit_code == 0
    for figure in FAMILY_FIGURES:
        assert figure.text(analysis) in result.stdout, figure.name


def test_analyze_json_is_the_contract_and_names_each_figure_for_what_it_is_per() -> None:
    result = run_cli("analyze", FACE_UP_ULTIMATE, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    jsonschema.validate(data, ANALYSIS_SCHEMA)
    assert "wagers" not in data
    game = data["game"]
    assert {k: game[k] for k in ("house_edge_per_ante", "house_edge_per_initial_bet", "element_of_risk")} == {
        "house_edge_per_ante": "1975131/50896300",
        "house_edge_per_initial_bet": "1975131/101792600",
        "element_of_risk": "1975131/167065448",
    }
    assert (game["cycle"], game["cells"], game["deals_per_cell"], game["initial_bet"]) == (1221511200, 1082900, 1128, 2)
    assert game["average_action"] == "888646/270725"
    assert [(o["option"], o["cells"]) for o in game["options"]] == [("fold", 248796), ("1x", 556764), ("3x", 277340)]
    assert sum(o["deals"] for o in game["options"]) == sum(r["combinations"] for r in game["net_results"])
    ace = game["strategy"]["by_face_up_card"][-1]
    assert ace["up_rank"] == "A" and ace["weakest"]["1x"]["hand"] == "A-8-5" and ace["exceptions"] == {"1x": 0, "3x": 0}
    assert game["round"] == load_spec(FACE_UP_ULTIMATE).canonical()["game"]


def test_the_standard_game_s_json_keeps_its_contract() -> None:
    data = json.loads(run_cli("analyze", STANDARD, "--format", "json").stdout)
    jsonschema.validate(data, ANALYSIS_SCHEMA)
    assert "game" not in data and list(data["wagers"]) == ["ante_play", "pair_plus", "prime", "six_card_bonus"]


@pytest.mark.parametrize(("fmt", "extra"), [("csv", []), ("xlsx", ["--out", "fu.xlsx"])])
def test_analyze_refuses_the_formats_it_cannot_write_for_the_family_yet(
    fmt: str, extra: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli("analyze", FACE_UP_ULTIMATE, "--format", fmt, *extra)
    hint = "(trey analyze --format table or json counts this game)"
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == refusal(f"trey analyze --format {fmt}", hint=hint)
    assert list(tmp_path.iterdir()) == []


def test_analyze_meter_of_a_family_game_is_refused() -> None:
    result = run_cli("analyze", FACE_UP_ULTIMATE, "--meter", "25000")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: face-up-ultimate.yaml has no progressive wager (--meter evaluates a progressive's meter)\n"
    )


# --- every other tool refuses the game ------------------------------------------------------------------------------


REFUSALS = {
    "certify": ["certify", FACE_UP_ULTIMATE, "--out", "out"],
    "cheatsheet": ["cheatsheet", FACE_UP_ULTIMATE, "--out", "out"],
    "drill": ["drill", FACE_UP_ULTIMATE, "--out", "out"],
    "simulate": ["simulate", FACE_UP_ULTIMATE, "--rounds", "1000"],
    "simulate --log": ["simulate", FACE_UP_ULTIMATE, "--rounds", "1000", "--log", "out.jsonl"],
    "simulate --log -": ["simulate", FACE_UP_ULTIMATE, "--rounds", "1000", "--log", "-"],
    "simulate --shard": ["simulate", FACE_UP_ULTIMATE, "--shard", "1/2", "--out", "out.json"],
    "protect": ["protect", FACE_UP_ULTIMATE, "--no-two-cards", "--out", "out"],
    "risk": ["risk", FACE_UP_ULTIMATE, "--bankroll", "10", "--rounds", "10"],
    "hand": ["hand", FACE_UP_ULTIMATE, "Q-6-4"],
    "audit": ["audit", FACE_UP_ULTIMATE, "rounds.jsonl", "--out", "out"],
    "solve": ["solve", FACE_UP_ULTIMATE, "--wager", "ante_play", "--house-edge", "3%"],
    "solve --grid": ["solve", FACE_UP_ULTIMATE, "--wager", "ante_play", "--grid", "straight=1..3"],
    "compare": ["compare", STANDARD, FACE_UP_ULTIMATE, "--out", "out"],
}
TOOL_NAMES = {"simulate --log -": "trey simulate --log", "solve --grid": "trey solve"}


@pytest.mark.parametrize("tool", sorted(REFUSALS))
def test_every_other_tool_refuses_a_family_game_in_one_line_and_writes_nothing(
    tool: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rounds.jsonl").write_text("")
    result: Run = run_cli(*(str(a) for a in REFUSALS[tool]))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == refusal(TOOL_NAMES.get(tool, f"trey {tool}"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rounds.jsonl"]


def test_verify_refuses_a_certificate_of_a_family_game(tmp_path: Path) -> None:
    """A certificate trey could not have issued (certify refuses the game), its paytable a family game's: verify
    refuses it before recomputing anything."""
    certificate = json.loads((Path(__file__).parents[2] / "reports" / "standard.certificate.json").read_text())
    certificate["paytable"]["canonical"] = load_spec(FACE_UP_ULTIMATE).canonical()
    (tmp_path / "fu.certificate.json").write_text(json.dumps(certificate))
    result = run_cli("verify", tmp_path / "fu.certificate.json")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == refusal("trey verify", f"{tmp_path / 'fu.certificate.json'}:paytable.canonical")


def test_merge_refuses_a_part_of_a_family_game(tmp_path: Path) -> None:
    """simulate --shard refuses the game, so no part of it can be made; a part forged to carry one is refused by
    the standard engine the merge analyses it with."""
    import hashlib

    made = run_cli("simulate", STANDARD, "--rounds", "1000", "--shard", "1/1", "--out", tmp_path / "part.json")
    assert made.exit_code == 0, made.stderr
    part = json.loads((tmp_path / "part.json").read_text())
    part["paytable"] = FACE_UP_ULTIMATE.read_text()
    part["spec_sha256"] = hashlib.sha256(FACE_UP_ULTIMATE.read_bytes()).hexdigest()
    (tmp_path / "forged.json").write_text(json.dumps(part))
    result = run_cli("merge", tmp_path / "forged.json")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Face Up Ultimate Three Card Poker: $.game: the standard game's analysis {NOT_YET} "
        "(trey.engine.family.analyze_family counts it (trey analyze))\n"
    )


def test_validate_reads_a_family_game() -> None:
    result = run_cli("validate", FACE_UP_ULTIMATE)
    assert (result.exit_code, result.stdout) == (0, f"{FACE_UP_ULTIMATE}: valid (Ante & Play)\n")


# --- the library ----------------------------------------------------------------------------------------------------

ENGINE = "the standard game's {} is not yet supported for games other than standard Three Card Poker"


def test_the_standard_engine_refuses_a_family_game_so_that_no_library_call_counts_it_as_standard() -> None:
    from trey.audit.audit import audit
    from trey.engine import player_decisions
    from trey.protect.protection import protect

    spec = load_spec(FACE_UP_ULTIMATE)
    day = date(2026, 1, 1)
    calls: list[tuple[str, Callable[[], object]]] = [
        ("analysis", lambda: trey.analyze(spec)),
        ("decisions", lambda: player_decisions(spec)),
        ("analysis", lambda: trey.simulate(spec, 1000, 1)),
        ("analysis", lambda: trey.compare([("fu", spec)], None)),
        ("analysis", lambda: protect(spec, two=False)),
        ("analysis", lambda: audit(spec, [])),
        ("analysis", lambda: trey.dealer_sheet(spec, "fu", effective=day)),
        ("analysis", lambda: trey.drill(spec, "fu", effective=day)),
        ("hand values", lambda: trey.hand(spec, "Q-6-4")),
        ("solver", lambda: trey.solve(spec, "ante_play", "straight", Fraction(3, 100))),
        ("solver", lambda: trey.grid(spec, "ante_play", [("straight", 1, 2)], (Fraction(0), Fraction(1)))),
    ]
    for what, call in calls:
        with pytest.raises(SpecError) as raised:
            call()
        (problem,) = raised.value.problems
        assert (problem.code, problem.path, problem.file) == ("game.not-yet-supported", ("game",), spec.name)
        assert problem.message == ENGINE.format(what)
        assert problem.hint == "trey.engine.family.analyze_family counts it (trey analyze)"
    with pytest.raises(SpecError, match="trey certify is not yet supported"):
        trey.certify(FACE_UP_ULTIMATE.read_bytes(), "fu.yaml", issue_date=day)
    assert trey.analyze_family(spec).house_edge_per_ante == Fraction(1975131, 50896300)


def test_the_workbench_lists_a_family_game_as_not_yet_supported_and_opens_none(tmp_path: Path) -> None:
    from trey.web.app import workbench
    from workbench import InProcess

    (tmp_path / "standard.yaml").write_bytes(STANDARD.read_bytes())
    (tmp_path / "fu.yaml").write_bytes(FACE_UP_ULTIMATE.read_bytes())
    client = InProcess(workbench(tmp_path), "http://127.0.0.1:8000")
    index = client.get("/").text
    line = f"fu.yaml: $.game: the workbench (trey serve) {NOT_YET} {HINT}"
    assert line.replace("(", "").replace(")", "") in index.replace("(", "").replace(")", "")
    opened = client.get("/edit", params={"file": "fu.yaml"})
    assert opened.status_code == 400 and f"the workbench (trey serve) {NOT_YET}" in opened.text
    posted = client.post(
        "/api/analyze", content=FACE_UP_ULTIMATE.read_bytes(), headers={"Content-Type": "application/yaml"}
    )
    assert posted.status_code == 400
    assert posted.json()["error"] == f"the posted paytable: $.game: the workbench (trey serve) {NOT_YET} {HINT}"
