"""The table's money: a bet mix (what the seats bet, how many sit, how many rounds an hour) turned into the blended
house edge, the theoretical win per table-hour and the range that win should fall in.

A seat bets wager w with probability ``share_w`` (Ante & Play: usually every seat), at ``bet_w`` when it does, its
bets independent of the cards and of one another; each of ``seats`` seats is occupied with probability
``occupancy`` in a round. With the single-seat figures of :func:`trey.engine.analyze`:

* amount wagered per seat-round   A = sum_w share_w bet_w                 (initial wagers: the Ante, not the Play)
* house's win per seat-round      H = - sum_w share_w bet_w E[X_w]
* blended house edge              H / A   (each wager's edge weighted by the money on it)
* theoretical win per hour        R * seats * occupancy * H               (R rounds an hour)

and, from the whole table's moments (:mod:`trey.engine.table`), the variance of an hour R * Var[round], where a
round's variance counts the covariance of seats that share the dealer's hand. The range is theo +- z SD (normal:
an hour holds R rounds of a bounded result). Everything is exact (Fractions) except the square roots.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from trey.engine.results import GameAnalysis
from trey.engine.stats import Z_90, Z_95
from trey.engine.table import MAX_SEATS, Seating, TableMoments, round_variance, seat_variance
from trey.paytable.model import ANTE_PLAY, GameSpec

DEFAULT_DECISIONS_PER_HOUR = 60
MAX_DECISIONS_PER_HOUR = 1_000


@dataclass(frozen=True)
class MixBet:
    """One wager of the bet mix: the share of seats on it and their average bet (currency units)."""

    wager: str
    share: Fraction
    bet: Fraction

    def __post_init__(self) -> None:
        if not 0 <= self.share <= 1:
            raise ValueError(f"the share of seats on {self.wager} must be between 0 and 1, not {self.share}")
        if self.bet <= 0:
            raise ValueError(f"the average bet on {self.wager} must be positive")
        if self.bet > MAX_BET:
            raise ValueError(f"the average bet on {self.wager} must be at most {MAX_BET:,}")


@dataclass(frozen=True)
class BetMix:
    """A table's bets, seats, occupancy and pace."""

    bets: tuple[MixBet, ...]
    seats: int = MAX_SEATS
    occupancy: Fraction = Fraction(1)
    decisions_per_hour: int = DEFAULT_DECISIONS_PER_HOUR

    def __post_init__(self) -> None:
        if not self.bets:
            raise ValueError("a bet mix names at least one wager")
        if len({b.wager for b in self.bets}) != len(self.bets):
            raise ValueError("each wager of a bet mix is listed once")
        if not 1 <= self.seats <= MAX_SEATS:
            raise ValueError(f"a table has 1 to {MAX_SEATS} seats, not {self.seats}")
        if not 0 < self.occupancy <= 1:
            raise ValueError(f"occupancy is a share above 0 and at most 1, not {self.occupancy}")
        if not 1 <= self.decisions_per_hour <= MAX_DECISIONS_PER_HOUR:
            raise ValueError(f"decisions an hour must be 1 to {MAX_DECISIONS_PER_HOUR}, not {self.decisions_per_hour}")

    @property
    def seating(self) -> Seating:
        return Seating(tuple((b.wager, b.share, b.bet) for b in self.bets))

    @property
    def seated(self) -> Fraction:
        """Seats occupied in an average round."""
        return self.seats * self.occupancy


# A share as a person writes it: 0.6, 60% or 3/5 (never an exponent, whose digits would choose the work of reading
# it; at most six decimals), and an amount such as 25 or 12.5 (at most MAX_BET).
_SHARE = re.compile(r"[0-9]{1,3}(\.[0-9]{1,6})?%|[0-9]{1,9}(\.[0-9]{1,6})?|[0-9]{1,9}/[1-9][0-9]{0,8}")
_AMOUNT = re.compile(r"[0-9]{1,10}(\.[0-9]{1,6})?")
MAX_BET = 10**9  # an average bet, in currency units


def parse_share(text: str) -> Fraction:
    """A share written 0.6, 60% or 3/5."""
    raw = text.strip()
    if not _SHARE.fullmatch(raw):
        raise ValueError(f"{text[:40]!r} is not a share (write 0.6, 60% or 3/5)")
    return Fraction(raw[:-1]) / 100 if raw.endswith("%") else Fraction(raw)


def occupancy_option(text: str | None) -> Fraction | None:
    """``--occupancy`` as written (None when not given); a :class:`~trey.core.errors.TreyError` naming the option
    when it is not a share."""
    from trey.core.errors import TreyError

    if text is None:
        return None
    try:
        return parse_share(text)
    except ValueError as exc:
        raise TreyError(f"--occupancy: {exc}", hint="e.g. --occupancy 75%") from None


