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
from trey.core.jsonschemas import validator
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
    assert run.stdout.splitlines()[0] == "PASS: 2 table-shifts, and 1 of shifts taken together, none out of range"
    assert "expected hold 36.38% of drop" in run.stdout
    path = _write(tmp_path, "table,shift,hours,drop,win\nT1,day,8,20000,3500\nT2,day,8,18000,-40000\n")
    run = run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--mix", "pair_plus=10", "--format", "json")
    assert run.exit_code == 1
    data = json.loads(run.stdout)
    assert data["verdict"] == "FLAGGED"
    assert [s["flagged"] for s in data["shifts"]] == [False, True]
    assert list(validator("hold").iter_errors(data)) == []  # schemas/hold.schema.json
    assert (data["name"], data["blended_house_edge_exact"]) == ("Pair Plus 40-30-6-3-1", "402/5525")
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
    assert data["says"] == "FLAGGED: 2 findings"
    assert data["findings"] == [
        "table T2, shift day: won -40,000.00 against 6,548.42 expected (z = -17.18, p = 3.64e-66)",
        "every table-shift: won -31,300.00 against 19,281.45 expected (z = -10.88, p = 1.43e-27)",
    ]
    assert "FLAGGED: 2 findings" in text and all(f in text for f in data["findings"])  # the verdict box, whole
    assert "α = 10⁻² family-wise, Holm over 5 tests" in text
    assert "Holm over 5 tests (3 table-shifts, 1 of shifts taken together, their scatter)" in text
    scatter = data["scatter"]
    assert scatter["shifts"] == 3 and not scatter["flagged"]
    assert f"the sum of their z² {scatter['sum_of_z_squared']:,.2f} against 3 expected" in text
    combined = data["combined"][0]
    assert combined["table"] is None and combined["shifts"] == 3
    assert "every table-shift $53,000 −$31,300 −59.06% $19,281.45" in text
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
    assert f"drop ${data['drop_needed_for_skim']:,.0f} or more, or over a table's shifts whose drops add up" in text
    assert "2. Tables' shifts taken together" in text
    assert "3. Not checked" in text and "The hours of a row do not enter the test" in text
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


def test_a_skim_spread_over_many_shifts_is_flagged_at_its_table() -> None:
    """The red team's year of shifts, each skimmed 10% of its drop: no one shift is out of range, the table's
    shifts taken together are, and the verdict is not PASS."""
    analysis, moments = _game()
    rng = np.random.default_rng(11)
    shifts = []
    for day in range(200):
        drop, win = _shift(rng, 5_000)
        taken = drop / 10
        shifts.append(LedgerRow(day + 2, "T1", f"D{day:03d}", Fraction(8), drop - taken, win - taken))
    report = hold_report("year.csv", shifts, analysis, moments, MIX, RATIO)
    assert not any(report.flagged)  # each shift alone looks in range
    assert report.verdict.result is Result.FLAGGED
    (table,) = report.combined  # one table: its shifts together are the whole ledger too
    assert (table.table, table.shifts, report.combined_flagged) == ("T1", 200, (True,))
    assert [str(f).split(":")[0] for f in report.verdict.findings] == ["table T1, its 200 shifts"]
    honest = [(r.line, r.table, r.shift, r.drop * 10 / 9, r.win + r.drop / 9) for r in shifts]  # the skim put back
    rows = [LedgerRow(line, table, shift, Fraction(8), drop, win) for line, table, shift, drop, win in honest]
    assert hold_report("year.csv", rows, analysis, moments, MIX, RATIO).verdict.result is Result.PASS


