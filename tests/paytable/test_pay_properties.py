"""Every pay kind reads back what it writes: odds, amounts and meter shares round-trip through their canonical
form, and what they return per unit staked is what they pay."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from trey.paytable.odds import Odds, OddsWording
from trey.paytable.pays import Amount, MeterShare, parse_pay

odds = st.builds(
    lambda n, d, for_: Odds(max(n, d) if for_ else n, d, OddsWording.FOR if for_ else OddsWording.TO),
    st.integers(0, 10**9),
    st.integers(1, 10**9),
    st.booleans(),
)
amounts = st.builds(lambda cents: Amount(Fraction(cents, 100)), st.integers(0, 10**14))
shares = st.one_of(
    st.builds(lambda millionths: MeterShare(Fraction(millionths, 10**8)), st.integers(1, 10**8)),
    st.builds(lambda n, d: MeterShare(Fraction(min(n, d), d)), st.integers(1, 10**9 - 1), st.integers(1, 10**9 - 1)),
)


@given(st.one_of(odds, amounts, shares))
def test_a_pay_reads_back_from_what_it_writes(pay: object) -> None:
    assert parse_pay(pay.canonical()) == pay  # type: ignore[attr-defined]


@given(st.one_of(odds, amounts, shares), st.integers(1, 10**6), st.integers(0, 10**9))
def test_what_a_pay_returns_per_unit_is_what_it_pays_on_the_stake(pay: object, stake: int, meter: int) -> None:
    won = pay.won(stake, meter=Fraction(meter))  # type: ignore[attr-defined]
    returned = pay.returned(stake=Fraction(stake), meter=Fraction(meter))  # type: ignore[attr-defined]
    handed_back = won + (stake if pay.scales_with_bet else 0)  # type: ignore[attr-defined]
    assert returned * stake == handed_back
