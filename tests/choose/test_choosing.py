"""Choosing a paytable: compare, solve, theoretical win, spreadsheets and a jurisdiction's approved list."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from conftest import ALL_PAYTABLES, PAYTABLES, STANDARD, run_cli
from trey.choose.compare import compare
from trey.choose.solve import edge_of, grid, solve, with_pay
from trey.core.errors import TreyError
from trey.core.jsonschemas import validator
from trey.core.numbers import percent_text
from trey.engine import analyze
from trey.figures.theo import theoretical_win
from trey.paytable.load import check_bytes, load_spec, load_spec_bytes
from trey.paytable.model import GameSpec
from trey.paytable.odds import Odds

PAIR_PLUS = sorted((PAYTABLES / "pair_plus").glob("*.yaml"))
# docs/published-figures.md, Pair Plus house edges, lowest first
PUBLISHED_ORDER = [
    ("40-30-6-4-1", "2.32%"),
    ("35-33-6-4-1", "2.70%"),
    ("40-25-6-4-1", "3.49%"),
    ("40-30-5-4-1-mini-royal-100", "4.49%"),
    ("35-25-6-4-1", "4.58%"),
    ("50-30-6-3-1", "5.10%"),
    ("40-30-5-4-1-mini-royal-50", "5.39%"),
    ("40-30-5-4-1", "5.57%"),
    ("40-25-5-4-1", "6.75%"),
    ("40-30-6-3-1-mini-royal-50", "7.10%"),
    ("40-30-6-3-1", "7.28%"),
]


def test_compare_ranks_the_pair_plus_tables_in_the_published_order() -> None:
    rows = compare([(p.stem, load_spec(p)) for p in PAIR_PLUS], "pair_plus")
    assert [(r.file, percent_text(r.house_edge, 2)) for r in rows] == PUBLISHED_ORDER
    first = next(r for r in rows if r.file == PAIR_PLUS[0].stem)
    for r in rows:
        assert r.edge_vs_first == r.house_edge - first.house_edge


def test_compare_json_csv_and_html(tmp_path: Path) -> None:
    files = [PAYTABLES / "ante_bonus" / "5-4-1.yaml", PAYTABLES / "ante_bonus" / "3-2-1.yaml", STANDARD]
    result = run_cli("compare", *files, "--format", "json", "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    validator("comparison").validate(data)
    ante = [r for r in data["rows"] if r["wager"] == "ante_play"]
    assert [Path(r["file"]).name for r in ante] == ["5-4-1.yaml", "standard.yaml", "3-2-1.yaml"]
    assert [percent_text(Fraction(r["house_edge"]), 2) for r in ante] == ["3.37%", "3.37%", "4.28%"]
    assert percent_text(Fraction(ante[2]["element_of_risk"]), 2) == "2.56%"  # published: 3-2-1 -> 4.28% / 2.56%
    assert [r["house_edge_vs_first"] for r in ante][:2] == ["0", "0"]
    assert [r["wager"] for r in data["rows"]][-3:] == ["pair_plus", "prime", "six_card_bonus"]
    assert [r["house_edge_vs_first"] for r in data["rows"]][-3:] == [None, None, None]
    # the CSV carries the same rows, its exact column equal to the JSON's
    table = list(csv.DictReader(io.StringIO(run_cli("compare", *files, "--format", "csv").stdout)))
    assert [(r["file"], r["wager"], r["house_edge_exact"]) for r in table] == [
        (r["file"], r["wager"], r["house_edge"]) for r in data["rows"]
    ]
    assert table[0]["house_edge_percent"] == percent_text(Fraction(data["rows"][0]["house_edge"])).removesuffix("%")
    page = (tmp_path / "comparison.html").read_text()
    assert page.count("data:image/svg+xml;base64,") == 4  # one chart per wager
    assert "3-2-1.yaml" in page and "Ante &amp; Play" in page
    assert run_cli("compare", *files, "--wager", "pair_plsu").stderr == (
        "error: no file offers the wager 'pair_plsu' (did you mean 'pair_plus'?)\n"
    )


@pytest.mark.parametrize(("edge", "pay"), [("2.32%", 4), ("7.28%", 3)])
def test_solve_finds_the_published_flush_pay_back(edge: str, pay: int) -> None:
    """40-30-6-?-1: the flush pays 4 at 2.32% and 3 at 7.28% (docs/published-figures.md)."""
    spec = load_spec(PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml")
    target = Fraction(edge.removesuffix("%")) / 100
    solution = solve(spec, "pair_plus", "flush", target)
    assert edge_of(with_pay(spec, "pair_plus", "flush", solution.exact_pay), "pair_plus") == target
    low, high = solution.candidates[:2]
    assert low.pay < solution.exact_pay < high.pay and high.pay - low.pay == 1
    nearest = min(solution.candidates, key=lambda c: abs(c.house_edge - target))
    assert (nearest.pay, percent_text(nearest.house_edge, 2)) == (pay, edge)


def test_solve_an_ante_bonus_row_and_a_half_step() -> None:
    spec = load_spec(STANDARD)
    solution = solve(spec, "ante_play", "three_of_a_kind", Fraction(361, 10000), Fraction(1, 2))
    # published: Ante Bonus 5-3-1 is 3.61%: from 5-4-1, the trips pay found back on a grid of halves
    assert [c.odds_text for c in solution.candidates[:2]] == ["5 to 2", "3 to 1"]
    nearest = min(solution.candidates, key=lambda c: abs(c.house_edge - solution.target))
    assert (nearest.odds_text, percent_text(nearest.house_edge, 2)) == ("3 to 1", "3.61%")
    at = analyze(with_pay(spec, "ante_play", "three_of_a_kind", solution.exact_pay)).ante_play
    assert at is not None and at.stats.house_edge == solution.target


def test_solve_refuses_an_unreachable_target() -> None:
    result = run_cli("solve", STANDARD, "--wager", "pair_plus", "--row", "pair", "--house-edge", "60%")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: no pay of pair gives a house edge of 60.0000%: paying it 0 to 1 gives 24.2172% "
        "(ask for a house edge at most that, or lower another row's pay)\n"
    )


def test_solve_refuses_a_target_whose_exact_pay_no_odds_can_write() -> None:
    """Issue 29.14: a target of many decimals was a traceback (OddsError) here and a 500 in the workbench."""
    pair_plus = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"
    result = run_cli("solve", pair_plus, "--wager", "pair_plus", "--row", "flush", "--house-edge", "7.123457%")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: the exact pay of flush for a house edge of 7.123457% is 3321716003 to 1096000000, past what odds "
        "can say (each number at most 1,000,000,000) (give the target with fewer decimals, e.g. 7.12%)\n",
    )
    ante = run_cli("solve", STANDARD, "--wager", "ante_play", "--row", "straight", "--house-edge", "3.123457%")
    assert ante.exit_code == 1 and ante.stderr.startswith(  # re-solved with the strategy: the same refusal
        "error: the exact pay of straight for a house edge of 3.123457% is 595052818303 to 552720000000, past"
    )


def test_the_grid_equals_full_analyses() -> None:
    spec = load_spec(STANDARD)
    band = (Fraction(3, 100), Fraction(35, 1000))
    points = grid(spec, "ante_play", [("straight_flush", 3, 6), ("straight", 0, 2)], band)
    assert len(points) == 12
    for point in points[::5]:
        at = with_pay(
            with_pay(spec, "ante_play", "straight_flush", Fraction(point.pays[0])),
            "ante_play",
            "straight",
            Fraction(point.pays[1]),
        )
        result = analyze(at).ante_play
        assert result is not None and result.stats.house_edge == point.house_edge
        assert point.in_band == (band[0] <= point.house_edge <= band[1])
    side = grid(spec, "pair_plus", [("flush", 3, 4), ("pair", 1, 2)], band)
    for point in side:
        at = with_pay(
            with_pay(spec, "pair_plus", "flush", Fraction(point.pays[0])), "pair_plus", "pair", Fraction(point.pays[1])
        )
        assert analyze(at).wagers["pair_plus"].stats.house_edge == point.house_edge


def test_theoretical_win_by_hand() -> None:
    text = STANDARD.read_text().replace(
        "  payout_cap: 50000\n", "  payout_cap: 50000\n  average_bet: 25\n  decisions_per_hour: 50\n"
    )
    spec = check_bytes(text.encode(), "theo.yaml").spec
    assert spec is not None
    analysis = analyze(spec)
    ante = theoretical_win(analysis.wagers["ante_play"], analysis)
    # house edge 686689/20358520 per Ante x $25 x 50 an hour
    assert ante.per_hour == Fraction(686689, 20358520) * 25 * 50
    assert ante.average_action == 25 * (1 + Fraction(14900, 22100))
    assert ante.element_of_risk is not None and ante.element_of_risk * ante.average_action * 50 == ante.per_hour
    assert f"{float(ante.per_hour):.2f}" == "42.16"
    pair_plus = theoretical_win(analysis.wagers["pair_plus"], analysis)
    assert pair_plus.per_hour == Fraction(402, 5525) * 25 * 50 and not pair_plus.decisions_per_hour_default


def test_csv_and_workbook_read_back_equal_the_json(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    data = json.loads(run_cli("analyze", STANDARD, "--format", "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run_cli("analyze", STANDARD, "--format", "csv").stdout)))
    for wager, exact in data["wagers"].items():
        mine = [r for r in rows if r["wager"] == wager and r["kind"] == "outcome"]
        assert [(r["outcome"], r["pays"], int(r["combinations"]), r["probability_exact"]) for r in mine] == [
            (o["outcome"], o["pays"], o["combinations"], o["probability"]) for o in exact["outcomes"]
        ]
        for r in mine:  # return = probability x pays
            assert Fraction(r["return_exact"]) == Fraction(r["probability_exact"]) * Fraction(r["pays"])
    by_hand = [r for r in rows if r["kind"] == "by_hand"]
    assert [(r["hand"], r["outcome"], r["pays"], int(r["combinations"]), r["probability_exact"]) for r in by_hand] == [
        (o["hand"], o["outcome"], o["pays"], o["combinations"], o["probability"])
        for o in data["wagers"]["ante_play"]["by_hand"]
    ]
    book_path = tmp_path / "par.xlsx"
    result = run_cli("analyze", STANDARD, "--format", "xlsx", "--out", book_path)
    assert result.exit_code == 0, result.stderr
    book = load_workbook(book_path)
    assert book.sheetnames == [
        "Game",
        "Summary",
        "ante_play",
        "ante_play by hand",
        "pair_plus",
        "pair_plus what-if",
        "prime",
        "prime what-if",
        "six_card_bonus",
        "six_card_bonus what-if",
    ]
    hand_rows = list(book["ante_play by hand"].iter_rows(values_only=True))
    assert [(r[3], r[4], r[6]) for r in hand_rows[1:-1]] == [
        (o["pays"], o["combinations"], o["probability"]) for o in data["wagers"]["ante_play"]["by_hand"]
    ]
    summary = list(book["Summary"].iter_rows(values_only=True))
    for line, (wager, exact) in zip(summary[1:], data["wagers"].items(), strict=True):
        assert (line[0], line[1]) == (exact["title"], wager)  # the wager's title, and the sheet that holds it
        assert line[4] == exact["rtp"]  # the exact fraction beside the number
        assert isinstance(line[3], float) and abs(line[3] - float(Fraction(exact["rtp"]))) < 1e-12
    pair_plus = list(book["pair_plus"].iter_rows(values_only=True))
    assert pair_plus[0][:5] == ("Outcome", "Kind", "Pays", "Pays (exact)", "Combinations")
    assert [(r[4], r[6]) for r in pair_plus[1:-1]] == [
        (o["combinations"], o["probability"]) for o in data["wagers"]["pair_plus"]["outcomes"]
    ]
    assert all(isinstance(r[4], int) and isinstance(r[5], float) for r in pair_plus[1:-1])  # numbers, not text
    again = tmp_path / "again.xlsx"
    run_cli("analyze", STANDARD, "--format", "xlsx", "--out", again)
    assert again.read_bytes() == book_path.read_bytes()
    assert run_cli("analyze", STANDARD, "--format", "xlsx", "--out", book_path).exit_code == 1  # no overwrite
    assert run_cli("analyze", STANDARD, "--format", "xlsx").exit_code == 2
    wrong = run_cli("analyze", STANDARD, "--format", "xlsx", "--out", tmp_path / "x.txt")
    assert wrong.exit_code == 2 and "'x.txt' is not a workbook's name: give --out FILE.xlsx" in wrong.stderr
    assert not (tmp_path / "x.txt").exists()


def test_profile_matching_an_approved_table_a_near_miss_and_a_bad_profile(tmp_path: Path) -> None:
    result = run_cli("validate", "--profile", "example-approved", PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml")
    assert result.exit_code == 0
    assert (
        f"{PAYTABLES / 'pair_plus' / '40-30-6-4-1.yaml'}: pair_plus: PASS: matches approved table 10" in result.stdout
    )
    near = tmp_path / "near.yaml"
    near.write_text(
        "trey: 2\nname: near\nwagers:\n"
        "  pair_plus: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 4, pair: 2}\n"
    )
    result = run_cli("validate", "--profile", "example-approved", near)
    assert result.exit_code == 1
    assert (
        f"{near}: pair_plus: FAIL: matches no approved table; "
        "the closest is table 10 (pair: 2 to 1 here, 1 to 1 approved)"
    ) in result.stdout.splitlines()  # among the profile's other findings (validate --profile runs all its checks)
    bad = tmp_path / "bad-profile.yaml"
    bad.write_text(
        "name: bad\ntitle: Bad\ndescription: x\nchecks: {house_edge_positve: true}\n"
        "approved:\n  pair_plus:\n    - {pair: 1.5}\n"
    )
    result = run_cli("validate", "--profile", bad, STANDARD)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{bad}:4:10: $.checks.house_edge_positve: unknown key 'house_edge_positve' "
        "(did you mean 'house_edge_positive'?)",
        f"{bad}:7:14: $.approved.pair_plus[0].pair: odds must be exact, not the decimal number 1.5 "
        "(write a whole number (40 means 40 to 1) or quoted text such as '3 to 2')",
    ]
    # certify takes a profile file too, and its checks go on the certificate
    good = tmp_path / "good-profile.yaml"
    good.write_text(
        "name: good\ntitle: Good\ndescription: x\nchecks: {house_edge_positive: true}\napproved:\n  pair_plus:\n"
        "    - {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 4, pair: 1}\n"
        "minimum_rtp: {pair_plus: 97%}\n"
    )
    result = run_cli(
        "certify",
        PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml",
        "--out",
        tmp_path / "cert",
        "--profile",
        good,
        "--date",
        "2026-01-01",
    )
    assert result.exit_code == 0, result.stderr
    cert = json.loads((tmp_path / "cert" / "40-30-6-4-1.certificate.json").read_text())
    assert [(c["check"], c["result"], c["detail"]) for c in cert["checks"]][-2:] == [
        ("approved", "PASS", "matches approved table 1"),
        ("minimum_rtp", "PASS", "RTP 97.6833%"),
    ]
    assert run_cli("verify", tmp_path / "cert" / "40-30-6-4-1.certificate.json").exit_code == 0


# Issue 18.1: solve counts a side bet exactly as analyze does, a bet lost on a fold included. A generated bet of
# every reading, standing and lost on a fold, beside an Ante & Play whose optimal strategy folds (J-high dealer).
GENERATED_PAYS = {
    "player_hand": {"mini_royal_hearts": 500, "straight_flush": 40, "three_of_a_kind": 30, "straight": 5, "pair": 1},
    "dealer_hand": {"mini_royal_hearts": 500, "straight_flush": 40, "three_of_a_kind": 30, "straight": 5, "pair": 1},
    "six_cards": {"royal_flush": 1000, "four_of_a_kind": 100, "full_house": 20, "flush": 15, "straight": 10},
    "colours": {"six_same_colour": 4, "three_same_colour": 3},
}


def _generated_side_bet(reading: str, on_fold: str) -> bytes:
    pays = ", ".join(f"{row}: {pay}" for row, pay in GENERATED_PAYS[reading].items())
    return (
        "trey: 2\nname: generated\nrules: {dealer_qualifier: J-high}\n"
        "wagers:\n  ante_play:\n    ante_bonus: {straight_flush: 6, three_of_a_kind: 3, straight: 1}\n"
        f"side_bets:\n  extra:\n    reads: {reading}\n    pays: {{{pays}}}\n    on_fold: {on_fold}\n"
    ).encode()


def _solvable_rows(spec: GameSpec) -> list[tuple[str, str]]:
    """(wager, its most frequent listed row) for every side bet paying odds on any bet size."""
    rows = []
    for bet in spec.wagers.side_bets:
        odds = [row for row, pay in bet.pays if isinstance(pay, Odds)]
        if bet.stake is None and odds:
            rows.append((bet.id, odds[-1]))
    return rows


def _solve_cases() -> list[tuple[str, bytes]]:
    cases = [(str(path.relative_to(PAYTABLES)), path.read_bytes()) for path in ALL_PAYTABLES]
    cases += [(f"{r}-{f}", _generated_side_bet(r, f)) for r in GENERATED_PAYS for f in ("stands", "lost")]
    return cases


@pytest.mark.parametrize(("name", "text"), _solve_cases(), ids=[name for name, _ in _solve_cases()])
def test_the_pay_solve_prints_gives_its_target_in_analyze(name: str, text: bytes) -> None:
    spec = load_spec_bytes(text, name)
    for wager, row in _solvable_rows(spec):
        zero = analyze(with_pay(spec, wager, row, Fraction(0))).wagers[wager].stats.house_edge
        target = zero - Fraction(1, 50)  # reachable: the row pays with some probability
        solution = solve(spec, wager, row, target)
        # the exact pay, written into the file as "N to D" odds and read back, gives the target exactly
        canonical = with_pay(spec, wager, row, solution.exact_pay).canonical()
        written = load_spec_bytes(yaml.safe_dump(canonical, sort_keys=False).encode(), name)
        assert written.wagers.paytable(wager).get(row) == Odds(
            solution.exact_pay.numerator, solution.exact_pay.denominator
        )
        assert analyze(written).wagers[wager].stats.house_edge == target
        for candidate in solution.candidates:
            at = analyze(with_pay(spec, wager, row, candidate.pay))
            assert candidate.house_edge == at.wagers[wager].stats.house_edge, (wager, row, candidate.pay)


def test_solve_of_a_bet_lost_on_a_fold_quotes_analyze_highest_edge() -> None:
    """The issue's example: analyze gives 2387873/7270900 at pair 1 to 1; solve used the standing bet's counts."""
    text = _generated_side_bet("dealer_hand", "lost")
    text = text.replace(b"straight: 5, pair: 1", b"straight: 5, flush: 4, pair: 1")
    spec = load_spec_bytes(text, "dealer-bonus-lost.yaml")
    assert analyze(spec).wagers["extra"].stats.house_edge == Fraction(2387873, 7270900)
    assert solve(spec, "extra", "pair", Fraction(1, 5)).exact_pay == Fraction(597263, 286032)
    highest = analyze(with_pay(spec, "extra", "pair", Fraction(0))).wagers["extra"].stats.house_edge
    with pytest.raises(TreyError) as refused:
        solve(spec, "extra", "pair", Fraction(1, 2))
    assert str(refused.value) == (
        f"no pay of pair gives a house edge of 50.0000%: paying it 0 to 1 gives {percent_text(highest)} "
        "(ask for a house edge at most that, or lower another row's pay)"
    )


def test_the_workbook_does_not_depend_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18.4: openpyxl's save stamps the modified date with the clock; here the clock moves a day between
    the two runs, and the bytes and the stated dates stay those of ``created``."""
    import datetime as real
    import zipfile

    import openpyxl.writer.excel

    from trey.present.spreadsheet import analysis_workbook

    class MovingClock(real.datetime):
        ticks = 0

        @classmethod
        def now(cls, tz: real.tzinfo | None = None) -> MovingClock:
            cls.ticks += 1
            return cls(2030, 1, 1, tzinfo=tz) + real.timedelta(days=cls.ticks)

    monkeypatch.setattr(openpyxl.writer.excel.datetime, "datetime", MovingClock)
    analysis = analyze(load_spec(STANDARD))
    created = real.datetime(2026, 1, 1)
    first = analysis_workbook(analysis, created)
    assert analysis_workbook(analysis, created) == first
    core = zipfile.ZipFile(io.BytesIO(first)).read("docProps/core.xml").decode()
    assert "<dcterms:modified" in core and core.count("2026-01-01T00:00:00Z") == 2 and "2030" not in core