def parse_amount(text: str) -> Fraction:
    """An amount of money written 25 or 12.5 (no exponent, at most six decimals)."""
    raw = text.strip()
    if not _AMOUNT.fullmatch(raw):
        raise ValueError(f"{text[:40]!r} is not a number such as 25 or 12.5")
    return Fraction(raw)


def parse_mix_bet(text: str) -> MixBet:
    """``WAGER=BET`` (every seat on it) or ``WAGER=SHARE@BET``: ``ante_play=25``, ``pair_plus=60%@10``."""
    wager, sep, rest = text.partition("=")
    if not sep or not wager.strip():
        raise ValueError(f"{text!r}: write WAGER=BET or WAGER=SHARE@BET, e.g. pair_plus=60%@10")
    share_text, at, bet_text = rest.rpartition("@")
    share = parse_share(share_text) if at else Fraction(1)
    written = bet_text if at else rest
    if not _AMOUNT.fullmatch(written.strip()):
        raise ValueError(f"{text[:60]!r}: the average bet {written[:40]!r} is not a number")
    return MixBet(wager.strip(), share, Fraction(written.strip()))


@dataclass(frozen=True)
class TableMoney:
    """What a table makes with a bet mix (see the module); per round and per hour, in currency units."""

    mix: BetMix
    wagered_per_seat: Fraction  # A
    house_per_seat: Fraction  # H
    theo_per_hour: Fraction
    variance_per_hour: Fraction | None  # None: the whole table's moments were not counted
    independent_variance_per_hour: Fraction | None  # the same with seats counted as independent

    @property
    def blended_edge(self) -> Fraction:
        return self.house_per_seat / self.wagered_per_seat

    @property
    def wagered_per_hour(self) -> Fraction:
        return self.wagered_per_seat * self.mix.seated * self.mix.decisions_per_hour

    @property
    def sd_per_hour(self) -> float | None:
        return math.sqrt(self.variance_per_hour) if self.variance_per_hour is not None else None

    def range_per_hour(self, z: float = Z_95) -> tuple[float, float] | None:
        """theo -/+ z SD of one hour's win."""
        sd = self.sd_per_hour
        return None if sd is None else (float(self.theo_per_hour) - z * sd, float(self.theo_per_hour) + z * sd)

    def hours_for_range(self, share: Fraction, z: float = Z_95) -> float | None:
        """Hours after which the win's range (+- z SD) is within +- ``share`` of the theoretical win."""
        if self.variance_per_hour is None or self.theo_per_hour == 0:
            return None
        return (z * z * float(self.variance_per_hour)) / float(share * self.theo_per_hour) ** 2

    def liability_bound(self, amount: Fraction) -> float | None:
        """An upper bound on P(the players' total net of one round >= ``amount``): Cantelli's inequality from the
        round's exact mean and variance (exact distributions of a full table's round are not counted)."""
        if self.variance_per_hour is None:
            return None
        variance = float(self.variance_per_hour) / self.mix.decisions_per_hour
        excess = float(amount) + float(self.theo_per_hour) / self.mix.decisions_per_hour
        return 1.0 if excess <= 0 else variance / (variance + excess * excess)


def liability_amounts(money: TableMoney) -> tuple[Fraction, ...]:
    """The amounts the round's payout bound is stated at: 10, 50 and 250 times an average round's wagers."""
    wagered = money.wagered_per_seat * money.mix.seated
    return tuple(k * wagered for k in (10, 50, 250))


def table_money(analysis: GameAnalysis, mix: BetMix, moments: TableMoments | None = None) -> TableMoney:
    """The money of ``mix`` at the game of ``analysis``; the hour's variance when the table's ``moments`` are given."""
    offered = tuple(analysis.wagers)
    for bet in mix.bets:
        if bet.wager not in offered:
            raise ValueError(f"the game offers no wager {bet.wager!r} (it offers {', '.join(offered)})")
    wagered = sum((b.share * b.bet for b in mix.bets), Fraction(0))
    house = -sum((b.share * b.bet * analysis.wagers[b.wager].stats.mean for b in mix.bets), Fraction(0))
    pace = mix.decisions_per_hour
    variance = independent = None
    if moments is not None:
        variance = pace * round_variance(moments, mix.seating, mix.seats, mix.occupancy)
        mu = -house
        var_n = mix.seats * mix.occupancy * (1 - mix.occupancy)
        independent = pace * (mix.seated * seat_variance(moments, mix.seating) + var_n * mu**2)
    return TableMoney(mix, wagered, house, house * mix.seated * pace, variance, independent)


def _money(x: Fraction | float) -> float:
    return round(float(x), 2)


