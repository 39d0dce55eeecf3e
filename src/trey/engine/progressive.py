"""A progressive side bet's figures against its meter: exact, per unit staked.

A progressive pays fixed amounts (and odds) on some outcomes and a share of a growing meter on others; an *envy*
bonus pays each bettor when ANOTHER progressive bettor at the table hits. With the meter at M and k other bettors:

    RTP(M, k) = fixed + k x envy + coefficient x M

where ``fixed`` is the return of the amounts and odds, ``envy`` the return of one other bettor's envy bonus
(P(their hand is the outcome) x amount / stake: any other seat's hand is as random as one's own; for a bet whose
envy is lost on a fold, ``envy_on_fold: lost``, P(this bettor plays and their hand is the outcome)), and
``coefficient`` = sum of P(outcome) x share / stake over the meter rows. The break-even meter M* solves
RTP(M*, k) = 1.

In the long run the meter is fed by the increment of every stake and seeded back to ``reset`` by the house after
every 100% jackpot, and every contributed cent is paid out, so the long-run RTP is

    fixed + k x envy + increment + P(100% jackpot) x reset / stake.

A round's *long-run return* — its fixed pay, plus the increment, plus the reset on a 100% jackpot — has that mean
exactly, round by round: the simulator checks its rounds against it (the meter's own path cancels out).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import DEALER_HANDS, HANDS
from trey.cards.readings import READINGS
from trey.engine.stats import OutcomeRow, WagerStats, distribution_of_rows, stats_of
from trey.paytable.model import MAX_OTHER_BETTORS, SideBet


@dataclass(frozen=True)
class ProgressiveAnalysis:
    stake: Fraction
    reset: Fraction
    increment: Fraction
    other_bettors: int  # the number assumed by default
    fixed: Fraction  # RTP from amounts and odds
    meter_coefficient: Fraction  # RTP per unit of meter
    envy_per_bettor: Fraction  # RTP each other bettor's envy bonus adds
    jackpot_probability: Fraction  # P(a row paying 100% of the meter)
    stats_at_reset: WagerStats  # the bettor's own hand (envy aside)
    stats_at_break_even: WagerStats | None
    long_run_nets: tuple[Fraction, ...]  # per outcome row (lose last): a round's long-run return - 1
    long_run_stats: WagerStats  # of those, envy aside: what a simulation is checked against

    # Every figure below is for a LONE bettor unless its name says ``with_envy`` (or a number of other bettors is
    # given): envy is money paid because of other seats' hands, which a player alone at the table never receives.

    def rtp_at(self, meter: Fraction, bettors: int = 0) -> Fraction:
        return self.fixed + bettors * self.envy_per_bettor + self.meter_coefficient * meter

    @property
    def rtp_at_reset(self) -> Fraction:
        """The RTP with the meter at the reset, for a lone bettor: the wager's ``rtp`` (its own hand, its pays)."""
        return self.rtp_at(self.reset)

    @property
    def rtp_at_reset_with_envy(self) -> Fraction:
        """The RTP at the reset with the envy of the assumed other bettors."""
        return self.rtp_at(self.reset, self.other_bettors)

    def break_even(self, bettors: int = 0) -> Fraction | None:
        """The meter at which the RTP is 100% (None without meter rows); it may lie below the reset."""
        if self.meter_coefficient == 0:
            return None
        return (1 - self.fixed - bettors * self.envy_per_bettor) / self.meter_coefficient

    def long_run_rtp_of(self, bettors: int) -> Fraction:
        return (
            self.fixed
            + bettors * self.envy_per_bettor
            + self.increment
            + self.jackpot_probability * self.reset / self.stake
        )

    @property
    def long_run_rtp(self) -> Fraction:
        """The long-run RTP for a lone bettor (the meter fed by the increment, reseeded to the reset)."""
        return self.long_run_rtp_of(0)

    @property
    def long_run_rtp_with_envy(self) -> Fraction:
        return self.long_run_rtp_of(self.other_bettors)

    def envy_table(self) -> list[EnvyRow]:
        """The figures for 0 to 6 other bettors."""
        return [
            EnvyRow(k, self.rtp_at(self.reset, k), self.break_even(k), self.long_run_rtp_of(k))
            for k in range(MAX_OTHER_BETTORS + 1)
        ]


