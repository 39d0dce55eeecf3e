"""``trey hold``: ledgers simulated from known rounds (Pair Plus hands drawn from the 22,100 equally likely ones): an
honest table passes at the stated false-alarm rate, a skimmed one is flagged at the drop the report says it needs;
the ledger reader refuses what it should, with located messages."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import run_cli
from trey.audit.hold import LedgerRow, hold_report, read_ledger
from trey.audit.verdict import Result
from trey.cards.hand_table import hand_table
from trey.cards.readings import PLAYER_HAND, Deals
from trey.core.errors import TreyError
from trey.engine import analyze
from trey.engine.money import BetMix, MixBet
from trey.paytable.load import load_spec
from trey.play.table import table_moments

REPO = Path(__file__).resolve().parents[2]
PAIR_PLUS = REPO / "paytables" / "pair_plus" / "40-30-6-3-1.yaml"
BET = 10
RATIO = Fraction(1, 5)
MIX = BetMix((MixBet("pair_plus", Fraction(1), Fraction(BET)),), seats=1)


@cache
def _game():  # type: ignore[no-untyped-def]
    spec = load_spec(PAIR_PLUS)
    return analyze(spec), table_moments(spec)


@cache
def _net_of_hand() -> np.ndarray:
    """Each hand's Pair Plus net per unit, from its class and the paytable (40-30-6-3-1)."""
    table = hand_table()
    classes = PLAYER_HAND.classify(Deals(table.cards, table.cards))
    by_class = {0: 40, 1: 40, 2: 40, 3: 40, 4: 40, 5: 30, 6: 6, 7: 3, 8: 1}  # royals and straight flushes pay 40
    return np.array([by_class.get(int(c), -1) for c in classes], dtype=np.int64)


def _shift(rng: np.random.Generator, rounds: int) -> tuple[Fraction, Fraction]:
    """(drop, win) of a table-shift of ``rounds`` one-seat rounds at BET, its drop RATIO x its handle."""
    nets = _net_of_hand()[rng.integers(0, 22_100, size=rounds)]
    return RATIO * rounds * BET, Fraction(-int(nets.sum()) * BET)


def _ledger(shifts: list[tuple[Fraction, Fraction]]) -> list[LedgerRow]:
    return [LedgerRow(i + 2, f"T{i % 10}", f"S{i}", Fraction(8), d, w) for i, (d, w) in enumerate(shifts)]


def test_the_house_edge_of_the_known_rounds() -> None:
    analysis, _ = _game()
    assert Fraction(-int(_net_of_hand().sum()), 22_100) == analysis.wagers["pair_plus"].stats.house_edge


def test_an_honest_table_passes_at_the_stated_false_alarm_rate() -> None:
    analysis, moments = _game()
    rng = np.random.default_rng(34)
    rows = _ledger([_shift(rng, 2_000) for _ in range(400)])
    report = hold_report("honest.csv", rows, analysis, moments, MIX, RATIO, alpha=Fraction(1, 100))
    assert report.verdict.result is Result.PASS
    # Each shift's own test is calibrated: about 5% of honest shifts fall beyond p = 0.05 (binomial 400, 5%).
    beyond = sum(t.p_value < 0.05 for t in report.tests)
    assert 8 <= beyond <= 35


