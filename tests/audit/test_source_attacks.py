"""Red-team findings on the audit's sources, each made again: a database queried for more than reading, a log
whose first line is broken, a mapping that reads one column as two fields."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from conftest import run_cli
from trey.audit.simulated import simulated_table_log
from trey.paytable.load import load_spec

REPO = Path(__file__).resolve().parents[2]
PAYTABLE = REPO / "paytables" / "standard.yaml"


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("ATTACH DATABASE '{folder}/evil.db' AS e", "the query is refused (not authorized)"),
        ("VACUUM INTO '{folder}/copy.db'", "the query is refused (authorization denied)"),
        ("PRAGMA query_only = 0", "the query is refused (not authorized)"),
        ("SELECT 1 WHERE 0", None),  # reads: then the missing columns are said
    ],
)
def test_a_sqlite_query_reads_and_does_nothing_else(tmp_path: Path, query: str, said: str | None) -> None:
    """mode=ro and query_only refused writes, but ATTACH created its file and VACUUM INTO its copy before they
    were refused, and a statement that returns no rows ended in a traceback: now each is refused when it is
    prepared, with a located error, and nothing is created."""
    database = tmp_path / "rounds.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE seats (x TEXT)")
    before = sorted(p.name for p in tmp_path.iterdir())
    run = run_cli("audit", str(PAYTABLE), f"sqlite:///{database}", "--query", query.format(folder=tmp_path))
    assert run.exit_code == 1 and "Traceback" not in run.stderr
    if said is not None:
        assert run.stderr == f"error: sqlite:///{database} (query): {said} [source.query]\n"
    else:
        assert run.stderr.startswith("error: the source has no column for round")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_statement_that_returns_no_rows_is_one_error(tmp_path: Path) -> None:
    database = tmp_path / "rounds.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE seats (x TEXT)")
    run = run_cli("audit", str(PAYTABLE), f"sqlite:///{database}", "--query", "BEGIN")
    assert (run.exit_code, run.stderr) == (
        1,
        f"error: sqlite:///{database} (query): the query returns no rows [source.query] (give a SELECT)\n",
    )


def test_a_broken_first_line_refuses_itself_alone(tmp_path: Path) -> None:
    """The first line of a log said its format: a broken first line made every table round after it be read as a
    seat line and refused. The first line that reads as a JSON object says it now."""
    rounds = list(simulated_table_log(load_spec(PAYTABLE), 20, 5, seats=7))
    path = tmp_path / "broken.jsonl"
    path.write_text("{not json\n" + "\n".join(rounds) + "\n")
    run = run_cli("audit", str(PAYTABLE), str(path), "--format", "json")
    data = json.loads(run.stdout)
    assert (data["problems"]["count"], data["rounds"]) == (1, 140)
    assert data["problems"]["listed"][0]["line"] == 1


@pytest.mark.parametrize(
    ("columns", "said"),
    [
        ("{deck: deck, input: deck}", "mapping.yaml:2:30: $.columns.input: the column 'deck' is read as deck already"),
        (
            "{net_prime: bet_prime}",
            "mapping.yaml:2:22: $.columns.net_prime: the column 'bet_prime' is read as bet_prime",
        ),
        (
            "{player: [a, b, c], dealer_cards: [c, d, e]}",
            "mapping.yaml:2:44: $.columns.dealer_cards: the column 'c' is read as player already",
        ),
    ],
)
def test_a_mapping_reads_each_column_as_one_field(tmp_path: Path, columns: str, said: str) -> None:
    """A mapping of deck and input to one column was taken, and the audit blamed the shuffler for it (46 findings
    of rising sequences); a bet read as the net, 2,800 wagers mis-paid."""
    from trey.audit.mapping import load_mapping
    from trey.core.errors import SpecError

    path = tmp_path / "mapping.yaml"
    path.write_text(f"mapping: 1\ncolumns: {columns}\n")
    with pytest.raises(SpecError) as caught:
        load_mapping(path)
    assert str(caught.value).startswith(f"{path.parent}/{said}"), str(caught.value)
    assert [p.code for p in caught.value.problems] == ["mapping.column-twice"]


def test_a_log_without_the_deck_order_says_the_shuffle_tests_it_could_not_run(tmp_path: Path) -> None:
    """Riffled decks exported without their order passed: the tests that see a riffle were listed "not run" below
    the verdict, not in it. Now they are in it, not checked, and the verdict cannot be PASS."""
    from trey.audit.audit import audit
    from trey.cards.shuffles import parse_shuffle

    spec = load_spec(PAYTABLE)
    lines = []
    for line in simulated_table_log(spec, 300, 5, seats=7, shuffle=parse_shuffle("riffle:6")):
        data = json.loads(line)
        del data["deck"], data["input"]
        lines.append(json.dumps(data) + "\n")
    path = tmp_path / "nodeck.jsonl"
    path.write_text("".join(lines))
    verdict = audit(spec, [path]).verdict
    assert not verdict.passed
    (said,) = [str(f) for f in verdict.findings if "the log does not carry" in str(f)]
    assert said.startswith("not checked: 12 deal-integrity tests for data the log does not carry: ")
    assert "(needs the deck's order)" in said and "; and 7 more" in said


def test_a_column_given_by_the_folders_and_by_the_files_is_refused(tmp_path: Path) -> None:
    """Folders shuffler=S8/ and shuffler=S9/ over files whose rows say S1: pyarrow took the folders' value without
    a word, and the deal-integrity groups named shufflers the rows do not. The audit and trey hold refuse it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from trey.audit.hold import read_ledger
    from trey.audit.sources import SourceError, records_of
    from trey.core.errors import TreyError

    for value in ("S8", "S9"):
        (tmp_path / "rounds" / f"shuffler={value}").mkdir(parents=True)
        pq.write_table(
            pa.table({"round": ["r"], "shuffler": ["S1"]}), tmp_path / "rounds" / f"shuffler={value}" / "0.parquet"
        )
    with pytest.raises(SourceError) as caught:
        records_of(tmp_path / "rounds", load_spec(PAYTABLE), None)
    assert str(caught.value) == (
        f"{tmp_path / 'rounds'}: the column 'shuffler' is given by its folders and by its files' rows [source.column] "
        "(keep the folders' or the files' column)"
    )
    for value in ("T8", "T9"):
        (tmp_path / "ledger" / f"table={value}").mkdir(parents=True)
        data = {"table": ["T1"], "shift": ["d"], "hours": [8.0], "drop": [100.0], "win": [5.0]}
        pq.write_table(pa.table(data), tmp_path / "ledger" / f"table={value}" / "0.parquet")
    with pytest.raises(TreyError) as again:
        read_ledger(tmp_path / "ledger")
    assert str(again.value) == (
        "ledger: the column 'table' is given by its folders and by its files' rows (keep the folders' or the files' "
        "column)"
    )


