"""Audits: a simulated hand history audits clean, chosen mis-paid rounds are listed exactly, and hostile logs are
located line by line or refused as every other input is."""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import STANDARD, run_cli, standard_protection
from trey.audit.audit import audit, audit_json
from trey.audit.simulated import simulated_log
from trey.core.jsonschemas import validator
from trey.paytable.load import load_spec

SPEC = load_spec(STANDARD)
LINES = list(simulated_log(SPEC, 600, 11))
PASS = "PASS: every line read, every round paid as due, no test flagged"
LEVEL = "α = 10⁻⁶ family-wise, Holm over 11 tests (10 card tests, the sharp test)"


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
    assert data["verdict"]["lines"] == [PASS, LEVEL] and data["verdict"]["result"] == "PASS"
    result = run_cli("audit", STANDARD, tmp_path / "log.jsonl")
    assert result.exit_code == 0 and result.stdout.splitlines()[:2] == [PASS, LEVEL]


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


@pytest.fixture(scope="module")
def without_the_ace_of_spades(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A log from which every round holding the ace of spades was removed."""
    lines = [line for line in simulated_log(SPEC, 3_000, 7) if '"As"' not in line]
    path = tmp_path_factory.mktemp("ace") / "no-ace.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, lines


def _cards_of(lines: list[str]) -> list[str]:
    return [c for line in lines for key in ("player", "dealer") for c in json.loads(line)[key]]


def test_a_log_without_the_ace_of_spades_is_flagged_naming_the_card(
    without_the_ace_of_spades: tuple[Path, list[str]],
) -> None:
    """Every round holding A♠ removed: every round is paid as due, only the cards give the log away; the verdict
    names the card with its count and the count expected (computed here from the cards themselves)."""
    from collections import Counter

    from trey.play.chisquare import chi_square_sf

    path, lines = without_the_ace_of_spades
    dealt = Counter(_cards_of(lines))
    assert "As" not in dealt and len(lines) < 3_000
    expected = Fraction(6 * len(lines), 52)  # six cards a round, each of 52 alike
    statistic = float(sum((Fraction(dealt[c]) - expected) ** 2 for c in dealt) / expected + expected)
    p = chi_square_sf(statistic, 51)
    found = audit(SPEC, [path])
    assert found.mispaid_count == 0 and found.verdict.result == "FLAGGED"
    first = found.verdict.findings[0]
    assert (first.kind, first.says) == (
        "flagged",
        f"cards, overall: A♠ dealt 0 times, {math.floor(expected + Fraction(1, 2)):,} expected (chi-square "
        f"{statistic:,.2f}, df 51, "
        f"p = {p:.3g})",
    )
    aces = sum(n for c, n in dealt.items() if c[0] == "A")
    each_rank = math.floor(Fraction(6 * len(lines), 13) + Fraction(1, 2))
    assert found.verdict.findings[1].says.startswith(
        f"ranks, overall: A (any suit) dealt {aces:,} times, {each_rank:,} expected ("
    )
    result = run_cli("audit", STANDARD, path)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:3] == [
        f"FLAGGED: {len(found.verdict.findings)} findings",
        f"- {first.says}",
        f"- {found.verdict.findings[1].says}",
    ]
    data = json.loads(run_cli("audit", STANDARD, path, "--format", "json").stdout)
    assert data["verdict"]["findings"][0] == {"kind": "flagged", "says": first.says} and not data["clean"]
    assert list(validator("audit").iter_errors(data)) == []
    assert not any(
        f["kind"] == "flagged" for f in audit_json(audit(SPEC, [_log_of(path.parent, LINES)]))["verdict"]["findings"]
    )


def test_the_reports_card_table_gives_the_verdicts_figures_as_the_verdict_writes_them(
    without_the_ace_of_spades: tuple[Path, list[str]],
) -> None:
    """The report's table of card tests and the verdict's finding print one statistic one way: thousands separated,
    and a p-value a float cannot hold as "≈ 0", never "0"."""
    from datetime import date

    from trey.audit.verdict import p_figure
    from trey.documents.audit_view import audit_context

    path, _ = without_the_ace_of_spades
    found = audit(SPEC, [path])
    rows = {row["test"]: row for row in audit_context(found, paper="a4", day=date(2026, 1, 1), logs=["x"])["cards"]}
    overall = next(t for t in found.card_tests if t.name == "cards, overall")
    assert rows[overall.name]["statistic"] == f"{overall.statistic:,.2f}"
    assert f"chi-square {rows[overall.name]['statistic']}, df 51, p = {rows[overall.name]['p']})" in (
        found.verdict.findings[0].says
    )
    assert (p_figure(0.0), p_figure(1.234e-45)) == ("≈ 0", "1.23e-45")


def _log_of(folder: Path, lines: list[str]) -> Path:
    path = folder / "fair.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_level_is_one_stated_figure_and_alpha_sets_it(without_the_ace_of_spades: tuple[Path, list[str]]) -> None:
    """At 10^-50 the missing ace is no longer significant (p about 10^-44 over 11 tests): the same log passes, the
    level stated. A level that is none is a usage error."""
    path, _ = without_the_ace_of_spades
    result = run_cli("audit", STANDARD, path, "--alpha", "1e-50")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == [
        PASS,
        "α = 10⁻⁵⁰ family-wise, Holm over 11 tests (10 card tests, the sharp test)",
    ]
    for bad in ("0", "0.6", "ten", "1/0", "1" * 40):
        refused = run_cli("audit", STANDARD, path, "--alpha", bad)
        assert (
            refused.exit_code == 2
            and "is not a significance level: give a level above 0 and at most 0.5" in refused.stderr
        ), bad
        assert "Traceback" not in refused.stderr


def test_a_seat_whose_decisions_follow_a_dealer_card_is_flagged(tmp_path: Path) -> None:
    """Seat 2 sees the dealer's first card and plays as trey protect says; seat 1 plays normally."""
    import numpy as np

    from trey.cards.card import Card
    from trey.cards.hand_table import hand_indexes
    from trey.engine import analyze
    from trey.floor.drill import answer_lines
    from trey.play.payouts import PayRule
    from trey.play.settle import Settler

    one = standard_protection().scenarios[0]  # trey protect of this game, worked out once per process
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
    assert found.mispaid_count == found.problem_count == 0, found.mispaid[:3]
    seat = found.seats["T9 seat 2"]
    family = found.verdict.family
    assert family.is_flagged("seat", "T9 seat 2") and seat.deviations > 250, seat
    assert not family.is_flagged("seat", "T1 seat 1") and found.seats["T1 seat 1"].deviations == 0
    assert seat.z is not None
    seat_p = math.erfc(seat.z / math.sqrt(2)) / 2  # the upper tail, one-sided: an informed seat wins
    said = (
        f"T9 seat 2: {seat.deviations:,} decisions off the normal strategy won more than the player's cards explain: "
        f"z = {seat.z:.2f} (p = {seat_p:.3g})"
    )
    assert [str(f) for f in found.verdict.findings] == [said] and found.verdict.headline == f"FLAGGED: {said}"
    assert family.statement == "α = 10⁻⁶ family-wise, Holm over 12 tests (10 card tests, the sharp test, 1 seat)"


def test_rounds_the_players_won_too_often_are_flagged_by_the_sharp_test(tmp_path: Path) -> None:
    """Every round Ante & Play lost taken out of the log: each is paid as due, but these rounds won far more than
    their cards and decisions can be expected to."""
    lines = [line for line in LINES if int(json.loads(line)["net"]["ante_play"]) >= 0]
    found = audit(SPEC, [_log(tmp_path, lines)])
    z = found.rounds_z
    assert z is not None and z > 6 and found.mispaid_count == 0
    p = math.erfc(abs(z) / math.sqrt(2))
    said = (
        f"Ante & Play against the exact expectation of these rounds (their cards and decisions): z = {z:.2f} "
        f"({'p ≈ 0' if p == 0 else f'p = {p:.3g}'})"
    )
    assert said in [str(f) for f in found.verdict.findings] and found.verdict.result == "FLAGGED"


def test_the_reports_first_page_carries_the_verdict_and_every_finding(
    tmp_path: Path, without_the_ace_of_spades: tuple[Path, list[str]]
) -> None:
    """The log without A♠, one round overpaid and one line refused: page 1 says FAIL and lists each finding; a
    refused line is named by its log's file name (not the path it was read at); the flag column reads "flagged"."""
    import io

    from pypdf import PdfReader

    from trey.core.numbers import percent_text

    lines = list(without_the_ace_of_spades[1])
    data = json.loads(lines[9])
    data["net"]["pair_plus"] = int(data["net"]["pair_plus"]) + 5
    lines[9] = json.dumps(data)
    lines.insert(20, "{not json")
    log = _log(tmp_path, lines, "shift.jsonl")
    found = audit(SPEC, [log])
    assert found.verdict.result == "FAIL"
    result = run_cli("audit", STANDARD, log, "--out", tmp_path / "report", "--date", "2026-01-01")
    assert result.exit_code == 1
    pdf = PdfReader(io.BytesIO((tmp_path / "report" / "standard.audit.pdf").read_bytes()))
    first = " ".join(pdf.pages[0].extract_text().split())
    text = " ".join(" ".join(p.extract_text().split()) for p in pdf.pages)
    assert f"{found.verdict.headline} " in first and found.verdict.headline.startswith("FAIL: ")
    for finding in found.verdict.findings:
        assert " ".join(str(finding).split()) in first, finding
    assert found.verdict.family.statement in first
    assert "2. Mis-paid wagers (1: $5 overpaid, $0 underpaid)" in text
    assert "shift.jsonl:21: " in text and str(tmp_path) not in text
    assert text.count(" flagged") >= 3 and "flagge d" not in text
    pair_plus = found.returns["pair_plus"]
    assert f"Pair Plus {pair_plus.rounds:,} ${int(pair_plus.bet):,}" in text
    assert percent_text(pair_plus.paid_rtp) in text and percent_text(pair_plus.rtp) in text  # type: ignore[arg-type]
    assert f"{data['round']}" in text and "Ante & Play against the exact expectation of these very rounds" in text
    assert "Ante & Play: the players' net less its expectation, round by round" in text  # the chart's title
    assert "rounds audited" in text and "$0" in text  # its axes: rounds, and money in the table's currency


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


@pytest.mark.parametrize("text", ["", "\n\n   \n"])
def test_a_log_with_no_rounds_is_not_a_pass(tmp_path: Path, text: str) -> None:
    """Nothing read is nothing checked: INCOMPLETE, exit 1."""
    path = tmp_path / "empty.jsonl"
    path.write_text(text)
    said = "INCOMPLETE: no rounds read (nothing to check)"
    result = run_cli("audit", STANDARD, path)
    assert result.exit_code == 1 and result.stdout.splitlines()[:2] == [
        said,
        "no statistical test ran (α = 10⁻⁶ family-wise)",
    ]
    data = json.loads(run_cli("audit", STANDARD, path, "--format", "json").stdout)
    assert (data["verdict"]["result"], data["verdict"]["says"], data["rounds"]) == ("INCOMPLETE", said, 0)
    assert list(validator("audit").iter_errors(data)) == []


def test_every_tenth_round_overpaid_one_ante_shows_in_the_return_paid_and_fails(tmp_path: Path) -> None:
    """The return as due is the honest log's; the return as paid is above it by exactly what was overpaid."""
    lines, overpaid = [], Fraction(0)
    for number, line in enumerate(LINES, 1):
        data = json.loads(line)
        if number % 10 == 0:
            ante = Fraction(str(data["bets"]["ante_play"]))
            data["net"]["ante_play"] = str(Fraction(str(data["net"]["ante_play"])) + ante)
            del data["parts"]
            overpaid += ante
        lines.append(json.dumps(data))
    assert overpaid.denominator == 1  # whole: the finding prints it without cents
    honest = audit(SPEC, [_log(tmp_path, LINES, "honest.jsonl")]).returns["ante_play"]
    found = audit(SPEC, [_log(tmp_path, lines)])
    ante_play = found.returns["ante_play"]
    assert (ante_play.rtp, ante_play.net) == (honest.rtp, honest.net)
    assert ante_play.paid_rtp == honest.rtp + overpaid / honest.bet != ante_play.rtp  # type: ignore[operator]
    assert found.verdict.result == "FAIL" and found.verdict.findings[0].says == (
        f"60 wagers mis-paid (${int(overpaid):,} overpaid, $0 underpaid)"
    )
    data = json.loads(run_cli("audit", STANDARD, tmp_path / "log.jsonl", "--format", "json").stdout)
    first = data["returns"][0]
    assert (Fraction(first["paid_rtp"]), Fraction(first["rtp"])) == (ante_play.paid_rtp, honest.rtp)
    assert Fraction(first["paid_net"]) - Fraction(first["net"]) == overpaid
    result = run_cli("audit", STANDARD, tmp_path / "log.jsonl")
    assert (
        result.exit_code == 1
        and result.stdout.splitlines()[0] == f"FAIL: 60 wagers mis-paid (${int(overpaid):,} overpaid, $0 underpaid)"
    )


THREE_TO_TWO = (
    STANDARD.read_text()
    .replace("  pair_plus_on_fold: lost", "  pair_plus_on_fold: stands")
    .replace("      straight: 1\n", "      straight: '3 to 2'\n")
    .replace("    pair: 1\n", "    pair: '3 to 2'\n")
)


def _pair_plus_category(cards: tuple[int, ...]) -> str | None:
    """By hand: the Pair Plus row of three cards (rank = card // 4, suit = card % 4), None for a loss."""
    ranks = sorted(c // 4 for c in cards)
    flush = len({c % 4 for c in cards}) == 1
    straight = len(set(ranks)) == 3 and (ranks[2] - ranks[0] == 2 or ranks == [0, 1, 12])
    if straight and flush:
        return "straight_flush"
    if len(set(ranks)) == 1:
        return "three_of_a_kind"
    if straight:
        return "straight"
    if flush:
        return "flush"
    return "pair" if len(set(ranks)) == 2 else None


def test_a_table_paying_3_to_2_rounded_down_is_expected_to_return_what_its_pay_rule_pays(tmp_path: Path) -> None:
    """Pair Plus pays a pair 3 to 2 and the Ante Bonus a straight 3 to 2, rounded down to the $1 chip ($7 on $5):
    the return expected at the logged bets is the pay rule's, not the exact odds' (the theoretical RTP). Both are
    computed here another way: Pair Plus over the 22,100 hands classified by hand; the sharp test's expectation
    over each round's 18,424 dealer hands, each due rounded here."""
    import itertools

    import numpy as np

    from trey.cards.card import Card
    from trey.engine import analyze
    from trey.play.settle import Settler
    from trey.rules.ante_play import SITUATIONS, resolution_table

    paytable = tmp_path / "three-to-two.yaml"
    paytable.write_text(THREE_TO_TWO)
    spec = load_spec(paytable)
    analysis = analyze(spec)
    lines = list(simulated_log(spec, 300, 3))
    found = audit(spec, [_log(tmp_path, lines)], analysis)
    assert found.mispaid_count == 0
    odds = {"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 3, "pair": Fraction(3, 2)}
    hands = [_pair_plus_category(h) for h in itertools.combinations(range(52), 3)]
    rows = {row: hands.count(row) for row in (*odds, None)}
    bets = [int(json.loads(line)["bets"]["pair_plus"]) for line in lines]
    assert {b % 2 for b in bets} == {0, 1}  # odd bets: 3 to 2 on them is rounded
    expected = sum(
        sum(n * (-b if row is None else int(b * odds[row])) for row, n in rows.items()) for b in bets
    )  # int(): down to the $1 chip
    pair_plus = found.returns["pair_plus"]
    assert pair_plus.expected_net == Fraction(expected, 22_100)
    assert pair_plus.expected_rtp == 1 + Fraction(expected, 22_100 * sum(bets))
    assert pair_plus.expected_rtp < pair_plus.theoretical_rtp == analysis.wagers["pair_plus"].stats.rtp
    data = audit_json(found)
    assert Fraction(data["returns"][1]["expected_rtp"]) == pair_plus.expected_rtp
    assert list(validator("audit").iter_errors(data)) == []

    # The sharp test: 30 rounds, each over its 18,424 dealer hands, its decision as logged.
    few = audit(spec, [_log(tmp_path, lines[:30], "few.jsonl")], analysis)
    settler = Settler(spec, analysis.ante_play.plays)  # type: ignore[union-attr]
    game = spec.wagers.ante_play
    assert game is not None
    bonus_odds = [o.net for _, o in game.ante_bonus.all_odds]
    resolution = resolution_table(spec.rules)
    columns = len(bonus_odds) + 1
    total = Fraction(0)
    for line in lines[:30]:
        data = json.loads(line)
        bet = int(data["bets"]["ante_play"])
        player = [int(Card.parse(c)) for c in data["player"]]
        dealers = np.array(list(itertools.combinations([c for c in range(52) if c not in player], 3)))
        plays = np.full(len(dealers), data["decision"] == "play")
        outcome = settler.settle(np.repeat([player], len(dealers), axis=0), dealers, plays)["ante_play"]
        for index, count in enumerate(np.bincount(outcome, minlength=len(SITUATIONS) * columns).tolist()):
            rule = resolution[SITUATIONS[index // columns]]
            column = index % columns
            due = rule.ante * bet + (rule.play or 0) * bet
            if rule.bonus_paid and column < len(bonus_odds):
                due += int(bet * bonus_odds[column])  # rounded down to the $1 chip
            total += Fraction(count * due, 18_424)
    assert few.expected_net == total


def test_a_wager_held_to_the_payout_cap_is_expected_to_return_less_than_its_odds(tmp_path: Path) -> None:
    """The standard table caps a payout at $50,000: 1000 to 1 on a $500 Six Card Bonus pays $50,000. The return
    expected at the logged bets is the theoretical one less what the cap keeps, computed here row by row."""
    from trey.engine import analyze

    found = audit(SPEC, [_log(tmp_path, LINES)])
    rows = analyze(SPEC).wagers["six_card_bonus"].outcomes
    bets = [int(json.loads(line)["bets"]["six_card_bonus"]) for line in LINES]
    kept = sum(r.probability * max(0, b * r.pays - 50_000) for r in rows for b in bets)
    six = found.returns["six_card_bonus"]
    assert kept > 0 and six.expected_net == (six.theoretical_rtp - 1) * sum(bets) - kept
    for wager in ("ante_play", "pair_plus", "prime"):  # nothing rounded or capped: the theoretical RTP
        assert found.returns[wager].expected_rtp == found.returns[wager].theoretical_rtp