def money_rounded(x: Fraction | float) -> Fraction:
    """An amount rounded to cents as ``table_money_json`` rounds it: what every document prints."""
    return Fraction(repr(_money(x)))


def hours_text(money: TableMoney) -> str:
    """The hours until the win is within 10% of theo (95%), in whole hours (as the terminal prints them)."""
    return f"{money.hours_for_range(Fraction(1, 10)) or 0:,.0f}"


def table_money_json(money: TableMoney) -> dict[str, Any]:
    """The ``table_money`` part of ``trey analyze --format json``."""
    mix = money.mix
    data: dict[str, Any] = {
        "bets": [{"wager": b.wager, "share": float(b.share), "average_bet": float(b.bet)} for b in mix.bets],
        "seats": mix.seats,
        "occupancy": float(mix.occupancy),
        "decisions_per_hour": mix.decisions_per_hour,
        "wagered_per_seat_round": _money(money.wagered_per_seat),
        "blended_house_edge": float(money.blended_edge),
        "blended_house_edge_exact": str(money.blended_edge),
        "wagered_per_hour": _money(money.wagered_per_hour),
        "theoretical_win_per_hour": _money(money.theo_per_hour),
    }
    if money.variance_per_hour is not None:
        sd = money.sd_per_hour
        independent = money.independent_variance_per_hour
        assert sd is not None and independent is not None
        low90, high90 = money.range_per_hour(Z_90) or (0.0, 0.0)
        low95, high95 = money.range_per_hour(Z_95) or (0.0, 0.0)
        data |= {
            "sd_per_hour": _money(sd),
            "sd_per_hour_seats_independent": _money(math.sqrt(independent)),
            "range_per_hour_90": [_money(low90), _money(high90)],
            "range_per_hour_95": [_money(low95), _money(high95)],
            "hours_for_range_within_10_percent": round(money.hours_for_range(Fraction(1, 10)) or 0.0, 1),
            "round_payout_bounds": [
                {"players_net_at_least": _money(x), "probability_at_most": money.liability_bound(x)}
                for x in liability_amounts(money)
            ],
        }
    return data


def table_money_lines(money: TableMoney, currency: str = "USD") -> list[str]:
    """The table's money in lines of text (the terminal's section of ``trey analyze --mix``)."""
    mix = money.mix
    bets = ", ".join(f"{b.wager} {float(b.share):.0%} at {float(b.bet):,.2f}" for b in mix.bets)
    lines = [
        "The table's money",
        f"  bet mix: {bets}",
        f"  seats {mix.seats}, occupancy {float(mix.occupancy):.0%}, {mix.decisions_per_hour} decisions an hour",
        f"  blended house edge: {float(money.blended_edge):.4%} of {float(money.wagered_per_seat):,.2f} "
        f"{currency} wagered per seat and round",
        f"  theoretical win per table-hour: {float(money.theo_per_hour):,.2f} {currency} "
        f"of {float(money.wagered_per_hour):,.2f} wagered",
    ]
    if money.variance_per_hour is not None:
        sd, independent = money.sd_per_hour, money.independent_variance_per_hour
        assert sd is not None and independent is not None
        low, high = money.range_per_hour(Z_95) or (0.0, 0.0)
        lines += [
            f"  SD of an hour's win: {sd:,.2f} {currency} (seats sharing the dealer's hand; "
            f"{math.sqrt(independent):,.2f} if they were independent)",
            f"  95% range of an hour's win: {low:,.2f} to {high:,.2f} {currency}",
            f"  hours until the win is within 10% of theo (95%): {hours_text(money)}",
            "  a round pays the players, net, at least "
            + ", ".join(
                f"{float(x):,.0f} with P <= {money.liability_bound(x) or 0:.2g}" for x in liability_amounts(money)
            )
            + " (Cantelli's bound from the round's exact variance)",
        ]
    return lines


def mix_of(texts: Sequence[str], seats: int, occupancy: Fraction, decisions_per_hour: int) -> BetMix:
    """A :class:`BetMix` from ``--mix`` texts and the table's options."""
    return BetMix(tuple(parse_mix_bet(t) for t in texts), seats, occupancy, decisions_per_hour)


def table_mix(spec: GameSpec) -> BetMix | None:
    """The bet mix the paytable's ``table:`` describes (every seat on Ante & Play at ``average_bet``, each side bet
    of ``side_bets`` at its share and bet), None when it describes none (:attr:`Table.has_mix`)."""
    table = spec.table
    if table is None or not table.has_mix:
        return None
    bets = []
    if spec.wagers.ante_play is not None and table.average_bet is not None:
        bets.append(MixBet(ANTE_PLAY, Fraction(1), table.average_bet))
    bets += [MixBet(wager, share, bet) for wager, share, bet in table.side_bet_mix]
    return BetMix(
        tuple(bets),
        table.seats if table.seats is not None else MAX_SEATS,
        table.occupancy if table.occupancy is not None else Fraction(1),
        table.decisions_per_hour if table.decisions_per_hour is not None else DEFAULT_DECISIONS_PER_HOUR,
    )


