"""``trey hold LEDGER``: each table-shift's win tested against the distribution it should have, from its drop.

A shift ledger (CSV or Parquet) has one row per table and shift: ``table``, ``shift``, ``hours``, ``drop``, ``win``
and, when known, ``average_bet`` (the rated average initial wager per seat and round) and ``occupancy``. Drop is
not handle: the cash and markers in the drop box are a stated share of the money wagered, the **drop-to-handle
ratio** d (drop = d x handle). So a shift of drop D stands for a handle of D / d and, for the bet mix (rated bets
scale it), for D / (d A S) rounds of S seated players wagering A each, whose win is, by the central limit theorem
over those rounds,

    win ~ Normal(mean = edge x D / d,  variance = D / (d A S) x Var[round])

with the blended house edge and the round's variance of :mod:`trey.engine.money` (seats sharing the dealer's hand).
Each row's two-sided z-test is one statistical test; the table-shifts are corrected together by Holm's method at
the stated false-alarm rate ``alpha`` (family-wise), as the audit corrects its tests, and the verdict follows the
audit's rule (:class:`~trey.audit.verdict.Verdict`): PASS only when no row was refused, none was flagged and
nothing went unchecked. The report also states the drop a table-shift needs for a skim of a given share of the drop
(money taken from the box before the count: win and drop both lower by it) to be flagged with 90% power.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from trey.audit.rounds import MAX_ID_CHARACTERS
from trey.audit.sources import SqlSource, partition_clash
from trey.audit.verdict import Family, StatisticalTest, Verdict, alpha_text, holm, p_text, z_p_value
from trey.core.errors import TreyError
from trey.core.files import display_name, read_bounded
from trey.core.numbers import fraction_text
from trey.engine.money import MAX_BET, BetMix, table_money
from trey.engine.results import GameAnalysis
from trey.engine.risk import normal_upper_quantile
from trey.engine.table import TableMoments, round_variance
from trey.paytable.model import ANTE_PLAY, GameSpec

REQUIRED = ("table", "shift", "hours", "drop", "win")
OPTIONAL = ("average_bet", "occupancy")
MAX_ROWS = 100_000
MAX_BYTES = 64 * 2**20
MAX_LABEL = MAX_ID_CHARACTERS  # a table's or a shift's name, as the audit's tables are named
MAX_AMOUNT = 10**12  # a drop or a win, in the table's currency
MAX_HOURS = 10_000
MAX_DECIMALS = 6  # hours, an average bet, an occupancy
MONEY_DECIMALS = 2  # a drop or a win is counted money: cents, as the audit reads its amounts
# A table-shift whose drop stands for fewer rounds than this is not tested: the normal law of its win is that of a
# sum of many rounds (a rated average bet as large as the drop would otherwise make any win look in range).
MIN_ROUNDS = 100
MIN_SCATTER_SHIFTS = 2  # table-shifts tested for the scatter test of them all
LARGEST_PAY_SDS = Fraction(1, 3)  # the largest pay of a seat-round a test's SD may hold, at most
MIN_SKIM, MAX_SKIM = Fraction(1, 1000), Fraction(1, 2)  # the skim whose drop is stated: 0.1% to 50%
DEFAULT_ALPHA = Fraction(1, 100)
Z_POWER_90 = 1.2816  # the normal quantile of 90%
_NUMBER = re.compile(r"-?[0-9]{1,13}(\.[0-9]{1,6})?")  # 1234.50: never an exponent, which would choose the work
WHAT = "a shift ledger (CSV, Parquet or a folder of Parquet files)"


@dataclass(frozen=True)
class LedgerRow:
    line: int  # the row's line in a CSV file (1 is the header), or its row number + 1 in Parquet or a database
    table: str
    shift: str
    hours: Fraction
    drop: Fraction
    win: Fraction
    average_bet: Fraction | None = None
    occupancy: Fraction | None = None


@dataclass(frozen=True)
class ShiftTest:
    row: LedgerRow
    handle: Fraction
    expected_win: Fraction
    sd: float
    z: float
    p_value: float
    rounds: Fraction  # the rounds the drop stands for, at the row's bets and occupancy
    largest_pay: Fraction = Fraction(0)  # the most one seat-round can pay its player, at the row's bets

    @property
    def hold(self) -> float:
        return float(self.row.win / self.row.drop)

    @property
    def untested_why(self) -> str | None:
        """Why the normal law cannot judge this win (None: it can)."""
        return _normal_law_fails(self.rounds, self.largest_pay, self.sd)


@dataclass(frozen=True)
class CombinedTest:
    """The shifts of one table together (``table`` its name), or every table-shift of the ledger (``table`` None):
    their wins added up against their expectations added up, their variances added (the shifts independent). A
    skim spread thinly over many shifts shows here when no one shift shows it."""

    table: str | None
    shifts: int
    drop: Fraction
    win: Fraction
    expected_win: Fraction
    sd: float
    z: float
    p_value: float
    rounds: Fraction = Fraction(0)
    largest_pay: Fraction = Fraction(0)

    @property
    def untested_why(self) -> str | None:
        return _normal_law_fails(self.rounds, self.largest_pay, self.sd)

    @property
    def name(self) -> str:
        return f"table {self.table}, its {self.shifts:,} shifts" if self.table is not None else "every table-shift"

    @property
    def hold(self) -> float:
        return float(self.win / self.drop)


@dataclass(frozen=True)
class ScatterTest:
    """The table-shifts tested, scattered as chance scatters them? Their z-scores' squares add up to a chi-square
    of as many degrees of freedom; a sum far below it (a ledger that writes down the theoretical win, shift after
    shift) is flagged: one-sided, the lower tail."""

    shifts: int
    statistic: float  # the sum of the shifts' z²
    p_value: float

    @property
    def says(self) -> str:
        return (
            f"the {self.shifts:,} table-shifts scatter less than chance allows: the sum of their z² is "
            f"{self.statistic:,.2f} against {self.shifts:,} expected ({p_text(self.p_value)})"
        )


@dataclass(frozen=True)
class HoldReport:
    ledger: str
    drop_to_handle: Fraction
    alpha: Fraction
    blended_edge: Fraction
    tests: tuple[ShiftTest, ...]
    flagged: tuple[bool, ...]
    verdict: Verdict
    skim: Fraction
    drop_needed: float  # for the skim to be flagged with 90% power in one test (at alpha / tests)
    mix: BetMix | None = None  # the bet mix the shifts were tested at
    combined: tuple[CombinedTest, ...] = ()  # each table of several shifts, then the whole ledger
    combined_flagged: tuple[bool, ...] = ()
    untested: tuple[ShiftTest, ...] = ()  # those the normal law cannot judge (:func:`_normal_law_fails`)
    combined_untested: tuple[CombinedTest, ...] = ()
    scatter: ScatterTest | None = None  # with two table-shifts tested or more
    scatter_flagged: bool = False

    @property
    def expected_hold(self) -> Fraction:
        return self.blended_edge / self.drop_to_handle

    @property
    def test_count(self) -> int:
        return len(self.tests) + len(self.combined) + (self.scatter is not None)


_AMOUNTS = "amounts in the table's currency"
_LIMITS = {"hours": "a shift's hours", "occupancy": "a share of the seats"}


def _normal_law_fails(rounds: Fraction, largest_pay: Fraction, sd: float) -> str | None:
    """Why a win of ``rounds`` rounds with SD ``sd`` cannot be judged by the normal law, or None when it can.

    The normal law of a win is that of a sum of many rounds none of which weighs much: a test needs
    :data:`MIN_ROUNDS` rounds, and the largest pay one seat-round can make (a 1,000-to-1 royal on a Six Card Bonus)
    at most :data:`LARGEST_PAY_SDS` of the win's SD. Past it, one jackpot moves the win by several SDs, and honest
    tables would be flagged far more often than the stated level (the red team's honest year with a Six Card Bonus
    was FLAGGED 4 times in 5)."""
    if rounds < MIN_ROUNDS:
        return "few"
    if largest_pay > Fraction(sd) * LARGEST_PAY_SDS:
        return "jackpot"
    return None


def _shown(value: object) -> str:
    return repr(value[:40]) if isinstance(value, str) else f"(a {type(value).__name__})"


def _number(
    value: object, column: str, where: str, *, positive: bool, limit: int = MAX_AMOUNT, decimals: int = MAX_DECIMALS
) -> Fraction:
    """A number of the ledger: text such as 1234.50, or a number of a Parquet file or a database (at most six
    decimals and ``limit`` in size: no input chooses how long its arithmetic takes)."""
    number: Fraction | None = None
    if isinstance(value, str):
        written = _NUMBER.fullmatch(value.strip())
        if written and len(written.group(1) or ".") - 1 <= decimals:
            number = Fraction(value.strip())
    elif isinstance(value, int) and not isinstance(value, bool):
        number = Fraction(value) if abs(value) <= limit else None
        if number is None:
            raise TreyError(f"{where}: {column} must be at most {limit:,}", hint=_LIMITS.get(column, _AMOUNTS))
    elif isinstance(value, float | Decimal):
        decimal = Decimal(repr(value)) if isinstance(value, float) else value
        if decimal.is_finite() and abs(decimal) <= limit:
            exponent = decimal.as_tuple().exponent
            if isinstance(exponent, int) and exponent >= -decimals:
                number = Fraction(decimal)
            else:
                raise TreyError(f"{where}: {column} has more than {decimals} decimals", hint="round it to cents")
    if number is None:
        raise TreyError(f"{where}: {column} {_shown(value)} is not a number", hint="write it as 1234.50")
    if abs(number) > limit:
        raise TreyError(f"{where}: {column} must be at most {limit:,}", hint=_LIMITS.get(column, _AMOUNTS))
    if positive and number <= 0:
        raise TreyError(f"{where}: {column} must be positive, not {value}", hint="a shift has hours and drop")
    return number


def _label(value: object, column: str, where: str) -> str:
    """A table's or a shift's name: text of 1 to :data:`MAX_LABEL` characters that can all be seen (no control or
    format character: a right-to-left override would turn a report's figures around)."""
    text = value.strip() if isinstance(value, str) else None
    if not text or len(text) > MAX_LABEL or not text.isprintable():
        raise TreyError(
            f"{where}: {column} must be text of 1 to {MAX_LABEL} characters that can all be seen",
            hint="no control or format character; name the table and shift",
        )
    return text


def _occupancy(value: object, where: str) -> Fraction:
    if isinstance(value, str) and value.strip().endswith("%"):
        from trey.engine.money import parse_share

        try:
            share = parse_share(value)
        except ValueError:
            raise TreyError(f"{where}: occupancy {_shown(value)} is not a share", hint="write 0.85 or 85%") from None
    else:
        share = _number(value, "occupancy", where, positive=True, limit=1)
    if not 0 < share <= 1:
        raise TreyError(f"{where}: occupancy must be a share above 0 and at most 1", hint="write 0.85 for 85%")
    return share


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _rows(records: Sequence[tuple[int, dict[str, Any]]], name: str) -> tuple[LedgerRow, ...]:
    rows = []
    for line, record in records:
        where = f"{name}:{line}"
        average = record.get("average_bet")
        occupancy = record.get("occupancy")
        rows.append(
            LedgerRow(
                line,
                _label(record["table"], "table", where),
                _label(record["shift"], "shift", where),
                _number(record["hours"], "hours", where, positive=True, limit=MAX_HOURS),
                _number(record["drop"], "drop", where, positive=True, decimals=MONEY_DECIMALS),
                _number(record["win"], "win", where, positive=False, decimals=MONEY_DECIMALS),
                None if _blank(average) else _number(average, "average_bet", where, positive=True, limit=MAX_BET),
                None if _blank(occupancy) else _occupancy(occupancy, where),
            )
        )
    return tuple(rows)


def _check_columns(columns: Sequence[str], name: str) -> None:
    seen = set()
    for column in columns:
        if column in seen:
            raise TreyError(f"{name}: the column {column[:40]!r} is given twice", hint="each column once")
        seen.add(column)
    missing = [c for c in REQUIRED if c not in seen]
    if missing:
        raise TreyError(
            f"{name}: no column {', '.join(missing)}", hint=f"a ledger has the columns {', '.join(REQUIRED)}"
        )
    unknown = [c for c in columns if c not in REQUIRED + OPTIONAL]
    if unknown:
        raise TreyError(
            f"{name}: unknown column {unknown[0][:40]!r}", hint=f"the columns are {', '.join(REQUIRED + OPTIONAL)}"
        )


def read_ledger(source: Path | SqlSource) -> tuple[LedgerRow, ...]:
    """The rows of a shift ledger: a CSV file, a Parquet file (by its suffix) or a folder of them (a partitioned
    dataset, read as the audit reads one), or a database's table or query (:class:`~trey.audit.sources.SqlSource`);
    a located :class:`TreyError` on bad input, at most :data:`MAX_ROWS` rows and :data:`MAX_BYTES` bytes read."""
    if isinstance(source, SqlSource):
        from trey.audit.sources import sql_rows

        names, numbered = sql_rows(source, MAX_ROWS)
        return _checked(source.name, names, numbered)
    name = display_name(source.name)
    if source.is_dir() or source.suffix.lower() == ".parquet":
        return _read_parquet(source)
    raw = read_bounded(source, limit=MAX_BYTES, what=WHAT, hint="split the ledger")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TreyError(f"{name}: not UTF-8 text", hint="save the ledger as UTF-8 CSV") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        if header is None:
            raise TreyError(f"{name}: empty", hint=f"a ledger has the columns {', '.join(REQUIRED)}")
        header = [h.strip() for h in header]
        _check_columns(header, name)
        records: list[tuple[int, dict[str, Any]]] = []
        while True:
            number = reader.line_num + 1  # where the row starts (a quoted field may hold a line break)
            values = next(reader, None)
            if values is None:
                break
            if not values:
                continue  # a blank line
            if len(records) >= MAX_ROWS:
                raise TreyError(f"{name}: more than {MAX_ROWS:,} rows", hint="split the ledger")
            if len(values) != len(header):
                raise TreyError(
                    f"{name}:{number}: {len(values)} fields, the header has {len(header)}", hint="one per column"
                )
            records.append((number, dict(zip(header, values, strict=True))))
    except csv.Error as exc:
        raise TreyError(f"{name}:{reader.line_num}: not CSV ({exc})", hint="save the ledger as CSV") from None
    if not records:
        raise TreyError(f"{name}: no rows", hint="a ledger has one row per table and shift")
    return _rows(records, name)


def _checked(name: str, names: list[str], records: list[tuple[int, dict[str, Any]]]) -> tuple[LedgerRow, ...]:
    """Rows of a Parquet file or a database (numbered from 1: a row's line is its number + 1, as if a header came
    first)."""
    _check_columns(names, name)
    if len(records) > MAX_ROWS:
        raise TreyError(f"{name}: more than {MAX_ROWS:,} rows", hint="split the ledger")
    if not records:
        raise TreyError(f"{name}: no rows", hint="a ledger has one row per table and shift")
    return _rows([(number + 1, record) for number, record in records], name)


def _read_parquet(path: Path) -> tuple[LedgerRow, ...]:
    """A Parquet file, or a folder of them read as one dataset (hive partitions), as the audit reads them."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    name = display_name(path.name)
    try:
        if path.is_dir():
            dataset = ds.dataset(str(path), format="parquet", partitioning="hive")
            if not dataset.files:
                raise TreyError(f"{name}: a folder without Parquet files", hint=f"give {WHAT}")
            clash = partition_clash(dataset)
            if clash is not None:
                raise TreyError(f"{name}: {clash}", hint="keep the folders' or the files' column")
            names, rows = dataset.schema.names, None
        else:
            # A FIFO or a device refused before anything is read, a file past MAX_BYTES said so (not "not Parquet")
            raw = read_bounded(path, limit=MAX_BYTES, what=WHAT, hint="split the ledger")
            parquet = pq.ParquetFile(io.BytesIO(raw))
            names, rows = parquet.schema_arrow.names, parquet.metadata.num_rows
        _check_columns(names, name)
        if (rows if rows is not None else dataset.count_rows()) > MAX_ROWS:
            raise TreyError(f"{name}: more than {MAX_ROWS:,} rows", hint="split the ledger")
        table = parquet.read() if rows is not None else dataset.to_table()
    except TreyError:
        raise
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        said = str(exc)[:80]
        raise TreyError(f"{name}: not a Parquet file or dataset ({said})", hint="write it with pyarrow") from None
    return _checked(name, names, list(enumerate(table.to_pylist(), start=1)))


def hold_report(
    ledger: str,
    rows: Sequence[LedgerRow],
    analysis: GameAnalysis,
    moments: TableMoments,
    mix: BetMix,
    drop_to_handle: Fraction,
    alpha: Fraction = DEFAULT_ALPHA,
    skim: Fraction = Fraction(3, 100),
) -> HoldReport:
    """Test every table-shift of ``rows``, each table's shifts together and the whole ledger (see the module)."""
    if not 0 < drop_to_handle <= 1:
        raise ValueError(f"the drop-to-handle ratio must be above 0 and at most 1, not {drop_to_handle}")
    money = table_money(analysis, mix)
    edge = money.blended_edge
    measured: list[ShiftTest] = []
    untested: list[ShiftTest] = []
    # A rated average bet is the average Ante where the mix has Ante & Play (as the paytable's table: average_bet),
    # else the average wager of a seat; every bet of the mix scales with it.
    rated = next((b.bet for b in mix.bets if b.wager == ANTE_PLAY), money.wagered_per_seat)
    largest = sum((b.bet * analysis.wagers[b.wager].largest_win for b in mix.bets if b.share), Fraction(0))
    for row in rows:
        scale = row.average_bet / rated if row.average_bet is not None else Fraction(1)
        occupancy = row.occupancy if row.occupancy is not None else mix.occupancy
        seating = type(mix.seating)(tuple((w, s, b * scale) for w, s, b in mix.seating.bets))
        handle = row.drop / drop_to_handle
        per_round = money.wagered_per_seat * scale * mix.seats * occupancy
        variance = handle / per_round * round_variance(moments, seating, mix.seats, occupancy)
        expected = edge * handle
        sd = math.sqrt(variance)
        z = float(row.win - expected) / sd
        rounds = handle / per_round
        test = ShiftTest(row, handle, expected, sd, z, z_p_value(z, two_sided=True), rounds, largest * scale)
        (untested if test.untested_why else measured).append(test)
    every = sorted([*measured, *untested], key=lambda s: s.row.line)
    together = _combined(every)
    combined = [c for c in together if not c.untested_why]
    combined_untested = [c for c in together if c.untested_why]
    statistical = [
        StatisticalTest(
            "shift",
            f"{t.row.table} {t.row.shift}",
            t.p_value,
            f"table {t.row.table}, shift {t.row.shift}: won {float(t.row.win):,.2f} against "
            f"{float(t.expected_win):,.2f} expected (z = {t.z:+.2f}, {p_text(t.p_value)})",
        )
        for t in measured
    ] + [
        StatisticalTest(
            "combined",
            c.name,
            c.p_value,
            f"{c.name}: won {float(c.win):,.2f} against {float(c.expected_win):,.2f} expected "
            f"(z = {c.z:+.2f}, {p_text(c.p_value)})",
        )
        for c in combined
    ]
    scatter = None
    if len(measured) >= MIN_SCATTER_SHIFTS:
        from trey.play.chisquare import chi_square_cdf

        statistic = sum(s.z * s.z for s in measured)
        scatter = ScatterTest(len(measured), statistic, chi_square_cdf(statistic, len(measured)))
        statistical.append(StatisticalTest("scatter", "scatter", scatter.p_value, scatter.says))
    family = Family.of(statistical, alpha)
    repeated = sorted(k for k, n in Counter((r.table, r.shift) for r in rows).items() if n > 1)
    failed = [f"table {t}, shift {s} is listed more than once" for t, s in repeated]
    unchecked = _untested_lines(untested, combined_untested, largest)
    verdict = Verdict.of(failed, unchecked, family)
    flags = holm([s.p_value for s in statistical], alpha) if statistical else []
    # The drop at which a skim of ``skim`` x drop is flagged with 90% power at alpha / tests (two-sided), in one
    # table-shift or over the shifts of a table taken together (their drops added up).
    z_alpha = normal_upper_quantile(float(alpha) / max(1, len(statistical)) / 2)
    unit_variance = round_variance(moments, mix.seating, mix.seats, mix.occupancy) / (
        drop_to_handle * money.wagered_per_seat * mix.seats * mix.occupancy
    )
    shortfall = float(skim * (1 - edge / drop_to_handle))
    needed = (z_alpha + Z_POWER_90) ** 2 * float(unit_variance) / shortfall**2
    return HoldReport(
        ledger,
        drop_to_handle,
        alpha,
        edge,
        tuple(measured),
        tuple(flags[: len(measured)]),
        verdict,
        skim,
        needed,
        mix,
        tuple(combined),
        tuple(flags[len(measured) : len(measured) + len(combined)]),
        tuple(untested),
        tuple(combined_untested),
        scatter,
        bool(flags[-1]) if scatter is not None else False,
    )


def _untested_lines(shifts: Sequence[ShiftTest], together: Sequence[CombinedTest], largest: Fraction) -> list[str]:
    """The verdict's not-checked findings: the table-shifts, and the tables' shifts together, the normal law cannot
    judge, by why."""

    def counted(n: int, one: str, many: str) -> str:
        return f"{n:,} {one if n == 1 else many}"

    found = []
    for why in ("few", "jackpot"):
        these = [s for s in shifts if s.untested_why == why]
        if not these:
            continue
        lines = ", ".join(f"{s.row.line:,}" for s in these[:5]) + (", ..." if len(these) > 5 else "")
        where = f"line{'s' if len(these) != 1 else ''} {lines}"
        what = counted(len(these), "table-shift", "table-shifts")
        if why == "few":
            found.append(
                f"not checked: {what} whose drop stands for fewer than {MIN_ROUNDS} rounds at "
                f"{'their' if len(these) != 1 else 'its'} bets (the normal law of a shift's win needs many; {where})"
            )
        else:
            found.append(
                f"not checked: {what} whose win one seat-round's largest pay ({float(largest):,.2f} at the mix's "
                f"bets) moves by more than a third of its SD (the normal law does not hold there; {where})"
            )
    if together:
        reasons = {
            "few": f"fewer than {MIN_ROUNDS} rounds",
            "jackpot": "a seat-round's largest pay above a third of the SD",
        }
        names = "; ".join(f"{c.name}: {reasons[c.untested_why or 'few']}" for c in together[:5])
        more = "; ..." if len(together) > 5 else ""
        found.append(f"not checked: {counted(len(together), 'test', 'tests')} of shifts taken together ({names}{more})")
    return found


def _combined(tests: Sequence[ShiftTest]) -> list[CombinedTest]:
    """Each table of two shifts or more (in the order the ledger first names them), then the whole ledger when it
    holds two table-shifts or more, each one test of its wins against their expectations."""

    def together(table: str | None, group: Sequence[ShiftTest]) -> CombinedTest:
        win = sum((t.row.win for t in group), Fraction(0))
        expected = sum((t.expected_win for t in group), Fraction(0))
        sd = math.sqrt(sum(t.sd**2 for t in group))
        z = float(win - expected) / sd
        drop = sum((t.row.drop for t in group), Fraction(0))
        rounds = sum((t.rounds for t in group), Fraction(0))
        largest = max(t.largest_pay for t in group)
        p = z_p_value(z, two_sided=True)
        return CombinedTest(table, len(group), drop, win, expected, sd, z, p, rounds, largest)

    by_table: dict[str, list[ShiftTest]] = {}
    for t in tests:
        by_table.setdefault(t.row.table, []).append(t)
    found = [together(table, group) for table, group in by_table.items() if len(group) > 1]
    if len(tests) > 1 and (len(by_table) > 1 or not found):
        found.append(together(None, tests))
    return found


def headline(report: HoldReport) -> str:
    """The verdict's first line, as every output of ``trey hold`` states it."""
    if not report.verdict.passed:
        return report.verdict.headline
    together = f", and {len(report.combined):,} of shifts taken together" if report.combined else ""
    return f"PASS: {len(report.tests):,} table-shifts{together}, none out of range"


def level_text(report: HoldReport) -> str:
    """What the tests were corrected over."""
    shifts = f"{len(report.tests):,} table-shift{'s' if len(report.tests) != 1 else ''}"
    together = f", {len(report.combined):,} of shifts taken together" if report.combined else ""
    together += ", their scatter" if report.scatter is not None else ""
    tests = f"{report.test_count:,} test{'s' if report.test_count != 1 else ''}"
    return f"α = {alpha_text(report.alpha)} family-wise, Holm over {tests} ({shifts}{together})"


def skim_text(report: HoldReport, drop: str) -> str:
    """The drop a skim needs to be seen, ``drop`` the amount as the output writes it."""
    return (
        f"A skim of {float(report.skim) * 100:g}% of the drop is flagged with 90% power in one table-shift of drop "
        f"{drop} or more, or over a table's shifts whose drops add up to {drop} (at α / {max(1, report.test_count):,})."
    )


def hold_json(report: HoldReport, spec: GameSpec) -> dict[str, Any]:
    """``trey hold --format json`` (schemas/hold.schema.json): every row of the ledger (those not tested with
    ``tested`` false), of the game ``spec``."""
    from trey.core.version import __version__

    flagged = dict(zip((t.row.line for t in report.tests), report.flagged, strict=True))
    every = sorted([*report.tests, *report.untested], key=lambda t: t.row.line)
    return {
        "trey_version": __version__,
        "spec_sha256": spec.sha256,
        "name": spec.name,
        "ledger": report.ledger,
        "verdict": str(report.verdict.result),
        "says": headline(report),
        "findings": [str(f) for f in report.verdict.findings],
        "alpha": alpha_text(report.alpha),
        "tests": report.test_count,
        "drop_to_handle": float(report.drop_to_handle),
        "blended_house_edge": float(report.blended_edge),
        "blended_house_edge_exact": fraction_text(report.blended_edge),
        "expected_hold": float(report.expected_hold),
        "skim": float(report.skim),
        "drop_needed_for_skim": round(report.drop_needed, 2),
        "minimum_rounds": MIN_ROUNDS,
        "shifts": [
            {
                "line": t.row.line,
                "table": t.row.table,
                "shift": t.row.shift,
                "hours": float(t.row.hours),
                "drop": float(t.row.drop),
                "win": float(t.row.win),
                "hold": t.hold,
                "handle": round(float(t.handle), 2),
                "rounds": round(float(t.rounds), 1),
                "expected_win": round(float(t.expected_win), 2),
                "sd": round(t.sd, 2),
                "z": round(t.z, 4) if t.row.line in flagged else None,  # no test of too few rounds
                "p_value": t.p_value if t.row.line in flagged else None,
                "tested": t.row.line in flagged,
                "flagged": flagged.get(t.row.line, False),
            }
            for t in every
        ],
        "combined": [
            {
                "table": c.table,
                "shifts": c.shifts,
                "drop": float(c.drop),
                "win": float(c.win),
                "hold": c.hold,
                "expected_win": round(float(c.expected_win), 2),
                "sd": round(c.sd, 2),
                "z": round(c.z, 4),
                "p_value": c.p_value,
                "flagged": flagged_together,
            }
            for c, flagged_together in zip(report.combined, report.combined_flagged, strict=True)
        ],
        "combined_not_tested": [c.table for c in report.combined_untested],  # a table's name, or null: the ledger
        "scatter": None
        if report.scatter is None
        else {
            "shifts": report.scatter.shifts,
            "sum_of_z_squared": round(report.scatter.statistic, 4),
            "p_value": report.scatter.p_value,
            "flagged": report.scatter_flagged,
        },
    }


def hold_lines(report: HoldReport) -> list[str]:
    """``trey hold`` in the terminal: the verdict first."""
    verdict = report.verdict
    lines = [headline(report), *([f"- {f}" for f in verdict.findings] if len(verdict.findings) > 1 else [])]
    lines.append(
        f"{level_text(report)}; drop-to-handle {float(report.drop_to_handle):.2f}, blended house edge "
        f"{float(report.blended_edge):.4%}, expected hold {float(report.expected_hold):.2%} of drop"
    )
    lines.append(
        f"{'table':<12} {'shift':<12} {'hours':>7} {'drop':>12} {'win':>11} {'hold':>7} {'expected':>11} {'z':>7}"
    )
    flagged = dict(zip((t.row.line for t in report.tests), report.flagged, strict=True))
    for t in sorted([*report.tests, *report.untested], key=lambda t: t.row.line):
        r = t.row
        z = f"{t.z:+7.2f}" if r.line in flagged else f"{'—':>7}"
        mark = "  FLAGGED" if flagged.get(r.line) else "" if r.line in flagged else "  not tested"
        lines.append(
            f"{r.table[:12]:<12} {r.shift[:12]:<12} {float(r.hours):7.1f} {float(r.drop):12,.2f} {float(r.win):11,.2f} "
            f"{t.hold:7.2%} {float(t.expected_win):11,.2f} {z}{mark}"
        )
    for c, flagged_together in zip(report.combined, report.combined_flagged, strict=True):
        name = f"{c.table[:12]:<12} {f'{c.shifts:,} shifts':<12}" if c.table is not None else f"{'all':<12} {'':<12}"
        lines.append(
            f"{name} {'':>7} {float(c.drop):12,.2f} {float(c.win):11,.2f} {c.hold:7.2%} "
            f"{float(c.expected_win):11,.2f} {c.z:+7.2f}{'  FLAGGED' if flagged_together else ''}"
        )
    if report.scatter is not None:
        s = report.scatter
        lines.append(
            f"Scatter of the {s.shifts:,} table-shifts: the sum of their z² {s.statistic:,.2f} against {s.shifts:,} "
            f"expected ({p_text(s.p_value)}, too little scatter flagged){'  FLAGGED' if report.scatter_flagged else ''}"
        )
    lines.append(skim_text(report, f"{report.drop_needed:,.0f}"))
    return lines


def check_hold(
    ledger: Path | SqlSource,
    spec: GameSpec,
    mix: Sequence[str] | None,
    *,
    seats: int | None = None,
    occupancy: str | None = None,
    drop_to_handle: str = "0.2",
    alpha: Fraction = DEFAULT_ALPHA,
    skim: str = "3%",
) -> HoldReport:
    """``trey hold``: the ledger read, the game counted (its whole table too) and every table-shift tested. The bet
    mix from ``mix`` (``--mix`` texts), ``seats`` and ``occupancy``, each part they leave out from the paytable's
    ``table:`` (:func:`trey.engine.money.choose_mix`), else 7 seats, all occupied."""
    from trey.engine import analyze
    from trey.engine.money import choose_mix, occupancy_option, parse_share
    from trey.play.table import table_moments

    rows = read_ledger(ledger)
    name = ledger.name if isinstance(ledger, SqlSource) else display_name(ledger.name)
    analysis = analyze(spec)
    try:
        chosen = choose_mix(spec, mix, seats, occupancy_option(occupancy), None)
        if chosen is None:
            raise TreyError(
                f"{spec.name}: no bet mix: neither --mix nor the paytable's table: gives one",
                hint="e.g. --mix ante_play=25 --mix pair_plus=60%@10, or table: side_bets in the paytable",
            )
        bet_mix = chosen.mix
        ratio, skimmed = parse_share(drop_to_handle), parse_share(skim)
        if not MIN_SKIM <= skimmed <= MAX_SKIM:
            raise ValueError(f"--skim must be a share from 0.1% to 50%, not {skim[:40]}")
        table_money(analysis, bet_mix)
        moments = table_moments(spec)
        return hold_report(name, rows, analysis, moments, bet_mix, ratio, alpha, skimmed)
    except ValueError as exc:
        raise TreyError(str(exc), hint="e.g. --mix ante_play=25 --mix pair_plus=60%@10 --drop-to-handle 0.2") from None
