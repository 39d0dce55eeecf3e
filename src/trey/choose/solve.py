"""Solving a paytable: the pay of one row that gives a target house edge, and grids of pays.

A side bet's return is linear in each row's pay: with the row listed (its probability P fixed by the rows listed),
raising its net pay by x raises the RTP by P x. So the exact pay for a target is one division, and a grid of pays
for up to three rows is a sum of products — the counts, which do not depend on the pays, are reused. An Ante Bonus
row enters the optimal strategy, so its strategy is re-derived for every candidate (the dealer counts are reused,
see :func:`trey.engine.ante_play.dealer_counts_at`), and the exact pay is found by re-solving until the strategy at
the solution is the strategy the solution was computed with.

In a game of the family other than the standard one (issue 31), Ante & Play's house edge is per Ante, counted by
:func:`~trey.engine.family.analyze_family`, and a row of the round's tables is named with its table: ``blind.flush``,
``play_pays.pair``, ``bad_beat.straight``. Each re-derives the strategy as an Ante Bonus row does; how one unit of
pay moves the edge is counted with the strategy held (:func:`analyze_family` given the choices).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.core.errors import TreyError
from trey.engine import analyze_side_bet, player_decisions
from trey.engine.ante_play import analyze_ante_play
from trey.engine.family import analyze_family, family_side_bet
from trey.paytable.model import ANTE_PLAY, PLAY_OUTCOMES, GameSpec, Paytable
from trey.paytable.odds import MAX_ODDS_TERM, Odds, net_odds_text
from trey.paytable.schema_errors import did_you_mean

MAX_GRID_ROWS = 3
MAX_GRID_SIZE = 200_000  # a side bet's grid: sums of products, about a second for the largest
# An Ante Bonus grid re-derives the strategy for every combination (about a millisecond each): a bound in seconds.
MAX_ANTE_PLAY_GRID_SIZE = 5_000
# A family game's grid counts every deal again for each combination (up to a second with a card face up).
MAX_FAMILY_GRID_SIZE = 100


@dataclass(frozen=True)
class Candidate:
    """A printable pay of the row and the exact house edge it gives."""

    pay: Fraction  # net pay: "N to D" odds
    house_edge: Fraction

    @property
    def odds_text(self) -> str:
        """The pay as odds are written: "4 to 1", "3 to 2"."""
        return net_odds_text(self.pay)


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` finds: the exact pay of the row for the target house edge, and the printable pays
    around it."""

    wager: str
    row: str
    target: Fraction  # the house edge asked for
    exact_pay: Fraction
    candidates: tuple[Candidate, ...]  # the two that bracket the target first, then the next ones out


def _odds_of(pay: Fraction) -> Odds:
    return Odds(pay.numerator, pay.denominator)


# The tables of a family game's round a row of Ante & Play may name, as ``blind.flush``, ``play_pays.pair``,
# ``bad_beat.straight`` (a row without a prefix is the Ante Bonus's).
ROUND_TABLES = ("blind", "play_pays", "bad_beat")


def _round_table(row: str) -> tuple[str, str] | None:
    """``(table, row)`` for a row naming a table of the round (``blind.flush``), None for an Ante Bonus row."""
    table, dot, name = row.partition(".")
    return (table, name) if dot and table in ROUND_TABLES else None


def _table_of(spec: GameSpec, wager: str, row: str) -> tuple[Paytable, str]:
    """The paytable a row of a wager is in, and the row's name in it."""
    named = _round_table(row) if wager == ANTE_PLAY else None
    if named is None:
        return spec.wagers.paytable(wager), row
    table, name = named
    current = getattr(spec.game, table)
    return (current if current is not None else Paytable(PLAY_OUTCOMES, ())), name