HOSTILE = '=HYPERLINK("http://example.invalid","Click")'


def test_text_reaches_spreadsheets_as_text_never_as_a_formula(tmp_path: Path) -> None:
    """Issue 18.5: names and titles beginning with = + - @ tab or CR are text in CSV (OWASP) and XLSX cells."""
    from openpyxl import load_workbook

    from trey.present.spreadsheet import csv_text

    assert csv_text("\rx") == "'\rx"  # a paytable refuses a carriage return in its text; the rule has it anyway
    for start in ("=", "+", "-", "@", "\t"):
        title = start + 'HYPERLINK("x")'
        text = STANDARD.read_text().replace("name: Three Card Poker (standard)", f"name: {json.dumps(title)}")
        text = text.replace("trey: 1", "trey: 2") + "\nside_bets:\n  lucky:\n"
        text += f"    title: {json.dumps(title)}\n    reads: colours\n"
        text += "    pays: {three_same_colour: 3}\n"
        path = tmp_path / "hostile.yaml"
        path.write_text(text)
        rows = list(csv.reader(io.StringIO(run_cli("analyze", path, "--format", "csv").stdout)))
        assert {r[1] for r in rows[1:] if r[0] == "lucky"} == {"'" + title}
        compared = list(csv.reader(io.StringIO(run_cli("compare", path, "--format", "csv").stdout)))
        assert {(r[1], r[3]) for r in compared[1:] if r[2] == "lucky"} == {("'" + title, "'" + title)}
        book = tmp_path / f"hostile{ord(start)}.xlsx"
        assert run_cli("analyze", path, "--format", "xlsx", "--out", book).exit_code == 0
        summary = load_workbook(book)["Summary"]
        cell = next(row[0] for row in summary.iter_rows(min_row=2) if row[1].value == "lucky")
        assert (cell.value, cell.data_type) == (title, "s")
    # a plain title is left alone, and the number cells stay numbers
    rows = list(csv.reader(io.StringIO(run_cli("analyze", STANDARD, "--format", "csv").stdout)))
    assert rows[1][1] == "Ante & Play" and rows[1][4] == "-1"


