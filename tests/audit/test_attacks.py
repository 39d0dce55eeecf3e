"""The red team's attacks on the audit (issue 29), each made as a forger would make it, and the refusal or the finding
it now meets: a forged duplicate id, a jackpot judged at the wrong meter, amounts past 64 bits, junk that chose the
memory, a signal that left the id runs behind, CSV logs Excel writes, look-alike ids and CRLF lines."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from conftest import PAYTABLES, REPO, STANDARD, run_cli
from trey.audit.audit import audit, audit_json
from trey.audit.columnar import prove
from trey.audit.log import KEPT, MAX_LINE_BYTES
from trey.audit.seen import digests
from trey.audit.simulated import simulated_log
from trey.core.jsonschemas import validator
from trey.engine import analyze
from trey.paytable.load import load_spec

SPEC = load_spec(STANDARD)
ANALYSIS = analyze(SPEC)
LINES = list(simulated_log(SPEC, 40, 29))
PASS = "PASS: every line read, every round paid as due, no test flagged"


def _said(data: dict[str, Any], kind: str = "failed") -> list[str]:
    """The verdict's findings of one kind (these logs are short: their card tests are mostly not run)."""
    return [f["says"] for f in data["verdict"]["findings"] if f["kind"] == kind]


def _log(tmp_path: Path, lines: list[str], name: str = "log.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def _both(path: Path, spec: Any = SPEC, analysis: Any = ANALYSIS) -> dict[str, Any]:
    """The audit with the columnar reader and with every line read strictly: they must agree."""
    fast = audit_json(audit(spec, [path], analysis, columnar=True))
    assert fast == audit_json(audit(spec, [path], analysis, columnar=False))
    return fast


def _overpaid(line: str, round_id: str, by: int) -> str:
    data = json.loads(line)
    data["round"] = round_id
    data["net"]["pair_plus"] = int(data["net"]["pair_plus"]) + by
    return json.dumps(data)


# --- 4. a forged duplicate hides a round ------------------------------------------------------------------------


def _unkeyed_digest(ids: list[str]) -> list[int]:
    """The digest round ids were compared by before issue 29 (SplitMix64's finaliser over the id's words, no key)."""
    mask, golden = (1 << 64) - 1, 0x9E3779B97F4A7C15

    def mixed(h: int) -> int:
        h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & mask
        h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & mask
        return h ^ (h >> 31)

    found = []
    for text in ids:
        raw = text.encode()
        h = mixed((len(raw) + golden) & mask)
        for at in range(0, len(raw), 8):
            h = (mixed(h ^ int.from_bytes(raw[at : at + 8], "little")) + golden) & mask
        found.append(h)
    return found


# Two ids a forger found to share the unkeyed digest (a second of search: the digest was invertible).
COLLIDING = ("T1-0M4TM-0000042", "T1-X4DLFx0cGh1iw")


def test_ids_sharing_the_old_unkeyed_digest_are_two_rounds_and_the_overpaid_one_is_found(tmp_path: Path) -> None:
    first, second = COLLIDING
    assert _unkeyed_digest([first])[0] == _unkeyed_digest([second])[0]  # the attack: under the old digest, one id
    lines = [*LINES[:10], _overpaid(LINES[10], first, 0), _overpaid(LINES[11], second, 100_000)]
    path = _log(tmp_path, lines)
    data = _both(path)
    assert data["problems"]["count"] == 0 and data["rounds"] == 12
    assert [(m["line"], m["round"], m["wager"]) for m in data["mispaid"]["listed"]] == [(12, second, "pair_plus")]
    assert (data["mispaid"]["overpaid"], data["mispaid"]["underpaid"]) == ("100000", "0")
    assert _said(data) == ["1 wager mis-paid ($100,000 overpaid, $0 underpaid)"]
    result = run_cli("audit", STANDARD, path)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == [
        "FAIL: 2 findings",
        "- 1 wager mis-paid ($100,000 overpaid, $0 underpaid)",
    ]


def test_the_digest_is_sip_hash_2_4_under_a_key_of_each_audit() -> None:
    """The published test vectors (Aumasson and Bernstein, appendix A: key 00..0f, messages 00..(n-1)), in a batch
    of mixed lengths; and two audits' keys differ, so what one digest joins the next does not."""
    key = bytes(range(16))
    found = digests(pa.array([b"", bytes(range(15)), b"x" * 70, bytes(range(8))], type=pa.binary()), key)
    assert found[:2].tolist() == [0x726FDB47DD0E0E31, 0xA129CA6149BE45E5]
    assert found[3] == 0x93F5F5799A932462  # a message of exactly one word: the length word alone follows
    assert digests(pa.array([b"x" * 70], type=pa.binary()), key)[0] == found[2]  # alone as in a batch
    from trey.audit.seen import SeenIds

    assert SeenIds().key != SeenIds().key


def test_a_repeated_id_names_both_lines_and_its_overpaid_round_is_still_checked(tmp_path: Path) -> None:
    again = json.loads(LINES[1])["round"]
    path = _log(tmp_path, [*LINES[:6], _overpaid(LINES[1], again, 100_000)])
    data = _both(path)
    assert data["problems"] == {
        "count": 1,
        "logged_twice": 1,
        "listed": [
            {
                "file": str(path),
                "line": 7,
                "round": again,
                "code": "log.duplicate-round",
                "message": "the round id is logged twice: first at line 2",
            }
        ],
    }
    assert [(m["line"], m["round"]) for m in data["mispaid"]["listed"]] == [(7, again)]
    assert data["mispaid"]["overpaid"] == "100000" and data["rounds"] == 7
    said = ["1 round id logged twice", "1 wager mis-paid ($100,000 overpaid, $0 underpaid)"]
    assert _said(data) == said and data["verdict"]["result"] == "FAIL" and not data["clean"]
    assert list(validator("audit").iter_errors(data)) == []
    result = run_cli("audit", STANDARD, path)
    assert result.exit_code == 1 and result.stdout.splitlines()[1:3] == [f"- {s}" for s in said]
    assert f"{path}:7: round {again}: the round id is logged twice: first at line 2" in " ".join(result.stdout.split())


# --- 5. progressive jackpots at the meter the round was dealt at -------------------------------------------------

PROGRESSIVE = PAYTABLES / "progressive" / "three-card-progressive.yaml"
JACKPOT = {"table": "P", "seat": 1, "player": ["As", "Ks", "Qs"], "dealer": ["2h", "7d", "9c"]}
LOSING = ["2s", "7h", "9d"]  # no progressive pay


def _jackpot(
    round_id: str, net: int | str, meter: int | str | None = None, *, table: str = "P", lose: bool = False
) -> str:
    """A round betting the $1 progressive (its meter fed 10% of it), a mini royal in spades unless ``lose``."""
    line: dict[str, Any] = {"round": round_id, **JACKPOT, "table": table, "bets": {"progressive": 1}}
    if lose:
        line["player"] = LOSING
    line["net"] = {"progressive": net}
    if meter is not None:
        line["meter"] = {"progressive": meter}
    return json.dumps(line)


@pytest.fixture(scope="module")
def progressive() -> tuple[Any, Any]:
    spec = load_spec(PROGRESSIVE)
    return spec, analyze(spec)


def test_a_jackpot_is_due_at_the_meter_the_round_logs(tmp_path: Path, progressive: tuple[Any, Any]) -> None:
    """Each jackpot follows a round at its table whose meter, $0.10 lower (10% of the $1 stake), it follows from.
    Paid $12,345 at a $12,345 meter: as due (it was 'mis-paid' against the reset). Paid the $5,000 reset while
    the meter stood at $50,000: mis-paid by $45,000 (it was 'paid as due')."""
    lines = [
        _jackpot("P-0", -1, "12344.90", table="P1", lose=True),
        _jackpot("P-1", 12_344, 12_345, table="P1"),
        _jackpot("P-01", -1, "49999.90", table="P2", lose=True),
        _jackpot("P-2", 4_999, 50_000, table="P2"),
    ]
    path = _log(tmp_path, lines)
    assert all(list(validator("hand-history").iter_errors(json.loads(line))) == [] for line in lines)
    data = _both(path, *progressive)
    assert data["mispaid"]["listed"] == [
        {
            "line": 4,
            "round": "P-2",
            "wager": "progressive",
            "logged": "4999",
            "due": "49999",
            "reason": "Three Card Progressive: mini royal spades: 100% of the meter at $50,000 = $50,000 for the $1 "
            "bet (net $49,999)",
        }
    ]
    assert (data["mispaid"]["underpaid"], data["not_checked"]["count"]) == ("45000", 0)
    assert data["meters"] == {"tables_opened": 2, "rounds_not_followed": 0, "breaks": 0, "listed": []}
    assert data["returns"][1]["net"] == str(-2 + 12_344 + 49_999)  # as due, at each round's meter
    assert data["returns"][1]["paid_net"] == str(-2 + 12_344 + 4_999)  # as paid


def test_a_jackpot_without_its_meter_is_not_checked_and_the_verdict_is_not_pass(
    tmp_path: Path, progressive: tuple[Any, Any]
) -> None:
    path = _log(tmp_path, [_jackpot("P-0", -1, lose=True), _jackpot("P-3", 4_999)])
    data = _both(path, *progressive)
    reason = "mini royal spades: 100% of the meter, not checked: the log does not carry the meter"
    assert data["not_checked"] == {
        "count": 1,
        "listed": [{"line": 2, "round": "P-3", "wager": "progressive", "logged": "4999", "reason": reason}],
    }
    said = "not checked: 1 jackpot paid from a progressive meter the log does not carry (line 2)"
    assert _said(data, "not_checked")[1:] == [said] and _said(data) == _said(data, "flagged") == []
    assert (data["verdict"]["result"], data["clean"]) == ("INCOMPLETE", False)
    assert data["mispaid"]["count"] == 0 and data["returns"][1]["net"] == str(-1 + 4_999)  # counted as logged
    assert list(validator("audit").iter_errors(data)) == []
    result = run_cli("audit", PROGRESSIVE, path)
    assert result.exit_code == 1 and PASS not in result.stdout
    assert f"- {said}" in result.stdout.splitlines() and "Wagers not checked" in result.stdout


def test_a_jackpot_whose_round_logs_no_meter_is_due_at_the_meter_carried(
    tmp_path: Path, progressive: tuple[Any, Any]
) -> None:
    """The round before logs $5,000; the jackpot's own stake adds $0.10: due 100% of $5,000.10, rounded down to the
    $1 chip, less the stake."""
    path = _log(tmp_path, [_jackpot("P-0", -1, 5_000, lose=True), _jackpot("P-3", 4_999)])
    data = _both(path, *progressive)
    assert (data["not_checked"]["count"], data["mispaid"]["count"]) == (0, 0)
    overpaid = _log(tmp_path, [_jackpot("P-0", -1, 5_000, lose=True), _jackpot("P-3", 5_999)], "over.jsonl")
    (mispaid,) = _both(overpaid, *progressive)["mispaid"]["listed"]
    assert (mispaid["due"], mispaid["logged"]) == ("4999", "5999")
    assert "100% of the meter at $5,000.10 = $5,000.10 for the $1 bet, rounded down to $5,000" in mispaid["reason"]


def test_a_jackpot_at_a_meter_that_does_not_follow_fails_and_is_due_at_the_meter_carried(
    tmp_path: Path, progressive: tuple[Any, Any]
) -> None:
    """Red team: a $9.99 trillion jackpot paid on a line whose meter says so, the round before at $5,000."""
    claimed = 9_999_999_999_999
    path = _log(tmp_path, [_jackpot("P-0", -1, 5_000, lose=True), _jackpot("P-1", claimed - 1, claimed)])
    data = _both(path, *progressive)
    carried = Fraction(5_000) + Fraction(1, 10) * 1  # the meter before, fed 10% of the jackpot round's $1 stake
    due = int(carried) - 1  # the whole meter, rounded down to the $1 chip, for the $1 stake
    assert data["meters"]["listed"] == [
        {
            "line": 2,
            "round": "P-1",
            "wager": "progressive",
            "table": "P",
            "logged": str(claimed),
            "carried": str(carried),
            "carried_from_line": 1,
        }
    ]
    assert [(m["line"], m["due"]) for m in data["mispaid"]["listed"]] == [(2, str(due))]
    assert data["mispaid"]["listed"][0]["reason"].endswith("(the meter carried along its table, not the one logged)")
    assert _said(data) == [
        f"1 wager mis-paid (${claimed - 1 - due:,} overpaid, $0 underpaid)",
        f"1 meter logged that does not follow from the rounds before at its table (first: line 2, ${claimed:,} "
        "logged where the meter carried from line 1 stands at $5,000.10)",
    ]
    assert list(validator("audit").iter_errors(data)) == []
    result = run_cli("audit", PROGRESSIVE, path)
    assert result.exit_code == 1 and result.stdout.startswith("FAIL: 3 findings\n")
    assert "Meters that do not follow from the rounds before at their table" in result.stdout


def test_a_meter_that_jumps_is_one_finding_and_is_followed_on_from_the_log(
    tmp_path: Path, progressive: tuple[Any, Any]
) -> None:
    meters = ["5000", "5000.10", "6000", "6000.10", "6000.20", "6000.20"]
    lines = [_jackpot(f"P-{i}", -1, m, lose=True) for i, m in enumerate(meters)]
    lines.insert(4, _jackpot("P-x", -1, "7000", table="Q", lose=True))  # another table's meter is its own
    data = _both(_log(tmp_path, lines), *progressive)
    assert [(b["line"], b["logged"], b["carried"], b["carried_from_line"]) for b in data["meters"]["listed"]] == [
        (3, "6000", str(Fraction("5000.20")), 2),
        (7, str(Fraction("6000.20")), str(Fraction("6000.30")), 6),  # $6,000.20 again: the stake was not counted
    ]
    assert data["meters"]["tables_opened"] == 2 and data["mispaid"]["count"] == 0


def test_a_meter_is_read_alike_by_both_readers_and_from_csv(tmp_path: Path, progressive: tuple[Any, Any]) -> None:
    lines = [
        _jackpot("P-4", 4_999, meter=100),  # below the reset of 5,000: no meter stands there
        _jackpot("P-5", 4_999, meter=5_000).replace('"meter": {"progressive"', '"meter": {"ante_play"'),
        _jackpot("P-6", 4_999, meter=5_000).replace('{"progressive": 5000}', "{}"),
        _jackpot("P-7", 4_999, meter=5_000),
    ]
    data = _both(_log(tmp_path, lines), *progressive)
    assert [(p["line"], p["code"], p["message"]) for p in data["problems"]["listed"]] == [
        (1, "log.amount", "meter.progressive: the meter of 100 is below its reset of 5000"),
        (2, "log.wager", "meter: the wager 'ante_play' has no progressive meter"),
        (3, "log.field", "meter must be a mapping of wager ids to amounts"),
    ]
    opens = "not checked: the meter logged opens its table, nothing before it to follow it from"
    assert data["rounds"] == 1 and data["mispaid"]["count"] == 0
    assert data["not_checked"]["listed"] == [
        {
            "line": 4,
            "round": "P-7",
            "wager": "progressive",
            "logged": "4999",
            "reason": f"mini royal spades: 100% of the meter at $5,000, {opens}",
        }
    ]
    assert _said(data, "not_checked")[1:] == [
        "not checked: 1 jackpot paid at the meter that opens its table, nothing before it to follow it from (line 4)"
    ]
    header = "round,table,player,dealer,bet_progressive,net_progressive,meter_progressive\n"
    csv_log = tmp_path / "log.csv"
    csv_log.write_text(header + "P-8,P,As Ks Qs,2h 7d 9c,1,4999,50000\nP-9,P,As Ks Qs,2h 7d 9c,1,4999,\n")
    found = audit(progressive[0], [csv_log], progressive[1])
    assert [(m.round, m.due) for m in found.mispaid] == [("P-8", 49_999)]  # at the meter it opens the table at
    # P-9 logs no meter: the meter carried stands at the reset after P-8's jackpot, fed P-9's stake: $5,000.10
    assert [c.round for c in found.not_checked] == ["P-8"] and found.verdict.result == "FAIL"


def test_a_simulated_progressive_log_logs_its_meter_and_audits_clean(
    tmp_path: Path, progressive: tuple[Any, Any]
) -> None:
    lines = list(simulated_log(progressive[0], 400, 2))
    increment = Fraction(1, 10)  # 10% of the $1 stake, every round
    assert [Fraction(json.loads(line)["meter"]["progressive"]) for line in lines] == [
        5_000 + increment * k for k in range(1, 401)
    ]
    found = audit(progressive[0], [_log(tmp_path, lines)], progressive[1])
    assert found.verdict.passed and found.meters.opened == 1 and found.meters.break_count == 0


PARTIAL = """\
trey: 2
name: A progressive paying a tenth of its meter, fed 7.5% of each stake
table: {currency: USD, chips: [1, 5, 25, 100]}
wagers:
  ante_play:
    ante_bonus: {straight_flush: 5, three_of_a_kind: 4, straight: 1}
side_bets:
  progressive:
    title: Three Card Progressive
    reads: player_hand
    stake: 1
    pays:
      mini_royal_spades: {meter: 10%}
      mini_royal: {amount: 500}
    progressive: {reset: 5000, increment: 7.5%}
    on_fold: stands
"""


def test_a_meter_carries_fractions_of_a_cent_exactly_and_a_share_paid_leaves_the_rest(tmp_path: Path) -> None:
    """7.5 cents a stake: a meter carried exactly from $5,000 logs $5,000.07, .15, .22, .30, ... (to the cent
    below); one rising 8 cents a stake cannot be, by its third round. A tenth of a $60,000.07 meter paid ($6,000
    at the $1 chip): the meter goes on from what is left, fed the next stake."""
    paytable = tmp_path / "partial.yaml"
    paytable.write_text(PARTIAL)
    spec = load_spec(paytable)
    analysis = analyze(spec)
    exact = [Fraction(5_000) + Fraction(75, 1_000) * k for k in range(1, 9)]
    shown = [f"{int(m * 100) // 100}.{int(m * 100) % 100:02d}" for m in exact]  # to the cent below
    assert shown[:4] == ["5000.07", "5000.15", "5000.22", "5000.30"]
    carried = [_jackpot(f"P-{i}", -1, m, lose=True) for i, m in enumerate(shown)]
    assert _both(_log(tmp_path, carried), spec, analysis)["meters"]["breaks"] == 0
    rising = [_jackpot(f"P-{i}", -1, f"{5_000 + 0.08 * (i + 1):.2f}", lose=True) for i in range(8)]
    breaks = _both(_log(tmp_path, rising, "rising.jsonl"), spec, analysis)["meters"]["listed"]
    # .08, then .15 to .165 allowed: .16; then .235 to .24: .24 is not (one finding, then followed from the log)
    assert [(b["line"], b["logged"]) for b in breaks][:1] == [(3, str(Fraction("5000.24")))]
    shared = [
        _jackpot("P-0", -1, 60_000, lose=True),
        _jackpot("P-1", 6_000 - 1, "60000.07"),  # 10% of $60,000.07, rounded down to the $1 chip, less the stake
        _jackpot("P-2", -1, "54000.15", lose=True),  # 60,000.075 (carried) - 6,000 + 0.075
    ]
    data = _both(_log(tmp_path, shared, "shared.jsonl"), spec, analysis)
    assert (data["mispaid"]["count"], data["meters"]["breaks"]) == (0, 0)
    unshared = [*shared[:2], _jackpot("P-2", -1, "60000.15", lose=True)]  # as if nothing had been paid out
    data = _both(_log(tmp_path, unshared, "unshared.jsonl"), spec, analysis)
    assert [(b["line"], b["carried"]) for b in data["meters"]["listed"]] == [(3, str(Fraction("54000.15")))]


# --- 6. amounts the reader takes but cannot hold ---------------------------------------------------------------


BELOW = "net.pair_plus: an amount must be below 10,000,000,000,000, not"


@pytest.mark.parametrize(
    ("net", "said"),
    [
        (10**26, f"{BELOW} 100,000,000,000,000,000,000,000,000"),
        (92_233_720_368_547_758, f"{BELOW} 92,233,720,368,547,758"),  # it wrapped int64: a -$92 quadrillion
        (-(10**40), f"{BELOW} a number of 41 digits"),
        ("99999999999999", "net.pair_plus: cannot read the amount '99999999999999' (text)"),
        (2.5, "net.pair_plus: an amount must be exact, not the decimal number 2.5"),  # was "an net amount"
    ],
)
def test_an_amount_past_the_bound_is_refused_by_both_readers(tmp_path: Path, net: object, said: str) -> None:
    data = json.loads(LINES[0])
    data["net"]["pair_plus"] = net
    path = _log(tmp_path, [json.dumps(data), *LINES[1:3]])
    found = _both(path)
    assert [(p["line"], p["code"], p["message"]) for p in found["problems"]["listed"]] == [(1, "log.amount", said)]
    if net == 10**26:  # it ended in an OverflowError's traceback
        result = run_cli("audit", STANDARD, path)
        assert result.exit_code == 1 and "Traceback" not in result.stderr + result.stdout
        assert f"{path}:1: round {data['round']}: {said}" in " ".join(result.stdout.split())


def test_a_due_past_64_bits_is_computed_exactly(tmp_path: Path) -> None:
    """A valid table paying 10^9 to 1 on a $10^9 bet: $10^18 due, paid $9,999,999,999,999.99 (the most a log can
    write): under-paid by exactly the difference (it was an OverflowError)."""
    table = tmp_path / "billion.yaml"
    table.write_text(
        "trey: 1\nname: A billion to one\ntable: {currency: USD, minimum: 1, maximum: 1000000000}\n"
        "wagers:\n  pair_plus: {straight_flush: 1000000000, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}\n"
    )
    spec = load_spec(table)
    line = {"round": "B-1", "player": ["9h", "Th", "Jh"], "dealer": ["2c", "3d", "5s"]}
    line |= {"bets": {"pair_plus": 10**9}, "net": {"pair_plus": "9999999999999.99"}}
    data = _both(_log(tmp_path, [json.dumps(line)]), spec, analyze(spec))
    assert data["mispaid"]["listed"][0]["due"] == str(10**18)
    assert data["mispaid"]["underpaid"] == "99999000000000000001/100"  # 10^18 - 9,999,999,999,999.99
    assert data["returns"][0]["net"] == str(10**18)


# --- 7. memory chosen by junk ------------------------------------------------------------------------------------


def test_junk_lines_past_those_kept_are_counted_without_being_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import trey.audit.log as log

    built = []
    original = log.LogProblem.__post_init__

    def counted(self: log.LogProblem) -> None:
        built.append(self.line)
        original(self)

    monkeypatch.setattr(log.LogProblem, "__post_init__", counted)
    monkeypatch.setattr(log, "BLOCK_BYTES", 6_000)  # many blocks: the room is asked block by block
    path = tmp_path / "junk.jsonl"
    path.write_text("{}\n" * 2_500 + LINES[0] + "\n" + LINES[0] + "\n")  # and a duplicate past the room
    found = audit(SPEC, [path], ANALYSIS)
    assert (found.problem_count, found.duplicates, found.lines, found.rounds) == (2_501, 1, 2_502, 2)
    assert len(found.problems) == KEPT and [p.line for p in found.problems] == list(range(1, KEPT + 1))
    assert len(built) == KEPT  # the other 1,501 only counted
    printed = run_cli("audit", STANDARD, path).stdout
    assert "... 1,501 more lines refused or logged twice" in printed
    assert printed.splitlines()[1:3] == ["- 2,500 lines refused", "- 1 round id logged twice"]


# --- 8. signals ----------------------------------------------------------------------------------------------------

_CHILD = """
import signal, sys
from pathlib import Path
import trey.audit.log as log
import trey.audit.seen as seen
seen.IN_MEMORY = 20
log.BLOCK_BYTES = 2_000
spill, marker = seen.SeenIds._spill, Path(sys.argv[1])
def long_audit(self):
    spill(self)
    marker.write_text("spilled")
    signal.pause()  # still auditing when the signal comes
seen.SeenIds._spill = long_audit
from trey.cli import main
sys.argv = ["trey", "audit", *sys.argv[2:]]
main()
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_a_long_audit_removes_its_id_runs(tmp_path: Path, signum: int) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    marker = tmp_path / "spilled"
    log = _log(tmp_path, LINES)
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(marker), str(STANDARD), str(log)],
        cwd=REPO,
        env={**os.environ, "TMPDIR": str(temporary)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():  # the state we need: ids spilled to a run on disk
            assert child.poll() is None and time.monotonic() < deadline, "the audit ended or never spilled"
            time.sleep(0.02)
        runs = [p for folder in temporary.iterdir() for p in folder.iterdir()]
        assert runs and all(p.name.startswith("run-") for p in runs)
        child.send_signal(signum)
        _, stderr = child.communicate(timeout=600)  # a bound on a hang, not a wait: it ends as soon as the child does
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 128 + signum and b"Traceback" not in stderr
    assert list(temporary.iterdir()) == []


# --- 9. CSV logs, look-alike ids; 19. CRLF -------------------------------------------------------------------------


def _csv(rows: list[dict[str, Any]], header: list[str] | None = None, end: str = "\n") -> str:
    wagers = list(rows[0]["bets"])
    names = ["round", "table", "seat", "player", "dealer", "decision"]
    names += [f"bet_{w}" for w in wagers] + [f"net_{w}" for w in wagers]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=end)
    writer.writerow(header or names)
    for r in rows:
        fixed = [r["round"], r["table"], r["seat"], " ".join(r["player"]), " ".join(r["dealer"]), r["decision"]]
        writer.writerow(fixed + [r["bets"][w] for w in wagers] + [r["net"][w] for w in wagers])
    return buffer.getvalue()


ROWS = [json.loads(line) for line in LINES[:8]]


def test_a_csv_header_naming_a_column_twice_is_refused(tmp_path: Path) -> None:
    """The last net_prime would have won silently: the Six Card Bonus's net column is gone, its real one hidden."""
    header = _csv(ROWS).split("\n", 1)[0].split(",")
    header[-1] = "net_prime"
    path = tmp_path / "twice.csv"
    path.write_text(_csv(ROWS, header))
    found = audit(SPEC, [path], ANALYSIS)
    assert [(p.line, p.code, p.message) for p in found.problems] == [
        (1, "log.csv-header", "the header names the column 'net_prime' twice: nothing of the file is read")
    ]
    assert found.rounds == 0 and [str(f) for f in found.verdict.findings] == [
        "1 line refused",
        "no rounds read (nothing to check)",
    ]
    assert found.verdict.headline == "FAIL: 2 findings"
    assert run_cli("audit", STANDARD, path).exit_code == 1


def test_excels_byte_order_mark_and_crlf_lines_read_as_plain_csv(tmp_path: Path) -> None:
    plain = tmp_path / "plain.csv"
    plain.write_text(_csv(ROWS))
    excel = tmp_path / "excel.csv"
    excel.write_bytes(b"\xef\xbb\xbf" + _csv(ROWS, end="\r\n").encode())
    expected = audit_json(audit(SPEC, [plain], ANALYSIS))
    assert expected["rounds"] == 8 and _said(expected) == [] and expected["mispaid"]["count"] == 0
    assert audit_json(audit(SPEC, [excel], ANALYSIS)) == expected


def test_a_quoted_line_break_is_one_located_problem(tmp_path: Path) -> None:
    rows = [dict(r) for r in ROWS]
    rows[2]["round"] = "T1-\n0000003"
    rows[5]["round"] = "T1-" + "\n" * 3 + "x"  # over several lines
    path = tmp_path / "broken.csv"
    path.write_text(_csv(rows) + '"T1-never closed,T1\n')
    found = audit(SPEC, [path], ANALYSIS)
    assert [(p.line, p.code, p.message) for p in found.problems] == [
        (4, "log.field", "a quoted field holds a line break (lines 4 to 5): a round is one line"),
        (8, "log.field", "a quoted field holds a line break (lines 8 to 11): a round is one line"),
        (14, "log.field", "a quoted field is never closed: a round is one line"),
    ]
    assert found.rounds == 6


@pytest.mark.parametrize(
    ("twin", "shown", "said"),
    [
        ("T1-0000001\u200b", "T1-0000001\\u200b", "this one holds U+200B at character 11"),
        ("T1\u20100000001", "T1\\u20100000001", "this one holds U+2010 at character 3"),
        (" T1-0000001", " T1-0000001", None),
        ("T1-0000001 ", "T1-0000001 ", None),
    ],
)
def test_an_id_that_only_looks_like_another_is_refused_by_both_readers(
    tmp_path: Path, twin: str, shown: str, said: str | None
) -> None:
    lines = [LINES[0], _overpaid(LINES[1], twin, 5)]
    found = _both(_log(tmp_path, lines))
    message = (
        f"a round id is printable ASCII, so that ids that look alike are alike: {said}"
        if said
        else "a round id has no space at its start or end (ids that look alike are alike)"
    )
    assert [(p["line"], p["round"], p["code"], p["message"]) for p in found["problems"]["listed"]] == [
        (2, shown, "log.field", message)
    ]
    csv_log = tmp_path / "log.csv"
    csv_log.write_text(_csv([ROWS[0], {**ROWS[1], "round": twin}]))
    assert [p.message for p in audit(SPEC, [csv_log], ANALYSIS).problems] == [message]


def test_a_crlf_log_is_proven_by_the_columnar_reader_and_audits_as_its_lf_twin(tmp_path: Path) -> None:
    block = ("\r\n".join(LINES) + "\r\n").encode()
    proven = prove(block, 1, SPEC, MAX_LINE_BYTES)
    assert proven is not None and proven.doubtful == [] and len(proven.rounds) == len(LINES)
    assert prove(block.replace(b", ", b",\r ", 1), 1, SPEC, MAX_LINE_BYTES) is None  # a carriage return alone
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(block)
    lf = audit_json(audit(SPEC, [_log(tmp_path, LINES)], ANALYSIS))
    assert _both(crlf) == lf and _said(lf) == [] and lf["verdict"]["result"] == "INCOMPLETE"


def test_digests_of_equal_ids_agree_in_any_batch() -> None:
    from trey.audit.seen import SeenIds

    seen = SeenIds()
    ids = [json.loads(line)["round"] for line in LINES]
    whole = seen.digests(pa.array(ids))
    assert np.array_equal(seen.digests(pa.array(ids[5:9])), whole[5:9])
    assert np.array_equal(seen.digests(pa.array(ids).slice(3, 4)), whole[3:7])


# --- A second red-team pass on the readers ---------------------------------------------------------------------------


def test_a_json_round_over_several_lines_is_one_located_problem(tmp_path: Path) -> None:
    """A pretty-printed round was refused line by line: 33 problems for one round, each in words about a fragment."""
    pretty = json.dumps(json.loads(LINES[2]), indent=2).split("\n")  # lines 3 to 3 + len - 1
    truncated = LINES[5][:60]  # a line cut short, followed by a round of its own
    unclosed = json.dumps(json.loads(LINES[7]), indent=2).split("\n")[:-1]  # the file ends inside it
    lines = [*LINES[:2], *pretty, *LINES[3:5], truncated, LINES[6], *unclosed]
    found = _both(_log(tmp_path, lines))
    end = 2 + len(pretty)
    last = len(lines)
    assert [(p["line"], p["code"], p["message"]) for p in found["problems"]["listed"]] == [
        (3, "log.not-json", f"a JSON round runs over lines 3 to {end}: a round is one line"),
        (end + 3, "log.not-json", "not a JSON round: not JSON: Expecting value at line 1 column 61"),  # its own words
        (end + 5, "log.not-json", f"a JSON round is never closed (lines {end + 5} to {last}): a round is one line"),
    ]
    assert found["rounds"] == 5 and found["lines"] == last
    result = run_cli("audit", STANDARD, _log(tmp_path, lines))
    assert result.exit_code == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("seat", "\u00b2", "a round's seat is a whole number from 1 to 999"),  # str.isdigit takes it; int() does not
        ("seat", "9" * 23, "a round's seat is a whole number from 1 to 999"),  # past int64: a traceback in rounds_of
        ("seat", "0", "a round's seat is a whole number from 1 to 999"),
        (
            "table",
            "T\x1b[31m1",
            "a round's table is text of 1 to 64 characters that can all be seen (no control or format character)",
        ),
        (
            "table",
            "T\u200b1",
            "a round's table is text of 1 to 64 characters that can all be seen (no control or format character)",
        ),
        (
            "table",
            "T" * 65,
            "a round's table is text of 1 to 64 characters that can all be seen (no control or format character)",
        ),
        ("player", "Ah\u3000Js Jh", 'player must be three cards such as ["Qd", "3s", "2d"]'),  # not split on U+3000
    ],
    ids=[
        "superscript-seat",
        "huge-seat",
        "seat-0",
        "escape-in-table",
        "format-character",
        "long-table",
        "ideographic-space",
    ],
)
def test_csv_text_fields_are_held_to_the_rules_of_json_ones(tmp_path: Path, field: str, value: str, said: str) -> None:
    """A CSV seat of "²" was a traceback (str.isdigit took it), a JSON seat of 10^23 too (in the line reader); a
    table with a terminal's escape or a format character was kept; cards were split on any Unicode space."""
    rows = [dict(r) for r in ROWS[:3]]
    if field == "player":
        path = tmp_path / "log.csv"
        path.write_text(_csv(rows).replace(" ".join(rows[1]["player"]), value.replace("Ah", rows[1]["player"][0], 1)))
    else:
        rows[1][field] = value
        path = tmp_path / "log.csv"
        path.write_text(_csv(rows))
    result = run_cli("audit", STANDARD, path, "--format", "json")
    assert result.exit_code == 1 and result.stderr == ""
    listed = json.loads(result.stdout)["problems"]["listed"]
    code = "log.card" if field == "player" else "log.field"
    assert [(p["line"], p["round"], p["code"], p["message"]) for p in listed] == [(3, rows[1]["round"], code, said)]
    if field != "player":  # the same round as a JSON line: refused too, by both readers
        data = json.loads(LINES[1])
        data[field] = int(value) if field == "seat" and value.isascii() and value.isdigit() else value
        found = _both(_log(tmp_path, [LINES[0], json.dumps(data), LINES[2]]))
        if "\x1b" in value:  # the strict JSON reader refuses a control character in any text, in its words
            said = "not a JSON round: $.table: the text holds the control character \\x1b"
        assert [(p["line"], p["message"]) for p in found["problems"]["listed"]] == [(2, said)]