def with_pay(spec: GameSpec, wager: str, row: str, pay: Fraction) -> GameSpec:
    """The game with one row of one wager paying ``pay`` (listed if it was not); for Ante & Play, a row of the
    round's Blind, Play or bad-beat table when written ``blind.flush``, ``play_pays.pair``, ``bad_beat.straight``."""
    named = _round_table(row) if wager == ANTE_PLAY else None
    if named is not None:
        current, name = _table_of(spec, wager, row)
        pays = dict(current.rows)
        pays[name] = _odds_of(pay)
        new = Paytable.from_mapping(current.outcomes, pays)
        if named[0] == "blind":
            return replace(spec, game=replace(spec.game, blind=new))
        if named[0] == "play_pays":
            return replace(spec, game=replace(spec.game, play_pays=new))
        return replace(spec, game=replace(spec.game, bad_beat=new))
    table = spec.wagers.paytable(wager)
    pays = dict(table.rows)
    pays[row] = _odds_of(pay)
    new_table = Paytable.from_mapping(table.outcomes, pays)
    if wager == ANTE_PLAY:
        assert spec.wagers.ante_play is not None
        return replace(
            spec, wagers=replace(spec.wagers, ante_play=replace(spec.wagers.ante_play, ante_bonus=new_table))
        )
    bets = tuple(replace(b, pays=new_table) if b.id == wager else b for b in spec.wagers.side_bets)
    return replace(spec, wagers=replace(spec.wagers, side_bets=bets))


def _family_choices(spec: GameSpec) -> npt.NDArray[np.int64]:
    """A family game's optimal choices (they do not depend on a side bet's pays: the solver asks once per game)."""
    key = spec.wagers.ante_play, spec.game, spec.rules
    if key not in _CHOICES:
        _CHOICES.clear()  # one game at a time: the solver's, and its side bet's pays
        _CHOICES[key] = analyze_family(spec).choices
    return _CHOICES[key]


_CHOICES: dict[object, npt.NDArray[np.int64]] = {}


def edge_of(spec: GameSpec, wager: str) -> Fraction:
    """The house edge of one wager, exactly as :func:`trey.engine.analyze` counts it (a side bet lost on a fold
    with the player's decisions; they do not depend on a side bet's pays). In a game of the family other than the
    standard one, Ante & Play's is per Ante, with the optimal strategy re-derived (:func:`analyze_family`)."""
    if not spec.is_standard_game:
        if wager == ANTE_PLAY:
            return analyze_family(spec).house_edge_per_ante
        return family_side_bet(spec, spec.wagers.side_bet(wager), _family_choices(spec)).stats.house_edge
    if wager == ANTE_PLAY:
        assert spec.wagers.ante_play is not None
        return analyze_ante_play(spec.wagers.ante_play, spec.rules).stats.house_edge
    return analyze_side_bet(spec.wagers.side_bet(wager), player_decisions(spec)).stats.house_edge


def _row_probability(spec: GameSpec, wager: str, row: str) -> Fraction:
    """P(the row pays), with the row listed, as the engine counts it (for Ante & Play, at the strategy there); in a
    family game, for Ante & Play, what one more unit of the row's pay adds to the return per Ante with the strategy
    held (the Blind's and the Play's rows pay on some deals only, the Play's times the bet)."""
    if not spec.is_standard_game and wager == ANTE_PLAY:
        current, name = _table_of(spec, wager, row)
        pay = current.get(name)
        assert pay is None or isinstance(pay, Odds)
        now = pay.net if pay is not None else Fraction(0)
        found = analyze_family(spec)
        more = analyze_family(with_pay(spec, wager, row, now + 1), found.choices)
        return found.house_edge_per_ante - more.house_edge_per_ante
    if not spec.is_standard_game:
        bet = spec.wagers.side_bet(wager)
        outcomes = family_side_bet(spec, bet, _family_choices(spec)).outcomes
        return next(r.probability for r in outcomes if r.outcome == row)
    if wager == ANTE_PLAY:
        assert spec.wagers.ante_play is not None
        result = analyze_ante_play(spec.wagers.ante_play, spec.rules)
        return next(r.probability for r in result.ante_bonus if r.outcome == row)
    outcomes = analyze_side_bet(spec.wagers.side_bet(wager), player_decisions(spec)).outcomes
    return next(r.probability for r in outcomes if r.outcome == row)