def test_a_shift_of_too_few_rounds_is_not_checked_whatever_its_win(tmp_path: Path) -> None:
    """A rated average bet as large as the drop made any win look in range (z near 0): a table-shift whose drop
    stands for fewer than 100 rounds is not tested, and the verdict says so (INCOMPLETE, never PASS)."""
    path = _write(tmp_path, "table,shift,hours,drop,win,average_bet\nT1,d,8,10000,-10000,1000000\nT2,d,8,20000,3500,\n")
    run = run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--mix", "pair_plus=10", "--seats", "1")
    assert run.exit_code == 1
    lines = run.stdout.splitlines()
    assert lines[:3] == [
        "INCOMPLETE: 2 findings",
        "- not checked: 1 table-shift whose drop stands for fewer than 100 rounds at its bets (the normal law of a "
        "shift's win needs many; line 2)",
        "- not checked: 1 test of shifts taken together (every table-shift: a seat-round's largest pay above a third "
        "of the SD)",
    ]
    assert lines[5].startswith("T1 ") and lines[5].endswith("  not tested")
    data = json.loads(
        run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--mix", "pair_plus=10", "--format", "json").stdout
    )
    # T2: a handle of 100,000 at the table's 6 seats, 75% full, at 10 each: 2,222.2 rounds
    assert [(s["line"], s["tested"], s["rounds"]) for s in data["shifts"]] == [(2, False, 0.0), (3, True, 2222.2)]
    assert data["verdict"] == "INCOMPLETE" and data["combined"] == [] and data["combined_not_tested"] == [None]
    assert list(validator("hold").iter_errors(data)) == []


UNSEEN = (
    "ledger.csv:2: table must be text of 1 to 64 characters that can all be seen (no control or format character; "
    "name the table and shift)"
)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("T1,d,8,1e308,1e308", "ledger.csv:2: drop '1e308' is not a number (write it as 1234.50)"),
        (
            "T1,d,8,1000000000001,5",
            "ledger.csv:2: drop must be at most 1,000,000,000,000 (amounts in the table's currency)",
        ),
        ("T1,d,8,100.1234567,5", "ledger.csv:2: drop '100.1234567' is not a number (write it as 1234.50)"),
        ("T1,d,8,100.125,5", "ledger.csv:2: drop '100.125' is not a number (write it as 1234.50)"),
        ("T1,d,8,1/3,5", "ledger.csv:2: drop '1/3' is not a number (write it as 1234.50)"),
        ("T1,d,8,1_000,5", "ledger.csv:2: drop '1_000' is not a number (write it as 1234.50)"),
        ("T1,d,20000,100,5", "ledger.csv:2: hours must be at most 10,000 (a shift's hours)"),
        ("T1\u202e,d,8,100,5", UNSEEN),
        ('"T1\nX",d,8,100,5', UNSEEN),
    ],
)
def test_numbers_and_names_a_ledger_cannot_choose(tmp_path: Path, row: str, message: str) -> None:
    """Amounts bounded and written without an exponent (no input chooses how long its arithmetic takes), names of
    characters that can be seen (a right-to-left override turned a report's figures around)."""
    with pytest.raises(TreyError) as caught:
        read_ledger(_write(tmp_path, "table,shift,hours,drop,win\n" + row + "\n"))
    assert str(caught.value) == message


def test_parquet_values_that_are_not_numbers_or_names_and_files_that_are_not_ledgers(tmp_path: Path) -> None:
    import os

    for column, values, message in [
        ("table", [["a", "b"]], "lists.parquet:2: table must be text of 1 to 64 characters"),
        ("drop", [True], "lists.parquet:2: drop (a bool) is not a number (write it as 1234.50)"),
        ("drop", [float("inf")], "lists.parquet:2: drop (a float) is not a number (write it as 1234.50)"),
        ("win", [1e-300], "lists.parquet:2: win has more than 2 decimals (round it to cents)"),
        ("win", [0.125], "lists.parquet:2: win has more than 2 decimals (round it to cents)"),
    ]:
        data = {"table": ["T1"], "shift": ["d"], "hours": [8.0], "drop": [100.0], "win": [5.0]} | {column: values}
        pq.write_table(pa.table(data), tmp_path / "lists.parquet")
        with pytest.raises(TreyError) as caught:
            read_ledger(tmp_path / "lists.parquet")
        assert str(caught.value).startswith(message), str(caught.value)
    (tmp_path / "dir.csv").mkdir()
    run = run_cli("hold", str(tmp_path / "dir.csv"), "--paytable", str(PAIR_PLUS))
    assert (run.exit_code, run.stderr) == (
        1,
        "error: dir.csv: a folder without Parquet files (give a shift ledger (CSV, Parquet or a folder of Parquet "
        "files))\n",
    )
    os.mkfifo(tmp_path / "fifo.csv")  # would block for ever if it were opened to be read
    run = run_cli("hold", str(tmp_path / "fifo.csv"), "--paytable", str(PAIR_PLUS))
    assert run.exit_code == 1 and "is a FIFO (named pipe), not a regular file" in run.stderr


