"""Speed of game protection (issue "Game protection"), and a brute force of the one-card figure.

    .venv/bin/python benchmarks/bench_protect.py

- `trey protect paytables/standard.yaml --no-two-cards` (one dealer card, ace-face-other, high-low; median of 3),
  target 30 s;
- the same with two dealer cards (1 run), target 2 minutes;
- a plain numpy brute force of one seen dealer card over all 1,221,511,200 (player hand, dealer hand, seen card)
  deals, written apart from trey's inclusion-exclusion: for each seen card, every player hand against every dealer
  hand holding it, compared by key; the script checks it finds trey's exact edge, for the standard rules and for a
  variant (Q-6-4 qualifier, ties to the player).
"""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction

import numpy as np

from common import REPO, TREY, report, time_command
from trey.cards.hand_table import hand_table
from trey.cards.readings import PLAYER_HAND
from trey.cards.readings.player_hand import class_of_hand
from trey.engine import analyze
from trey.paytable.load import load_spec
from trey.paytable.model import DealerQualifier, Rules, Ties
from trey.protect.protection import protect


def brute_one_card(spec_rules: Rules, ante_bonus: dict[int, Fraction], needs_play: bool) -> Fraction:
    """E[net] per Ante of a player who sees one dealer card, by comparing hands deal by deal."""
    table = hand_table()
    keys, cards = table.keys, table.cards.astype(np.int64)
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), cards), axis=1)
    q = spec_rules.dealer_qualifier.minimum_key
    tie = 1 if spec_rules.ties is Ties.PLAYER_WINS else 0
    bonus = np.array([ante_bonus.get(int(c), Fraction(0)) for c in class_of_hand()], dtype=object)
    numerator = Fraction(0)
    deals = 0
    for seen in range(52):
        holding = np.flatnonzero((masks >> seen) & 1)  # the 1,176 dealer hands holding the seen card
        player = np.flatnonzero(((masks >> seen) & 1) == 0)  # the 20,825 player hands without it
        ok = (masks[player][:, None] & masks[holding][None, :]) == 0
        mine, theirs = keys[player][:, None], keys[holding][None, :]
        qualifies = theirs >= q
        ante_play = np.where(~qualifies, 1, np.where(mine > theirs, 2, np.where(mine == theirs, 2 * tie, -2)))
        play_whole = (ante_play * ok).sum(axis=1)  # the Ante and Play nets over the 1,128 dealer hands left
        hands = ok.sum(axis=1)
        for i, p in enumerate(player.tolist()):
            b = bonus[p]
            play = play_whole[i] + b * hands[i]
            fold = (-1 + (0 if needs_play else b)) * hands[i]
            numerator += max(play, fold) if play != fold else fold
        deals += int(hands.sum())
    return numerator / deals


def main() -> None:
    standard = "paytables/standard.yaml"
    report(
        "trey protect --no-two-cards (one card, ace-face-other, high-low)",
        time_command([str(TREY), "protect", standard, "--no-two-cards", "--format", "json"], runs=3),
        30,
    )
    report(
        "trey protect with two dealer cards",
        time_command([str(TREY), "protect", standard, "--format", "json"], runs=1),
        120,
    )
    spec = load_spec(REPO / standard)
    game = spec.wagers.ante_play
    assert game is not None
    bonus_by_class = {}
    paid = PLAYER_HAND.paid_by(game.ante_bonus.listed)
    for cls, row in enumerate(paid):
        if row is not None:
            bonus_by_class[cls] = game.ante_bonus.all_odds[row][1].net
    for name, rules in (
        ("standard", spec.rules),
        ("Q-6-4, ties to the player", Rules(DealerQualifier.parse("Q-6-4"), Ties.PLAYER_WINS)),
    ):
        variant = replace(spec, rules=rules)
        start = time.perf_counter()
        brute = brute_one_card(rules, bonus_by_class, rules.ante_bonus_requires_play)
        seconds = time.perf_counter() - start
        exact = protect(variant, two=False, analysis=analyze(variant)).scenarios[0].stats.mean
        assert brute == exact, (name, brute, exact)
        print(
            f"brute force of one seen card, {name}: {float(brute) * 100:.4f}% = trey's exact {exact} ({seconds:.1f} s)"
        )


if __name__ == "__main__":
    main()
