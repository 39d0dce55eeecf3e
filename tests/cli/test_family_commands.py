"""A game of the Three Card Poker family other than the standard one (issue 31, phase 1): ``trey analyze`` prints its
figures, each named for what it is per; every other tool refuses it in one located line, exit 1, writing nothing:
never the standard game's figures for it. The library's standard engine refuses it too."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

import trey
from conftest import PAYTABLES, STANDARD, run_cli, validate_json
from trey.cards.hand_table import hand_table
from trey.cli import app
from trey.core.errors import SpecError
from trey.engine.family import analyze_family
from trey.figures.family import FAMILY_FIGURES
from trey.paytable.load import load_spec

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
ANALYSIS_SCHEMA = json.loads((Path(trey.__file__).parent / "schemas" / "analysis.schema.json").read_text())
NOT_YET = "is not yet supported for games other than standard Three Card Poker"
HINT = "(trey validate and trey analyze read this game)"


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
    validate_json(data, ANALYSIS_SCHEMA)
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
    validate_json(data, ANALYSIS_SCHEMA)
    assert "game" not in data and list(data["wagers"]) == ["ante_play", "pair_plus", "prime", "six_card_bonus"]


def test_analyze_csv_gives_the_net_results_the_strategy_by_face_up_card_and_its_rule() -> None:
    result = run_cli("analyze", FACE_UP_ULTIMATE, "--format", "csv")
    assert (result.exit_code, result.stderr) == (0, "")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    nets = [r for r in rows if r["kind"] == "net_result"]
    assert sum(int(r["combinations"]) for r in nets) == 1_221_511_200
    assert sum(Fraction(r["return_exact"]) for r in nets) == -Fraction(1975131, 50896300)  # the published 3.8807%
    queen = {r["outcome"]: r for r in rows if r["kind"] == "strategy" and r["outcome"].startswith("Q: ")}
    assert [(k, q["hand"]) for k, q in queen.items()] == [("Q: fold", ""), ("Q: 1x", "Q-8-4"), ("Q: 3x", "any pair")]
    # 3x every pair or better (How; the brute force): the hands of a pair or better without the queen of clubs, x 4
    table = hand_table()
    pairs_up = int(((table.keys >= 1 << 12) & ~(table.cards == 40).any(axis=1)).sum())
    assert int(queen["Q: 3x"]["combinations"]) == 4 * pairs_up
    assert sum(int(q["combinations"]) for q in queen.values()) == 83_300  # 20,825 hands against each of 4 queens
    by_option: dict[str, int] = {}
    for row in (r for r in rows if r["kind"] == "strategy"):
        option = row["outcome"].split(": ")[1]
        by_option[option] = by_option.get(option, 0) + int(row["combinations"])
    assert by_option == {"fold": 248_796, "1x": 556_764, "3x": 277_340}  # the brute force's cells by option


def test_analyze_xlsx_writes_the_family_workbook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openpyxl import load_workbook

    monkeypatch.chdir(tmp_path)
    result = run_cli("analyze", FACE_UP_ULTIMATE, "--format", "xlsx", "--out", "fu.xlsx")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "wrote fu.xlsx\n")
    book = load_workbook(tmp_path / "fu.xlsx")
    assert book.sheetnames == ["Game", "Summary", "ante_play", "ante_play strategy", "ante_play exceptions"]
    game = {row[0]: row[1] for row in book["Game"].iter_rows(values_only=True) if row[0] is not None}
    assert game["House edge per Ante"] == "3.8807%  (1975131/50896300)"
    assert game["Element of risk"] == "1.1822%  (1975131/167065448)"
    summary = list(book["Summary"].iter_rows(values_only=True))
    ante = dict(zip(summary[0], summary[1], strict=True))
    assert (ante["House edge (exact)"], ante["Element of risk (exact)"]) == ("1975131/50896300", "1975131/167065448")
    exceptions = list(book["ante_play exceptions"].iter_rows(min_row=4, values_only=True))
    assert len(exceptions) == 903 and exceptions[0] == ("2c", "2d 5c 9c", "fold", "1x", "suits")
    again = run_cli("analyze", FACE_UP_ULTIMATE, "--format", "xlsx", "--out", "fu.xlsx")
    assert again.exit_code == 1 and "--force" in again.stderr  # nothing overwritten without --force


def test_analyze_meter_of_a_family_game_is_refused() -> None:
    result = run_cli("analyze", FACE_UP_ULTIMATE, "--meter", "25000")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: face-up-ultimate.yaml has no progressive wager (--meter evaluates a progressive's meter)\n"
    )


def test_trey_risk_refuses_a_family_game_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli("risk", FACE_UP_ULTIMATE, "--bankroll", "10", "--rounds", "10")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"{FACE_UP_ULTIMATE}: $.game: trey risk {NOT_YET} {HINT}\n"
    assert list(tmp_path.iterdir()) == []


def test_verify_refuses_a_standard_certificate_whose_paytable_became_a_family_game(tmp_path: Path) -> None:
    """A family game's certificate is of format 4, its figures the family's: the standard game's certificate with a
    family game's paytable put in differs from a fresh computation in its format, its analysis and its outcomes."""
    certificate = json.loads((Path(__file__).parents[2] / "reports" / "standard.certificate.json").read_text())
    certificate["paytable"]["canonical"] = load_spec(FACE_UP_ULTIMATE).canonical()
    certificate["simulation"] = None
    (tmp_path / "fu.certificate.json").write_text(json.dumps(certificate))
    result = run_cli("verify", tmp_path / "fu.certificate.json")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(
        f"error: {tmp_path / 'fu.certificate.json'}: the certificate does not verify; these fields differ from a "
        "fresh computation:\n  certificate_id (it does not match the certificate's content)\n"
    )
    differing = result.stderr.splitlines()[2:]
    assert {"  certificate_format", "  analysis.game", "  analysis.wagers", "  outcomes"} <= set(differing)


