"""The audit of a family game's hand history (issue 31): a log trey simulate --log writes passes; every forged line
is a located finding with its code (a raise the hand may not make, a size the game does not offer), every mis-paid
round is listed with what was due; the return is set against the exact RTP per Ante of the optimal strategy."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conftest import PAYTABLES, run_cli
from trey.audit.audit import audit
from trey.audit.simulated import simulated_log
from trey.core.jsonschemas import validator
from trey.paytable.load import load_spec

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
ROUNDS = 600


@cache
def logged() -> tuple[str, ...]:
    return tuple(simulated_log(load_spec(FACE_UP_ULTIMATE), ROUNDS, 31))


def rounds() -> list[dict[str, Any]]:
    return [json.loads(line) for line in logged()]


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def first(lines: list[dict[str, Any]], **fields: object) -> int:
    return next(i for i, line in enumerate(lines) if all(line.get(k) == v for k, v in fields.items()))


def test_a_simulated_family_log_is_valid_and_carries_each_decision_with_its_multiple() -> None:
    lines = rounds()
    check = validator("hand-history")
    for line in lines:
        check.validate(line)
        assert ("play" in line) == (line["decision"] == "play")
        assert set(line["parts"]) == {"ante", "play", "blind", "ante_bonus"}
        parts = line["parts"]
        assert sum(Fraction(str(v)) for v in parts.values()) == Fraction(str(line["net"]["ante_play"]))
    assert {line.get("play") for line in lines} == {None, 1, 3}
    fold = lines[first(lines, decision="fold")]
    bet = fold["bets"]["ante_play"]
    assert fold["net"]["ante_play"] == -2 * bet and fold["parts"]["blind"] == -bet  # the Ante and the Blind lost


def test_the_standard_game_s_log_is_unchanged() -> None:
    """Its first 500 rounds as trey 0.4's main branch writes them (the digest taken with that code)."""
    lines = list(simulated_log(load_spec(PAYTABLES / "standard.yaml"), 500, 1))
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    assert digest == "e88f2f4e1b57eed20d0bb4397ad4eea888b8096e4a9af007ae89939cb2583d3c"
    assert not any('"play": ' in line.split('"bets"')[0] or '"blind"' in line for line in lines)


def test_a_simulated_family_log_passes_the_audit(tmp_path: Path) -> None:
    log = write(tmp_path / "fu.jsonl", rounds())
    result = run_cli("audit", FACE_UP_ULTIMATE, log, "--format", "json")
    data = json.loads(result.stdout)
    assert data["rounds"] == ROUNDS and data["problems"]["count"] == 0 and data["mispaid"]["count"] == 0
    (returns,) = data["returns"]
    assert returns["theoretical_rtp"] == "48921169/50896300"  # 1 - 3.8807%: the optimal strategy, per Ante
    assert returns["expected_rtp"] == returns["theoretical_rtp"]  # every pay of these tables is whole chips
    assert returns["paid_net"] == returns["net"]
    assert data["verdict"]["result"] == "PASS" and result.exit_code == 0


def test_the_sharp_test_and_the_seats_of_a_simulated_log(tmp_path: Path) -> None:
    found = audit(load_spec(FACE_UP_ULTIMATE), [write(tmp_path / "fu.jsonl", rounds())])
    assert found.rounds_z is not None and abs(found.rounds_z) < 4
    assert sum(seat.deviations for seat in found.seat_order) == 0  # the log takes the optimal option every round


def test_a_3x_raise_on_a_high_card_is_a_located_finding_with_its_code(tmp_path: Path) -> None:
    lines = rounds()
    at = first(lines, decision="play", play=1)
    lines[at]["play"] = 3
    result = run_cli("audit", FACE_UP_ULTIMATE, write(tmp_path / "fu.jsonl", lines), "--format", "json")
    data = json.loads(result.stdout)
    (problem,) = data["problems"]["listed"]
    hand = _hand_words(lines[at]["player"])
    assert problem == {
        "file": str(tmp_path / "fu.jsonl"),
        "line": at + 1,
        "round": lines[at]["round"],
        "code": "log.raise-not-allowed",
        "message": f"a 3x Play on {hand}: the game allows 3x with a pair or better",
    }
    assert result.exit_code == 1 and data["verdict"]["result"] == "FAIL"
    assert data["rounds"] == ROUNDS - 1