@dataclass(frozen=True)
class EnvyRow:
    """A progressive's figures with ``other_bettors`` other progressive bettors at the table."""

    other_bettors: int
    rtp_at_reset: Fraction
    break_even_meter: Fraction | None
    long_run_rtp: Fraction


def _stats_at(bet: SideBet, rows: tuple[OutcomeRow, ...], meter: Fraction) -> WagerStats:
    at_meter = [
        OutcomeRow(r.outcome, bet.net(pay, meter), r.combinations, r.cycle)
        for r, (_, pay) in zip(rows, bet.pays, strict=False)
    ]
    return stats_of(distribution_of_rows([*at_meter, rows[-1]]))


def analyze_progressive(
    bet: SideBet, rows: tuple[OutcomeRow, ...], plays: npt.NDArray[np.bool_] | None = None
) -> ProgressiveAnalysis:
    """``rows``: the bet's outcome rows as the engine counted them (its pays in order, then lose); ``plays``: the
    player's decisions (None without Ante & Play), for an envy bonus lost on a fold."""
    assert bet.progressive is not None and bet.stake is not None
    meter = bet.progressive
    fixed = Fraction(0)
    coefficient = Fraction(0)
    jackpot = Fraction(0)
    long_run: list[Fraction] = []
    for row, (_, pay) in zip(rows, bet.pays, strict=False):
        if pay.reads_meter:
            coefficient += row.probability * pay.meter_share / bet.stake
            jackpot += row.probability if pay.resets_meter else 0
            own = meter.reset / bet.stake if pay.resets_meter else Fraction(0)  # the house's reseed; the rest cancels
        else:
            own = pay.returned(stake=bet.stake, meter=meter.reset)
            fixed += row.probability * own
        long_run.append(own + meter.increment - 1)
    long_run.append(meter.increment - 1)  # lose: the stake's increment still feeds the meter
    reading = READINGS[bet.reads]
    counts = reading.class_counts()
    envy = Fraction(0)
    envy_rows = reading.paid_by(tuple(o for o, _ in bet.envy))
    for reading_class, envy_row in enumerate(envy_rows):
        if envy_row is not None:
            envy += Fraction(counts[reading_class], reading.cycle) * bet.envy[envy_row][1] / bet.stake
    if bet.envy_lost_on_fold and plays is not None and not plays.all():
        # Not paid on the deals this bettor folds: P(he folds and another bettor's hand is the outcome), over the
        # (his hand, the other's hand) deals, taken off.
        folded = reading.other_hands_where_folded(plays)
        for reading_class, envy_row in enumerate(envy_rows):
            if envy_row is not None:
                envy -= Fraction(folded[reading_class], HANDS * DEALER_HANDS) * bet.envy[envy_row][1] / bet.stake
    analysis = ProgressiveAnalysis(
        stake=bet.stake,
        reset=meter.reset,
        increment=meter.increment,
        other_bettors=meter.other_bettors,
        fixed=fixed,
        meter_coefficient=coefficient,
        envy_per_bettor=envy,
        jackpot_probability=jackpot,
        stats_at_reset=_stats_at(bet, rows, meter.reset),
        stats_at_break_even=None,
        long_run_nets=tuple(long_run),
        long_run_stats=stats_of(
            distribution_of_rows(
                OutcomeRow(r.outcome, net, r.combinations, r.cycle) for r, net in zip(rows, long_run, strict=True)
            )
        ),
    )
    break_even = analysis.break_even()
    if break_even is not None and break_even >= 0:
        analysis = replace(analysis, stats_at_break_even=_stats_at(bet, rows, break_even))
    return analysis