def _check(spec: GameSpec, wager: str, rows: list[str]) -> None:
    if wager not in spec.wagers.ids:
        raise TreyError(f"the game offers no wager {wager!r}", hint=did_you_mean(wager, spec.wagers.ids))
    for row in rows:
        named = _round_table(row) if wager == ANTE_PLAY else None
        if named is not None and spec.is_standard_game:
            raise TreyError(
                f"{row}: the standard game's round has no {named[0]} table",
                hint="solve the Ante Bonus's rows, or describe the round in a game: section (format 3)",
            )
        if named is not None and named[0] == "blind" and spec.game.blind is None:
            raise TreyError(f"{row}: the game has no Blind", hint="give the Blind's table under game: first")
        if named is not None and named[0] == "play_pays" and spec.game.play_pays is None:
            raise TreyError(
                f"{row}: the game pays a Play won 1 to 1, by no table", hint="give play_pays: under game: first"
            )
        if named is not None and named[0] == "bad_beat" and spec.game.bad_beat is None:
            raise TreyError(f"{row}: the game has no bad beat", hint="give bad_beat: under game: first")
        table, name = _table_of(spec, wager, row)
        if name not in table.outcomes:
            choices = table.outcomes if named is None else tuple(f"{named[0]}.{o}" for o in table.outcomes)
            raise TreyError(f"{wager} has no row {row!r}", hint=did_you_mean(row, choices))
        current = table.get(name)
        if current is not None and not current.scales_with_bet:
            raise TreyError(f"{wager}.{row} pays {current}, not odds", hint="solve works on rows paying odds")
    bet = spec.wagers.side_bet(wager) if wager != ANTE_PLAY else None
    if bet is not None and bet.stake is not None:
        raise TreyError(f"{wager} has a fixed stake", hint="solve works on bets paying odds on any bet size")


def target_percent(value: str, what: str) -> Fraction:
    """A target house edge or RTP as a user writes it ("5%", "4.5%"): the words of its refusal stated once, for the
    command line and the workbench. Raises :class:`TreyError`."""
    from trey.paytable.pays import PayError, parse_share

    try:
        return parse_share(value.strip(), what)
    except PayError:
        raise TreyError(f"{value!r} is not a percentage such as 5% or 4.5%", hint=f"give the {what} as 5%") from None


def solve(spec: GameSpec, wager: str, row: str, house_edge: Fraction, step: Fraction = Fraction(1)) -> Solution:
    """The exact net pay of ``row`` that gives ``house_edge``, and the nearest pays on the grid of ``step``."""
    _check(spec, wager, [row])
    if step <= 0:
        raise TreyError("the step must be positive", hint="--step 1 (N to 1) or --step 1/2 (N to 2)")
    zero = with_pay(spec, wager, row, Fraction(0))
    highest = edge_of(zero, wager)
    if house_edge > highest:
        raise TreyError(
            f"no pay of {row} gives a house edge of {_pct(house_edge)}: paying it 0 to 1 gives {_pct(highest)}",
            hint="ask for a house edge at most that, or lower another row's pay",
        )
    pay, at = Fraction(0), zero
    for _ in range(20):  # Ante & Play: until the strategy at the solution is the one it was computed with
        probability = _row_probability(at, wager, row)
        if probability == 0:
            raise TreyError(f"{wager}.{row} never pays, so its pay changes nothing", hint="choose another row")
        pay = pay + (edge_of(at, wager) - house_edge) / probability
        if not _writable(pay):
            raise TreyError(
                f"the exact pay of {row} for a house edge of {_exact_pct(house_edge)} is {net_odds_text(pay)}, "
                f"past what odds can say (each number at most {MAX_ODDS_TERM:,})",
                hint=f"give the target with fewer decimals, e.g. {_pct(house_edge, 2)}",
            )
        at = with_pay(spec, wager, row, pay)
        if edge_of(at, wager) == house_edge:
            break
    else:
        raise TreyError(f"no exact pay of {row} found for {_pct(house_edge)}", hint="try a grid with --grid")
    low = math.floor(pay / step)
    grid = [step * k for k in (low, low + 1, low - 1, low + 2) if k >= 0 and _writable(step * k)]
    candidates = tuple(Candidate(p, edge_of(with_pay(spec, wager, row, p), wager)) for p in dict.fromkeys(grid))
    return Solution(wager, row, house_edge, pay, candidates)