def _hand_words(cards: list[str]) -> str:
    from trey.cards.card import Card
    from trey.cards.hands import describe_key, three_card_key

    return describe_key(three_card_key([int(Card.parse(c)) for c in cards]))


@pytest.mark.parametrize(
    ("change", "code", "message"),
    [
        ({"play": 2}, "log.play-size", "play is 2: the game offers a Play bet of 1x and 3x the Ante"),
        (
            {"play": None},
            "log.play-size",
            "a round played needs its Play bet in Antes (play): the game offers 1x and 3x",
        ),
        ({"play": "3"}, "log.play-size", "play is '3': the game offers a Play bet of 1x and 3x the Ante"),
        ({"play": True}, "log.play-size", "play is True: the game offers a Play bet of 1x and 3x the Ante"),
        ({"decision": "fold"}, "log.field", "a fold makes no Play bet: play goes with a round played"),
        ({"parts": {"ante": 1}}, "log.field", "parts names ante, play, blind, ante_bonus"),
        ({"parts": {"bonus": 1}}, "log.field", "parts has no 'bonus': it names ante, play, blind, ante_bonus"),
        ({"bets": {"ante_play": 5, "pair_plus": 5}}, "log.wager", "the paytable offers no wager 'pair_plus' (bets)"),
    ],
)
def test_forged_lines_are_refused_with_their_code(
    tmp_path: Path, change: dict[str, object], code: str, message: str
) -> None:
    lines = rounds()
    at = first(lines, decision="play", play=3)
    for key, value in change.items():
        if value is None:
            del lines[at][key]
        else:
            lines[at][key] = value
    found = audit(load_spec(FACE_UP_ULTIMATE), [write(tmp_path / "fu.jsonl", lines)])
    (problem,) = found.problems
    assert (problem.line, problem.code, problem.message) == (at + 1, code, message)
    assert str(problem) == f"{tmp_path / 'fu.jsonl'}:{at + 1}: round {lines[at]['round']}: {message}"


def test_a_mis_paid_round_and_mis_split_parts_are_listed_with_what_was_due(tmp_path: Path) -> None:
    lines = rounds()
    folded = first(lines, decision="fold")
    lines[folded]["net"]["ante_play"] += 1
    raised = first(lines, decision="play", play=3)
    lines[raised]["parts"]["ante"] += 5
    lines[raised]["parts"]["play"] -= 5
    found = audit(load_spec(FACE_UP_ULTIMATE), [write(tmp_path / "fu.jsonl", lines)])
    assert found.mispaid_count == 2 and found.overpaid == 1 and found.underpaid == 0
    by_line = {m.line: m for m in found.mispaid}
    bet = lines[folded]["bets"]["ante_play"]
    assert by_line[folded + 1].reason == f"folded: Ante −${bet}, Play $0, Blind −${bet}, Ante Bonus $0"
    assert by_line[folded + 1].due == -2 * bet
    assert by_line[raised + 1].reason.startswith("parts: ante ")
    assert found.verdict.result.name == "FAIL"


def test_a_seat_raising_less_than_the_optimal_strategy_is_followed(tmp_path: Path) -> None:
    lines = rounds()
    raised = [i for i, line in enumerate(lines) if line.get("play") == 3][:5]
    for i in raised:  # the optimal 3x played 1x, its nets as the dealer would pay them left wrong on purpose
        lines[i]["play"] = 1
    found = audit(load_spec(FACE_UP_ULTIMATE), [write(tmp_path / "fu.jsonl", lines)])
    (seat,) = found.seat_order
    assert (seat.seat, seat.rounds, seat.folds_above, seat.plays_below) == ("T1 seat 1", ROUNDS, 5, 0)
    assert seat.expected_gain < 0


