"""A progressive's meter followed along each table's rounds: a logged meter is a claim the audit checks.

The meter a round logs is the meter as the round was dealt, its own stake counted in. Along a table's rounds, in
the order of their lines (the logs in the order given), the meter may only

- rise by the increment of each stake bet on the progressive at that table (exactly: in whole hundredths of a
  cent over the increment's denominator, never rounded), and
- after a jackpot of the whole meter, stand at the reset again; after a smaller share, at what is left when the
  share paid is taken out, or at the reset if that is less (a meter never stands below its reset).

A meter logged is the carried meter shown to the cent below (a meter that carries a fraction of a cent shows the
whole cents), so where the contributions are whole cents it must equal the carried meter exactly. A logged meter
outside what the carried one allows *does not follow* from the rounds before: a failure, listed with both; the
meter is followed on from the logged value (one bad line is one finding), and a jackpot in that round is due at
the carried meter, not at the claimed one.

The first meter logged at a table (or after a jackpot whose meter nothing gives) *opens* the table: nothing before
it to check it against, so a jackpot paid at an opening meter is not checked. A round without a meter logged is
followed all the same: its stake feeds the carried meter, and its jackpot is due at the carried meter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from trey.audit.cards import MAX_TABLES_FOLLOWED
from trey.audit.rounds import IntArray, Rounds, cents
from trey.paytable.model import SideBet

UNKNOWN = -1  # no meter to pay a jackpot at: neither logged nor carried
OPENS = 1  # the round's logged meter opens its table: nothing before it
BREAKS = 2  # the round's logged meter does not follow from the rounds before


@dataclass(frozen=True)
class MeterBreak:
    """A logged meter that does not follow from its table's rounds before: ``carried`` is the lowest meter they
    allow (in whole cents), carried from the meter logged at line ``since``."""

    line: int
    round: str
    wager: str
    table: str
    logged: Fraction
    carried: Fraction
    since: int


@dataclass
class _Carried:
    low: int  # the carried meter lies in [low, high), in cents times the increment's denominator
    high: int
    since: int  # the line the carried meter was last logged or reset at


@dataclass
class MeterFollow:
    """Every progressive meter followed, by (wager, table), and what did not follow."""

    carried: dict[tuple[str, str], _Carried] = field(default_factory=dict)
    opened: int = 0  # tables (per progressive) whose first meter logged opened them
    breaks: list[MeterBreak] = field(default_factory=list)  # the first KEPT
    break_count: int = 0
    not_followed: int = 0  # rounds of a progressive at no table, or at a table past those followed


def follow(
    state: MeterFollow,
    rounds: Rounds,
    bet: SideBet,
    outcome: IntArray,
    share_of: dict[int, Fraction],
    won_at: Callable[[int, int], int],
    kept: int,
) -> tuple[IntArray, IntArray]:
    """Follow ``bet``'s meter along the batch's rounds. ``outcome``: each round's outcome index of the bet (-1 where
    it is not bet); ``share_of``: the share of the meter each jackpot outcome pays; ``won_at(row, meter)``: what the
    round's jackpot pays at a meter (cents). Returns, per round, the meter its jackpot is due at (cents, or
    :data:`UNKNOWN`) and whether its logged meter opens its table or breaks (:data:`OPENS`, :data:`BREAKS`)."""
    progressive = bet.progressive
    assert progressive is not None
    scale = progressive.increment.denominator
    per_cent = progressive.increment.numerator  # a stake's contribution, per cent staked, in the scaled unit
    reset = cents(progressive.reset) * scale
    n = len(rounds)
    meter_at = np.full(n, UNKNOWN, dtype=np.int64)
    status = np.zeros(n, dtype=np.int64)
    bet_on, bets = rounds.bet_on[bet.id], rounds.bets[bet.id]
    logged_on, logged = rounds.meter_on[bet.id], rounds.meter[bet.id]
    rows = np.flatnonzero(bet_on | logged_on).tolist()
    tables = rounds.tables.take(np.array(rows, dtype=np.int64)).to_pylist() if rows else []
    for row, table in zip(rows, tables, strict=True):
        key = (bet.id, table)
        carried = state.carried.get(key) if table else None
        followed = bool(table) and (carried is not None or len(state.carried) < MAX_TABLES_FOLLOWED)
        if not followed:
            state.not_followed += 1
        if carried is not None and bet_on[row]:
            carried.low += per_cent * int(bets[row])
            carried.high += per_cent * int(bets[row])
        line = int(rounds.lines[row])
        if logged_on[row]:
            meter = int(logged[row])
            window = (meter * scale, (meter + 1) * scale)
            if carried is None:
                status[row] = OPENS
                meter_at[row] = meter
                if followed:
                    carried = state.carried[key] = _Carried(*window, line)
                    state.opened += 1
            elif max(carried.low, window[0]) < min(carried.high, window[1]):
                carried.low, carried.high = max(carried.low, window[0]), min(carried.high, window[1])
                carried.since = line
                meter_at[row] = meter
            else:
                status[row] = BREAKS
                meter_at[row] = carried.low // scale
                state.break_count += 1
                if len(state.breaks) < kept:
                    state.breaks.append(
                        MeterBreak(
                            line,
                            rounds.id_of(row),
                            bet.id,
                            str(table),
                            Fraction(meter, 100),
                            Fraction(int(meter_at[row]), 100),
                            carried.since,
                        )
                    )
                carried.low, carried.high, carried.since = *window, line
        elif carried is not None:
            meter_at[row] = carried.low // scale
        share = share_of.get(int(outcome[row])) if bet_on[row] else None
        if share is None or carried is None:
            continue
        if share == 1:  # the whole meter paid: the house seeds it again at the reset
            carried.low, carried.high, carried.since = reset, reset + 1, line
        else:  # a share paid (at the meter logged or carried): the rest stays, never below the reset
            paid = won_at(row, int(meter_at[row])) * scale
            carried.low, carried.high = carried.low - paid, carried.high - paid
            if carried.low < reset:
                carried.low, carried.high = reset, max(carried.high, reset + 1)
            carried.since = line
    return meter_at, status
