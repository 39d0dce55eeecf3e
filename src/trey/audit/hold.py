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
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from trey.audit.verdict import Family, StatisticalTest, Verdict, alpha_text, holm, p_text, z_p_value
from trey.core.errors import TreyError
from trey.engine.money import BetMix, table_money
from trey.engine.results import GameAnalysis
from trey.engine.table import TableMoments, round_variance
from trey.paytable.model import GameSpec

REQUIRED = ("table", "shift", "hours", "drop", "win")
OPTIONAL = ("average_bet", "occupancy")
MAX_ROWS = 100_000
MAX_BYTES = 64 * 2**20
MAX_TEXT = 200
DEFAULT_ALPHA = Fraction(1, 100)
Z_POWER_90 = 1.2816  # the normal quantile of 90%


@dataclass(frozen=True)
class LedgerRow:
    line: int  # the row's line in a CSV file (1 is the header), or its row number + 1 in a Parquet file
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

    @property
    def hold(self) -> float:
        return float(self.row.win / self.row.drop)


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
    drop_needed: float  # for the skim to be flagged with 90% power in one table-shift (at alpha / rows)
    mix: BetMix | None = None  # the bet mix the shifts were tested at

    @property
    def expected_hold(self) -> Fraction:
        return self.blended_edge / self.drop_to_handle


def _number(text: str, column: str, where: str, *, positive: bool) -> Fraction:
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise TreyError(f"{where}: {column} {text[:40]!r} is not a number", hint="write it as 1234.50") from None
    if positive and value <= 0:
        raise TreyError(f"{where}: {column} must be positive, not {text[:40]}", hint="a shift has hours and drop")
    return value


def _rows(records: Sequence[tuple[int, dict[str, Any]]], name: str) -> tuple[LedgerRow, ...]:
    rows = []
    for line, record in records:
        where = f"{name}:{line}"
        texts = {k: "" if v is None else str(v) for k, v in record.items()}
        for column in ("table", "shift"):
            if not texts[column].strip() or len(texts[column]) > MAX_TEXT:
                raise TreyError(
                    f"{where}: {column} must be 1 to {MAX_TEXT} characters", hint="name the table and shift"
                )
        rated = {c: _number(texts[c], c, where, positive=True) if texts.get(c, "").strip() else None for c in OPTIONAL}
        occupancy = rated["occupancy"]
        if occupancy is not None and occupancy > 1:
            raise TreyError(f"{where}: occupancy must be a share of at most 1", hint="write 0.85 for 85%")
        rows.append(
            LedgerRow(
                line,
                texts["table"].strip(),
                texts["shift"].strip(),
                _number(texts["hours"], "hours", where, positive=True),
                _number(texts["drop"], "drop", where, positive=True),
                _number(texts["win"], "win", where, positive=False),
                rated["average_bet"],
                occupancy,
            )
        )
    return tuple(rows)


def _check_columns(columns: Sequence[str], name: str) -> None:
    seen = set()
    for column in columns:
        if column in seen:
            raise TreyError(f"{name}: the column {column!r} is given twice", hint="each column once")
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


def read_ledger(path: Path) -> tuple[LedgerRow, ...]:
    """The rows of a shift ledger, CSV or Parquet (by its suffix); a located :class:`TreyError` on bad input."""
    name = path.name
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise TreyError(f"{name}: cannot read it ({exc.strerror})", hint="give a ledger file") from None
    if size > MAX_BYTES:
        raise TreyError(f"{name}: larger than {MAX_BYTES // 2**20} MB", hint="split the ledger")
    if path.suffix.lower() == ".parquet":
        return _read_parquet(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise TreyError(f"{name}: not UTF-8 text", hint="save the ledger as UTF-8 CSV") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None:
        raise TreyError(f"{name}: empty", hint=f"a ledger has the columns {', '.join(REQUIRED)}")
    header = [h.strip() for h in header]
    _check_columns(header, name)
    records: list[tuple[int, dict[str, Any]]] = []
    for number, values in enumerate(reader, start=2):
        if not values:
            continue  # a blank line
        if len(records) >= MAX_ROWS:
            raise TreyError(f"{name}: more than {MAX_ROWS:,} rows", hint="split the ledger")
        if len(values) != len(header):
            raise TreyError(
                f"{name}:{number}: {len(values)} fields, the header has {len(header)}", hint="one per column"
            )
        records.append((number, dict(zip(header, values, strict=True))))
    if not records:
        raise TreyError(f"{name}: no rows", hint="a ledger has one row per table and shift")
    return _rows(records, name)


def _read_parquet(path: Path) -> tuple[LedgerRow, ...]:
    import pyarrow.parquet as pq

    name = path.name
    try:
        parquet = pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises several types for a file that is not Parquet
        raise TreyError(f"{name}: not a Parquet file ({str(exc)[:80]})", hint="write the ledger with pyarrow") from None
    _check_columns(parquet.schema_arrow.names, name)
    if parquet.metadata.num_rows > MAX_ROWS:
        raise TreyError(f"{name}: more than {MAX_ROWS:,} rows", hint="split the ledger")
    if parquet.metadata.num_rows == 0:
        raise TreyError(f"{name}: no rows", hint="a ledger has one row per table and shift")
    return _rows(list(enumerate(parquet.read().to_pylist(), start=2)), name)


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
    """Test every table-shift of ``rows`` (see the module)."""
    if not 0 < drop_to_handle <= 1:
        raise ValueError(f"the drop-to-handle ratio must be above 0 and at most 1, not {drop_to_handle}")
    money = table_money(analysis, mix)
    edge = money.blended_edge
    tests = []
    for row in rows:
        scale = row.average_bet / money.wagered_per_seat if row.average_bet is not None else Fraction(1)
        occupancy = row.occupancy if row.occupancy is not None else mix.occupancy
        seating = type(mix.seating)(tuple((w, s, b * scale) for w, s, b in mix.seating.bets))
        handle = row.drop / drop_to_handle
        per_round = money.wagered_per_seat * scale * mix.seats * occupancy
        variance = handle / per_round * round_variance(moments, seating, mix.seats, occupancy)
        expected = edge * handle
        sd = math.sqrt(variance)
        z = float(row.win - expected) / sd
        tests.append(ShiftTest(row, handle, expected, sd, z, z_p_value(z, two_sided=True)))
    statistical = [
        StatisticalTest(
            "shift",
            f"{t.row.table} {t.row.shift}",
            t.p_value,
            f"table {t.row.table}, shift {t.row.shift}: won {float(t.row.win):,.2f} against "
            f"{float(t.expected_win):,.2f} expected (z = {t.z:+.2f}, {p_text(t.p_value)})",
        )
        for t in tests
    ]
    family = Family.of(statistical, alpha)
    keys = [(t.row.table, t.row.shift) for t in tests]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    failed = [f"table {t}, shift {s} is listed more than once" for t, s in repeated]
    verdict = Verdict.of(failed, [], family)
    # The drop at which a skim of ``skim`` x drop is flagged with 90% power at alpha / rows (two-sided).
    z_alpha = _normal_quantile(1 - float(alpha) / len(rows) / 2)
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
        tuple(tests),
        tuple(holm([t.p_value for t in tests], alpha)),
        verdict,
        skim,
        needed,
        mix,
    )


