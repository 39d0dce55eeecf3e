"""``trey audit --scheduler``: logs and the fragments of a Parquet dataset audited on a Dask cluster give the audit
of one process to the byte; what parts cannot know of each other (an id in two, a progressive's table in two, a
round across fragments) makes the audit run here; a cluster's forged answer is refused."""

from __future__ import annotations

import contextlib
import copy
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_table_rounds import PAYTABLE, flat, logged, spec, write_jsonl

from conftest import run_cli, two_dask_workers
from trey.audit.audit import Audit, audit, audit_json
from trey.audit.log import KEPT
from trey.audit.simulated import simulated_log
from trey.paytable.load import load_spec

distributed = pytest.importorskip("dask.distributed", reason="the dev extras install Dask: make test has it")

PROGRESSIVE = PAYTABLE.parent / "progressive" / "three-card-progressive.yaml"


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, Any]]:
    yield from two_dask_workers()


def as_json(found: Audit) -> str:
    return json.dumps(audit_json(found), indent=2)


def same_both_ways(sources: list[Any], address: str, paytable: Path = PAYTABLE) -> tuple[Audit, Audit]:
    game = load_spec(paytable)
    here, there = audit(game, sources), audit(game, sources, scheduler=address)
    assert as_json(there) == as_json(here)
    assert there.trail == here.trail and len(here.trail.points) > 1
    return here, there


@cache
def table_rounds() -> list[dict[str, Any]]:
    """The simulated table rounds (with deck and input), a seat mis-paid in each hundred, and a round refused."""
    rounds = copy.deepcopy(list(logged()))
    for i in (130, 250, 399):
        rounds[i]["seats"][0]["net"]["pair_plus"] += 3
    rounds[222]["seats"][1]["player"] = ["Zz", "Qh", "2c"]
    return rounds


def test_a_partitioned_parquet_dataset_on_dask_is_its_audit_in_one_process(
    cluster: tuple[str, Any], tmp_path: Path
) -> None:
    address, _ = cluster
    table = pa.Table.from_pylist(flat(table_rounds(), spec().wagers.ids))
    for k in range(4):  # 100 rounds of two seats a fragment
        pq.write_to_dataset(
            table.slice(200 * k, 200), tmp_path / "rounds", partitioning=None, basename_template=f"p{k}-{{i}}.parquet"
        )
    _, there = same_both_ways([tmp_path / "rounds"], address)
    assert there.ran == f"audited on the Dask cluster at {address}: 4 parts"
    data = audit_json(there)
    assert (data["mispaid"]["count"], data["problems"]["count"], data["verdict"]["result"]) == (4, 1, "FAIL")
    assert [m["line"] for m in data["mispaid"]["listed"]] == [5, 131, 251, 400]
    assert data["problems"]["listed"][0]["line"] == 223 and data["deal_integrity"]["rounds"] == 399
    shifts = pa.array([("early", "late", "night")[int(r.as_py()[-3:]) % 3] for r in table.column("round")])
    pq.write_to_dataset(
        table.set_column(table.schema.get_field_index("shift"), "shift", shifts),
        tmp_path / "hive",
        partition_cols=["shift"],
    )
    _, there = same_both_ways([tmp_path / "hive"], address)  # shift=early/, shift=late/, shift=night/
    assert (there.ran, there.rounds) == (f"audited on the Dask cluster at {address}: 3 parts", 798)


