"""Table rounds (hand-history format 2): read whole, refused with their own codes, and the same audit from every
source holding the same rounds (JSON Lines, CSV, Parquet, partitioned Parquet, SQLite, PostgreSQL, a mapping)."""

from __future__ import annotations

import copy
import csv
import json
import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from trey.audit.audit import Audit, audit, audit_json
from trey.audit.mapping import load_mapping
from trey.audit.simulated import simulated_table_log
from trey.audit.sources import SourceError, SqlSource
from trey.cards.card import DECK_SIZE, Card
from trey.cli.app import app
from trey.core.errors import SpecError
from trey.paytable.load import load_spec
from trey.paytable.model import GameSpec

PAYTABLE = Path(__file__).resolve().parents[2] / "paytables" / "standard.yaml"
ROUNDS = 400  # enough for every card test of the audit (the repeats between rounds need about 320)
SEATS = 2


@cache
def spec() -> GameSpec:
    return load_spec(PAYTABLE)


@cache
def clean() -> tuple[str, ...]:
    return tuple(simulated_table_log(spec(), ROUNDS, 11, seats=SEATS))


@cache
def logged() -> tuple[dict[str, Any], ...]:
    """The simulated table rounds, one seat of round 5 mis-paid by 5 (so the audit lists a line)."""
    rounds = [json.loads(line) for line in clean()]
    rounds[4]["seats"][1]["net"]["pair_plus"] = rounds[4]["seats"][1]["net"]["pair_plus"] + 5
    return tuple(rounds)


def write_jsonl(path: Path, rounds: Any) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rounds))
    return path


def flat(rounds: Any, wagers: tuple[str, ...]) -> list[dict[str, Any]]:
    """A row per seat, the round's fields repeated: as a table-games system exports them."""
    rows = []
    for r in rounds:
        for s in r["seats"]:
            row = {k: r.get(k) for k in ("round", "table", "dealer", "shuffler", "shift", "table_seats")}
            row["dealer_cards"] = " ".join(r["dealer_cards"])
            row["deck"] = " ".join(r["deck"])
            row["input"] = " ".join(r["input"])
            row["seat"], row["player"], row["decision"] = s["seat"], " ".join(s["player"]), s["decision"]
            for w in wagers:
                row[f"bet_{w}"], row[f"net_{w}"] = str(s["bets"][w]), str(s["net"][w])
            row.update({k: str(v) for k, v in s["parts"].items()})
            rows.append(row)
    return rows


def audited(sources: Any, mapping: Any = None) -> Audit:
    return audit(spec(), sources, mapping=mapping)


def as_text(found: Audit) -> str:
    return json.dumps(audit_json(found), indent=2)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Audit]:
    path = write_jsonl(tmp_path_factory.mktemp("rounds") / "rounds.jsonl", logged())
    found = audit(spec(), [path], keep_deals=True)
    return as_text(found), found


def test_a_table_log_is_every_seat_resettled_and_its_deals_recorded(reference: tuple[str, Audit]) -> None:
    _, found = reference
    assert (found.table_rounds, found.rounds, found.problem_count) == (ROUNDS, ROUNDS * SEATS, 0)
    assert [(m.line, m.round, m.wager) for m in found.mispaid] == [(5, "T1-0000005/2", "pair_plus")]
    deals = found.deals
    assert deals is not None and deals.decks is not None and deals.inputs is not None
    assert deals.rounds == ROUNDS and deals.seats.shape == (ROUNDS * SEATS, 3)
    # The deal order stated in the format: three at a time, seats in rising order, then the dealer.
    assert (deals.decks[:, 0:3] == deals.seats[0::2]).all() and (deals.decks[:, 3:6] == deals.seats[1::2]).all()
    assert (deals.decks[:, 6:9] == deals.dealer).all()
    assert sorted(deals.decks[7].tolist()) == list(range(DECK_SIZE))
    assert set(deals.labels["shift"].tolist()) == {"day"} and deals.labels["table"][0] == "T1"
    assert deals.seat_number.tolist()[:4] == [1, 2, 1, 2] and deals.seat_round.tolist()[:4] == [0, 0, 1, 1]


def test_a_clean_simulated_table_log_passes(tmp_path: Path) -> None:
    # Enough rounds for every test of the deal-integrity battery: the Six Card hands of a seat need 6,167. The
    # battery runs by dealer and shift too, each group needing as many: the rounds are logged without those labels.
    lines = []
    for line in simulated_table_log(spec(), 6_200, 11, seats=SEATS):
        labelled = json.loads(line)
        del labelled["dealer"], labelled["shift"]
        lines.append(json.dumps(labelled) + "\n")
    path = tmp_path / "clean.jsonl"
    path.write_text("".join(lines))
    found = audited([path])
    assert found.verdict.passed, str(found.verdict)
    assert found.integrity is not None and found.integrity.rounds == 6_200 and not found.integrity.short