def test_long_wager_ids_get_distinct_sheets_within_excels_limit(tmp_path: Path) -> None:
    """Issue 18.13: two ids alike in their first 31 characters; no openpyxl warning, no sheet over 31."""
    import warnings

    from openpyxl import load_workbook

    long = "a_side_bet_with_a_very_long_name"
    text = "trey: 2\nname: long ids\nside_bets:\n"
    for suffix in ("_one", "_two"):
        text += f"  {long}{suffix}:\n    reads: colours\n    pays: {{three_same_colour: 3}}\n"
    path = tmp_path / "long.yaml"
    path.write_text(text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = run_cli("analyze", path, "--format", "xlsx", "--out", tmp_path / "long.xlsx")
    assert result.exit_code == 0 and result.stderr == f"wrote {tmp_path / 'long.xlsx'}\n"
    book = load_workbook(tmp_path / "long.xlsx")
    assert book.sheetnames == [
        "Game",
        "Summary",
        "a_side_bet_with_a_very_long~001",
        "a_side_bet_with_a_v~001 what-if",
        "a_side_bet_with_a_very_long~002",
        "a_side_bet_with_a_v~002 what-if",
    ]
    summary = list(book["Summary"].iter_rows(min_row=2, values_only=True))
    assert [r[1] for r in summary] == [book.sheetnames[2], book.sheetnames[4]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--row", "pair", "--house-edge", "5%", "--step", "1e-300"], "'1e-300' is not a step such as 1 or 1/2"),
        (["--row", "pair", "--house-edge", "5%", "--step", "1" * 24], f"'{'1' * 24}' is not a step such as 1 or 1/2"),
        (["--row", "pair", "--house-edge", "5%", "--step", "0"], "'0' is not a step such as 1 or 1/2"),
        (["--grid", "flush=5..3"], "'flush=5..3' runs backwards: give LO..HI with LO at most HI"),
        (["--grid", "flush=3..5", "--band", "6%..4%"], "'6%..4%' runs backwards: give the lower house edge first"),
        (["--grid", "flush=3..5", "--row", "pair"], "--row goes with a single row, not with --grid"),
        (["--grid", "flush=3..5", "--house-edge", "5%"], "--house-edge goes with a single row, not with --grid"),
        (["--grid", "flush=3..5000000000"], "'flush=3..5000000000': a pay is at most 1,000,000,000 to 1"),
    ],
)
def test_solve_refuses_options_that_cannot_be_meant(args: list[str], message: str) -> None:
    """Issue 18.13: no traceback, no silently ignored option, no grid of a negative size."""
    result = run_cli("solve", STANDARD, "--wager", "pair_plus", *args)
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.replace("│", " ").split())


def test_meter_without_a_progressive_is_refused() -> None:
    result = run_cli("analyze", STANDARD, "--meter", "25000")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: standard.yaml has no progressive wager (--meter evaluates a progressive's meter)\n",
    )


def test_grids_are_bounded_by_what_each_point_costs() -> None:
    """Issue 18.13: an Ante Bonus grid re-derives the strategy for every point; 200,000 of them ran for minutes."""
    result = run_cli("solve", STANDARD, "--wager", "ante_play", "--grid", "straight_flush=0..99,straight=0..99")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: a grid of 10,000 combinations (5,000 at most for ante_play (each re-derives the player's strategy): "
        "narrow the ranges)\n",
    )
    side = run_cli("solve", STANDARD, "--wager", "pair_plus", "--grid", "flush=0..99,pair=0..99", "--format", "json")
    assert side.exit_code == 0 and len(json.loads(side.stdout)["points"]) == 10_000