def _normal_quantile(p: float) -> float:
    """The standard normal quantile, by bisection of the tail (accurate to 1e-12 in z)."""
    low, high = -40.0, 40.0
    for _ in range(200):
        mid = (low + high) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def hold_json(report: HoldReport) -> dict[str, Any]:
    """``trey hold --format json``."""
    return {
        "ledger": report.ledger,
        "verdict": str(report.verdict.result),
        "findings": [str(f) for f in report.verdict.findings],
        "alpha": alpha_text(report.alpha),
        "drop_to_handle": float(report.drop_to_handle),
        "blended_house_edge": float(report.blended_edge),
        "expected_hold": float(report.expected_hold),
        "skim": float(report.skim),
        "drop_needed_for_skim": round(report.drop_needed, 2),
        "shifts": [
            {
                "table": t.row.table,
                "shift": t.row.shift,
                "hours": float(t.row.hours),
                "drop": float(t.row.drop),
                "win": float(t.row.win),
                "hold": t.hold,
                "handle": round(float(t.handle), 2),
                "expected_win": round(float(t.expected_win), 2),
                "sd": round(t.sd, 2),
                "z": round(t.z, 4),
                "p_value": t.p_value,
                "flagged": flagged,
            }
            for t, flagged in zip(report.tests, report.flagged, strict=True)
        ],
    }


def hold_lines(report: HoldReport) -> list[str]:
    """``trey hold`` in the terminal: the verdict first."""
    verdict = report.verdict
    headline = f"PASS: {len(report.tests):,} table-shifts, none out of range" if verdict.passed else verdict.headline
    lines = [headline, *([f"- {f}" for f in verdict.findings] if len(verdict.findings) > 1 else [])]
    lines.append(
        f"α = {alpha_text(report.alpha)} family-wise, Holm over {len(report.tests):,} table-shifts; "
        f"drop-to-handle {float(report.drop_to_handle):.2f}, blended house edge {float(report.blended_edge):.4%}, "
        f"expected hold {float(report.expected_hold):.2%} of drop"
    )
    lines.append(
        f"{'table':<12} {'shift':<12} {'hours':>7} {'drop':>12} {'win':>11} {'hold':>7} {'expected':>11} {'z':>7}"
    )
    for t, flagged in zip(report.tests, report.flagged, strict=True):
        r = t.row
        lines.append(
            f"{r.table[:12]:<12} {r.shift[:12]:<12} {float(r.hours):7.1f} {float(r.drop):12,.2f} {float(r.win):11,.2f} "
            f"{t.hold:7.2%} {float(t.expected_win):11,.2f} {t.z:+7.2f}{'  FLAGGED' if flagged else ''}"
        )
    lines.append(
        f"A skim of {float(report.skim):.0%} of the drop is flagged with 90% power in one table-shift of drop "
        f"{report.drop_needed:,.0f} or more (at α / {len(report.tests):,})."
    )
    return lines


def check_hold(
    ledger: Path,
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
    from trey.engine.money import choose_mix, parse_share
    from trey.play.table import table_moments

    rows = read_ledger(ledger)
    analysis = analyze(spec)
    try:
        chosen = choose_mix(spec, mix, seats, parse_share(occupancy) if occupancy is not None else None, None)
        if chosen is None:
            raise TreyError(
                f"{spec.name}: no bet mix: neither --mix nor the paytable's table: gives one",
                hint="e.g. --mix ante_play=25 --mix pair_plus=60%@10, or table: side_bets in the paytable",
            )
        bet_mix = chosen.mix
        ratio, skimmed = parse_share(drop_to_handle), parse_share(skim)
        if not 0 < skimmed < 1:
            raise ValueError(f"--skim must be a share above 0 and below 1, not {skim}")
        table_money(analysis, bet_mix)
        moments = table_moments(spec)
        return hold_report(ledger.name, rows, analysis, moments, bet_mix, ratio, alpha, skimmed)
    except ValueError as exc:
        raise TreyError(str(exc), hint="e.g. --mix ante_play=25 --mix pair_plus=60%@10 --drop-to-handle 0.2") from None