def test_a_short_clean_table_log_is_incomplete_naming_the_tests_it_could_not_run(tmp_path: Path) -> None:
    path = tmp_path / "clean.jsonl"
    path.write_text("".join(line + "\n" for line in clean()))
    found = audited([path])
    assert str(found.verdict.result) == "INCOMPLETE"
    assert found.verdict.findings[0].says.startswith(
        "not checked: 25 deal-integrity tests for too little data (a count expected fewer than 5 times): hand "
        "categories, dealer (400 of 2,303 hands); "
    )


@pytest.fixture(scope="module")
def tabular(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("tabular")
    return folder, flat(logged(), spec().wagers.ids)


def test_csv_parquet_and_sqlite_give_the_same_audit_to_the_byte(
    reference: tuple[str, Audit], tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    folder, rows = tabular
    with (folder / "rounds.csv").open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    table = pa.Table.from_pylist(rows)
    pq.write_table(table, folder / "rounds.parquet", row_group_size=97)
    pq.write_to_dataset(table.slice(0, 300), folder / "dataset", partitioning=None, basename_template="a{i}.parquet")
    pq.write_to_dataset(table.slice(300), folder / "dataset", partitioning=None, basename_template="b{i}.parquet")
    database = folder / "rounds.db"
    with sqlite3.connect(database) as connection:
        names = list(rows[0])
        quoted = ", ".join(f'"{n}"' for n in names)
        connection.execute(f"CREATE TABLE seats ({quoted})")
        connection.executemany(
            f"INSERT INTO seats VALUES ({', '.join('?' * len(names))})", [list(r.values()) for r in rows]
        )
    sqlite = f"sqlite:///{database}"
    for source in (
        folder / "rounds.csv",
        folder / "rounds.parquet",
        folder / "dataset",
        SqlSource(sqlite, table="seats"),
        SqlSource(sqlite, query="SELECT * FROM seats ORDER BY rowid"),
    ):
        assert as_text(audited([source])) == reference[0], source


def test_a_source_read_first_in_a_smaller_block_gives_the_same_audit_to_the_byte(
    reference: tuple[str, Audit], tabular: tuple[Path, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first block of JSON Lines and the first batch of Parquet are read smaller (the audit starts on them while
    the next is read), cut within a line or a round: the same audit."""
    from trey.audit import sources

    folder, rows = tabular
    pq.write_table(pa.Table.from_pylist(rows), folder / "one-group.parquet")
    path = write_jsonl(folder / "rounds-first.jsonl", logged())
    for first_rows, first_bytes in ((5, 3_001), (101, 20_000)):
        monkeypatch.setattr(sources, "FIRST_ROWS", first_rows)  # within a round of two rows
        monkeypatch.setattr(sources, "FIRST_BLOCK_BYTES", first_bytes)  # within a line
        for source in (folder / "one-group.parquet", path):
            assert as_text(audited([source])) == reference[0], (source, first_rows)


def test_postgresql_gives_the_same_audit_to_the_byte(
    postgres_url: str, reference: tuple[str, Audit], tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    import sqlalchemy as sa

    _, rows = tabular
    engine = sa.create_engine(postgres_url)
    try:
        with engine.begin() as connection:
            columns = ", ".join(f'"{n}" ' + f"{'integer' if n in ('seat', 'table_seats') else 'text'}" for n in rows[0])
            connection.execute(sa.text(f"DROP TABLE IF EXISTS seats; CREATE TABLE seats (n serial, {columns})"))
            names = list(rows[0])
            quoted = ", ".join(f'"{n}"' for n in names)
            connection.execute(
                sa.text(f"INSERT INTO seats ({quoted}) VALUES ({', '.join(':' + n for n in names)})"), rows
            )
    finally:
        engine.dispose()
    found = audited([SqlSource(postgres_url, query="SELECT * FROM seats ORDER BY n")])
    assert as_text(found) == reference[0]
    # Read-only: a query that writes is refused by the server, and nothing is written.
    writes = "SELECT * FROM seats, LATERAL (SELECT nextval('seats_n_seq')) AS x ORDER BY n"
    with pytest.raises(
        SourceError, match=r"the query is refused \(cannot execute nextval\(\) in a read-only transaction\)"
    ):
        audited([SqlSource(postgres_url, query=writes)])


def test_a_mapping_reads_a_systems_own_names_cards_and_money(
    tmp_path: Path, reference: tuple[str, Audit], tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    _, rows = tabular
    rfid = {f"04{value:02X}": str(Card(value)) for value in range(DECK_SIZE)}
    code = {card: key for key, card in rfid.items()}

    def suit_rank(cards: str) -> str:
        return ",".join(c[-1].upper() + c[:-1].replace("T", "10") for c in cards.split())

    def cents(amount: str) -> int:
        return round(float(amount) * 100)

    own = []
    for r in rows:
        p = r["player"].split()
        own.append(
            {
                "HAND_ID": r["round"],
                "TBL": r["table"],
                "DEALER_ID": r["dealer"],
                "SHOE": r["shuffler"],
                "SHIFT": r["shift"],
                "SEATS": r["table_seats"],
                "DLR": suit_rank(r["dealer_cards"]),
                "DECK": suit_rank(r["deck"]),
                "FED": suit_rank(r["input"]),
                "SEAT_NO": r["seat"],
                "P1": code[p[0]],
                "P2": code[p[1]],
                "P3": code[p[2]],
                "ACTION": r["decision"],
                **{f"B_{w}": cents(r[f"bet_{w}"]) for w in spec().wagers.ids},
                **{f"N_{w}": cents(r[f"net_{w}"]) for w in spec().wagers.ids},
                "PA": cents(r["ante"]),
                "PP": cents(r["play"]),
                "PB": cents(r["ante_bonus"]),
            }
        )
    columns = {
        "round": "HAND_ID",
        "table": "TBL",
        "dealer": "DEALER_ID",
        "shuffler": "SHOE",
        "shift": "SHIFT",
        "table_seats": "SEATS",
        "dealer_cards": "DLR",
        "deck": "DECK",
        "input": "FED",
        "seat": "SEAT_NO",
        "player": ["P1", "P2", "P3"],
        "decision": "ACTION",
        "ante": "PA",
        "play": "PP",
        "ante_bonus": "PB",
        **{f"bet_{w}": f"B_{w}" for w in spec().wagers.ids},
        **{f"net_{w}": f"N_{w}" for w in spec().wagers.ids},
    }
    mapping_file = tmp_path / "mapping.yaml"
    mapping_file.write_text(
        "mapping: 1\nmoney: cents\ncards:\n  notation: codes\n  separator: ','\n  codes:\n"
        + "".join(f"    {k!r}: {v}\n" for k, v in list(rfid.items()))
        + "columns:\n"
        + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in columns.items())
    )
    twice = tmp_path / "twice.yaml"  # a card with two codes
    twice.write_text(
        "mapping: 1\ncards:\n  notation: codes\n  codes:\n"
        + "".join(f"    {k!r}: {'As' if k == '0400' else v}\n" for k, v in rfid.items())
    )
    with pytest.raises(SpecError, match="As has two codes"):
        load_mapping(twice)
    own_suit_first = [
        dict(
            o,
            DLR=",".join(code[c] for c in r["dealer_cards"].split()),
            DECK=",".join(code[c] for c in r["deck"].split()),
            FED=",".join(code[c] for c in r["input"].split()),
        )
        for o, r in zip(own, rows, strict=True)
    ]
    pq.write_table(pa.Table.from_pylist(own_suit_first), tmp_path / "export.parquet")
    assert as_text(audited([tmp_path / "export.parquet"], load_mapping(mapping_file))) == reference[0]
    suit_first = tmp_path / "suit-first.yaml"
    suit_first.write_text(
        "mapping: 1\nmoney: cents\ncards: {notation: suit-rank, separator: ','}\ncolumns:\n"
        + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in columns.items() if k != "player")
    )
    own_rows = [dict(o, player=suit_rank(r["player"])) for o, r in zip(own, rows, strict=True)]
    pq.write_table(pa.Table.from_pylist(own_rows), tmp_path / "suit.parquet")
    assert as_text(audited([tmp_path / "suit.parquet"], load_mapping(suit_first))) == reference[0]


def test_a_mapping_file_is_refused_located(tmp_path: Path) -> None:
    twice = tmp_path / "twice.yaml"
    twice.write_text("mapping: 1\nmoney: cents\nmoney: units\n")
    with pytest.raises(SpecError) as caught:
        load_mapping(twice)
    assert [(p.code, p.line) for p in caught.value.problems] == [("yaml.duplicate-key", 3)]
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text("mapping: 1\ncolumns:\n  players: P\n")
    with pytest.raises(SpecError) as caught:
        load_mapping(unknown)
    assert caught.value.problems[0].line == 3


def _changed(changes: list[Any]) -> list[dict[str, Any]]:
    """For each change, three rounds (ids of their own) with the second changed: one log for all."""
    log = []
    for number, change in enumerate(changes):
        rounds = copy.deepcopy(list(logged()[:3]))
        change(rounds)
        for r in rounds:
            if isinstance(r.get("round"), str) and r["round"].startswith("T1-"):
                r["round"] = f"c{number}-{r['round']}"
        log += rounds
    return log


def _same_fast_and_strict(tmp_path: Path, rounds: list[dict[str, Any]]) -> Audit:
    """The audit of ``rounds`` from JSON Lines: the same from the fast reader and the strict one."""
    path = write_jsonl(tmp_path / "bad.jsonl", rounds)
    found = audited([path])
    assert as_text(audit(spec(), [path], columnar=False)) == as_text(found)
    return found


def _swap_first_cards(r: list[dict[str, Any]]) -> None:
    hand = r[1]["seats"][0]["player"]
    hand[0], hand[1] = hand[1], hand[0]


REFUSALS = [
    (
        lambda r: r[1]["seats"][1].update(player=r[1]["dealer_cards"][:1] + r[1]["seats"][1]["player"][1:]),
        "log.card-twice",
        "seat 2: a card is dealt twice in the round",
    ),
    (
        lambda r: r[1]["seats"][1].update(player=r[1]["seats"][0]["player"][:1] + r[1]["seats"][1]["player"][1:]),
        "round.card-twice",
        "a card is dealt twice in the round",
    ),
    (lambda r: r[1]["seats"][1].update(seat=1), "round.seat-number", "seat 1 is given twice"),
    (lambda r: r[1].update(table_seats=1), "round.seats", "2 seats at a table of 1"),
    (
        lambda r: r[1]["seats"][1].update(seat=8),
        "round.seat-number",
        "seat 2 of the list: its seat is a whole number 1 to 7",
    ),
    (lambda r: r[1].update(seats=[]), "round.seats", "a table round has seats: a list of one seat or more"),
    (lambda r: r[1]["deck"].__setitem__(51, r[1]["deck"][50]), "round.deck", "deck holds a card twice"),
    (_swap_first_cards, "round.deal-order", "seat 1 holds"),
    (lambda r: r[1].pop("deck"), "round.deck", "a round with its input gives its deck too"),
    (lambda r: (r[1].pop("deck"), r[1].pop("input")), "round.deck-mixed", "the log's first round has a deck"),
    (lambda r: r[1].update(shift=""), "round.label", "a round's shift is text of 1 to 64 characters"),
    (lambda r: r[1]["seats"][0].update(round="x"), "log.field", "seat 1: 'round' is the round's, not a seat's"),
    (lambda r: r[1].update(dealer_cards=["Ah"]), "log.card", "dealer_cards must be 3 cards"),
]


def test_each_refusal_of_a_round_has_its_code(tmp_path: Path) -> None:
    found = _same_fast_and_strict(tmp_path, _changed([change for change, _, _ in REFUSALS]))
    assert len(found.problems) == len(REFUSALS)
    for number, (problem, (_, code, says)) in enumerate(zip(found.problems, REFUSALS, strict=True)):
        assert (problem.line, problem.code) == (3 * number + 2, code)
        assert problem.message.startswith(says), problem.message


HOSTILE = [
    lambda r: r[1].update(round=" x"),
    lambda r: r[1].update(table="T\u200b1"),
    lambda r: r[1]["seats"].reverse(),
    lambda r: r[1]["seats"][0].update(seat=True),
    lambda r: r[1]["seats"][0]["bets"].update(ante_play="10"),
    lambda r: r[1]["seats"][0]["bets"].update(ante_play=10**20),
    lambda r: r[1]["seats"][0]["net"].update(ante_play="-7.505"),
    lambda r: r[1]["seats"][0].update(parts={}),
    lambda r: r[1]["seats"][0].update(bets={}, net={}),
    lambda r: r[1]["seats"][0].pop("parts"),
    lambda r: r[1]["seats"][0].update(decision="raise"),
    lambda r: r[1]["seats"][0].update(decision=None),
    lambda r: r[1]["seats"][0].update(meter={"pair_plus": 5}),
    lambda r: r[1]["seats"][0]["net"].pop("prime"),
    lambda r: r[1]["seats"][0]["player"].__setitem__(0, "1h"),
    lambda r: r[1]["seats"][0]["player"].__setitem__(0, " " + r[1]["seats"][0]["player"][0]),
    lambda r: r[1].update(table_seats=2.0),
    lambda r: r[1].update(table_seats=8),
    lambda r: r[1].update(seats=None),
    lambda r: r[1].update(extra=1),
    lambda r: r[0]["seats"][0]["player"].__setitem__(0, r[0]["seats"][0]["player"][0].replace("T", "10")),
]


def test_the_fast_reader_refuses_nothing_the_strict_one_takes(tmp_path: Path) -> None:
    everything = [change for change, _, _ in REFUSALS] + HOSTILE
    found = _same_fast_and_strict(tmp_path, _changed(everything))
    # Every change is refused but six that leave a round the strict reader takes: seats listed out of order, a bet
    # given as text ("10"), no parts, a card written " 4h" or "10h", a key the format does not name.
    assert found.problem_count == len(REFUSALS) + len(HOSTILE) - 6
    rows = []
    for number, change in enumerate(everything):  # a row per seat: the changes such a source can hold
        try:
            some = flat(_changed([lambda r, c=change: c(r)])[:3], spec().wagers.ids)
            pa.Table.from_pylist(rows + some)
        except (KeyError, TypeError, AttributeError, pa.ArrowException):
            continue
        rows += [dict(row, round=f"{number}-{row['round']}") for row in some]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "bad.parquet")
    fast, strict = audited([tmp_path / "bad.parquet"]), audit(spec(), [tmp_path / "bad.parquet"], columnar=False)
    assert fast.problem_count > 10 and as_text(fast) == as_text(strict)


def test_the_fast_reader_proves_every_clean_round(tmp_path: Path, tabular: tuple[Path, list[dict[str, Any]]]) -> None:
    from trey.audit.sources import records_of
    from trey.audit.table_columns import prove_rounds
    from trey.audit.tables import Chunk

    _, rows = tabular
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "clean.parquet")
    path = write_jsonl(tmp_path / "clean.jsonl", [json.loads(line) for line in clean()])
    for source in (path, tmp_path / "clean.parquet"):
        _, records = records_of(source, spec(), None)
        chunks = list(records)
        assert all(isinstance(c, Chunk) for c in chunks)
        proven = [prove_rounds(c.long, spec(), numbers=c.numbers, **c.readers).good for c in chunks]  # type: ignore[union-attr]
        assert sum(len(g) for g in proven) == ROUNDS and all(g.all() for g in proven)


def test_rows_of_one_round_that_disagree_are_refused(
    tmp_path: Path, tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    _, rows = tabular
    rows = copy.deepcopy(rows[:6])
    rows[3]["shift"] = "night"
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "r.parquet")
    found = audited([tmp_path / "r.parquet"])
    assert [(p.line, p.round, p.code, p.message) for p in found.problems] == [
        (2, "T1-0000002", "round.rows", "the rows of the round disagree on its shift")
    ]
    assert found.table_rounds == 2


def test_a_source_without_a_needed_column_is_one_error(
    tmp_path: Path, tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    _, rows = tabular
    pq.write_table(
        pa.Table.from_pylist([{k: v for k, v in r.items() if k != "player"} for r in rows[:4]]), tmp_path / "p.parquet"
    )
    with pytest.raises(
        SourceError, match=r"^the source has no column for player \(column 'player'\) \[source.column\]"
    ):
        audited([tmp_path / "p.parquet"])


def test_a_database_that_does_not_answer_is_one_error() -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the probe is: nothing listens there
    with pytest.raises(SourceError, match=r"the database does not answer .*\[source.unreachable\]"):
        audited([SqlSource(f"postgresql+psycopg://trey@127.0.0.1:{port}/trey", table="seats")])
    result = CliRunner().invoke(
        app, ["audit", str(PAYTABLE), f"postgresql+psycopg://trey@127.0.0.1:{port}/x", "--table", "t"]
    )
    assert (
        result.exit_code == 1 and "the database does not answer" in result.output and "Traceback" not in result.output
    )


def test_simulate_writes_table_rounds_that_audit_reads(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    result = CliRunner().invoke(app, ["simulate", str(PAYTABLE), "--rounds", "4", "--log", str(log), "--seats", "3"])
    assert result.exit_code == 0, result.output
    first = json.loads(log.read_text().splitlines()[0])
    assert len(first["seats"]) == 3 and len(first["deck"]) == len(first["input"]) == DECK_SIZE
    assert first["input"][:3] == ["2c", "2d", "2h"]
    found = audited([log])
    assert (found.problem_count, found.mispaid_count, found.rounds) == (0, 0, 12)
    wrong = CliRunner().invoke(
        app, ["simulate", str(PAYTABLE), "--log", str(tmp_path / "u.jsonl"), "--seats", "2", "--shuffle", "bogus"]
    )
    assert wrong.exit_code == 2 and "no shuffle model named 'bogus'" in wrong.output


def test_a_source_without_the_optional_fields_reads_as_it_is(
    tmp_path: Path, tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    _, rows = tabular
    optional = ("table", "dealer", "shuffler", "shift", "table_seats", "deck", "input")
    bare = [{k: v for k, v in r.items() if k not in optional} for r in rows[:40]]
    pq.write_table(pa.Table.from_pylist(bare), tmp_path / "bare.parquet")
    found = audit(spec(), [tmp_path / "bare.parquet"], keep_deals=True)
    assert (found.table_rounds, found.rounds, found.problem_count, found.mispaid_count) == (20, 40, 0, 1)
    assert found.deals is not None and found.deals.decks is None
    assert set(found.deals.labels["dealer"].tolist()) == {""} and set(found.deals.labels["table"].tolist()) == {""}
    assert as_text(found) == as_text(audit(spec(), [tmp_path / "bare.parquet"], columnar=False))


def test_a_database_that_listens_and_never_answers_is_one_error_after_the_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import socket
    import time

    import trey.audit.sources as sources

    monkeypatch.setattr(sources, "CONNECT_SECONDS", 2)
    with socket.socket() as listener:  # accepts the connection, then says nothing
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        start = time.monotonic()
        with pytest.raises(SourceError, match=r"the database does not answer .*\[source.unreachable\]") as caught:
            audited([SqlSource(f"postgresql+psycopg://trey@127.0.0.1:{port}/trey", table="seats")])
        waited = time.monotonic() - start
    assert caught.value.hint == "trey waits 2 s for it"
    assert waited < 30  # bounded: the wait, not forever (no timing beyond that is asserted)


def test_a_csv_of_table_rounds_refuses_a_line_and_reads_on(
    tmp_path: Path, tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    _, rows = tabular
    names = list(rows[0])
    text = ",".join(names) + "\n" + "".join(",".join(str(r[n]) for n in names) + "\n" for r in rows[:8])
    lines = text.splitlines(keepends=True)
    lines.insert(3, '"not, closed\n')  # after the two seats of round 1: a record of its own, the second
    path = tmp_path / "rounds.csv"
    path.write_text("".join(lines))
    found = audited([path])
    assert [(p.line, p.code, p.message) for p in found.problems] == [
        (2, "log.field", "not a CSV line: unexpected end of data")
    ]
    assert (found.table_rounds, found.rounds, found.mispaid_count) == (4, 8, 0)
    assert as_text(found) == as_text(audit(spec(), [path], columnar=False))
    (tmp_path / "twice.csv").write_text("round,seat,dealer_cards,round\n")
    with pytest.raises(SourceError, match=r"the header names the column 'round' twice \[log.csv-header\]"):
        audited([tmp_path / "twice.csv"])


def test_the_command_audits_a_database_table(tmp_path: Path, tabular: tuple[Path, list[dict[str, Any]]]) -> None:
    _, rows = tabular
    database = tmp_path / "rounds.db"
    with sqlite3.connect(database) as connection:
        quoted = ", ".join(f'"{n}"' for n in rows[0])
        connection.execute(f"CREATE TABLE seats ({quoted})")
        connection.executemany(
            f"INSERT INTO seats VALUES ({', '.join('?' * len(rows[0]))})", [list(r.values()) for r in rows]
        )
    result = CliRunner().invoke(app, ["audit", str(PAYTABLE), f"sqlite:///{database}", "--table", "seats"])
    assert result.exit_code == 1
    assert result.output.startswith(
        "FAIL: 2 findings\n- 1 wager mis-paid ($5 overpaid, $0 underpaid)\n- not checked: 25 deal-integrity tests"
    )
    assert "T1-0000005/2" in result.output


def test_a_log_audited_in_small_batches_is_the_log_audited_at_once(tmp_path: Path, monkeypatch: Any) -> None:
    """The battery counts each batch into a state of fixed size: the same audit, to the byte, however the log is
    cut into batches; the dealt cards are not kept unless asked."""
    from trey.audit import tables

    rounds = [dict(r, dealer=f"D{i % 3}", shift=("day", "night")[i % 2]) for i, r in enumerate(logged()[:100])]
    path = write_jsonl(tmp_path / "labelled.jsonl", rounds)
    once = audited([path])
    assert once.deals is None and once.integrity is not None
    monkeypatch.setattr(tables, "SEATS_AT_ONCE", 16)
    batches: list[int] = []
    cut = audit(spec(), [path], columnar=False, deals=lambda d: batches.append(d.rounds))  # 8 rounds a batch
    assert len(batches) >= 12 and sum(batches) == 100
    assert as_text(cut) == as_text(once)
    groups = {t["group"] for t in audit_json(once)["deal_integrity"]["tests"]}
    assert groups == {
        "all rounds",
        "table T1",
        "shuffler S1",
        "shift day",
        "shift night",
        *(f"dealer D{i}" for i in range(3)),
    }


def _deck_swap(r: list[dict[str, Any]], key: str, i: int, j: int) -> None:
    r[1][key][i], r[1][key][j] = r[1][key][j], r[1][key][i]


# Changes that keep every line ending as trey writes its deck and input (the fast reader reads those ends as bytes,
# :func:`trey.audit.sources._decks_read`): each must be read as the strict reader reads it.
DECK_ENDS = [
    lambda r: r[1]["deck"].__setitem__(51, r[1]["deck"][50]),  # a card twice in the deck
    lambda r: r[1]["input"].__setitem__(0, r[1]["input"][1]),  # and in the input
    lambda r: r[1]["deck"].__setitem__(51, "Xx"),  # no such card
    lambda r: r[1]["input"].__setitem__(7, "x]"),
    lambda r: _deck_swap(r, "deck", 0, 51),  # the seat's hand is not what the deck deals
    lambda r: _deck_swap(r, "deck", 49, 50),  # undealt cards swapped: still a deck, taken
    lambda r: _deck_swap(r, "input", 0, 51),  # another input: taken
]


def test_decks_read_as_bytes_are_read_as_the_strict_reader_reads_them(tmp_path: Path) -> None:
    import numpy as np

    from trey.audit.sources import _decks_read, _json_readers

    rounds = _changed(DECK_ENDS)
    found = _same_fast_and_strict(tmp_path, rounds)
    assert found.problem_count == 5 and [p.code for p in found.problems] == ["round.deck"] * 4 + ["round.deal-order"]
    block = (tmp_path / "bad.jsonl").read_bytes()
    text = np.frombuffer(block, dtype=np.uint8)
    emptied, cards = _decks_read(block, text, np.flatnonzero(text == ord("\n")), _json_readers()["card_of"])
    assert sorted(cards) == ["deck", "input"] and emptied.count(b'"deck": [], "input": []}\n') == len(rounds)
    assert [[str(Card(c)) if c >= 0 else None for c in row] for row in cards["deck"][:3].tolist()] == [
        r["deck"] for r in rounds[:3]
    ]
    # A key the round gives twice (refused) or a seat gives (a key the format does not name: taken), the block read
    # line by line.
    lines = [json.dumps(r) for r in logged()[:4]]
    lines[1] = lines[1].replace('{"round"', '{"deck": ["Ah"], "round"', 1)
    lines[2] = lines[2].replace('"seats": [{', '"seats": [{"deck": [], ', 1)
    path = tmp_path / "keys.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    fast = audited([path])
    assert as_text(fast) == as_text(audit(spec(), [path], columnar=False))
    assert [(p.line, p.code) for p in fast.problems] == [(2, "log.not-json")] and fast.rounds == 3 * SEATS


def test_a_round_id_logged_twice_is_a_problem_naming_where_it_was_first(
    tmp_path: Path, tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    """A table round's id met again (its seats audited all the same), from JSON Lines and from Parquet, read fast
    and strictly alike."""
    rounds = [dict(r) for r in logged()[:6]]
    rounds[4]["round"] = rounds[1]["round"]
    path = write_jsonl(tmp_path / "twice.jsonl", rounds)
    _, rows = tabular
    parquet = tmp_path / "twice.parquet"
    twice = [dict(r, round=rows[2]["round"]) if r["round"] == rows[8]["round"] else r for r in rows[:12]]
    pq.write_table(pa.Table.from_pylist(twice), parquet)
    for source, twice_id in ((path, rounds[1]["round"]), (parquet, rows[2]["round"])):
        fast, strict = audited([source]), audit(spec(), [source], columnar=False)
        assert as_text(fast) == as_text(strict) and fast.rounds == 6 * SEATS
        found = [(p.line, p.round, p.message) for p in fast.problems if p.code == "log.duplicate-round"]
        assert found == [(5, twice_id, "the round id is logged twice: first at line 2")]


def test_a_block_the_fast_reader_does_not_take_as_it_is_gives_the_same_audit(tmp_path: Path) -> None:
    """What sends a block of JSON Lines to the reader line by line (a carriage return, a tab, a byte not printable
    ASCII, a blank line, a null), looked for on arrays of its bytes: the same audit either way."""
    import numpy as np

    from trey.audit.sources import _holds_null

    lines = [json.dumps(r) for r in logged()[:6]]
    changes = [
        lambda t: t.replace("\n", "\r\n", 1),
        lambda t: t.replace(', "table"', ',\t"table"', 1),
        lambda t: t.replace('"dealer": "D', '"dealer": "\x7fD', 1),
        lambda t: t.replace('"dealer": "D', '"dealer": "\u00e9D', 1),
        lambda t: t.replace('"dealer": "D', '"dealer": "\x01D', 1),
        lambda t: t.replace("\n", "\n\n", 2),
        lambda t: t.replace('"shift": "day"', '"shift": null', 1),
        lambda t: t.replace('"shift": "day"', '"shift": "nullx"', 1),
    ]
    for number, change in enumerate(changes):
        path = tmp_path / f"block-{number}.jsonl"
        path.write_bytes(change("".join(line + "\n" for line in lines)).encode())
        assert as_text(audited([path])) == as_text(audit(spec(), [path], columnar=False)), number
    for text in (b"", b"n", b"nul", b"null", b"xnull", b"nullx", b"nnull", b"nulnull", b"nu ll", b"ull", b'"null"'):
        assert _holds_null(np.frombuffer(text, dtype=np.uint8)) == (b"null" in text), text


def test_cards_split_as_bytes_are_split_as_the_general_split_splits_them() -> None:
    from trey.audit.mapping import Mapping
    from trey.audit.sources import _card_lists, _pairs_split

    texts = ["Qd 3s 2d", "Ah", "Qd  3s", " Qd", "Qd ", "10h 2d", "Qd,3s", "Q\u00e9 2d", "", "Qd 3s 2"]
    for sep in (" ", ","):
        mapping = Mapping(separator=sep)
        for some in ([t.replace(" ", sep) for t in texts[:2]], *([t] for t in texts)):
            values = pa.array(some, type=pa.string())
            fast = _pairs_split(values, sep)
            general = _card_lists(values, mapping, optional=False)
            assert general is not None
            assert fast is None or fast.to_pylist() == general.to_pylist(), some
            split = [t.split(sep) for t in some]
            assert (fast is not None) == all(len(c) == 2 and c.isascii() and c.strip() == c for t in split for c in t)
    values = pa.array(["Jc 9d", "Qd 3s 2d", "Ah", "2c 3c"]).slice(1, 2)
    assert _pairs_split(values, " ").to_pylist() == [["Qd", "3s", "2d"], ["Ah"]]  # type: ignore[union-attr]


def test_cards_read_at_once_are_the_cards_split_then_read() -> None:
    """A column of hands or decks read as card numbers on the matrix of its bytes (:func:`_pair_codes`, a column
    of dictionary texts by its dictionary): the numbers of the cards split by the general split, then read."""
    from trey.audit.mapping import Mapping
    from trey.audit.sources import _card_lists, _pair_codes, _readers
    from trey.audit.table_columns import _cards

    columns = [
        ["Qd 3s 2d", "Ah Kh Xx", "2c 3c 4c", "Qd 3s 2d"],
        ["Qd 3s", "Ah 2d"],
        ["Qd  3s 2d"],
        ["10h 2d 3d"],
        ["Q\u00e9 2d 3d"],
        ["Qd 3s 2d", None],
        ["Qd,3s,2d", "Ah,Kh,2c"],
        ["Qd 3s 2d", "Ah"],
    ]
    fast_ones = 0
    for sep in (" ", ","):
        mapping = Mapping(separator=sep)
        card_of = _readers(mapping)["card_of"]
        for texts in columns:
            for width in (2, 3):
                values = pa.array(texts, type=pa.string())
                for column in (values, values.dictionary_encode(), pa.array(["Jc 9d 8h", *texts]).slice(1)):
                    fast = _pair_codes(column, sep, width, card_of)
                    lists = _card_lists(column, mapping, optional=False)
                    codes, given, _ = _cards(lists, width, card_of, len(texts))
                    if fast is not None:
                        fast_ones += 1
                        assert given.all() and fast.tolist() == codes.tolist(), (texts, sep, width)
    assert fast_ones == 3 * 3  # three columns of hands of one width, the one separator throughout, in 3 forms


def test_rows_of_one_round_that_disagree_on_its_cards_are_refused(
    tmp_path: Path, tabular: tuple[Path, list[dict[str, Any]]]
) -> None:
    _, rows = tabular
    rows = copy.deepcopy(rows[:6])
    rows[3]["deck"] = " ".join(reversed(rows[3]["deck"].split()))  # Parquet reads the decks as a dictionary
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "r.parquet")
    found = audited([tmp_path / "r.parquet"])
    assert as_text(found) == as_text(audit(spec(), [tmp_path / "r.parquet"], columnar=False))
    assert [(p.line, p.code, p.message) for p in found.problems] == [
        (2, "round.rows", "the rows of the round disagree on its deck")
    ]


@pytest.mark.parametrize("source", ["json", "rows"])
def test_whole_amounts_read_on_arrays_are_read_as_the_strict_reader_reads_them(source: str) -> None:
    """JSON Lines' amounts, and a row-per-seat source's through a mapping of money in units (Parquet's whole numbers,
    a SQL table's integers)."""
    import numpy as np

    from trey.audit.mapping import Mapping
    from trey.audit.sources import _json_readers, _readers
    from trey.audit.table_columns import Long, prove_rounds

    amounts = [0, 5, -5, 10**13 - 1, 10**13, -(10**13) + 1, -(10**13), 2**62]
    readers = _json_readers() if source == "json" else _readers(Mapping())
    assert readers["whole_cents"] and not _readers(Mapping(money="cents"))["whole_cents"]
    bets = [5] * len(amounts) + [-5, 0, 10**13]  # the nets' bounds, then the bets'
    amounts += [5, 5, 5]
    n = len(amounts)
    fields: dict[str, Any] = {"round": pa.array([f"r{i}" for i in range(n)]), "seat": pa.array([1] * n)}
    fields |= {"player": pa.array([["Ah", "Kd", "2c"]] * n), "dealer_cards": pa.array([["Qs", "3h", "4d"]] * n)}
    fields |= {"bet_pair_plus": pa.array(bets), "net_pair_plus": pa.array(amounts)}
    long = Long(np.arange(n), n, fields, ["pair_plus"], grouped=True)  # a round a row, as JSON Lines give them
    proven = prove_rounds(long, spec(), numbers=np.arange(1, n + 1), **readers)
    for whole in (True, False):
        again = prove_rounds(long, spec(), numbers=np.arange(1, n + 1), **(readers | {"whole_cents": whole}))
        assert again.good.tolist() == proven.good.tolist()
        assert again.seats.net["pair_plus"].tolist() == proven.seats.net["pair_plus"].tolist()

    def reads(value: int, signed: bool) -> bool:
        try:
            readers["amount_of"](value, signed)
        except Exception:
            return False
        return True

    table = spec().table
    low = table.minimum * 100 if table is not None and table.minimum is not None else 0
    high = table.maximum * 100 if table is not None and table.maximum is not None else 10**20
    expected = [
        reads(b, False) and reads(a, True) and low <= b * 100 <= high for a, b in zip(amounts, bets, strict=True)
    ]
    assert proven.good.tolist() == expected and sum(expected) == 5
