"""Where table rounds are read from: JSON Lines (a round a line), and the sources with a row per seat — CSV, Parquet
(a file or a partitioned folder, read with pyarrow) and a SQL database (SQLAlchemy: a URL and a query or a table) —
through a :class:`~trey.audit.mapping.Mapping` of their own names, cards and money.

A row-per-seat source holds one row for each seat, the round's own fields (round, table, time, dealer, shuffler,
shift, table_seats, dealer_cards, deck, input) repeated on each of its rows, the rows of one round one after the
other (a SQL table is read ordered by the round and the seat). Each round is located by its number in the source
(the first round is 1), so that the same rounds give the same audit from every source; a JSON Lines round by its
line.

Bounds, whatever the source holds: rows are read :data:`ROWS_AT_ONCE` at a time (Parquet's batches, SQL's
server-side cursor); only the columns the format names are read; a value is at most :data:`MAX_VALUE_CHARACTERS`
characters; a round has at most seven rows; at most :data:`~trey.audit.log.MAX_ROUNDS` rounds. A database is opened
read-only, and one that does not answer is one error after :data:`CONNECT_SECONDS` (each fetch after
:data:`STATEMENT_SECONDS`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trey.audit.log import MAX_LINE_BYTES, _blocks, _csv_fields, _line_ends
from trey.audit.mapping import Mapping, ValueRefused
from trey.audit.tables import ROUND_FIELDS, TABLE_SEATS, Record, refusal
from trey.core.errors import TreyError
from trey.core.files import display_name, open_regular
from trey.core.jsonread import JsonInputError, loads_strict
from trey.paytable.model import GameSpec

ROWS_AT_ONCE = 4_096
MAX_VALUE_CHARACTERS = 1_024  # a deck of 52 cards is about 200
CONNECT_SECONDS = 10
STATEMENT_SECONDS = 60
SEAT_FIELDS = ("seat", "player", "decision", "ante", "play", "ante_bonus")
PARTS = ("ante", "play", "ante_bonus")
REQUIRED = ("round", "seat", "player", "dealer_cards")


class SourceError(TreyError):
    """A source that cannot be read at all (its code, as :mod:`trey.core.codes` lists it)."""

    def __init__(self, code: str, message: str, *, hint: str | None = None) -> None:
        self.code = code
        super().__init__(f"{message} [{code}]", hint=hint)


@dataclass(frozen=True)
class SqlSource:
    """A database's table rounds: ``url`` (SQLAlchemy's: ``sqlite:///rounds.db``, ``postgresql+psycopg://...``)
    and a ``query`` or a ``table``."""

    url: str
    query: str | None = None
    table: str | None = None

    @property
    def name(self) -> str:
        from sqlalchemy.engine import make_url

        shown = make_url(self.url).render_as_string(hide_password=True)
        return f"{shown} ({'table ' + self.table if self.table else 'query'})"


Source = Path | SqlSource


def is_table_source(source: Source, mapping: Mapping | None) -> bool:
    """Whether ``source`` holds table rounds (else seat lines, read by :func:`trey.audit.log.read_log`)."""
    if isinstance(source, SqlSource) or mapping is not None:
        return True
    if source.is_dir() or source.name.lower().endswith(".parquet"):
        return True
    try:
        with open_regular(source, what="a hand history") as stream:
            head = stream.read(MAX_LINE_BYTES + 2)
    except TreyError:
        return False  # the seat lines' reader says why
    text = head.lstrip(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    first = next((line for line in text.splitlines() if line.strip()), "")
    if source.name.lower().endswith(".csv"):
        try:
            return "dealer_cards" in _csv_fields(first)
        except csv.Error:
            return False
    try:
        data = loads_strict(first)
    except JsonInputError:
        return False
    return isinstance(data, dict) and "seats" in data


def records_of(source: Source, spec: GameSpec, mapping: Mapping | None) -> tuple[str, Iterator[Record]]:
    """The name problems are located in, and the source's table rounds as JSON (or the refusal of each record)."""
    mapping = mapping or Mapping()
    if isinstance(source, SqlSource):
        return source.name, _rounds(_sql_rows(source, spec, mapping), mapping)
    name = display_name(source)
    if source.is_dir() or source.name.lower().endswith(".parquet"):
        return name, _rounds(_parquet_rows(source, spec, mapping), mapping)
    if source.name.lower().endswith(".csv"):
        return name, _rounds(_csv_rows(source), mapping)
    return name, _json_lines(source)