def test_a_skim_is_flagged_at_the_drop_the_report_says_it_needs() -> None:
    analysis, moments = _game()
    probe = hold_report("probe.csv", _ledger([(Fraction(1000), Fraction(0))]), analysis, moments, MIX, RATIO)
    rounds = int(probe.drop_needed / float(RATIO) / BET) + 1
    rng = np.random.default_rng(7)
    drop, win = _shift(rng, rounds)
    honest = hold_report("h.csv", _ledger([(drop, win)]), analysis, moments, MIX, RATIO)
    assert honest.verdict.result is Result.PASS
    taken = probe.skim * drop  # taken from the drop box before the count
    skimmed = hold_report("s.csv", _ledger([(drop - taken, win - taken)]), analysis, moments, MIX, RATIO)
    assert skimmed.verdict.result is Result.FLAGGED
    assert skimmed.tests[0].z < 0


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ledger.csv"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "table,shift,hours,drop,win,win\nT,S,8,100,10,10\n",
            "ledger.csv: the column 'win' is given twice (each column once)",
        ),
        (
            "table,shift,hours,drop\nT,S,8,100\n",
            "ledger.csv: no column win (a ledger has the columns table, shift, hours, drop, win)",
        ),
        (
            "table,shift,hours,drop,win\nT,S,8,lots,10\n",
            "ledger.csv:2: drop 'lots' is not a number (write it as 1234.50)",
        ),
        (
            "table,shift,hours,drop,win\nT,S,0,100,10\n",
            "ledger.csv:2: hours must be positive, not 0 (a shift has hours and drop)",
        ),
        ("table,shift,hours,drop,win\n", "ledger.csv: no rows (a ledger has one row per table and shift)"),
    ],
)
def test_bad_ledgers_are_refused(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(TreyError) as caught:
        read_ledger(_write(tmp_path, text))
    assert str(caught.value) == message


def test_a_parquet_ledger_and_its_duplicate_columns(tmp_path: Path) -> None:
    path = tmp_path / "ledger.parquet"
    pq.write_table(
        pa.table({"table": ["T1"], "shift": ["day"], "hours": [8.0], "drop": [20000.0], "win": [3500.0]}), path
    )
    (row,) = read_ledger(path)
    assert (row.table, row.drop, row.win) == ("T1", Fraction(20000), Fraction(3500))
    twice = pa.Table.from_arrays([pa.array(["T1"]), pa.array(["T1"])], names=["table", "table"])
    pq.write_table(twice, tmp_path / "twice.parquet")
    with pytest.raises(TreyError, match=r"^twice.parquet: the column 'table' is given twice \(each column once\)$"):
        read_ledger(tmp_path / "twice.parquet")


def test_trey_hold_terminal_json_and_exit_status(tmp_path: Path) -> None:
    path = _write(tmp_path, "table,shift,hours,drop,win\nT1,day,8,20000,3500\nT2,day,8,18000,-900\n")
    run = run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--mix", "pair_plus=10")
    assert run.exit_code == 0
    assert run.stdout.splitlines()[0] == "PASS: 2 table-shifts, none out of range"
    assert "expected hold 36.38% of drop" in run.stdout
    path = _write(tmp_path, "table,shift,hours,drop,win\nT1,day,8,20000,3500\nT2,day,8,18000,-40000\n")
    run = run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--mix", "pair_plus=10", "--format", "json")
    assert run.exit_code == 1
    data = json.loads(run.stdout)
    assert data["verdict"] == "FLAGGED"
    assert [s["flagged"] for s in data["shifts"]] == [False, True]
    run = run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--mix", "ante_play=10")
    assert run.exit_code == 1
    assert run.stderr.startswith("error: the game offers no wager 'ante_play' (it offers pair_plus)")


def test_a_table_shift_listed_twice_fails_and_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = _write(tmp_path, "table,shift,hours,drop,win\nT1,day,8,20000,3500\n\nT1,day,8,20000,3500\nT2,x,8,1,oops\n")
    with pytest.raises(TreyError, match=r"^ledger\.csv:5: win 'oops' is not a number"):
        read_ledger(path)
    path = _write(tmp_path, "table,shift,hours,drop,win\nT1,day,8,20000,3500\n\nT1,day,8,20000,3500\n")
    rows = read_ledger(path)
    assert [r.line for r in rows] == [2, 4]
    analysis, moments = _game()
    report = hold_report("twice.csv", rows, analysis, moments, MIX, RATIO)
    assert report.verdict.result is Result.FAIL
    assert [str(f) for f in report.verdict.findings] == ["table T1, shift day is listed more than once"]


def test_the_pdf_report_holds_the_verdict_every_table_shift_and_what_was_not_checked(tmp_path: Path) -> None:
    from pypdf import PdfReader

    rows = "T1,day,8,20000,3500\nT2,day,8,18000,-40000\nT3,swing,6.5,15000,5200\n"
    path = _write(tmp_path, "table,shift,hours,drop,win\n" + rows)
    out = tmp_path / "out"
    table = ("--mix", "pair_plus=10", "--seats", "7", "--occupancy", "100%")
    args = ("hold", str(path), "--paytable", str(PAIR_PLUS), *table, "--out", str(out))
    run = run_cli(*args, "--date", "2026-01-01", "--format", "json")
    assert run.exit_code == 1  # FLAGGED, as without --out
    assert run.stderr == f"wrote {out / 'ledger.hold.html'}\nwrote {out / 'ledger.hold.pdf'}\n"
    data = json.loads(run.stdout)
    reader = PdfReader(out / "ledger.hold.pdf")
    assert len(reader.pages) == 1
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert f"{data['verdict']}: {data['findings'][0]}" in text  # the verdict box: its headline, every finding
    assert data["findings"] == [
        "table T2, shift day: won -40,000.00 against 6,548.42 expected (z = -17.18, p = 3.64e-66)"
    ]
    assert "α = 10⁻² family-wise, Holm over 3 tests" in text
    assert "blended house edge 7.2760%, so an expected hold of 36.38% of drop" in text
    for shift in data["shifts"]:  # each table-shift's row, its figures as the JSON's
        row = (
            f"{shift['table']} {shift['shift']} {shift['hours']:.1f} ${shift['drop']:,.0f} "
            f"{'−' if shift['win'] < 0 else ''}${abs(shift['win']):,.0f} "
            f"{shift['hold']:.2%} ${shift['expected_win']:,.2f} ${shift['sd']:,.2f}"
        ).replace("-", "−")
        assert row in text, row
        assert (f"{shift['z']:+.2f}".replace("-", "−") + " ") in text
    assert "3.64e-66 flagged" in text and "0.186 flagged" not in text  # the flagged row alone
    assert f"drop ${data['drop_needed_for_skim']:,.0f} or more" in text
    assert "2. Not checked" in text and "The hours of a row do not enter the test" in text
    again = run_cli(*args)
    assert again.exit_code == 1 and "use --force to replace them" in again.stderr


def test_the_bet_mix_comes_from_the_paytable_s_table_when_not_given(tmp_path: Path) -> None:
    """The shipped 40-30-6-3-1 describes its table (Pair Plus at 10, six seats 75% full): trey hold reads it, and
    --mix, --seats and --occupancy replace its parts; a paytable without one needs --mix."""
    path = _write(tmp_path, "table,shift,hours,drop,win\nT1,day,8,20000,3500\n")
    from_table = json.loads(run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--format", "json").stdout)
    given = ("--mix", "pair_plus=10", "--seats", "6", "--occupancy", "75%", "--format", "json")
    assert from_table == json.loads(run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), *given).stdout)
    seven = json.loads(
        run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--seats", "7", "--format", "json").stdout
    )
    assert seven["shifts"][0]["sd"] != from_table["shifts"][0]["sd"]  # the seats' covariance counts
    other = REPO / "paytables" / "pair_plus" / "35-25-6-4-1.yaml"
    run = run_cli("hold", str(path), "--paytable", str(other))
    assert run.exit_code == 1
    assert run.stderr == (
        "error: Pair Plus 35-25-6-4-1: no bet mix: neither --mix nor the paytable's table: gives one (e.g. --mix "
        "ante_play=25 --mix pair_plus=60%@10, or table: side_bets in the paytable)\n"
    )
