from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from conftest import PAYTABLES, REPO, STANDARD, run_cli, validate_json
from trey import __version__

ANALYSIS_SCHEMA = json.loads((REPO / "schemas" / "analysis.schema.json").read_text())


def test_version() -> None:
    assert run_cli("--version").stdout == f"trey {__version__}\n"


def test_usage_errors_exit_2() -> None:
    missing = run_cli("validate")
    assert missing.exit_code == 2
    assert "Missing argument 'FILE'" in missing.stderr
    assert run_cli("analyze", STANDARD, "--format", "xml").exit_code == 2
    assert run_cli("no-such-command").exit_code == 2


def test_analyze_json_follows_the_contract() -> None:
    result = run_cli("analyze", STANDARD, "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    validate_json(data, ANALYSIS_SCHEMA)
    assert data["trey_version"] == __version__
    assert list(data["wagers"]) == ["ante_play", "pair_plus", "prime", "six_card_bonus"]
    pair_plus = data["wagers"]["pair_plus"]
    assert pair_plus["cycle"] == 22100
    assert pair_plus["outcomes"][0] == {
        "outcome": "straight_flush",
        "pays": "40",
        "combinations": 48,
        "probability": "12/5525",
    }
    assert pair_plus["std_dev"] == 2.8496
    sd = math.sqrt(Fraction(pair_plus["variance"]))
    assert pair_plus["volatility_index_90"] == round(1.645 * sd, 4)
    assert pair_plus["volatility_index_95"] == round(1.96 * sd, 4)
    assert pair_plus["house_edge"] == "402/5525"  # (48*40 + 52*30 + 720*6 + 1096*3 + 3744 - 16440) / 22100
    ante = data["wagers"]["ante_play"]
    assert ante["strategy"] == {
        "kind": "optimal",
        "decision": "at_least",
        "rule": "Q-6-4",
        "hands_played": 14900,
        "hands_folded": 7200,
    }
    assert [w["title"] for w in data["wagers"].values()] == ["Ante & Play", "Pair Plus", "Prime", "Six Card Bonus"]
    assert ante["net_results"][-1]["net"] == "7"  # a winning straight flush: Ante + Play + 5 to 1 bonus
    assert sum(o["combinations"] for o in ante["outcomes"]) == ante["cycle"] == 407170400
    assert sum(r["combinations"] for r in ante["net_results"]) == ante["cycle"]


def test_analyze_json_of_every_shipped_paytable_is_schema_valid() -> None:
    for path in sorted(PAYTABLES.rglob("*.yaml")):
        data = json.loads(run_cli("analyze", path, "--format", "json").stdout)
        validate_json(data, ANALYSIS_SCHEMA)


def test_analyze_table_shows_the_figures() -> None:
    result = run_cli("analyze", STANDARD)
    assert result.exit_code == 0
    text = result.stdout
    for figure in ("3.3730%", "7.2760%", "3.6206%", "8.5614%", "Q-6-4", "14,900 hands played", "2.0147%"):
        assert figure in text
    exact = run_cli("analyze", PAYTABLES / "pair_plus" / "40-30-6-3-1.yaml", "--exact").stdout
    assert "7.2760%  (402/5525)" in exact


def test_analyze_bad_file_exits_1_with_the_located_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("trey: 1\nname: x\nwagers:\n  pair_plus:\n    pair: 1.5\n")
    result = run_cli("analyze", bad)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{bad}:5:11: $.wagers.pair_plus.pair: odds must be exact, not the decimal number 1.5"
        " (write a whole number (40 means 40 to 1) or quoted text such as '3 to 2')\n"
    )


def test_the_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    """The real console script, in its own process, on a file that crashes naive loaders."""
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    )
    trey = Path(sys.executable).with_name("trey")
    result = subprocess.run([trey, "validate", bomb], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert re.fullmatch(rf"{bomb}:\d+:\d+: the document expands to more than 10,000 values \(.*\)\n", result.stderr)
    assert "Traceback" not in result.stderr


def test_analyze_does_not_import_report_libraries() -> None:
    code = (
        f"import sys; from trey.cli import main; sys.argv=['trey','analyze','{STANDARD}','--format','json'];\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try: main()\n"
        "    except SystemExit: pass\n"
        "print(sorted(m for m in ('jinja2','weasyprint','matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