def _json_lines(path: Path) -> Iterator[Record]:
    with open_regular(path, what="a hand history (JSON Lines or CSV)") as stream:
        for item in _blocks(stream):
            if isinstance(item, int):
                yield item, refusal(None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes")
                continue
            first, block, _ = item
            ends = _line_ends(block)
            start = 0
            for index, end in enumerate(ends.tolist()):
                raw = block[start:end]
                start = end + 1
                if raw.endswith(b"\r"):
                    raw = raw[:-1]
                if not raw.strip():
                    continue
                if len(raw) > MAX_LINE_BYTES:
                    yield first + index, refusal(None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes")
                    continue
                try:
                    yield first + index, loads_strict(raw.decode("utf-8"))
                except UnicodeDecodeError as exc:
                    yield first + index, refusal(None, "log.not-json", f"not UTF-8 at byte {exc.start}")
                except JsonInputError as exc:
                    yield first + index, refusal(None, "log.not-json", f"not a JSON round: {exc}")


# A row of a row-per-seat source: (its number, its values by the source's column), or the refusal of a row that
# cannot be read at all (a CSV line that is not CSV).
Row = tuple[int, dict[str, Any] | Any]


def _csv_rows(path: Path) -> Iterator[Row]:
    header: list[str] | None = None
    number = 0
    with open_regular(path, what="a hand history (CSV)") as stream:
        for item in _blocks(stream):
            if isinstance(item, int):
                number += 1
                yield number, refusal(None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes")
                continue
            first, block, _ = item
            if first == 1 and block.startswith(b"\xef\xbb\xbf"):
                block = block[3:]
            for raw in io.BytesIO(block).read().split(b"\n")[:-1]:
                if raw.endswith(b"\r"):
                    raw = raw[:-1]
                if not raw.strip():
                    continue
                try:
                    values = _csv_fields(raw.decode("utf-8"))
                except (UnicodeDecodeError, csv.Error) as exc:
                    if header is None:
                        raise SourceError("log.csv-header", f"{display_name(path)}: the header cannot be read ({exc})") from None
                    number += 1
                    yield number, refusal(None, "log.field", f"not a CSV line: {exc}")
                    continue
                if header is None:
                    twice = sorted({n for n in values if values.count(n) > 1})
                    if twice:
                        raise SourceError("log.csv-header", f"{display_name(path)}: the header names the column {twice[0][:40]!r} twice")
                    header = values
                    continue
                number += 1
                if len(values) != len(header):
                    yield number, refusal(None, "log.field", f"{len(values)} fields where the header names {len(header)}")
                    continue
                yield number, {k: (v if v != "" else None) for k, v in zip(header, values, strict=True)}


def _wanted(columns: list[str], spec: GameSpec, mapping: Mapping) -> list[str]:
    """The format's fields a source with ``columns`` gives (the required ones checked)."""
    fields = [*ROUND_FIELDS, *SEAT_FIELDS]
    for wager in spec.wagers.ids:
        fields += [f"bet_{wager}", f"net_{wager}"]
    named = set(mapping.columns.values()) | {c for v in mapping.columns.values() if isinstance(v, tuple) for c in v}
    fields += [c for c in columns if c.startswith(("bet_", "net_")) and c not in fields and c not in named]
    have = set(columns)
    missing = [f for f in REQUIRED if not set(mapping.source_columns([f])) <= have]
    if missing:
        shown = ", ".join(f"{f} (column {mapping.column(f)!r})" for f in missing)
        raise SourceError("source.column", f"the source has no column for {shown}", hint="name them in --mapping")
    return [f for f in fields if set(mapping.source_columns([f])) <= have]


def _parquet_rows(path: Path, spec: GameSpec, mapping: Mapping) -> Iterator[Row]:
    import pyarrow.dataset as ds

    name = display_name(path)
    try:
        dataset = ds.dataset(str(path), format="parquet", partitioning="hive")
        names = dataset.schema.names
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise SourceError("source.unreadable", f"{name}: not a Parquet file or dataset ({str(exc)[:200]})") from None
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SourceError("source.column", f"{name}: the column {twice[0][:40]!r} is named twice")
    fields = _wanted(names, spec, mapping)
    columns = sorted(set(mapping.source_columns(fields)), key=names.index)
    number = 0
    try:
        for batch in dataset.to_batches(columns=columns, batch_size=ROWS_AT_ONCE):
            for row in batch.to_pylist():
                number += 1
                yield number, {"\0fields": fields, **row}
    except (OSError, ValueError) as exc:
        raise SourceError("source.unreadable", f"{name}: cannot be read on ({str(exc)[:200]})") from None


def _engine(source: SqlSource) -> Any:
    import sqlalchemy as sa

    try:
        url = sa.engine.make_url(source.url)
    except sa.exc.ArgumentError as exc:
        raise SourceError("source.unreachable", f"not a database URL: {exc}") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        database = url.database or ""
        if not database or database == ":memory:" or not Path(database).is_file():
            raise SourceError("source.unreachable", f"{source.name}: no such database file {database!r}")
        import sqlite3

        def connect() -> sqlite3.Connection:
            connection = sqlite3.connect(f"file:{Path(database).resolve()}?mode=ro", uri=True, timeout=CONNECT_SECONDS)
            connection.execute("PRAGMA query_only = ON")
            return connection

        return sa.create_engine("sqlite://", creator=connect, poolclass=sa.pool.NullPool)
    if backend == "postgresql":
        options = f"-c default_transaction_read_only=on -c statement_timeout={STATEMENT_SECONDS * 1000}"
        return sa.create_engine(
            url, connect_args={"connect_timeout": CONNECT_SECONDS, "options": options}, poolclass=sa.pool.NullPool
        )
    raise SourceError("source.unreachable", f"{source.name}: trey reads SQLite and PostgreSQL databases, not {backend}")


def _sql_rows(source: SqlSource, spec: GameSpec, mapping: Mapping) -> Iterator[Row]:
    import sqlalchemy as sa

    if (source.query is None) == (source.table is None):
        raise SourceError("source.query", "a database is read with a query or a table, one of the two")
    engine = _engine(source)
    try:
        try:
            connection = engine.connect()
        except sa.exc.SQLAlchemyError as exc:
            raise SourceError(
                "source.unreachable",
                f"{source.name}: the database does not answer ({_first_line(exc)})",
                hint=f"trey waits {CONNECT_SECONDS} s for it",
            ) from None
        with connection:
            connection = connection.execution_options(stream_results=True, max_row_buffer=ROWS_AT_ONCE)
            try:
                if source.table is not None:
                    table = sa.table(source.table)
                    probe = connection.execute(sa.select(sa.text("*")).select_from(table).limit(0))
                    names = list(probe.keys())
                    probe.close()
                    order = list(mapping.order_by) or [_one(mapping.column("round")), _one(mapping.column("seat"))]
                    statement: Any = sa.select(*[sa.column(n) for n in names]).select_from(table).order_by(
                        *[sa.column(c) for c in order]
                    )
                else:
                    statement = sa.text(source.query or "")
                result = connection.execute(statement)
            except sa.exc.SQLAlchemyError as exc:
                raise SourceError("source.query", f"{source.name}: the query is refused ({_first_line(exc)})") from None
            names = list(result.keys())
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise SourceError("source.column", f"{source.name}: the query names the column {twice[0][:40]!r} twice")
            fields = _wanted(names, spec, mapping)
            number = 0
            try:
                for rows in result.partitions(ROWS_AT_ONCE):
                    for row in rows:
                        number += 1
                        yield number, {"\0fields": fields, **dict(zip(names, row, strict=True))}
            except sa.exc.SQLAlchemyError as exc:
                raise SourceError("source.query", f"{source.name}: reading stopped ({_first_line(exc)})") from None
    finally:
        engine.dispose()


def _one(column: str | tuple[str, ...]) -> str:
    return column if isinstance(column, str) else column[0]


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", exc) or exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def _text(value: object, what: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueRefused("log.field", f"{what} is text, not {value}")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    raise ValueRefused("log.field", f"{what} is text, not {type(value).__name__}")


def _number(value: object, what: str) -> object:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
        return int(value)
    return value


class _Row:
    """One row's fields in the format's terms."""

    def __init__(self, values: dict[str, Any], fields: list[str], mapping: Mapping) -> None:
        self.values, self.fields, self.mapping = values, fields, mapping

    def raw(self, name: str) -> Any:
        column = self.mapping.column(name)
        if isinstance(column, tuple):
            cells = [self.values.get(c) for c in column]
            return None if all(c is None for c in cells) else cells
        return self.values.get(column)

    def round_fields(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name in ROUND_FIELDS:
            if name not in self.fields:
                continue
            value = self.raw(name)
            if value is None or value == "":
                continue
            if name in ("dealer_cards", "deck", "input"):
                found[name] = self.mapping.cards(value, name)
            elif name == "table_seats":
                found[name] = _number(value, name)
            else:
                found[name] = _text(value, name)
        return found

    def seat(self, wagers: list[str]) -> dict[str, Any]:
        seat: dict[str, Any] = {"seat": _number(self.raw("seat"), "seat")}
        player = self.raw("player")
        seat["player"] = self.mapping.cards(player, "player") if player is not None else None
        decision = self.raw("decision") if "decision" in self.fields else None
        if decision is not None:
            seat["decision"] = _text(decision, "decision")
        for key, prefix in (("bets", "bet_"), ("net", "net_")):
            amounts = {}
            for name in self.fields:
                if name.startswith(prefix):
                    value = self.raw(name)
                    if value is not None and value != "":
                        amounts[name[len(prefix) :]] = self.mapping.amount(value, name)
            seat[key] = amounts
        parts = {p: self.raw(p) for p in PARTS if p in self.fields}
        if any(v is not None and v != "" for v in parts.values()):
            seat["parts"] = {p: self.mapping.amount(v, p) if v is not None else "" for p, v in parts.items()}
        return seat


def _rounds(rows: Iterator[Row], mapping: Mapping) -> Iterator[Record]:
    """Rows of a row-per-seat source gathered into table rounds: the consecutive rows of one round id."""
    number = 0
    current: dict[str, Any] | None = None
    current_raw: dict[str, Any] = {}
    current_id: object = None
    broken: Any = None  # the refusal of the current round, once one of its rows is refused
    for _, values in rows:
        if not isinstance(values, dict):  # a row refused as it was read: a round of its own
            if current is not None:
                yield number, broken or current
                current = None
            number += 1
            yield number, values
            continue
        fields = values.pop("\0fields", None) or list(ROUND_FIELDS + SEAT_FIELDS) + [
            k for k in values if k.startswith(("bet_", "net_"))
        ]
        row = _Row(values, fields, mapping)
        round_id = row.raw("round")
        if current is None or round_id != current_id:
            if current is not None:
                yield number, broken or current
            number += 1
            current, current_id, broken = None, round_id, None
        try:
            too_long = next(
                (k for k, v in values.items() if isinstance(v, str) and len(v) > MAX_VALUE_CHARACTERS), None
            )
            if too_long is not None:
                raise ValueRefused("log.field", f"the column {too_long[:40]!r} holds more than {MAX_VALUE_CHARACTERS:,} characters")
            shown = _text(round_id, "round")
            own = row.round_fields()
            seat = row.seat([])
        except ValueRefused as exc:
            if broken is None:
                broken = refusal(round_id if isinstance(round_id, str) else None, exc.code, str(exc))
            current = current or {}
            continue
        if current is None:
            current = {"round": shown, **{k: v for k, v in own.items() if k != "round"}, "seats": [seat]}
            current_raw = own
            continue
        if broken is not None:
            continue
        if own != current_raw:
            differ = sorted(k for k in set(own) | set(current_raw) if own.get(k) != current_raw.get(k))
            broken = refusal(shown, "round.rows", f"the rows of the round disagree on its {differ[0]}")
            continue
        if len(current["seats"]) >= TABLE_SEATS:
            broken = refusal(shown, "round.rows", f"more than {TABLE_SEATS} rows (seats) for one round")
            continue
        current["seats"].append(seat)
    if current is not None:
        yield number, broken or current