# Where each part of the bet mix a command uses came from (said in its output).
FROM_COMMAND_LINE, FROM_PAYTABLE, FROM_DEFAULT = "command line", "paytable", "default"
MIX_PARTS = ("bets", "seats", "occupancy", "decisions_per_hour")


@dataclass(frozen=True)
class ChosenMix:
    """The bet mix of a command and where each of its parts (:data:`MIX_PARTS`) came from."""

    mix: BetMix
    sources: tuple[tuple[str, str], ...]

    def source_json(self) -> dict[str, str]:
        return dict(self.sources)

    def source_line(self) -> str:
        """``bet mix from the paytable's table:; seats from the command line``: the parts grouped by source."""
        by: dict[str, list[str]] = {}
        for part, source in self.sources:
            by.setdefault(source, []).append(part.replace("_", " "))
        words = {
            FROM_COMMAND_LINE: "the command line",
            FROM_PAYTABLE: "the paytable (table:)",
            FROM_DEFAULT: "defaults",
        }
        return "  from " + "; ".join(f"{words[s]}: {', '.join(parts)}" for s, parts in by.items())


def choose_mix(
    spec: GameSpec,
    texts: Sequence[str] | None,
    seats: int | None,
    occupancy: Fraction | None,
    decisions_per_hour: int | None,
) -> ChosenMix | None:
    """The bet mix of ``trey analyze``/``compare``: each part from the command line when given there, else from
    the paytable's ``table:``, else the default (7 seats, full, 60 decisions an hour); None when neither the
    command line (``--mix``) nor the paytable names the bets. ValueError when a part is wrong."""
    own, table = table_mix(spec), spec.table
    if not texts and own is None:
        return None
    given: dict[str, Any] = {"seats": seats, "occupancy": occupancy, "decisions_per_hour": decisions_per_hour}
    paytable: dict[str, Any] = {
        "seats": table.seats if table is not None else None,
        "occupancy": table.occupancy if table is not None else None,
        "decisions_per_hour": table.decisions_per_hour if table is not None else None,
    }
    defaults: dict[str, Any] = {
        "seats": MAX_SEATS,
        "occupancy": Fraction(1),
        "decisions_per_hour": DEFAULT_DECISIONS_PER_HOUR,
    }
    sources = [("bets", FROM_COMMAND_LINE if texts else FROM_PAYTABLE)]
    values: dict[str, Any] = {}
    for part in ("seats", "occupancy", "decisions_per_hour"):
        if given[part] is not None:
            values[part], source = given[part], FROM_COMMAND_LINE
        elif paytable[part] is not None:
            values[part], source = paytable[part], FROM_PAYTABLE
        else:
            values[part], source = defaults[part], FROM_DEFAULT
        sources.append((part, source))
    bets = tuple(parse_mix_bet(t) for t in texts) if texts else own.bets if own is not None else ()
    mix = BetMix(bets, values["seats"], values["occupancy"], values["decisions_per_hour"])
    return ChosenMix(mix, tuple(sources))


def money_by_game(games: Sequence[tuple[str, GameAnalysis]], mix: BetMix) -> list[tuple[str, TableMoney]]:
    """``trey compare --mix``: the blended edge and theoretical win of one bet mix at each game (no range: the
    whole table of each is not counted). ValueError naming the game that lacks a wager of the mix."""
    result = []
    for name, analysis in games:
        try:
            result.append((name, table_money(analysis, mix)))
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    return result


def money_by_game_json(rows: Sequence[tuple[str, TableMoney]]) -> list[dict[str, Any]]:
    return [
        {
            "file": name,
            "blended_house_edge": float(money.blended_edge),
            "blended_house_edge_exact": str(money.blended_edge),
            "theoretical_win_per_hour": _money(money.theo_per_hour),
        }
        for name, money in rows
    ]


def money_by_game_lines(rows: Sequence[tuple[str, TableMoney]], mix: BetMix) -> list[str]:
    bets = ", ".join(f"{b.wager} {float(b.share):.0%} at {float(b.bet):,.2f}" for b in mix.bets)
    lines = [
        f"The table's money ({bets}; {mix.seats} seats, occupancy {float(mix.occupancy):.0%}, "
        f"{mix.decisions_per_hour} decisions an hour)"
    ]
    width = max(len(name) for name, _ in rows)
    for name, money in rows:
        lines.append(
            f"  {name:<{width}}  blended house edge {float(money.blended_edge):.4%}  "
            f"theoretical win {float(money.theo_per_hour):,.2f} an hour"
        )
    return lines