def _seat_log(path: Path, table: str, rounds: int, seed: int, *, wrong: int = 0, junk: int = 0) -> Path:
    """A simulated log of seat lines at ``table``: its first ``wrong`` rounds' Pair Plus paid a unit too much, and
    ``junk`` lines that are not JSON."""
    lines = list(simulated_log(spec(), rounds, seed, table=table))
    for i in range(wrong):
        line = json.loads(lines[i])
        line["net"]["pair_plus"] = line["net"]["pair_plus"] + 1
        lines[i] = json.dumps(line)
    lines[rounds // 2 : rounds // 2] = ["{not json"] * junk
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_many_logs_on_dask_are_their_audit_in_one_process_lists_cut_alike(
    cluster: tuple[str, Any], tmp_path: Path
) -> None:
    """Seat lines and table rounds; more mis-paid wagers and refused lines than are listed, across the parts."""
    address, _ = cluster
    logs = [
        _seat_log(tmp_path / "a.jsonl", "A", 900, 1, wrong=600, junk=700),
        _seat_log(tmp_path / "b.jsonl", "B", 900, 2, wrong=600, junk=700),
        _junk(write_jsonl(tmp_path / "tables.jsonl", table_rounds()), 700),
        _seat_log(tmp_path / "c.jsonl", "C", 300, 3),
    ]
    here, there = same_both_ways(logs, address)
    assert there.ran == f"audited on the Dask cluster at {address}: 4 parts"
    assert (here.mispaid_count, len(here.mispaid), here.problem_count, len(here.problems)) == (1_204, KEPT, 2_101, KEPT)


def _junk(path: Path, lines: int) -> Path:
    """``lines`` lines that are not JSON after the log's 300th line."""
    kept = path.read_text().splitlines(keepends=True)
    path.write_text("".join(kept[:300] + ["{not json\n"] * lines + kept[300:]))
    return path


def test_a_round_id_in_two_logs_is_audited_here_logged_twice(cluster: tuple[str, Any], tmp_path: Path) -> None:
    address, _ = cluster
    logs = [_seat_log(tmp_path / "a.jsonl", "A", 300, 1), _seat_log(tmp_path / "again.jsonl", "A", 200, 2)]
    here, there = same_both_ways(logs, address)
    assert there.ran == "audited on this machine: a round id is logged in two parts (or two ids share a digest)"
    assert (here.duplicates, here.verdict.result.value) == (200, "FAIL")


def test_a_progressive_table_in_two_logs_is_audited_here(cluster: tuple[str, Any], tmp_path: Path) -> None:
    """The meter is followed from one log into the next: the parts are not audited apart."""
    address, _ = cluster
    lines = list(simulated_log(load_spec(PROGRESSIVE), 400, 9, table="P"))
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    first.write_text("".join(line + "\n" for line in lines[:250]))
    second.write_text("".join(line + "\n" for line in lines[250:]))
    here, there = same_both_ways([first, second], address, PROGRESSIVE)
    assert there.ran == "audited on this machine: a table's progressive meter runs from one part into another"
    assert here.meters.opened == 1 and not here.meters.break_count


def test_a_round_across_two_fragments_is_audited_here(cluster: tuple[str, Any], tmp_path: Path) -> None:
    address, _ = cluster
    table = pa.Table.from_pylist(flat(table_rounds()[:200], spec().wagers.ids))
    pq.write_table(table.slice(0, 201), tmp_path / "a.parquet")  # round 101's first seat
    pq.write_table(table.slice(201), tmp_path / "b.parquet")  # and its second
    here, there = same_both_ways([tmp_path], address)
    assert (
        there.ran == f"audited on this machine: a round's rows run from one fragment of {tmp_path.name} into the next"
    )
    assert (here.table_rounds, here.rounds, here.problem_count) == (200, 400, 0)  # round 101 read whole


def test_fragments_that_differ_on_the_deck_are_audited_here(cluster: tuple[str, Any], tmp_path: Path) -> None:
    """The first round of the dataset has a deck, so every round must: the second fragment's are refused, as one
    process refuses them, not read by a rule of their own."""
    address, _ = cluster
    rows = flat(table_rounds()[:200], spec().wagers.ids)
    pq.write_table(pa.Table.from_pylist(rows[:200]), tmp_path / "a.parquet")
    pq.write_table(pa.Table.from_pylist([dict(r, deck=None, input=None) for r in rows[200:]]), tmp_path / "b.parquet")
    here, there = same_both_ways([tmp_path], address)
    assert there.ran == "audited on this machine: the fragments of a dataset differ on the deck"
    assert {p.code for p in here.problems} == {"round.deck-mixed"} and here.problem_count == 100


FORGE = """
import trey.audit.distributed as d
d.genuine_audit_part = getattr(d, "genuine_audit_part", d.audit_part)
def forged(shared, part):
    data = d.genuine_audit_part(shared, part)
    data["mispaid"], data["mispaid_count"], data["overpaid"] = [], {count}, "0"
    return data
d.audit_part = forged
"""
RESTORE = "import trey.audit.distributed as d\nd.audit_part = getattr(d, 'genuine_audit_part', d.audit_part)\n"


@pytest.mark.parametrize(
    ("count", "said"),
    [
        (0, "gave other results for chunk [0-3] than this machine audits for it: the cluster's figures are refused"),
        (-1, "handed back for chunk [0-3] what is not a chunk's result: refused"),
    ],
)
def test_a_forged_answer_is_refused(cluster: tuple[str, Any], tmp_path: Path, count: int, said: str) -> None:
    """Every part's mis-paid wagers left out: consistent, caught by the part audited again here; or a count below
    what it lists, refused as it is read."""
    address, client = cluster
    logs = [_seat_log(tmp_path / f"{t}.jsonl", t, 200, i, wrong=3) for i, t in enumerate("ABCD")]
    client.run(exec, FORGE.format(count=count), {})
    try:
        result = run_cli("audit", PAYTABLE, *logs, "--scheduler", address)
    finally:
        client.run(exec, RESTORE, {})
    assert (result.exit_code, result.stdout) == (1, "")
    assert re.fullmatch(f"error: the Dask cluster at {re.escape(address)} {said} \\(.*\\)\n", result.stderr), (
        result.stderr
    )


def test_a_part_state_with_junk_anywhere_is_refused_as_a_claim(tmp_path: Path) -> None:
    """Any value of a part's state replaced by junk: read as it is or refused as not a part's state (the errors
    the runner turns into its one line), never another error."""
    import random

    from trey.audit.distributed import Shared, audit_part, part_of_plain, plan
    from trey.audit.seen import new_key
    from trey.audit.verdict import DEFAULT_ALPHA

    shared = Shared(spec(), None, DEFAULT_ALPHA, new_key())
    parts, _ = plan([write_jsonl(tmp_path / "t.jsonl", table_rounds()[:60])], spec(), None)
    good = audit_part(shared, parts[0])
    assert part_of_plain(shared, good) == part_of_plain(shared, copy.deepcopy(good))

    def places(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        yield at
        items = data.items() if isinstance(data, dict) else enumerate(data[:2]) if isinstance(data, list) else ()
        for key, value in items:
            yield from places(value, (*at, key))

    everywhere = [p for p in places(good) if p]
    rng = random.Random(7)
    for _ in range(100):  # each value replaced in place, then put back
        place = rng.choice(everywhere)
        inner = good
        for key in place[:-1]:
            inner = inner[key]
        kept = inner[place[-1]]
        inner[place[-1]] = rng.choice([None, -1, 1 << 70, "1/0", "x", 1.5, [], {}, True, "9" * 5_000, [1, 2]])
        with contextlib.suppress(ValueError, TypeError, KeyError, IndexError):
            part_of_plain(shared, good)
        inner[place[-1]] = kept


def test_the_command_on_dask_prints_the_audit_of_one_process(cluster: tuple[str, Any], tmp_path: Path) -> None:
    address, _ = cluster
    logs = [_seat_log(tmp_path / "a.jsonl", "A", 300, 1, wrong=2), _seat_log(tmp_path / "b.jsonl", "B", 300, 2)]
    here = run_cli("audit", PAYTABLE, *logs, "--format", "json")
    there = run_cli("audit", PAYTABLE, *logs, "--format", "json", "--scheduler", address)
    assert (there.exit_code, there.stdout) == (here.exit_code, here.stdout) == (1, here.stdout)
    assert there.stderr == f"audited on the Dask cluster at {address}: 2 parts\n"


def test_a_missing_log_is_the_error_of_one_process(tmp_path: Path) -> None:
    args = ("audit", PAYTABLE, _seat_log(tmp_path / "a.jsonl", "A", 20, 1), tmp_path / "missing.jsonl")
    here, there = run_cli(*args), run_cli(*args, "--scheduler", "local:1")
    assert (there.exit_code, there.stdout, there.stderr) == (here.exit_code, "", here.stderr) and here.exit_code == 1


def test_a_database_is_not_audited_on_dask(tmp_path: Path) -> None:
    result = run_cli("audit", PAYTABLE, f"sqlite:///{tmp_path / 'r.db'}", "--table", "seats", "--scheduler", "local:1")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(
        f"error: --scheduler audits files: sqlite:///{tmp_path / 'r.db'} (table seats) is a database, read on this "
        "machine alone (audit a database without --scheduler"
    ), result.stderr


def test_an_unreachable_scheduler_is_one_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import trey.core.runner as runner

    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1)
    log = _seat_log(tmp_path / "a.jsonl", "A", 20, 1)
    result = run_cli("audit", PAYTABLE, log, "--scheduler", "tcp://127.0.0.1:9")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "error: cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s (Connection refused) (give "
        "tcp://HOST:PORT of a running dask scheduler, or local:K to start K workers here)\n"
    )