def as_csv(path: Path, lines: list[dict[str, Any]]) -> Path:
    """The rounds as a CSV log: the standard game's columns, ``play`` the Play bet in Antes, ``part_*`` the parts."""
    import csv

    parts = list(lines[0]["parts"])
    columns = ["round", "table", "seat", "player", "dealer", "decision", "play", "bet_ante_play", "net_ante_play"]
    with path.open("w", newline="") as stream:
        out = csv.writer(stream)
        out.writerow(columns + [f"part_{p}" for p in parts])
        for line in lines:
            cells = [line["round"], line["table"], line["seat"], " ".join(line["player"]), " ".join(line["dealer"])]
            cells += [line["decision"], line.get("play", ""), line["bets"]["ante_play"], line["net"]["ante_play"]]
            out.writerow(cells + [line["parts"][p] for p in parts])
    return path


def test_a_csv_log_of_a_family_game_is_audited_as_its_json_lines(tmp_path: Path) -> None:
    from trey.audit.audit import audit_json

    lines = rounds()
    spec = load_spec(FACE_UP_ULTIMATE)
    from_json = audit_json(audit(spec, [write(tmp_path / "fu.jsonl", lines)]))
    from_csv = audit_json(audit(spec, [as_csv(tmp_path / "fu.jsonl.csv", lines)]))
    assert from_csv == from_json and from_json["verdict"]["result"] == "PASS"


def test_a_csv_log_of_a_family_game_is_read_strictly(tmp_path: Path) -> None:
    lines = rounds()[:3]
    played = first(lines, decision="play")
    path = as_csv(tmp_path / "fu.csv", lines)
    text = path.read_text().splitlines()
    cells = text[1 + played].split(",")
    cells[6] = "2"  # a Play bet of 2x, which the game does not offer
    text[1 + played] = ",".join(cells)
    path.write_text("\n".join(text) + "\n")
    result = run_cli("audit", FACE_UP_ULTIMATE, path, "--format", "json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["problems"]["count"] == 1
    (problem,) = data["problems"]["listed"]
    assert (problem["line"], problem["code"], problem["message"]) == (
        2 + played,
        "log.play-size",
        "play is 2: the game offers a Play bet of 1x and 3x the Ante",
    )
    standard = tmp_path / "standard-parts.csv"
    standard.write_text(path.read_text().replace("part_ante,part_play", "ante,part_play", 1))
    data = json.loads(run_cli("audit", FACE_UP_ULTIMATE, standard, "--format", "json").stdout)
    assert {p["message"] for p in data["problems"]["listed"]} == {
        "the column 'ante' is a part of the standard game's log: a family game's parts are part_ante, part_play, "
        "part_blind, part_ante_bonus (play is the Play bet in Antes)"
    }
    twice = tmp_path / "twice.csv"
    twice.write_text("round,play,play\n")
    data = json.loads(run_cli("audit", FACE_UP_ULTIMATE, twice, "--format", "json").stdout)
    assert [(p["line"], p["code"]) for p in data["problems"]["listed"]] == [(1, "log.csv-header")]


def test_the_trail_follows_the_net_against_the_expectation_of_these_rounds(tmp_path: Path) -> None:
    lines = rounds()
    found = audit(load_spec(FACE_UP_ULTIMATE), [write(tmp_path / "fu.jsonl", lines)])
    assert found.decided == ROUNDS and len(found.trail.points) >= 200
    at, difference, deviation = found.trail.points[100]
    first = audit(load_spec(FACE_UP_ULTIMATE), [write(tmp_path / "first.jsonl", lines[: at + 1])])
    assert difference == pytest.approx(float(first.actual_net - first.expected_net), abs=1e-6)
    assert deviation == pytest.approx(first.expected_variance**0.5, rel=1e-9)
