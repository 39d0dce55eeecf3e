"""What the dealer pays is the exact win rounded down to the smallest chip, by less than one chip, and never more
than the cap (unless a progressive is exempt from it)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from trey.core.numbers import MoneyStyle
from trey.paytable.odds import Odds
from trey.paytable.pays import Amount
from trey.play.payouts import PayRule

pays = st.builds(Odds, st.integers(0, 10**6), st.integers(1, 100)) | st.builds(
    lambda cents: Amount(Fraction(cents, 100)), st.integers(0, 10**9)
)
chips = st.sampled_from([Fraction(1, 100), Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(5), Fraction(25)])


@given(
    st.integers(1, 10**5),
    st.builds(Odds, st.integers(0, 10**6), st.integers(1, 100))
    | st.builds(lambda c: Amount(Fraction(c, 100)), st.integers(0, 10**9)),
    chips,
    st.none() | st.integers(1, 10**7),
    st.booleans(),
    st.booleans(),
)
def test_a_payout_is_the_exact_win_rounded_down_to_a_chip_and_capped(
    bet: int, pay: Odds | Amount, chip: Fraction, cap: int | None, progressive: bool, covers: bool
) -> None:
    rule = PayRule(MoneyStyle(), chip, cap, covers)
    paid = rule.pay(bet, pay, progressive=progressive)
    assert paid.exact == pay.won(bet, meter=None)
    held = cap is not None and (covers or not progressive)
    if held and paid.capped:
        assert paid.amount == cap < paid.exact
    else:
        assert paid.amount <= paid.exact < paid.amount + chip
        assert (paid.amount / chip).denominator == 1
        assert paid.rounded == (paid.amount != paid.exact)
    if cap is not None and held:
        assert paid.amount <= cap