def test_a_mapping_s_yaml_errors_speak_of_a_mapping(tmp_path: Path) -> None:
    from trey.audit.mapping import load_mapping
    from trey.core.errors import SpecError

    path = tmp_path / "mapping.yaml"
    path.write_text("\n")
    with pytest.raises(SpecError) as caught:
        load_mapping(path)
    assert str(caught.value) == f"{path}: file is empty (a mapping starts with 'mapping: 1')"
    path.write_text(
        "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        + "".join(
            f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, c in zip("abcdef", "bcdefg", strict=True)
        )
    )
    with pytest.raises(SpecError) as caught:
        load_mapping(path)
    assert str(caught.value).endswith("(YAML aliases (*name) are expanded; a mapping needs only a few dozen values)")


def test_table_rounds_of_a_progressive_game_are_refused_with_a_hint(tmp_path: Path) -> None:
    """Red team: trey simulate --seats of a progressive game ended in a ValueError's traceback."""
    paytable = REPO / "paytables" / "progressive" / "three-card-progressive.yaml"
    log = tmp_path / "rounds.jsonl"
    run = run_cli("simulate", str(paytable), "--rounds", "10", "--seed", "1", "--log", str(log), "--seats", "3")
    assert (run.exit_code, run.stderr) == (
        1,
        f"error: {paytable}: table rounds are simulated for games without a progressive meter (progressive has"
        " one) (trey simulate --log without --seats logs its rounds as seat lines, meter and all)\n",
    )
    assert not log.exists()
