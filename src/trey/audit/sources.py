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
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from trey.audit.log import MAX_LINE_BYTES, _blocks, _csv_fields, _line_ends
from trey.audit.mapping import Mapping, ValueRefused
from trey.audit.table_columns import Long, pair_cards
from trey.audit.tables import ROUND_FIELDS, TABLE_SEATS, Chunk, Record, refusal
from trey.cards.card import DECK_SIZE
from trey.core.errors import TreyError
from trey.core.files import display_name, open_regular
from trey.core.jsonread import JsonInputError, loads_strict
from trey.paytable.model import GameSpec

ROWS_AT_ONCE = 16_384  # rows read at a time (a round of 7 seats with its deck and input: about 3 KB of text)
# Parquet's rows read at a time: its decks are read as dictionaries (each text once a batch), so a batch holds a
# round's 52-card texts once, not on each of its rows
PARQUET_ROWS = 2 * ROWS_AT_ONCE
FIRST_ROWS = 4_096  # the first batch, smaller: the audit starts on it while the next is read
# JSON Lines of table rounds read BLOCK_BYTES times this at a time (8 MB: about 3,800 rounds of 5 seats with their
# decks): what is done once a block (the proof on arrays, the battery's counts) is done on more rounds at once
JSON_BLOCKS = 2
FIRST_BLOCK_BYTES = 1 << 20  # the first block read, smaller: the audit starts on it while the next is read
MAX_VALUE_CHARACTERS = 1_024  # a deck of 52 cards is about 200
FORMAT_LINES = 64  # lines of a JSON Lines log read to know its format (the first that reads as an object says it)
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
            head = stream.read(FORMAT_LINES * (MAX_LINE_BYTES + 2))
    except TreyError:
        return False  # the seat lines' reader says why
    text = head.lstrip(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    lines = [line for line in text.splitlines()[:FORMAT_LINES] if line.strip()]
    if source.name.lower().endswith(".csv"):
        try:
            return "dealer_cards" in _csv_fields(lines[0] if lines else "")
        except csv.Error:
            return False
    # The first line that reads as a JSON object says the format: a line that cannot be read is refused by either
    # reader, and must not make the rounds after it be read as the other format.
    for line in lines:
        try:
            data = loads_strict(line)
        except JsonInputError:
            continue
        if isinstance(data, dict):
            return "seats" in data
    return False


def records_of(
    source: Source,
    spec: GameSpec,
    mapping: Mapping | None,
    *,
    columnar: bool = True,
    fragment: tuple[int, int] | None = None,
) -> tuple[str, Iterator[Record | Chunk]]:
    """The name problems are located in, and the source's table rounds: as JSON (or the refusal of each record),
    or as chunks of columns for the fast reader. ``columnar``: let the fast reader prove what it can (without it,
    every round is read strictly; the audit is the same)."""
    mapping = mapping or Mapping()
    if isinstance(source, SqlSource):
        return source.name, _sql_rows(source, spec, mapping, columnar=columnar)
    name = display_name(source)
    if source.is_dir() or source.name.lower().endswith(".parquet"):
        at, done = fragment if fragment is not None else (None, 0)
        return name, _parquet_rows(source, spec, mapping, columnar=columnar, fragment=at, done=done)
    if source.name.lower().endswith(".csv"):
        return name, _csv_rounds(source, spec, mapping, columnar=columnar)
    return name, _ahead(_json_rounds(source, spec), spec, prove=False) if columnar else _json_lines(source)


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
                    yield (
                        first + index,
                        refusal(None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes"),
                    )
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
                        raise SourceError(
                            "log.csv-header", f"{display_name(path)}: the header cannot be read ({exc})"
                        ) from None
                    number += 1
                    yield number, refusal(None, "log.field", f"not a CSV line: {exc}")
                    continue
                if header is None:
                    twice = sorted({n for n in values if values.count(n) > 1})
                    if twice:
                        raise SourceError(
                            "log.csv-header",
                            f"{display_name(path)}: the header names the column {twice[0][:40]!r} twice",
                        )
                    header = values
                    yield 0, dict.fromkeys(header)
                    continue
                number += 1
                if len(values) != len(header):
                    yield (
                        number,
                        refusal(None, "log.field", f"{len(values)} fields where the header names {len(header)}"),
                    )
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


@dataclass(frozen=True)
class FragmentStart:
    """In a row-per-seat source's batches: the rows from here on are the ``index``-th fragment's (file) of a Parquet
    dataset. A round's rows never span two fragments but when its id goes on from one to the next: the last round of
    a fragment is then handed over by itself, and every batch holds the rows of one fragment (an audit of the
    fragments each on its own reads the same batches)."""

    index: int


def partition_clash(dataset: Any) -> str | None:
    """What is wrong when a partitioned dataset's folders (``shuffler=S8/``) name a column its files hold too:
    pyarrow takes the folder's value without a word, so rounds would be put on a shuffler their rows do not name."""
    import pyarrow.dataset as ds

    # The first file's folders' keys against its own columns: one file's metadata read, not every fragment's (an
    # audit in parts opens the dataset in every part), and the files of a hive dataset share their layout.
    fragment = next(iter(dataset.get_fragments()), None)
    if fragment is None:
        return None
    keys = set(ds.get_partition_keys(fragment.partition_expression))
    both = sorted(keys & set(fragment.physical_schema.names)) if keys else []
    return f"the column {both[0][:40]!r} is given by its folders and by its files' rows" if both else None


def parquet_dataset(path: Path, spec: GameSpec, mapping: Mapping) -> tuple[Any, list[str], list[str]]:
    """A Parquet file or partitioned folder as one pyarrow dataset, the format's fields it gives and the columns
    that hold them."""
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
    clash = partition_clash(dataset)
    if clash is not None:
        raise SourceError("source.column", f"{name}: {clash}", hint="keep the folders' or the files' column")
    fields = _wanted(names, spec, mapping)
    columns = sorted(set(mapping.source_columns(fields)), key=names.index)
    # A round's cards and deck repeat on each of its rows: read as dictionaries (each text once a batch).
    repeated = [
        c
        for f in ("dealer_cards", "deck", "input")
        if f in fields and isinstance(c := mapping.column(f), str) and pa.types.is_string(dataset.schema.field(c).type)
    ]
    if repeated:
        options = ds.ParquetReadOptions(dictionary_columns=repeated)
        dataset = ds.dataset(str(path), format=ds.ParquetFileFormat(read_options=options), partitioning="hive")
    return dataset, fields, columns


def _parquet_rows(
    path: Path,
    spec: GameSpec,
    mapping: Mapping,
    *,
    columnar: bool,
    fragment: int | None = None,
    done: int = 0,
) -> Iterator[Record | Chunk]:
    """A Parquet dataset's rounds, its fragments (files) in the dataset's order; ``fragment``: that one alone, its
    rounds numbered on from ``done`` (an audit of the dataset in parts: :mod:`trey.audit.distributed`)."""
    name = display_name(path)
    dataset, fields, columns = parquet_dataset(path, spec, mapping)
    fragments = list(dataset.get_fragments())
    if fragment is not None and not 0 <= fragment < len(fragments):
        raise SourceError("source.unreadable", f"{name}: has no fragment {fragment} (it changed while read)")
    chosen = range(len(fragments)) if fragment is None else [fragment]

    def batches() -> Iterator[pa.Table | list[dict[str, Any]] | FragmentStart]:
        first = True
        try:
            for index in chosen:
                yield FragmentStart(index)
                for batch in fragments[index].to_batches(
                    schema=dataset.schema, columns=columns, batch_size=PARQUET_ROWS
                ):
                    table = pa.Table.from_batches([batch])
                    # The audit starts on a few rows while the rest is proven: the dataset's first batch, cut the
                    # same whether the dataset is read whole or its first fragment alone (an audit in parts).
                    if index == 0 and first and len(table) > FIRST_ROWS:
                        yield table.slice(0, FIRST_ROWS)
                        table = table.slice(FIRST_ROWS)
                    first = False
                    yield table
        except (OSError, ValueError) as exc:
            raise SourceError("source.unreadable", f"{name}: cannot be read on ({str(exc)[:200]})") from None

    chunks = _chunks(batches(), fields, mapping, columnar=columnar, done=done)
    return _ahead(chunks, spec) if columnar else chunks


RECORDS_AHEAD = 1_024  # records (read strictly) a reading thread hands over at a time
STEPS_AHEAD = 2  # chunks (or lots of records) the reading thread may have ready before the audit takes them


def _ahead(items: Iterator[Record | Chunk], spec: GameSpec, *, prove: bool = True) -> Iterator[Record | Chunk]:
    """``items`` read, and each chunk proven (``prove``), on a second thread while the one before is audited
    (pyarrow's readers and numpy leave the interpreter while they work): :data:`STEPS_AHEAD` steps ahead, so at
    most that many chunks and the one audited in memory. For files only: a database's connection stays on the
    thread that opened it. JSON Lines leave the proof to the caller's thread: parsing them (on the reading thread
    alone, :func:`_json_rounds`) is as much work as the rest."""

    def step() -> list[Record | Chunk]:
        taken: list[Record | Chunk] = []
        for item in items:
            taken.append(item)
            if isinstance(item, Chunk):
                if prove:
                    item.prove(spec)
                break
            if len(taken) >= RECORDS_AHEAD:
                break
        return taken

    pool = ThreadPoolExecutor(max_workers=1)
    try:
        # Steps queued on the one reading thread run in turn: STEPS_AHEAD of them ahead, so that a step longer than
        # the audit of the one before (a block pyarrow parses slowly) does not keep the audit waiting.
        pending = deque(pool.submit(step) for _ in range(STEPS_AHEAD))
        while True:
            taken = pending.popleft().result()
            if not taken:
                return
            pending.append(pool.submit(step))
            yield from taken
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        close = getattr(items, "close", None)
        if close is not None:
            close()


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
            connection.set_authorizer(_reading_only)
            return connection

        return sa.create_engine("sqlite://", creator=connect, poolclass=sa.pool.NullPool)
    if backend == "postgresql":
        options = f"-c default_transaction_read_only=on -c statement_timeout={STATEMENT_SECONDS * 1000}"
        return sa.create_engine(
            url, connect_args={"connect_timeout": CONNECT_SECONDS, "options": options}, poolclass=sa.pool.NullPool
        )
    raise SourceError("source.unreachable", f"{source.name}: trey reads SQLite and PostgreSQL databases, not {backend}")


def _reading_only(action: int, _name: str | None, second: str | None, *_: object) -> int:
    """SQLite's authorizer of a query: reading (SELECT, WITH, functions, a pragma read) and nothing else. ``mode=ro``
    and ``query_only`` refuse writes, but ATTACH creates its file and VACUUM INTO its copy before they are refused:
    each is denied here when the query is prepared, before anything runs."""
    import sqlite3

    reading = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
    if action in reading or action == sqlite3.SQLITE_TRANSACTION:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and second is None:  # a pragma read, not set (SQLAlchemy reads some)
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def _rows_of(result: Any, source: SqlSource) -> list[str]:
    """The names of a result's columns; a located error for a statement that returns no rows."""
    if not result.returns_rows:
        raise SourceError("source.query", f"{source.name}: the query returns no rows", hint="give a SELECT")
    return list(result.keys())


@contextmanager
def _connected(source: SqlSource) -> Iterator[Any]:
    """A read-only connection to ``source``'s database (a query or a table, one of the two), closed and its engine
    disposed however the reading ends; one located error when the database does not answer in the bounded wait."""
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
            yield connection
    finally:
        engine.dispose()


def _sql_rows(source: SqlSource, spec: GameSpec, mapping: Mapping, *, columnar: bool) -> Iterator[Record | Chunk]:
    import sqlalchemy as sa

    with _connected(source) as connection:
        connection = connection.execution_options(stream_results=True, max_row_buffer=ROWS_AT_ONCE)
        try:
            if source.table is not None:
                table = sa.table(source.table)
                probe = connection.execute(sa.select(sa.text("*")).select_from(table).limit(0))
                names = list(probe.keys())
                probe.close()
                order = list(mapping.order_by) or [_one(mapping.column("round")), _one(mapping.column("seat"))]
                statement: Any = (
                    sa.select(*[sa.column(n) for n in names])
                    .select_from(table)
                    .order_by(*[sa.column(c) for c in order])
                )
            else:
                statement = sa.text(source.query or "")
            result = connection.execute(statement)
        except sa.exc.SQLAlchemyError as exc:
            raise SourceError("source.query", f"{source.name}: the query is refused ({_first_line(exc)})") from None
        names = _rows_of(result, source)
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise SourceError("source.column", f"{source.name}: the query names the column {twice[0][:40]!r} twice")
        fields = _wanted(names, spec, mapping)
        wanted = set(mapping.source_columns(fields))
        keep = [i for i, n in enumerate(names) if n in wanted]

        def partitions() -> Iterator[pa.Table | list[dict[str, Any]]]:
            try:
                for rows in result.partitions(ROWS_AT_ONCE):
                    dicts = [{names[i]: row[i] for i in keep} for row in rows]
                    try:
                        yield pa.Table.from_pylist(dicts)
                    except (pa.ArrowException, TypeError, ValueError, OverflowError):
                        yield dicts  # values a column cannot hold as one type: read strictly
            except sa.exc.SQLAlchemyError as exc:
                raise SourceError("source.query", f"{source.name}: reading stopped ({_first_line(exc)})") from None

        yield from _chunks(partitions(), fields, mapping, columnar=columnar)


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


def _number(value: object) -> object:
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
                found[name] = _number(value)
            else:
                found[name] = _text(value, name)
        return found

    def seat(self) -> dict[str, Any]:
        seat: dict[str, Any] = {"seat": _number(self.raw("seat"))}
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


def _rounds(rows: Iterator[Row], mapping: Mapping, number: int = 0) -> Iterator[Record]:
    """Rows of a row-per-seat source gathered into table rounds: the consecutive rows of one round id (numbered on
    from ``number``)."""
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
                raise ValueRefused(
                    "log.field", f"the column {too_long[:40]!r} holds more than {MAX_VALUE_CHARACTERS:,} characters"
                )
            shown = _text(round_id, "round")
            own = row.round_fields()
            seat = row.seat()
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


CARD_FIELDS = ("dealer_cards", "deck", "input", "player")
AMOUNT_PREFIXES = ("bet_", "net_")


def _same_as_before(values: pa.Array) -> np.ndarray:
    """Whether each value equals the one before it (two nulls are equal, as None == None)."""
    if len(values) < 2:
        return np.zeros(len(values), dtype=bool)
    a, b = values.slice(1), values.slice(0, len(values) - 1)
    same = pc.or_(pc.equal(a, b).fill_null(False), pc.and_(a.is_null(), b.is_null()))
    return np.concatenate([[False], same.to_numpy(zero_copy_only=False)])


def _blank_to_null(values: pa.Array) -> pa.Array:
    if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
        return pc.if_else(pc.equal(values, ""), pa.scalar(None, values.type), values)
    return values


def _pairs_split(values: pa.Array, sep: str) -> pa.Array | None:
    """Texts of two-character cards, each the one separator apart ("Qd 3s 2d"), split on arrays of their bytes:
    what :func:`_card_lists` splits them into (every card printable ASCII other than a space or the separator, one
    separator between two cards, none at either end), without a pattern matched over each text. None when a text
    is null or laid out otherwise: the general split's."""
    if len(sep) != 1 or not " " <= sep <= "~" or not pa.types.is_string(values.type) or values.null_count:
        return None
    _, offset_buffer, data_buffer = values.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=np.int32)[values.offset : values.offset + len(values) + 1]
    lengths = np.diff(offsets)
    if data_buffer is None or not len(values) or bool(((lengths < 2) | ((lengths + 1) % 3 != 0)).any()):
        return None
    data = np.frombuffer(data_buffer, dtype=np.uint8)[int(offsets[0]) : int(offsets[-1])]
    if bool((lengths == lengths[0]).all()):  # texts of one length (a column of decks, of hands): a matrix of bytes
        rows = data.reshape(len(values), int(lengths[0]))
        separators, cards = rows[:, 2::3], np.delete(rows, np.s_[2::3], axis=1).ravel()
    else:
        at = np.arange(len(data)) - np.repeat(offsets[:-1] - offsets[0], lengths)  # each byte's place in its text
        between = at % 3 == 2
        separators, cards = data[between], data[~between]
    byte = ord(sep)
    if not (bool((separators == byte).all()) and bool(((cards > 0x20) & (cards < 0x7F) & (cards != byte)).all())):
        return None
    count = len(cards) // 2
    texts = pa.StringArray.from_buffers(
        count, pa.py_buffer(np.arange(0, 2 * count + 1, 2, dtype=np.int32)), pa.py_buffer(cards.tobytes())
    )
    starts = np.concatenate([[0], np.cumsum((lengths + 1) // 3)]).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(starts, type=pa.int32()), texts)


def _pair_codes(values: pa.Array, sep: str, width: int, card_of: Any) -> np.ndarray | None:
    """The card numbers (rows, ``width``) of texts of ``width`` two-character cards the one separator apart
    ("Qd 3s 2d"), read on the matrix of their bytes: what :func:`_card_lists` splits them into (as
    :func:`_pairs_split` does) read by ``card_of`` (:func:`~trey.audit.table_columns.pair_cards`), without the
    lists made. A column of dictionary texts (Parquet's decks): its dictionary's, each entry once. None when a text
    is null or laid out otherwise (:func:`_card_lists` and the general reading take it)."""
    if pa.types.is_dictionary(values.type):
        if values.null_count or not pa.types.is_string(values.type.value_type):
            return None
        entries = _pair_codes(values.dictionary, sep, width, card_of)
        if entries is None:
            return None
        found: np.ndarray = entries[values.indices.to_numpy(zero_copy_only=False)]
        return found
    if len(sep) != 1 or not " " <= sep <= "~" or not pa.types.is_string(values.type) or values.null_count:
        return None
    _, offset_buffer, data_buffer = values.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=np.int32)[values.offset : values.offset + len(values) + 1]
    length = 3 * width - 1
    if data_buffer is None or not bool((np.diff(offsets) == length).all()):
        return None
    data = np.frombuffer(data_buffer, dtype=np.uint8)[int(offsets[0]) : int(offsets[-1])]
    rows = data.reshape(len(values), length)
    first, second, byte = rows[:, 0::3], rows[:, 1::3], ord(sep)
    if not bool((rows[:, 2::3] == byte).all()):
        return None
    for half in (first, second):
        if not bool(((half > 0x20) & (half < 0x7F) & (half != byte)).all()):
            return None
    pairs = (first.astype(np.intp) << 8) | second
    return pair_cards(pairs.ravel(), card_of).reshape(len(values), width)


def _card_lists(values: pa.Array, mapping: Mapping, *, optional: bool) -> pa.Array | None:
    """A column of hands or decks as lists of card texts, as the strict reader splits them (None: a type it does
    not take, for the strict reader). A text it might split otherwise becomes an empty list (so its round is the
    strict reader's)."""
    if pa.types.is_dictionary(values.type):
        values = values.dictionary_decode()
    if pa.types.is_list(values.type) or pa.types.is_large_list(values.type):
        inner = values.type.value_type
        return values if pa.types.is_string(inner) or pa.types.is_large_string(inner) else None
    if pa.types.is_null(values.type):
        return pa.nulls(len(values), pa.list_(pa.string()))
    if not pa.types.is_string(values.type):
        return None
    sep = mapping.separator
    pairs = _pairs_split(values, sep)
    if pairs is not None:
        return pairs
    if optional:
        values = _blank_to_null(values)
    if not sep.strip():
        clean = pc.match_substring_regex(values, r"^[!-~]+( [!-~]+)*$")
        split = pc.split_pattern(values, " ")
    else:
        clean = pc.and_(
            pc.match_substring_regex(values, r"^[!-~]+$"),
            pc.invert(
                pc.or_(
                    pc.or_(pc.match_substring(values, sep + sep), pc.starts_with(values, sep)),
                    pc.ends_with(values, sep),
                )
            ),
        )
        split = pc.split_pattern(values, sep)
    empty = pa.scalar([], pa.list_(pa.string()))
    return pc.if_else(pc.or_(clean, values.is_null()), split, empty)


def _long(table: pa.Table, fields: list[str], mapping: Mapping, group: np.ndarray, card_of: Any) -> Long | None:
    found: dict[str, pa.Array | None] = {}
    for name in fields:
        column = mapping.column(name)
        if isinstance(column, tuple):
            parts = [table.column(c).combine_chunks() for c in column]
            if not all(pa.types.is_string(p.type) for p in parts) or any(p.null_count for p in parts):
                return None
            flat = pa.concat_arrays(parts).take(pa.array(np.arange(3 * len(table)).reshape(3, -1).T.ravel()))
            found[name] = pa.ListArray.from_arrays(pa.array(np.arange(0, 3 * len(table) + 1, 3), pa.int32()), flat)
            continue
        values = table.column(column).combine_chunks()
        if name in CARD_FIELDS or name == "round":
            found[name] = values
        else:
            found[name] = _blank_to_null(values)
    wagers = sorted({f[4:] for f in fields if f.startswith(AMOUNT_PREFIXES)})
    return Long(
        group,
        len(table),
        found,
        wagers,
        lambda values, optional: _card_lists(values, mapping, optional=optional),
        codes=lambda values, width: _pair_codes(values, mapping.separator, width, card_of),
    )


def _readers(mapping: Mapping) -> dict[str, Any]:
    from trey.audit.log import _amounts, _card, _round_id, _table
    from trey.audit.rounds import cents
    from trey.audit.tables import _label

    def card_of(text: str) -> int:
        return int(_card(mapping.card(text)))

    def amount_of(value: Any, signed: bool) -> int:
        shown = mapping.amount(value, "x")
        return cents(_amounts({"x": shown}, "x", ("x",), signed=signed, stranger=lambda n: ValueError(n))["x"])  # type: ignore[arg-type,return-value]

    def seat_of(value: Any) -> int:
        number = _number(value)
        if type(number) is not int:
            raise ValueError("not a seat")
        return number

    return {
        "card_of": card_of,
        "amount_of": amount_of,
        "text_of": lambda v: _table(_text(v, "table")),
        "round_of": lambda v: _round_id(_text(v, "round")),
        "label_of": lambda v: _label({"x": _text(v, "label")}, "x"),
        "seat_of": seat_of,
        "count_of": seat_of,
        # amount_of reads a whole number as the JSON reader does when the mapping reads money in units (a whole
        # number as it is): a column of whole numbers read on arrays
        "whole_cents": mapping.money == "units",
    }


def _chunks(
    items: Iterator[pa.Table | list[dict[str, Any]] | FragmentStart],
    fields: list[str],
    mapping: Mapping,
    *,
    columnar: bool = True,
    done: int = 0,
) -> Iterator[Record | Chunk]:
    """A row-per-seat source's batches of rows as chunks for the fast reader, a round's rows never split between
    two (the last round of a batch waits for the next, within its fragment: :class:`FragmentStart`); a batch it
    cannot take as columns, and all after it, read strictly (all of them without ``columnar``). ``done``: the
    rounds numbered before."""
    tables = (t for t in items if not isinstance(t, FragmentStart)) if not columnar else items
    if not columnar:
        yield from _strict_rows([], [], tables, fields, mapping, done)
        return
    readers = _readers(mapping)
    round_column = mapping.column("round")
    assert isinstance(round_column, str)
    carry: pa.Table | None = None
    part: int | None = None  # the fragment read
    carried_part: int | None = None  # the carried round's
    boundary = False  # a fragment starts: the round carried ends with the last, unless its id goes on
    for table in tables:
        if isinstance(table, FragmentStart):
            part, boundary = table.index, carry is not None
            continue
        if boundary and isinstance(table, pa.Table) and carry is not None and len(table):
            boundary = False
            if carry.column(round_column)[0].as_py() != table.column(round_column)[0].as_py():
                starts = ~_same_as_before(carry.column(round_column).combine_chunks())
                for item in _chunk(carry, np.cumsum(starts) - 1, fields, mapping, readers, done):
                    yield _tagged(item, carried_part)
                done += int(starts.sum())
                carry = None
        if isinstance(table, list):  # read strictly from here on
            rest: list[dict[str, Any]] = carry.to_pylist() if carry is not None else []
            yield from _strict_rows(rest, table, tables, fields, mapping, done)
            return
        if carry is not None:
            try:
                table = pa.concat_tables([carry, table], promote_options="permissive")
            except (pa.ArrowException, TypeError, ValueError):
                yield from _strict_rows(carry.to_pylist(), table.to_pylist(), tables, fields, mapping, done)
                return
        starts = ~_same_as_before(table.column(round_column).combine_chunks())
        group = np.cumsum(starts) - 1
        last = int(np.flatnonzero(starts)[-1]) if len(table) else 0
        carry, carried_part = table.slice(last), part
        table = table.slice(0, last)
        if not len(table):
            continue
        for item in _chunk(table, group[:last], fields, mapping, readers, done):
            yield _tagged(item, part)
        done += int(group[last - 1]) + 1
    if carry is not None and len(carry):
        starts = ~_same_as_before(carry.column(round_column).combine_chunks())
        for item in _chunk(carry, np.cumsum(starts) - 1, fields, mapping, readers, done):
            yield _tagged(item, carried_part)


def _tagged(item: Record | Chunk, part: int | None) -> Record | Chunk:
    if isinstance(item, Chunk):
        item.part = part
    return item


def _chunk(
    table: pa.Table, group: np.ndarray, fields: list[str], mapping: Mapping, readers: dict[str, Any], done: int
) -> Iterator[Record | Chunk]:
    groups = int(group[-1]) + 1
    numbers = done + 1 + np.arange(groups, dtype=np.int64)
    first = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    ends = np.r_[first[1:], len(group)]

    def strict(good: np.ndarray) -> Iterator[Record]:
        for g in np.flatnonzero(~good).tolist():
            rows = table.slice(int(first[g]), int(ends[g] - first[g])).to_pylist()
            for row in rows:
                row["\0fields"] = fields
            yield from _rounds(iter((0, r) for r in rows), mapping, done + g)

    long = _long(table, fields, mapping, group.astype(np.int64), readers["card_of"])
    if long is None:
        yield from strict(np.zeros(groups, dtype=bool))
        return
    yield Chunk(long, numbers, readers, strict)


def _csv_rounds(path: Path, spec: GameSpec, mapping: Mapping, *, columnar: bool) -> Iterator[Record | Chunk]:
    """A CSV of table rounds: its rows (text, a blank field no value) in batches of columns for the fast reader; a
    line that is not a row of the header's fields, and all after it, read strictly."""
    rows = _csv_rows(path)
    header = next(rows, None)
    if header is None:
        return
    fields = _wanted(list(header[1]), spec, mapping)

    def batches() -> Iterator[pa.Table | list[dict[str, Any]]]:
        batch: list[dict[str, Any]] = []
        for _, row in rows:
            batch.append(row)
            if not isinstance(row, dict):
                yield batch
                batch = []
                for _, more in rows:
                    batch.append(more)
                    if len(batch) >= ROWS_AT_ONCE:
                        yield batch
                        batch = []
                break
            if len(batch) >= ROWS_AT_ONCE:
                yield _csv_table(batch, header[1])
                batch = []
        if batch:
            yield _csv_table(batch, header[1]) if all(isinstance(r, dict) for r in batch) else batch

    yield from _chunks(batches(), fields, mapping, columnar=columnar)


def _csv_table(rows: list[dict[str, Any]], header: dict[str, Any]) -> pa.Table:
    return pa.Table.from_pydict({k: pa.array([r[k] for r in rows], type=pa.string()) for k in header})


def _strict_rows(
    first: list[dict[str, Any]],
    then: list[dict[str, Any]],
    rest: Iterator[pa.Table | list[dict[str, Any]]],
    fields: list[str],
    mapping: Mapping,
    done: int,
) -> Iterator[Record]:
    def rows() -> Iterator[Row]:
        for batch in [first, then]:
            for row in batch:
                yield 0, {"\0fields": fields, **row} if isinstance(row, dict) else row
        for more in rest:
            for row in more.to_pylist() if isinstance(more, pa.Table) else more:
                yield 0, {"\0fields": fields, **row} if isinstance(row, dict) else row

    yield from _rounds(rows(), mapping, done)


def _holds_null(text: np.ndarray) -> bool:
    """Whether the bytes ``text`` hold ``null`` anywhere (as ``b"null" in`` them, on the array of bytes: each
    ``u`` met, its neighbours looked at)."""
    u = np.flatnonzero(text[1:-2] == ord("u")) + 1
    return bool(((text[u - 1] == ord("n")) & (text[u + 1] == ord("l")) & (text[u + 2] == ord("l"))).any())


def _json_schema(spec: GameSpec, amount: pa.DataType) -> pa.Schema:
    """The columns of a block of table rounds, every field typed (a key they do not name is an error)."""
    cards = pa.list_(pa.string())
    wagers = pa.struct([(w, amount) for w in spec.wagers.ids])
    seat = pa.struct(
        [
            ("seat", pa.int64()),
            ("player", cards),
            ("decision", pa.string()),
            ("bets", wagers),
            ("net", wagers),
            ("parts", pa.struct([(p, amount) for p in PARTS])),
        ]
    )
    text = [(k, pa.string()) for k in ("round", "table", "time", "dealer", "shuffler", "shift")]
    return pa.schema(
        [
            *text,
            ("table_seats", pa.int64()),
            ("dealer_cards", cards),
            ("deck", cards),
            ("input", cards),
            ("seats", pa.list_(seat)),
        ]
    )


def _json_readers() -> dict[str, Any]:
    from trey.audit.log import _amounts, _card, _round_id, _table
    from trey.audit.rounds import cents
    from trey.audit.tables import _label

    def card_of(text: str) -> int:
        if len(text) > 3:
            raise ValueError("not a card")
        return int(_card(text))

    def amount_of(value: Any, signed: bool) -> int:
        return cents(_amounts({"x": value}, "x", ("x",), signed=signed, stranger=lambda n: ValueError(n))["x"])  # type: ignore[arg-type,return-value]

    def whole(value: Any) -> int:
        if type(value) is not int:
            raise ValueError("not a whole number")
        return value

    return {
        "card_of": card_of,
        "amount_of": amount_of,
        "text_of": _table,
        "round_of": _round_id,
        "label_of": lambda v: _label({"x": v}, "x"),
        "seat_of": whole,
        "count_of": whole,
        "whole_cents": True,  # amount_of reads whole numbers as the seat lines' reader does
    }


def _json_rounds(path: Path, spec: GameSpec) -> Iterator[Record | Chunk]:
    """A JSON Lines log of table rounds: each block of lines parsed at once by pyarrow's reader (C++, into typed
    columns; a key given twice, a key the columns do not name, a value of another type: the block is read line by
    line) and proven on arrays; every line it cannot prove read strictly."""
    import pyarrow.json as pj

    readers = _json_readers()
    schemas = [_json_schema(spec, pa.int64()), _json_schema(spec, pa.string())]
    with open_regular(path, what="a hand history (JSON Lines or CSV)") as stream:
        for item in _blocks(stream, JSON_BLOCKS, FIRST_BLOCK_BYTES):
            if isinstance(item, int):
                yield item, refusal(None, "log.line-too-long", f"a line of more than {MAX_LINE_BYTES:,} bytes")
                continue
            first, block, count = item
            table = None
            cards: dict[str, np.ndarray] = {}
            if b"\r" not in block and b"\\" not in block and b"\x7f" not in block and block.isascii():
                text = np.frombuffer(block, dtype=np.uint8)
                ends = np.flatnonzero(text == ord("\n"))
                starts = np.concatenate([[0], ends[:-1] + 1])
                if (
                    np.count_nonzero(text < 0x20) == len(ends)  # printable ASCII, newlines apart
                    and bool((text[starts] == ord("{")).all())  # every line an object: none blank
                    and int((ends - starts).max()) <= MAX_LINE_BYTES
                    and not _holds_null(text)
                ):
                    parsed, cards = _decks_read(block, text, ends, readers["card_of"])
                    # The block parsed as one (its lines whole, each at most MAX_LINE_BYTES), on this thread alone
                    # (the audit of the block before runs on the other core; pyarrow's threads would share it with
                    # the audit, at more work for the same parse).
                    one_thread = pj.ReadOptions(use_threads=False, block_size=max(len(parsed), 1 << 20))
                    for schema in schemas:
                        options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
                        try:
                            table = pj.read_json(io.BytesIO(parsed), read_options=one_thread, parse_options=options)
                            break
                        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                            continue
            if table is None or table.num_rows != count:
                yield from _json_block_strictly(first, block)
                continue
            yield _json_chunk(table, first, block, readers, cards)


# A deck as json.dumps writes it, each card two characters: ["Qd", "3s", ...], each card 6 bytes ('"Qd", ').
def _deck_template(keys: tuple[str, ...]) -> tuple[bytes, list[int]]:
    """The end of a line that writes ``keys`` last, as json.dumps does: the text, with a place holder for each
    deck's cards, and where each deck's cards start in it."""
    text, starts = b"", []
    for key in keys:
        text += b', "' + key.encode() + b'": ['
        starts.append(len(text))
        text += b'"..", ' * (DECK_SIZE - 1) + b'".."]'
    return text + b"}", starts


_DECK_ENDS = [(keys, *_deck_template(keys)) for keys in (("deck", "input"), ("deck",))]


def _decks_read(block: bytes, text: np.ndarray, ends: np.ndarray, card_of: Any) -> tuple[bytes, dict[str, np.ndarray]]:
    """The block with each line's deck and input emptied (``"deck": [], "input": []``) and their cards read on
    arrays of bytes: the decks are a third of a table round's text and most of what pyarrow's reader would parse.
    Only when every line of the block ends as trey writes it, ``..., "deck": ["Qd", "3s", ...], "input": [...]}``
    (52 two-character cards each; or the deck alone); otherwise the block is pyarrow's, as it is.

    Sound: the block holds no backslash (proven before), so no text holds a quote, and the cards emptied are whole
    texts inside the lists; what is left is the line as it was, the lists empty: pyarrow refuses the rest as it
    would have (a key given twice, a key in a seat, anything not JSON). The end of a line is its top-level object's
    last members: the deck and input are the round's."""
    for keys, template, starts in _DECK_ENDS:
        size = len(template)
        if not len(ends) or int((ends - np.concatenate([[-1], ends[:-1]])).min()) <= size + 1:
            continue
        # Each line's last ``size`` bytes, a row each (rows of a view of the block: copied once, no index made of
        # each byte).
        window = np.lib.stride_tricks.sliding_window_view(text, size)[ends - size]
        pattern = np.frombuffer(template, dtype=np.uint8)
        if not bool(((window == pattern) | (pattern == ord("."))).all()):
            continue
        # Each card's two bytes as one big-endian number (first byte x 256 + second), read in place.
        pairs = np.concatenate(
            [
                np.ndarray((len(ends), DECK_SIZE), dtype=">u2", buffer=window, offset=start + 1, strides=(size, 6))
                for start in starts
            ],
            axis=1,
        ).astype(np.intp)
        if bool(((pairs >> 8 == ord('"')) | (pairs & 0xFF == ord('"'))).any()):
            continue
        numbers = pair_cards(pairs.ravel(), card_of).astype(np.int8).reshape(len(ends), -1)  # 0-51, BAD -1
        cards = {key: numbers[:, k * DECK_SIZE : (k + 1) * DECK_SIZE] for k, key in enumerate(keys)}
        emptied = b"".join(b', "' + k.encode() + b'": []' for k in keys) + b"}\n"
        view = memoryview(block)
        line_starts = np.concatenate([[0], ends[:-1] + 1]).tolist()
        cut = (ends - size).tolist()
        pieces = [part for a, b in zip(line_starts, cut, strict=True) for part in (view[a:b], emptied)]
        return b"".join(pieces), cards
    return block, {}


def _json_block_strictly(first: int, block: bytes) -> Iterator[Record]:
    start = 0
    for index, end in enumerate(_line_ends(block).tolist()):
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


def _json_chunk(
    table: pa.Table, first: int, block: bytes, readers: dict[str, Any], cards: dict[str, np.ndarray]
) -> Chunk:
    rounds = table.num_rows
    seats = table.column("seats").combine_chunks()
    lengths = pc.list_value_length(seats).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    has = lengths > 0
    parent = pc.list_parent_indices(seats).to_numpy(zero_copy_only=False).astype(np.int64)
    compact = np.cumsum(has) - 1
    group = compact[parent]
    with_seats = np.flatnonzero(has)
    every = len(with_seats) == rounds  # every round with seats (as a log has them): its columns as they are
    flat = pc.list_flatten(seats)
    own = dict(zip([f.name for f in flat.type], flat.flatten(), strict=True))
    fields: dict[str, pa.Array | None] = {}
    fields["seat"], fields["player"], fields["decision"] = own["seat"], own["player"], own["decision"]
    bad = np.zeros(len(parent), dtype=bool)
    for key, prefix in (("bets", "bet_"), ("net", "net_")):
        for name, values in zip([f.name for f in own[key].type], own[key].flatten(), strict=True):
            fields[prefix + name] = values
    parts = own["parts"]
    part_values = parts.flatten()
    for name, values in zip(PARTS, part_values, strict=True):
        fields[name] = values
    present = ~parts.is_null().to_numpy(zero_copy_only=False)
    empty = np.ones(len(parent), dtype=bool)
    for values in part_values:
        empty &= values.is_null().to_numpy(zero_copy_only=False)
    bad |= present & empty  # "parts": {} — refused by the strict reader
    # The round's own fields once a round (of the rounds with seats), not repeated on each seat's row.
    taken = pa.array(with_seats, type=pa.int64())
    per_round = {}
    for name in ROUND_FIELDS:
        if name not in cards:
            column = table.column(name).combine_chunks()
            per_round[name] = column if every else column.take(taken)
    read_cards = {name: codes if every else codes[with_seats] for name, codes in cards.items()}
    wagers = sorted({k[4:] for k in fields if k.startswith(AMOUNT_PREFIXES)})
    long = Long(
        group, len(parent), fields, wagers, grouped=True, per_round=per_round, bad_rows=bad, read_cards=read_cards
    )
    numbers = first + with_seats.astype(np.int64)  # a round a line, no blank line in a block read so

    def strict(good: np.ndarray) -> Iterator[Record]:
        again = np.ones(rounds, dtype=bool)
        again[with_seats[good]] = False
        doubtful = np.flatnonzero(again).tolist()
        if not doubtful:
            return
        ends = _line_ends(block)  # a round a line: line ``row`` of the block is round ``row``
        for row in doubtful:
            raw = block[int(ends[row - 1]) + 1 if row else 0 : int(ends[row])]
            try:
                yield first + row, loads_strict(raw.decode("utf-8"))
            except JsonInputError as exc:
                yield first + row, refusal(None, "log.not-json", f"not a JSON round: {exc}")

    return Chunk(long, numbers, readers, strict, rounds)


def sql_rows(source: SqlSource, limit: int) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    """The column names and at most ``limit`` + 1 rows of a database's table or query, each with its number from 1
    (a short table such as a shift ledger: the caller refuses more than ``limit``); read-only, with the bounded
    waits and the errors of the table rounds' reader."""
    import sqlalchemy as sa

    with _connected(source) as connection:
        statement: Any = (
            sa.select(sa.text("*")).select_from(sa.table(source.table))
            if source.table is not None
            else sa.text(source.query or "")
        )
        try:
            result = connection.execute(statement)
            names = _rows_of(result, source)
            rows = result.fetchmany(limit + 1)
        except sa.exc.SQLAlchemyError as exc:
            raise SourceError("source.query", f"{source.name}: the query is refused ({_first_line(exc)})") from None
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SourceError("source.column", f"{source.name}: the query names the column {twice[0][:40]!r} twice")
    return names, [(number, dict(zip(names, row, strict=True))) for number, row in enumerate(rows, start=1)]
