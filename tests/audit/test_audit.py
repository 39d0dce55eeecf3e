"""Audits: a simulated hand history audits clean, chosen mis-paid rounds are listed exactly, and hostile logs are
located line by line or refused as every other input is."""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import STANDARD, run_cli
from trey.audit.audit import audit, audit_json
from trey.audit.simulated import simulated_log
from trey.core.jsonschemas import validator
from trey.paytable.load import load_spec

SPEC = load_spec(STANDARD)
LINES = list(simulated_log(SPEC, 600, 11))


def _log(tmp_path: Path, lines: list[str], name: str = "log.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_simulated_log_audits_clean_and_follows_its_schemas(tmp_path: Path) -> None:
    assert all(list(validator("hand-history").iter_errors(json.loads(line))) == [] for line in LINES)
    found = audit(SPEC, [_log(tmp_path, LINES)])
    assert (found.rounds, found.problem_count, found.mispaid_count, found.clean) == (600, 0, 0, True)
    data = audit_json(found)
    assert list(validator("audit").iter_errors(data)) == []
    logged = sum(int(json.loads(line)["net"]["pair_plus"]) for line in LINES)
    assert data["returns"][1]["wager"] == "pair_plus" and data["returns"][1]["net"] == str(logged)
    result = run_cli("audit", STANDARD, tmp_path / "log.jsonl")
    assert result.exit_code == 0 and "PASS: every line read and every round paid as due" in result.stdout


def test_chosen_mis_paid_rounds_are_listed_exactly(tmp_path: Path) -> None:
    lines = list(LINES)
    chosen = {3: 5, 77: -5, 400: 25}  # line number: what is added to the logged pair_plus net
    for number, change in chosen.items():
        data = json.loads(lines[number - 1])
        data["net"]["pair_plus"] = int(data["net"]["pair_plus"]) + change
        lines[number - 1] = json.dumps(data)
    found = audit(SPEC, [_log(tmp_path, lines)])
    assert [(m.line, m.wager, m.logged - m.due) for m in found.mispaid] == [
        (n, "pair_plus", c) for n, c in chosen.items()
    ]
    assert (found.overpaid, found.underpaid) == (30, 5)
    first = json.loads(lines[2])
    assert found.mispaid[0].round == first["round"] and found.mispaid[0].reason.startswith("Pair Plus: ")
    assert run_cli("audit", STANDARD, tmp_path / "log.jsonl").exit_code == 1


def test_a_round_paid_the_right_total_on_the_wrong_spots_is_listed(tmp_path: Path) -> None:
    lines = list(LINES)
    number = next(i for i, line in enumerate(lines, 1) if json.loads(line)["parts"]["ante_bonus"] not in (0, "0"))
    data = json.loads(lines[number - 1])
    bonus = int(data["parts"]["ante_bonus"])
    data["parts"]["ante"], data["parts"]["ante_bonus"] = int(data["parts"]["ante"]) + bonus, 0
    lines[number - 1] = json.dumps(data)
    found = audit(SPEC, [_log(tmp_path, lines)])
    assert [(m.line, m.wager) for m in found.mispaid] == [(number, "ante_play")]
    assert found.mispaid[0].reason.startswith("parts: ante ")
    assert found.overpaid == found.underpaid == 0


def test_each_bad_line_is_located_and_the_audit_goes_on(tmp_path: Path) -> None:
    good = json.loads(LINES[0])
    twice = {**good, "round": "R-twice", "dealer": [good["player"][0], *good["dealer"][1:]]}
    unknown = {**good, "round": "R-wager", "bets": {**good["bets"], "bad_beat": 5}}
    bad = [
        "{not json",
        '{"round": "R-nan", "x": NaN}',
        '{"round": "R-dup", "round": "R-dup2"}',
        "[" * 200 + "]" * 200,
        json.dumps({**good, "round": "R-card", "player": ["Zz", "3s", "2d"]}),
        json.dumps(twice),
        json.dumps(unknown),
        LINES[1],
        LINES[1],  # the same round again
        "x" * 20_000,
    ]
    path = _log(tmp_path, bad)
    with open(path, "ab") as stream:
        stream.write(b"\xff\xfe not utf-8\n")
    found = audit(SPEC, [path])
    codes = [(p.line, p.code) for p in found.problems]
    assert codes == [
        (1, "log.not-json"),
        (2, "log.not-json"),
        (3, "log.not-json"),
        (4, "log.not-json"),
        (5, "log.card"),
        (6, "log.card-twice"),
        (7, "log.wager"),
        (9, "log.duplicate-round"),
        (10, "log.line-too-long"),
        (11, "log.not-json"),
    ]
    assert found.rounds == 2 and found.mispaid_count == 0  # the round logged twice is audited all the same
    said = f"{path}:6: round R-twice: a card is dealt twice in the round: {good['player'][0]}"
    assert str(found.problems[5]) == said
    assert found.problems[7].message == "the round id is logged twice: first at line 8"


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_log_that_is_not_a_regular_file_is_refused_before_it_is_read(tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        target = tmp_path / "pipe.jsonl"
        os.mkfifo(target)
    else:
        target = Path("/dev/zero")
    result = run_cli("audit", STANDARD, target)
    assert result.exit_code == 1 and "not a regular file" in result.stderr and "Traceback" not in result.stderr


def test_a_deck_missing_a_card_is_flagged_by_the_card_tests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    import trey.audit.simulated as simulated

    ace_of_spades = 51

    def short_deck(rng: np.random.Generator, rounds: int) -> np.ndarray:
        deck = np.array([c for c in range(52) if c != ace_of_spades])
        return np.array([rng.permutation(deck)[:6] for _ in range(rounds)], dtype=np.int8)

    monkeypatch.setattr(simulated, "deal", short_deck)
    found = audit(SPEC, [_log(tmp_path, list(simulated.simulated_log(SPEC, 1500, 4)))])
    assert found.clean  # every round is paid as due: only the cards give the deck away
    flagged = {t.name for t in found.card_tests if t.flagged}
    assert "cards, overall" in flagged and "suits, overall" not in flagged
    assert not any(t.flagged for t in audit(SPEC, [_log(tmp_path, LINES, "fair.jsonl")]).card_tests)


def test_a_seat_whose_decisions_follow_a_dealer_card_is_flagged(tmp_path: Path) -> None:
    """Seat 2 sees the dealer's first card and plays as trey protect says; seat 1 plays normally."""
    import numpy as np

    from trey.cards.card import Card
    from trey.cards.hand_table import hand_indexes
    from trey.engine import analyze
    from trey.floor.drill import answer_lines
    from trey.play.payouts import PayRule
    from trey.play.settle import Settler
    from trey.protect.protection import protect

    one = protect(SPEC, two=False).scenarios[0]
    assert one.plays is not None
    informed = {seen: row for seen, row in zip(one.seen, one.plays, strict=True)}
    settler = Settler(SPEC, analyze(SPEC).ante_play.plays)  # type: ignore[union-attr]
    rule = PayRule.of(SPEC.table)
    lines = []
    for line in simulated_log(SPEC, 2000, 21, table="T9"):
        data = json.loads(line)
        player = [Card.parse(c) for c in data["player"]]
        dealer = [Card.parse(c) for c in data["dealer"]]
        hand = int(hand_indexes(np.array([sorted(player)]))[0])
        plays = bool(informed[(dealer[0],)][hand])
        outcomes = settler.settle(np.array([player]), np.array([dealer]), np.array([plays]))
        bets = {w: Fraction(v) for w, v in data["bets"].items()}
        key = answer_lines(SPEC, settler.settled(outcomes, 0), bets, rule)
        data["seat"] = 2
        data["decision"] = "play" if plays else "fold"
        del data["parts"]  # optional: this seat's log gives the totals only
        data["net"]["ante_play"] = str(sum(x.amount for x in key if x.part in ("Ante", "Play", "Ante Bonus")))
        for wager in data["net"]:
            if wager != "ante_play":
                title = SPEC.wagers.title(wager)
                data["net"][wager] = str(sum(x.amount for x in key if x.part == title))
        lines.append(json.dumps(data))
    found = audit(SPEC, [_log(tmp_path, lines), _log(tmp_path, LINES, "normal.jsonl")])
    assert found.clean, found.mispaid[:3]
    seats = {s.seat: s for s in found.seats.values()}
    assert seats["T9 seat 2"].flagged and seats["T9 seat 2"].deviations > 250, seats["T9 seat 2"]
    assert not seats["T1 seat 1"].flagged and seats["T1 seat 1"].deviations == 0


def test_the_report_prints_the_audits_figures(tmp_path: Path) -> None:
    import io

    from pypdf import PdfReader

    from trey.core.numbers import percent_text

    lines = list(LINES)
    data = json.loads(lines[9])
    data["net"]["pair_plus"] = int(data["net"]["pair_plus"]) + 5
    lines[9] = json.dumps(data)
    log = _log(tmp_path, lines)
    result = run_cli("audit", STANDARD, log, "--out", tmp_path / "report", "--date", "2026-01-01")
    assert result.exit_code == 1  # one round mis-paid
    pdf = (tmp_path / "report" / "standard.audit.pdf").read_bytes()
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    found = audit(SPEC, [log])
    assert "2. Mis-paid wagers (1: $5 overpaid, $0 underpaid)" in text
    pair_plus = found.returns["pair_plus"]
    assert f"Pair Plus 600 {'$'}{int(pair_plus.bet):,}" in text and percent_text(pair_plus.rtp) in text  # type: ignore[arg-type]
    assert f"{data['round']}" in text and "Ante & Play against the exact expectation of these very rounds" in text


def test_a_csv_log_with_the_same_columns_audits_as_its_json_lines(tmp_path: Path) -> None:
    import csv
    import io

    rows = [json.loads(line) for line in LINES]
    wagers = list(rows[0]["bets"])
    header = ["round", "table", "seat", "player", "dealer", "decision"]
    header += [f"bet_{w}" for w in wagers] + [f"net_{w}" for w in wagers] + ["ante", "play", "ante_bonus"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(
            [row["round"], row["table"], row["seat"], " ".join(row["player"]), " ".join(row["dealer"]), row["decision"]]
            + [row["bets"][w] for w in wagers]
            + [row["net"][w] for w in wagers]
            + [row["parts"][k] for k in ("ante", "play", "ante_bonus")]
        )
    path = tmp_path / "log.csv"
    path.write_text(buffer.getvalue())
    from_csv = audit_json(audit(SPEC, [path]))
    from_json = audit_json(audit(SPEC, [_log(tmp_path, LINES)]))
    assert from_csv["rounds"] == 600 and from_csv["clean"]
    assert from_csv["returns"] == from_json["returns"] and from_csv["cards"] == from_json["cards"]
    short = tmp_path / "short.csv"
    short.write_text(buffer.getvalue().split("\n", 1)[0] + "\nR-1,T1,1,Qd 3s 2d\n")
    (problem,) = audit(SPEC, [short]).problems
    assert (problem.line, problem.code, problem.message) == (
        2,
        "log.field",
        f"4 fields where the header names {len(header)}",
    )


def test_a_round_without_an_ante_has_nothing_folded(tmp_path: Path) -> None:
    """Pair Plus is lost on a fold at this table; a round that bets no Ante folds nothing, so its Pair Plus stands."""
    assert SPEC.wagers.side_bet("pair_plus").on_fold.value == "lost"
    winning = next(json.loads(x) for x in LINES if Fraction(str(json.loads(x)["net"]["pair_plus"])) > 0)
    alone = {k: v for k, v in winning.items() if k not in ("decision", "parts")}
    alone["bets"] = {"pair_plus": winning["bets"]["pair_plus"]}
    alone["net"] = {"pair_plus": winning["net"]["pair_plus"]}
    folded = {**winning, "round": "R-folded", "decision": "fold"}
    found = audit(SPEC, [_log(tmp_path, [json.dumps(alone), json.dumps(folded)])])
    assert [m.round for m in found.mispaid if m.wager == "pair_plus"] == ["R-folded"]
    assert found.returns["pair_plus"].net == Fraction(winning["net"]["pair_plus"]) - winning["bets"]["pair_plus"]


def test_seats_past_the_ones_followed_are_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.audit.audit as audit_module

    monkeypatch.setattr(audit_module, "MAX_SEATS", 2)
    lines = [json.dumps({**json.loads(line), "seat": 1 + i % 3}) for i, line in enumerate(LINES[:30])]
    data = audit_json(audit(SPEC, [_log(tmp_path, lines)]))
    assert [s["seat"] for s in data["seats"]] == ["T1 seat 1", "T1 seat 2"]
    assert [s["rounds"] for s in data["seats"]] == [10, 10]
    assert data["ante_play_rounds_of_seats_not_followed"] == 10
    assert list(validator("audit").iter_errors(data)) == []


def test_the_expectation_of_these_rounds_is_each_rounds_average_over_every_dealer_hand(tmp_path: Path) -> None:
    """A brute force apart from the audit's per-hand tables: each round's Ante & Play settled against all 18,424
    dealer hands its player's cards leave, with its logged decision, and averaged."""
    import itertools

    import numpy as np

    from trey.cards.card import Card
    from trey.engine import analyze
    from trey.play.settle import Settler

    lines = LINES[:40]
    found = audit(SPEC, [_log(tmp_path, lines)])
    settler = Settler(SPEC, analyze(SPEC).ante_play.plays)  # type: ignore[union-attr]
    nets = settler.tables["ante_play"].nets
    expected = Fraction(0)
    for line in lines:
        data = json.loads(line)
        player = [int(Card.parse(c)) for c in data["player"]]
        rest = [c for c in range(52) if c not in player]
        dealers = np.array(list(itertools.combinations(rest, 3)))
        assert len(dealers) == 18_424
        plays = np.full(len(dealers), data["decision"] == "play")
        outcomes = settler.settle(np.repeat([player], len(dealers), axis=0), dealers, plays)["ante_play"]
        counts = np.bincount(outcomes, minlength=len(nets))
        mean = sum((Fraction(int(n)) * net for n, net in zip(counts, nets, strict=True)), Fraction(0)) / 18_424
        expected += mean * Fraction(str(data["bets"]["ante_play"]))
    assert found.expected_net == expected


def test_the_audit_states_each_wagers_theoretical_rtp_as_analyze_does(tmp_path: Path) -> None:
    analysed = json.loads(run_cli("analyze", STANDARD, "--format", "json").stdout)
    data = audit_json(audit(SPEC, [_log(tmp_path, LINES[:50])]))
    assert {r["wager"]: r["theoretical_rtp"] for r in data["returns"]} == {
        wager: figures["rtp"] for wager, figures in analysed["wagers"].items()
    }
    printed = run_cli("audit", STANDARD, tmp_path / "log.jsonl").stdout
    from trey.core.numbers import percent_text

    for wager in analysed["wagers"]:
        assert percent_text(Fraction(analysed["wagers"][wager]["rtp"])) in printed