def test_a_line_of_many_keys_costs_the_known_columns_alone(tmp_path: Path) -> None:
    """2,000 lines of 16 KB of keys no other line has (each a column to pyarrow's inference) took 2.9 GB and two
    minutes; the columnar reader now gives pyarrow its columns, typed, and a key they do not name leaves the block
    to the line reader: pyarrow never builds a column a line chooses."""
    lines = []
    for i, line in enumerate(LINES[:8]):
        extra = "".join(f', "k{i}_{k}": 0' for k in range(900))  # 15 KB: within a line's bound
        lines.append(line[:-1] + extra + "}")
    assert prove(("\n".join(lines) + "\n").encode(), 1, SPEC, MAX_LINE_BYTES) is None
    found = _both(_log(tmp_path, lines))
    # unknown keys are the line reader's to ignore, as before: every round read and paid as due (8 rounds are too
    # few for the card tests, hence INCOMPLETE and not PASS)
    assert found["rounds"] == 8 and found["problems"]["listed"] == []
    assert found["verdict"]["result"] == "INCOMPLETE"
    assert {f["kind"] for f in found["verdict"]["findings"]} == {"not_checked"}
    in_bets = [
        line.replace('"bets": {', '"bets": {' + "".join(f'"k{k}": 1, ' for k in range(100)), 1) for line in LINES
    ]
    assert prove(("\n".join(in_bets) + "\n").encode(), 1, SPEC, MAX_LINE_BYTES) is None
    # A key on every line, text or a number, is typed from the first line and proven; NaN in it is not: pyarrow took
    # it as a float, the strict reader refuses it, and the two readers disagreed.
    extra = [line[:-1] + ', "dealer_id": "D7", "shoe": 4}' for line in LINES[:10]]
    proven = prove(("\n".join(extra) + "\n").encode(), 1, SPEC, MAX_LINE_BYTES)
    assert proven is not None and proven.doubtful == []
    extra[4] = extra[4].replace('"shoe": 4', '"shoe": NaN')
    found = _both(_log(tmp_path, extra))
    assert [(p["line"], p["message"]) for p in found["problems"]["listed"]] == [
        (5, "not a JSON round: NaN is not a number JSON allows")
    ]