def test_the_shards_of_a_family_game_merge_into_the_single_run(tmp_path: Path) -> None:
    """simulate --shard deals a family game as simulate does (issue 31): its one part merges into the same figures."""
    made = run_cli("simulate", FACE_UP_ULTIMATE, "--rounds", "20000", "--shard", "1/1", "--out", tmp_path / "part.json")
    assert made.exit_code == 0, made.stderr
    merged = run_cli("merge", tmp_path / "part.json", "--format", "json")
    single = run_cli("simulate", FACE_UP_ULTIMATE, "--rounds", "20000", "--format", "json")
    assert (merged.exit_code, single.exit_code) == (0, 0)
    assert json.loads(merged.stdout)["wagers"] == json.loads(single.stdout)["wagers"]


def test_validate_reads_a_family_game() -> None:
    result = run_cli("validate", FACE_UP_ULTIMATE)
    assert (result.exit_code, result.stdout) == (0, f"{FACE_UP_ULTIMATE}: valid (Ante & Play)\n")


# --- the library ----------------------------------------------------------------------------------------------------

ENGINE = "the standard game's {} is not yet supported for games other than standard Three Card Poker"


def test_the_standard_engine_refuses_a_family_game_so_that_no_library_call_counts_it_as_standard() -> None:
    from trey.engine import player_decisions
    from trey.protect.protection import protect

    spec = load_spec(FACE_UP_ULTIMATE)
    calls: list[tuple[str, Callable[[], object]]] = [
        ("analysis", lambda: trey.analyze(spec)),
        ("decisions", lambda: player_decisions(spec)),
        ("analysis", lambda: protect(spec, two=False)),
        ("hand values", lambda: trey.hand(spec, "Q-6-4")),
    ]
    for what, call in calls:
        with pytest.raises(SpecError) as raised:
            call()
        (problem,) = raised.value.problems
        assert (problem.code, problem.path, problem.file) == ("game.not-yet-supported", ("game",), spec.name)
        assert problem.message == ENGINE.format(what)
        assert problem.hint == "trey.engine.family.analyze_family counts it (trey analyze)"
    assert trey.analyze_family(spec).house_edge_per_ante == Fraction(1975131, 50896300)


def test_table_rounds_of_a_family_game_are_refused_in_one_line_and_write_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """simulate --seats deals table rounds of standard Three Card Poker only; the audit reads a family game's rounds
    from seat lines in files, never a database or a mapping's columns it would read as the standard game's."""
    monkeypatch.chdir(tmp_path)
    made = run_cli("simulate", FACE_UP_ULTIMATE, "--rounds", "10", "--log", "rounds.jsonl", "--seats", "3")
    assert (made.exit_code, made.stdout) == (1, "")
    assert made.stderr == f"{FACE_UP_ULTIMATE}: $.game: trey simulate --seats {NOT_YET} ({HINT[1:-1]})\n"
    assert list(tmp_path.iterdir()) == []
    read = run_cli("audit", FACE_UP_ULTIMATE, "sqlite:///rounds.db", "--table", "rounds")
    assert (read.exit_code, read.stdout) == (1, "")
    assert read.stderr == (
        "error: Face Up Ultimate Three Card Poker: a game of the family is audited from seat lines in JSON Lines or "
        "CSV files (table rounds, databases and mappings are read for standard Three Card Poker)\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["solve", FACE_UP_ULTIMATE, "--wager", "ante_play", "--row", "play_pays.pair", "--house-edge", "2%"],
            "error: play_pays.pair: the game pays a Play won 1 to 1, by no table (give play_pays: under game: first)",
        ),
        (
            ["solve", FACE_UP_ULTIMATE, "--wager", "ante_play", "--row", "bad_beat.straight", "--house-edge", "2%"],
            "error: bad_beat.straight: the game has no bad beat (give bad_beat: under game: first)",
        ),
        (
            ["analyze", FACE_UP_ULTIMATE, "--mix", "ante_play=25"],
            "error: Face Up Ultimate Three Card Poker: the table's money (--mix) is worked out for standard Three Card "
            "Poker (trey analyze without --mix counts this game)",
        ),
        (
            ["protect", FACE_UP_ULTIMATE, "--colluders", "1", "--samples", "100", "--scheduler", "local:1"],
            "error: Face Up Ultimate Three Card Poker: the colluders of a game of the family are sampled on this "
            "machine (no --scheduler) (trey protect --colluders K without --scheduler samples them here)",
        ),
    ],
)
def test_an_option_a_family_game_has_nothing_for_is_refused_never_ignored(args: list[object], said: str) -> None:
    result = run_cli(*(str(a) for a in args))
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", said + "\n")


def test_a_game_without_a_card_up_is_not_worded_by_face_up_card(tmp_path: Path) -> None:
    path = tmp_path / "pushes.yaml"
    path.write_text(
        "trey: 3\nname: Ante pushes\ngame: {ante_when_dealer_does_not_qualify: pushes}\nwagers: {ante_play: {}}\n"
    )
    result = run_cli("analyze", path)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Initial bet                  1 Ante" in lines
    assert "As a rule (no dealer card face up): 1x Q-J-8 or better; otherwise fold." in lines
    assert "by face-up card" not in result.stdout and "four suits" not in result.stdout