@dataclass(frozen=True)
class GridPoint:
    """One combination of :func:`grid`: the whole pays of its rows, in the order given, its exact house edge,
    and whether it lies within the band."""

    pays: tuple[int, ...]
    house_edge: Fraction
    in_band: bool


def grid(
    spec: GameSpec, wager: str, ranges: list[tuple[str, int, int]], band: tuple[Fraction, Fraction]
) -> list[GridPoint]:
    """Every combination of whole pays ("N to 1") of up to three rows, with its exact house edge."""
    rows = [row for row, _, _ in ranges]
    _check(spec, wager, rows)
    if not 1 <= len(ranges) <= MAX_GRID_ROWS or len(set(rows)) != len(rows):
        raise TreyError("a grid takes one to three different rows", hint="--grid straight=5..7,flush=3..5")
    if any(low < 0 or high < low for _, low, high in ranges):
        raise TreyError("a grid's ranges run from LO up to HI", hint="give ranges LO..HI with 0 <= LO <= HI")
    size = math.prod(high - low + 1 for _, low, high in ranges)
    most = MAX_ANTE_PLAY_GRID_SIZE if wager == ANTE_PLAY else MAX_GRID_SIZE
    if wager == ANTE_PLAY and not spec.is_standard_game:
        most = MAX_FAMILY_GRID_SIZE
    if size > most:
        why = " (each re-derives the player's strategy)" if wager == ANTE_PLAY else ""
        hint = f"{most:,} at most for {wager}{why}: narrow the ranges"
        raise TreyError(f"a grid of {size:,} combinations", hint=hint)
    base = spec
    for row in rows:
        base = with_pay(base, wager, row, Fraction(0))
    points = []
    if wager == ANTE_PLAY:  # the strategy is re-derived for every combination (the dealer counts are reused)
        for pays in itertools.product(*(range(low, high + 1) for _, low, high in ranges)):
            at = base
            for row, pay in zip(rows, pays, strict=True):
                at = with_pay(at, wager, row, Fraction(pay))
            points.append((pays, edge_of(at, wager)))
    else:  # linear in each row's pay: the edge at zero less the probability-weighted pays
        zero = edge_of(base, wager)
        probability = [_row_probability(base, wager, row) for row in rows]
        for pays in itertools.product(*(range(low, high + 1) for _, low, high in ranges)):
            points.append((pays, zero - sum((p * x for p, x in zip(probability, pays, strict=True)), Fraction(0))))
    low_edge, high_edge = band
    return [GridPoint(pays, edge, low_edge <= edge <= high_edge) for pays, edge in points]


def _writable(pay: Fraction) -> bool:
    """Whether odds can say the net pay: each of its numbers at most :data:`MAX_ODDS_TERM`."""
    return max(abs(pay.numerator), pay.denominator) <= MAX_ODDS_TERM


def _exact_pct(value: Fraction) -> str:
    """A target as it was asked for: every decimal it has (up to 8), not rounded to four."""
    for places in range(4, 9):
        if (value * 100 * 10**places).denominator == 1:
            return _pct(value, places)
    return _pct(value)


def _pct(value: Fraction, places: int = 4) -> str:
    from trey.core.numbers import percent_text

    return percent_text(value, places)
