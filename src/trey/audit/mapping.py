"""A source's own names, cards and money mapped onto the hand-history format (``trey audit --mapping FILE``).

A mapping is a YAML file (schemas/source-mapping.schema.json, read as paytables are: duplicate keys refused, every
error located by line and column)::

    mapping: 1
    columns: {round: HAND_ID, seat: SEAT_NO, player: [P1, P2, P3], dealer_cards: DLR, bet_ante: ANTE_CENTS}
    cards: {notation: suit-rank, separator: ","}   # or notation: codes, with codes: {"04A1": As, ...}
    money: cents

It applies to the sources with a row per seat (CSV table rounds, Parquet, SQL). A field it does not name is read from
the column of its own name. Cards: ``rank-suit`` (``Th``, ``10h``), ``suit-rank`` (``HT``, ``H10``) or ``codes`` (a
table of all 52, such as an RFID shoe's). Money: ``units`` (``7.50``) or ``cents`` (``750``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from trey.cards.card import Card
from trey.core.errors import Problem, SpecError
from trey.core.files import display_name, read_bounded
from trey.paytable.yamldoc import MAPPING_FILE, MAX_FILE_BYTES, parse_yaml

CARD_FIELDS = ("dealer_cards", "player", "deck", "input")
TEXT_FIELDS = ("round", "table", "time", "dealer", "shuffler", "shift", "decision")
NUMBER_FIELDS = ("seat", "table_seats")


class ValueRefused(ValueError):
    """A value of a source that cannot stand for its field (its code, as a line's refusal)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Mapping:
    """Column names by field, the card notation and the money's unit. ``Mapping()`` is the format as it is."""

    columns: dict[str, str | tuple[str, str, str]] = field(default_factory=dict)
    notation: str = "rank-suit"
    separator: str = " "
    codes: dict[str, str] = field(default_factory=dict)
    money: str = "units"
    order_by: tuple[str, ...] = ()

    def column(self, name: str) -> str | tuple[str, str, str]:
        return self.columns.get(name, name)

    def source_columns(self, fields: list[str]) -> list[str]:
        """The source's columns that ``fields`` are read from."""
        found: list[str] = []
        for name in fields:
            column = self.column(name)
            found += list(column) if isinstance(column, tuple) else [column]
        return found

    def card(self, text: str) -> str:
        """One card as the format writes it (``Th``); :class:`ValueRefused` when the notation has no such card."""
        if self.notation == "codes":
            found = self.codes.get(text.strip())
            if found is None:
                raise ValueRefused("log.card", f"{text[:32]!r} is not a card code of the mapping's table")
            return found
        t = text.strip()
        if self.notation == "suit-rank" and len(t) >= 2:
            t = t[1:] + t[0]
        try:
            return str(Card.parse(t)) if len(t) <= 3 else _not_a_card(text)
        except ValueError:
            return _not_a_card(text)

    def cards(self, value: object, what: str) -> list[str]:
        """A hand or a deck: a list (Parquet, a SQL array) or text split by the separator."""
        if isinstance(value, list | tuple):
            items = list(value)
        elif isinstance(value, str):
            items = [c for c in value.split(self.separator) if c.strip()] if self.separator.strip() else value.split()
        else:
            raise ValueRefused("log.card", f"{what} must be cards, not {type(value).__name__}")
        if len(items) > 52:
            raise ValueRefused("log.card", f"{what} holds more than 52 cards")
        return [self.card(c) if isinstance(c, str) else _not_a_card(repr(c)) for c in items]

    def amount(self, value: object, what: str) -> str | int:
        """An amount as the format writes it (a whole number, or text with its cents)."""
        if isinstance(value, bool | float):
            raise ValueRefused("log.amount", f"{what}: {value!r} is a float, not an exact amount")
        if isinstance(value, Decimal):
            if not value.is_finite():
                raise ValueRefused("log.amount", f"{what}: {value} is not an amount")
            value = Fraction(value)
        elif isinstance(value, str):
            text = value.strip()
            if self.money == "units":
                return text
            if not (text.lstrip("-").isascii() and text.lstrip("-").isdigit()) or len(text) > 16:
                raise ValueRefused("log.amount", f"{what}: {value[:20]!r} is not a whole number of cents")
            value = int(text)
        if isinstance(value, int):
            value = Fraction(value)
        if not isinstance(value, Fraction):
            raise ValueRefused("log.amount", f"{what}: not an amount ({type(value).__name__})")
        if self.money == "cents":
            if value.denominator != 1:
                raise ValueRefused("log.amount", f"{what}: {value} is not a whole number of cents")
            value = value / 100
        if value.denominator == 1:
            return int(value)
        if (value * 100).denominator != 1:
            raise ValueRefused("log.amount", f"{what}: {float(value)} is finer than a cent")
        whole, cents = divmod(abs(value.numerator * 100 // value.denominator), 100)
        return f"{'-' if value < 0 else ''}{whole}.{cents:02d}"


def _not_a_card(text: str) -> str:
    raise ValueRefused("log.card", f"not a card: {text[:32]!r}")


def load_mapping(path: Path) -> Mapping:
    """The mapping file at ``path``; :class:`SpecError` with every problem located otherwise."""
    from trey.paytable.schema_errors import schema_problems

    name = display_name(path)
    raw = read_bounded(path, limit=MAX_FILE_BYTES, what="a mapping file")
    doc = parse_yaml(name, raw, MAPPING_FILE)
    problems = list(doc.problems) + list(schema_problems(doc, "source-mapping"))
    if problems:
        raise SpecError(problems)
    data: dict[str, Any] = doc.data
    cards = data.get("cards", {})
    codes: dict[str, str] = dict(cards.get("codes", {}))
    notation = cards.get("notation", "rank-suit")
    if notation == "codes" and not codes:
        raise SpecError([doc.problem("mapping.card-codes", ("cards",), "notation codes needs the table of codes")])
    seen: dict[str, str] = {}
    bad: list[Problem] = []
    for code, card in codes.items():
        if card in seen:
            bad.append(
                doc.problem(
                    "mapping.card-codes", ("cards", "codes", code), f"{card} has two codes: {seen[card]!r} and {code!r}"
                )
            )
        seen[card] = code
    if bad:
        raise SpecError(bad)
    columns = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.get("columns", {}).items()}
    for hand in ("deck", "input"):
        if isinstance(columns.get(hand), tuple):
            raise SpecError([doc.problem("schema.type", ("columns", hand), f"{hand} is one column of 52 cards")])
    twice = _columns_twice(columns)
    if twice:
        raise SpecError([doc.problem("mapping.column-twice", ("columns", f), said) for f, said in twice])
    return Mapping(
        columns,
        notation,
        cards.get("separator", " "),
        codes,
        data.get("money", "units"),
        tuple(data.get("order_by", ())),
    )


def _columns_twice(columns: dict[str, str | tuple[str, ...]]) -> list[tuple[str, str]]:
    """The fields a mapping reads from a column another field is read from (named for it, or the field of that
    name left to its own column): a deck read as the input would blame the shuffler for the mapping, a bet read as
    the net the dealer. Each (field, what is wrong)."""
    from trey.audit.sources import SEAT_FIELDS
    from trey.audit.tables import ROUND_FIELDS

    fields = set(ROUND_FIELDS) | set(SEAT_FIELDS)
    owner: dict[str, str] = {}
    found = []
    for name, value in columns.items():
        for column in value if isinstance(value, tuple) else (value,):
            by_name = (
                column != name and column not in columns and (column in fields or column.startswith(("bet_", "net_")))
            )
            other = owner.get(column, column if by_name else None)
            if other is not None and other != name:
                said = f"the column {column[:40]!r} is read as {other} already (each column is one field's)"
                found.append((name, said))
            owner.setdefault(column, name)
    return found