def test_a_ledger_reads_the_same_from_csv_parquet_a_parquet_folder_and_a_database(tmp_path: Path) -> None:
    """As the audit reads its sources: a CSV file, a Parquet file, a partitioned folder of Parquet files and a
    SQLite table or query give the same report."""
    import sqlite3

    rows = [
        ("T1", "day", 8.0, 20000.0, 3500.0),
        ("T1", "swing", 8.0, 18000.0, 9000.0),
        ("T2", "day", 6.5, 15000.0, 5200.0),
    ]
    csv_path = _write(tmp_path, "table,shift,hours,drop,win\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    columns = dict(zip(["table", "shift", "hours", "drop", "win"], map(list, zip(*rows, strict=True)), strict=True))
    pq.write_table(pa.table(columns), tmp_path / "ledger.parquet")
    folder = tmp_path / "by-table"
    for table in ("T1", "T2"):
        (folder / f"table={table}").mkdir(parents=True)
        part = {k: [v for v, t in zip(vs, columns["table"], strict=True) if t == table] for k, vs in columns.items()}
        written = pa.table({k: v for k, v in part.items() if k != "table"})
        pq.write_table(written, folder / f"table={table}" / "0.parquet")
    database = tmp_path / "casino.db"
    with sqlite3.connect(database) as connection:
        connection.execute('CREATE TABLE ledger ("table" TEXT, shift TEXT, hours REAL, "drop" REAL, win REAL)')
        connection.executemany("INSERT INTO ledger VALUES (?, ?, ?, ?, ?)", rows)
    common = ("--paytable", str(PAIR_PLUS), "--mix", "pair_plus=10", "--format", "json")
    answers = [
        run_cli("hold", str(csv_path), *common),
        run_cli("hold", str(tmp_path / "ledger.parquet"), *common),
        run_cli("hold", str(folder), *common),
        run_cli("hold", f"sqlite:///{database}", "--table", "ledger", *common),
        run_cli("hold", f"sqlite:///{database}", "--query", "SELECT * FROM ledger ORDER BY rowid", *common),
    ]
    assert [a.exit_code for a in answers] == [0] * 5
    shifts = [[{k: v for k, v in s.items() if k != "line"} for s in json.loads(a.stdout)["shifts"]] for a in answers]
    assert all(s == shifts[0] for s in shifts)
    assert [json.loads(a.stdout)["ledger"] for a in answers][3] == f"sqlite:///{database} (table ledger)"
    run = run_cli("hold", f"sqlite:///{database}", *common)
    assert run.exit_code == 2 and "a database URL is read with --query or --table, one of the two" in run.stderr


def test_a_win_one_jackpot_moves_by_more_than_a_third_of_its_sd_is_not_judged_by_the_normal_law() -> None:
    """Red team: with a Six Card Bonus's 1,000-to-1 royal in the mix, honest years were FLAGGED 4 times in 5 (one
    royal is several SDs of a shift's win, a tail the normal law has not). A test is made only where one
    seat-round's largest pay is at most a third of its SD: here Pair Plus's straight flush, 40 x $10, against
    shifts of 500 rounds (SD about 650: not tested) and the table's 100 shifts together (SD about 6,500: tested)."""
    analysis, moments = _game()
    rng = np.random.default_rng(5)
    rows = [LedgerRow(i + 2, "T1", f"S{i}", Fraction(8), *_shift(rng, 500)) for i in range(100)]
    report = hold_report("short.csv", rows, analysis, moments, MIX, RATIO)
    assert report.tests == () and len(report.untested) == 100
    assert {t.untested_why for t in report.untested} == {"jackpot"}
    assert all(Fraction(t.sd) / 3 < 400 for t in report.untested)  # the straight flush at $10
    (table,) = report.combined
    assert (table.table, table.shifts, table.untested_why) == ("T1", 100, None)
    assert report.verdict.result is Result.INCOMPLETE
    assert [str(f) for f in report.verdict.findings] == [
        "not checked: 100 table-shifts whose win one seat-round's largest pay (400.00 at the mix's bets) moves by "
        "more than a third of its SD (the normal law does not hold there; lines 2, 3, 4, 5, 6, ...)"
    ]


def test_the_skim_s_drop_is_computed_from_the_upper_tail_and_the_skim_is_bounded(tmp_path: Path) -> None:
    """Red team: below α of about 1e-16 the stated drop did not change (1 - α lost α in float); --skim 1e-300
    ended in a traceback."""
    analysis, moments = _game()
    needed = [
        hold_report(
            "a.csv", _ledger([(Fraction(10**6), Fraction(0))]), analysis, moments, MIX, RATIO, alpha=a
        ).drop_needed
        for a in (Fraction(1, 10**17), Fraction(1, 10**20), Fraction(1, 10**30))
    ]
    assert needed[0] < needed[1] < needed[2]
    path = _write(tmp_path, "table,shift,hours,drop,win\nT1,d,8,20000,3500\n")
    for skim in ("1e-300", "60%", "0.01%"):
        run = run_cli("hold", str(path), "--paytable", str(PAIR_PLUS), "--skim", skim)
        assert run.exit_code == 1 and "Traceback" not in run.stderr
        assert "is not a share" in run.stderr or "--skim must be a share from 0.1% to 50%" in run.stderr


def test_a_ledger_that_writes_down_the_theoretical_win_is_flagged_for_its_scatter() -> None:
    """Red team: a year of shifts each winning what theory says passed (every z near 0). The z²'s sum is a
    chi-square of as many degrees of freedom: far below it, the shifts scatter less than dealt rounds can."""
    analysis, moments = _game()
    edge = analysis.wagers["pair_plus"].stats.house_edge
    drop = Fraction(10_000)
    rows = [LedgerRow(i + 2, "T1", f"D{i:03d}", Fraction(8), drop, edge * drop / RATIO) for i in range(365)]
    report = hold_report("forged.csv", rows, analysis, moments, MIX, RATIO)
    assert report.scatter is not None and report.scatter.statistic < 1e-20 and report.scatter_flagged
    assert report.verdict.result is Result.FLAGGED
    assert [str(f) for f in report.verdict.findings][-1].startswith(
        "the 365 table-shifts scatter less than chance allows: the sum of their z² is 0.00 against 365 expected"
    )
    rng = np.random.default_rng(3)
    honest = hold_report("honest.csv", _ledger([_shift(rng, 2_000) for _ in range(200)]), analysis, moments, MIX, RATIO)
    assert honest.scatter is not None and not honest.scatter_flagged and 0.01 < honest.scatter.p_value < 0.99


def test_the_chi_square_lower_tail_is_the_closed_form_of_two_and_four_degrees_of_freedom() -> None:
    """P(X <= x) is 1 - e^(-x/2) for 2 degrees of freedom and 1 - e^(-x/2) (1 + x/2) for 4, both sides of the
    series' switch (x < a + 1) and far into the lower tail, where 1 minus the survival function would lose it."""
    import math

    from trey.play.chisquare import chi_square_cdf

    for x in (1e-12, 1e-3, 0.5, 1.9, 2.1, 7.0, 30.0):
        assert math.isclose(chi_square_cdf(x, 2), -math.expm1(-x / 2), rel_tol=1e-12)
        four = 1 - math.exp(-x / 2) * (1 + x / 2)
        assert math.isclose(chi_square_cdf(x, 4), four, rel_tol=1e-9, abs_tol=1e-15 if x < 1e-3 else 0)
    assert math.isclose(chi_square_cdf(1e-6, 4), (1e-6 / 2) ** 2 / 2, rel_tol=1e-5)  # x²/8 to first order
