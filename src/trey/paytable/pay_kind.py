"""What a row of a paytable can pay: the registry of pay kinds.

Each kind says how a file writes it (bare, as odds are, or under a key: ``{amount: 500}``), its JSON Schema (the
paytable schema's ``$defs/pay`` is generated from the registry), how it is read, and how it behaves: what a
winning bet hands back, whether it scales with the bet or is paid for a fixed stake, whether it reads the
progressive meter, and its words. Code that settles, counts or prints a pay asks the pay, never its class.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from fractions import Fraction
from typing import Any, ClassVar, TypeVar

Money = Callable[[Fraction], str]


class PayKind(ABC):
    """One kind of pay. Subclasses are frozen dataclasses, registered with :func:`pay_kind`."""

    key: ClassVar[str | None]  # the mapping key a file writes it under; None: written bare (odds)
    schema: ClassVar[dict[str, Any]]  # the JSON Schema of what the file writes (under the key, if any)
    example: ClassVar[str]  # how a file writes one, for hints: "{amount: 500}"
    summary: ClassVar[str]  # the example and what it means, for the schema's description
    scales_with_bet: ClassVar[bool]  # a multiple of whatever is bet; else paid for the bet's fixed stake

    @classmethod
    @abstractmethod
    def parse(cls, value: object) -> PayKind:
        """Read the pay as the file writes it (under its key); raises ``OddsError`` saying why not."""

    @abstractmethod
    def returned(self, *, stake: Fraction, meter: Fraction) -> Fraction:
        """What a winning bet hands back per unit staked, the stake included when it is returned besides."""

    def net_per_unit(self, *, stake: Fraction, meter: Fraction) -> Fraction:
        """The net result of a winning bet per unit staked."""
        return self.returned(stake=stake, meter=meter) - 1

    @abstractmethod
    def won(self, bet: Fraction | int, *, meter: Fraction | None) -> Fraction:
        """The exact amount a dealer hands over on a winning ``bet`` (a multiple of the bet, or the fixed amount,
        or the share of the meter's value ``meter``), before the table's rounding and cap."""

    @abstractmethod
    def can_win(self, stake: Fraction | None) -> bool:
        """Whether a bet of ``stake`` paid this way gains anything (None: the stake is not known)."""

    @abstractmethod
    def words(self, money: Money) -> str:
        """The pay in words for documents: ``40 to 1``, ``$500 for the bet``, ``100% of the meter``."""

    @abstractmethod
    def canonical(self) -> object:
        """How the canonical paytable writes it."""

    @property
    def meter_share(self) -> Fraction:
        """The share of the progressive meter it pays (0: it pays nothing of the meter)."""
        return Fraction(0)

    @property
    def reads_meter(self) -> bool:
        return self.meter_share > 0

    @property
    def resets_meter(self) -> bool:
        """Paying all of the meter resets it; a smaller share leaves the rest on it."""
        return self.meter_share == 1


PAY_KINDS: dict[str | None, type[PayKind]] = {}
Kind = TypeVar("Kind", bound=type[PayKind])


def pay_kind(cls: Kind) -> Kind:
    """Register a pay kind under its key (a second kind under one key is refused)."""
    if cls.key in PAY_KINDS:
        raise ValueError(f"a pay kind is already written as {cls.key!r}")
    PAY_KINDS[cls.key] = cls
    return cls


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def keyed_examples() -> str:
    """The kinds written under a key, by example: "{amount: 500} or {meter: '100%'}"."""
    return _listed([kind.example for kind in PAY_KINDS.values() if kind.key is not None])


def keyed_forms() -> str:
    """The kinds written under a key, by their key: "{amount: ...} or {meter: ...}"."""
    return _listed([f"{{{kind.key}: ...}}" for kind in PAY_KINDS.values() if kind.key is not None])


def pay_description() -> str:
    """The paytable schema's description of a pay, from each kind's summary."""
    text = _listed([kind.summary for kind in PAY_KINDS.values()])
    return text[0].upper() + text[1:] + "."


def pay_schema() -> list[dict[str, Any]]:
    """The paytable schema's ``$defs/pay`` alternatives, one per kind."""
    return [
        kind.schema
        if kind.key is None
        else {
            "type": "object",
            "additionalProperties": False,
            "required": [kind.key],
            "properties": {kind.key: kind.schema},
        }
        for kind in PAY_KINDS.values()
    ]
