"""Every deal of a Three Card Poker family game counted with numpy, apart from trey's engine: the exact house edge,
average wager, variance and optimal strategy (as a rule by the up card's rank, with the cells that break it), for the
published games and variants.

The rules and the settlement of a deal are tests/family_brute.py's (one statement of each); what this script adds
is the count over every deal. For each cell (the player's hand and the dealer's face-up card, if any) it needs six
numbers: how many of the dealer's hidden-card sets leave the dealer qualifying or not, and the player winning, tied
or losing. Each is a count of dealer hands disjoint from the cell's cards whose strength is below a threshold, and
is got exactly by inclusion-exclusion over the player's cards, from sorted arrays of the dealer hands' strengths
(numpy.searchsorted): all the dealer hands, less those holding each player card, plus those holding each two, less
those holding all three. The script checks itself: the standard game's published edge and strategy (asserted),
Face Up Ultimate's published 3.8807% (asserted), and for every rules set, every option's EV in a few hundred seeded
random cells (and 40 of the cells that break a rule) equal to family_brute.cell_evs walking the dealer's hands one
by one; also, over every deal, the player's hand beating the dealer's as often as the reverse.

    .venv/bin/python benchmarks/bruteforce_family.py --json /tmp/family.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import textwrap
import time
from bisect import bisect_left
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from family_brute import (  # tests/ is put on the path just above
    FACE_UP_ULTIMATE,
    FOLD,
    ROWS,
    RULE_SETS,
    Rules,
    Strength,
    allowed_options,
    best,
    cell_evs,
    hand_strength,
    net,
    row,
    wager,
)

# Every three-card hand (sorted cards), its strength and its level: the strengths' rank among the distinct
# strengths, 0 the weakest, so that comparing levels compares hands.
HANDS = np.array(list(combinations(range(52), 3)), dtype=np.int64)
STRENGTHS = [hand_strength(tuple(int(c) for c in hand)) for hand in HANDS]
LEVELS = sorted(set(STRENGTHS))
HAND_LEVEL = np.array([bisect_left(LEVELS, s) for s in STRENGTHS], dtype=np.int64)
HAND_ROW = np.array([ROWS.index(row(s)) for s in STRENGTHS], dtype=np.int64)
LEVEL_OF_CARDS = np.full((52, 52, 52), -1, dtype=np.int64)  # any order of a hand's three cards -> its level
for order in permutations(range(3)):
    LEVEL_OF_CARDS[HANDS[:, order[0]], HANDS[:, order[1]], HANDS[:, order[2]]] = HAND_LEVEL
CODE_BASE = len(LEVELS) + 1  # above every threshold (a level, or one past the strongest)

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NAMES = "cdhs"

STANDARD_EDGE = Fraction(686689, 20358520)
FACE_UP_ULTIMATE_EDGE_PERCENT = "3.8807"
# Stephen How's simple strategy for Face Up Ultimate: 1x with at least this hand against each up-card rank (3x every
# pair or better); his "10-x-x" is 10-3-2, the weakest 10-high hand.
HOW_ONE_TIMES: dict[int, Strength] = {
    0: (0, 7, 6, 0),  # 9-8-x
    1: (0, 8, 1, 0),  # 10-x-x
    2: (0, 8, 2, 0),  # 10-4-x
    3: (0, 8, 3, 0),  # 10-5-x
    4: (0, 8, 4, 0),  # 10-6-x
    5: (0, 8, 5, 0),  # 10-7-x
    6: (0, 8, 4, 0),  # 10-6-x
    7: (0, 8, 1, 0),  # 10-x-x
    8: (0, 8, 6, 2),  # 10-8-4
    9: (0, 9, 6, 2),  # J-8-4
    10: (0, 10, 6, 2),  # Q-8-4
    11: (0, 11, 6, 2),  # K-8-4
    12: (0, 12, 6, 3),  # A-8-5
}
HOW_THREE_TIMES: Strength = (1, 0, 1)  # 2-2-3, the weakest pair


# ---------------------------------------------------------------------------------------------------------- counting


def subset_code(cards: np.ndarray) -> np.ndarray:
    """One number for each row of sorted cards (a subset of a hand), the same for the same cards."""
    code = np.zeros(len(cards), dtype=np.int64)
    for column in range(cards.shape[1]):
        code = code * 52 + cards[:, column]
    return code


def count_below(hidden: np.ndarray, hidden_levels: np.ndarray, players: np.ndarray, thresholds: np.ndarray) -> Any:
    """For each player hand i and threshold j: how many of the hidden-card sets (rows of sorted cards, with the level
    of the dealer hand each makes) share no card with players[i] and make a level below thresholds[i, j].

    Inclusion-exclusion over the player's cards: all the sets, less those holding each card, plus those holding each
    two, less those holding all three. The sets holding a given subset are found in one sorted array of
    subset code * CODE_BASE + level, so a count is the difference of two searchsorted positions."""
    count = np.searchsorted(np.sort(hidden_levels), thresholds)
    for size in range(1, min(3, hidden.shape[1]) + 1):
        holding = np.sort(
            np.concatenate(
                [
                    subset_code(hidden[:, list(columns)]) * CODE_BASE + hidden_levels
                    for columns in combinations(range(hidden.shape[1]), size)
                ]
            )
        )
        sign = -1 if size % 2 else 1
        for columns in combinations(range(3), size):
            start = subset_code(players[:, list(columns)])[:, None] * CODE_BASE
            count += sign * (np.searchsorted(holding, start + thresholds) - np.searchsorted(holding, start))
    return count


def tallies(face_up: int, qualifier_level: int) -> tuple[np.ndarray, np.ndarray]:
    """The six counts of every cell, shape (up cards, player hands, 6): the number of the dealer's hidden-card sets
    by (dealer qualifies, result) at index qualifies * 3 + result + 1 (result 1 the player wins, 0 ties, -1 loses);
    and which cells exist (the up card not in the player's hand). Without a face-up card there is one 'up card'."""
    ups = range(52) if face_up else [None]
    counts = np.zeros((len(ups), len(HANDS), 6), dtype=np.int64)
    exists = np.zeros((len(ups), len(HANDS)), dtype=bool)
    for index, up in enumerate(ups):
        if up is None:
            hidden, hidden_levels = HANDS, HAND_LEVEL
            players = np.ones(len(HANDS), dtype=bool)
        else:
            hidden = np.array(list(combinations([c for c in range(52) if c != up], 2)), dtype=np.int64)
            hidden_levels = LEVEL_OF_CARDS[up, hidden[:, 0], hidden[:, 1]]
            players = ~np.isin(HANDS, up).any(axis=1)
        level = HAND_LEVEL[players]
        qualifier = np.full_like(level, qualifier_level)
        below = count_below(
            hidden,
            hidden_levels,
            HANDS[players],
            np.stack(
                [
                    level,
                    level + 1,
                    qualifier,
                    np.minimum(level, qualifier),
                    np.minimum(level + 1, qualifier),
                    np.full_like(level, len(LEVELS)),  # every dealer hand: the sets disjoint from the cell
                ],
                axis=1,
            ),
        )
        deals = math.comb(49 - face_up, 3 - face_up)  # the dealer's hidden cards from the rest of the deck
        assert (below[:, 5] == deals).all()
        win, win_or_tie, short = below[:, 0], below[:, 1], below[:, 2]  # short: the dealer does not qualify
        short_win, short_win_or_tie = below[:, 3], below[:, 4]
        cell = np.stack(
            [
                short - short_win_or_tie,  # dealer short, player loses
                short_win_or_tie - short_win,  # short, tie
                short_win,  # short, player wins
                deals - win_or_tie - (short - short_win_or_tie),  # dealer qualifies, player loses
                win_or_tie - win - (short_win_or_tie - short_win),  # qualifies, tie
                win - short_win,  # qualifies, player wins
            ],
            axis=1,
        )
        assert (cell >= 0).all() and (cell.sum(axis=1) == deals).all()
        counts[index, players] = cell
        exists[index, players] = True
    return counts, exists


CLASSES = [(qualifies, result) for qualifies in (False, True) for result in (-1, 0, 1)]  # the tallies' order


@dataclass
class Count:
    """The whole count of one rules set: per cell, each option's EV numerator (over scale * deals a cell) and the
    option taken; the totals over every deal."""

    rules: Rules
    options: list[int]
    scale: int  # the nets are integers over this (the paytables' common denominator)
    deals_per_cell: int
    exists: np.ndarray
    allowed: dict[int, np.ndarray]
    numerators: dict[int, np.ndarray]
    choice: np.ndarray
    house_edge: Fraction
    average_wager: Fraction
    second_moment: Fraction
    variance: Fraction


def count(rules: Rules) -> Count:
    """Count every deal of a rules set."""
    qualifier_level = 0 if rules.qualifier is None else bisect_left(LEVELS, rules.qualifier)
    counts, exists = tallies(rules.face_up, qualifier_level)
    deals_per_cell = int(counts[0, np.argmax(exists[0])].sum())
    options = [FOLD, *sorted(m for m, _ in rules.options)]
    nets = {o: [[net(rules, o, r, q, res) for q, res in CLASSES] for r in ROWS] for o in options}
    scale = math.lcm(*(x.denominator for table in nets.values() for line in table for x in line))
    scaled = {o: np.array([[int(x * scale) for x in line] for line in nets[o]], dtype=np.int64) for o in options}
    allowed = {}
    for o in options:
        can = np.array([o in allowed_options(rules, s) for s in STRENGTHS])
        allowed[o] = exists & can[None, :]
    numerators = {o: (counts * scaled[o][HAND_ROW][None, :, :]).sum(axis=2) for o in options}
    choice = np.zeros(exists.shape, dtype=np.int64)  # FOLD
    best_numerator = numerators[FOLD].copy()
    for o in options[1:]:  # ascending multiples: on equal EVs the smaller wager stays
        better = allowed[o] & (numerators[o] > best_numerator)
        choice[better] = o
        best_numerator[better] = numerators[o][better]
    cells = int(exists.sum())
    deals = cells * deals_per_cell
    total = int(best_numerator[exists].sum())
    squares = sum(
        int((counts * (scaled[o] ** 2)[HAND_ROW][None, :, :]).sum(axis=2)[exists & (choice == o)].sum())
        for o in options
    )
    mean = Fraction(total, scale * deals)
    second_moment = Fraction(squares, scale * scale * deals)
    wagers = sum(wager(rules, o) * int((exists & (choice == o)).sum()) for o in options)
    return Count(
        rules=rules,
        options=options,
        scale=scale,
        deals_per_cell=deals_per_cell,
        exists=exists,
        allowed=allowed,
        numerators=numerators,
        choice=choice,
        house_edge=-mean,
        average_wager=Fraction(wagers, cells),
        second_moment=second_moment,
        variance=second_moment - mean * mean,
    )


def vectorised_evs(result: Count, up_index: int, hand_index: int) -> dict[int, Fraction]:
    return {
        o: Fraction(int(result.numerators[o][up_index, hand_index]), result.scale * result.deals_per_cell)
        for o in result.options
        if result.allowed[o][up_index, hand_index]
    }


# ---------------------------------------------------------------------------------------------------------- strategy


Thresholds = dict[int | None, dict[int, Strength | None]]  # up rank (None: no card up) -> multiple -> weakest hand


@dataclass
class Strategy:
    """A rank-level rule (per up-card rank and multiple, the weakest hand played at that multiple or more; None:
    never), the house edge of playing it, and the cells whose optimal decision differs from it."""

    thresholds: Thresholds
    house_edge: Fraction
    # (up index, hand index, optimal option, rule's option, by ranks): by ranks when every cell of that hand's ranks
    # (its level) against that up rank decides the same, so no suit pattern explains it; else by suits
    exceptions: list[tuple[int, int, int, int, bool]]


def up_groups(result: Count) -> dict[int | None, list[int]]:
    """The up-card indices of each up rank (one group, None, without a face-up card)."""
    if result.exists.shape[0] == 1:
        return {None: [0]}
    return {rank: [rank * 4 + suit for suit in range(4)] for rank in range(13)}


def fit(result: Count) -> Thresholds:
    """The rank-level rule that fits the optimal decisions best: for each up rank and multiple k, the threshold
    level t at which 'play k or more iff the hand's level is at least t' disagrees with the fewest cells (the weakest
    such t)."""
    thresholds: Thresholds = {}
    for rank, ups in up_groups(result).items():
        exists, choice = result.exists[ups], result.choice[ups]
        level = np.broadcast_to(HAND_LEVEL, exists.shape)
        thresholds[rank] = {}
        for k in result.options[1:]:
            yes = np.bincount(level[exists & (choice >= k)], minlength=len(LEVELS))
            no = np.bincount(level[exists & (choice < k)], minlength=len(LEVELS))
            disagree = np.concatenate([[0], np.cumsum(yes)]) + (no.sum() - np.concatenate([[0], np.cumsum(no)]))
            t = int(np.argmin(disagree))  # len(LEVELS): never
            thresholds[rank][k] = LEVELS[t] if t < len(LEVELS) else None
    return thresholds


def judge(result: Count, thresholds: Thresholds) -> Strategy:
    """Play a rank-level rule (the largest multiple whose weakest hand the cell's hand reaches, else fold): its house
    edge, and every cell where the optimal decision differs, by ranks or by suits."""
    rule_choice = np.zeros(result.exists.shape, dtype=np.int64)
    exceptions = []
    for rank, ups in up_groups(result).items():
        for k in result.options[1:]:  # ascending: a larger multiple reached overrides a smaller
            weakest = thresholds[rank][k]
            if weakest is not None:
                rule_choice[np.ix_(ups, bisect_left(LEVELS, weakest) <= HAND_LEVEL)] = k
        exists, choice = result.exists[ups], result.choice[ups]
        level = np.broadcast_to(HAND_LEVEL, exists.shape)
        decisions_at_level = sum(
            (np.bincount(level[exists & (choice == o)], minlength=len(LEVELS)) > 0).astype(np.int64)
            for o in result.options
        )
        for row_index, hand_index in zip(*np.nonzero(exists & (rule_choice[ups] != choice)), strict=True):
            exceptions.append(
                (
                    ups[row_index],
                    int(hand_index),
                    int(choice[row_index, hand_index]),
                    int(rule_choice[ups[row_index], hand_index]),
                    bool(decisions_at_level[HAND_LEVEL[hand_index]] == 1),
                )
            )
    total = 0
    for o in result.options:
        taken = result.exists & (rule_choice == o)
        assert not (taken & ~result.allowed[o]).any(), "the rule bets a multiple a hand may not"
        total += int(result.numerators[o][taken].sum())
    house_edge = -Fraction(total, result.scale * result.deals_per_cell * int(result.exists.sum()))
    return Strategy(thresholds, house_edge, exceptions)


HOW_THRESHOLDS: Thresholds = {rank: {1: HOW_ONE_TIMES[rank], 3: HOW_THREE_TIMES} for rank in range(13)}


# ---------------------------------------------------------------------------------------------------------- checking


def check_cells(result: Count, exceptions: list[tuple[int, int, int, int, bool]], cells: int, seed: int) -> int:
    """Every option's EV equal to family_brute.cell_evs, and the optimal option the same, on `cells` seeded random
    cells and up to 40 of the exceptions. Returns the number of cells checked."""
    rng = random.Random(seed)
    picked = set()
    ups = result.exists.shape[0]
    while len(picked) < cells:
        up_index, hand_index = rng.randrange(ups), rng.randrange(len(HANDS))
        if result.exists[up_index, hand_index]:
            picked.add((up_index, hand_index))
    picked.update((u, h) for u, h, *_ in rng.sample(exceptions, min(40, len(exceptions))))
    for up_index, hand_index in sorted(picked):
        player = tuple(int(c) for c in HANDS[hand_index])
        up = (up_index,) if result.rules.face_up else ()
        plain = cell_evs(result.rules, player, up)
        counted = vectorised_evs(result, up_index, hand_index)
        assert plain == counted, f"cell {player} {up}: plain {plain} != counted {counted}"
        assert best(plain) == result.choice[up_index, hand_index], f"cell {player} {up}: option differs"
    return len(picked)


def check_symmetry(result: Count) -> None:
    """Over every deal, the player's hand beats the dealer's as often as the dealer's beats the player's (swap the
    hands), a check of the six counts that owes nothing to the rules."""
    counts, _ = tallies(result.rules.face_up, 0)  # no qualifier: classes 3 (lose), 4 (tie), 5 (win)
    assert int(counts[..., 3].sum()) == int(counts[..., 5].sum())


# ---------------------------------------------------------------------------------------------------------- output


def percent(x: Fraction, places: int = 4) -> str:
    """x as a percentage rounded once (half to even) to `places` decimals."""
    scaled = round(x * 100 * 10**places)
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{part:0{places}d}"


def hand_text(s: Strength | None) -> str:
    if s is None:
        return "never"
    category, ranks = s[0], [RANK_NAMES[r] for r in s[1:]]
    if category == 0:
        return "-".join(ranks)
    if category == 1:
        return f"pair {ranks[0]}-{ranks[0]}-{ranks[1]}" if len(ranks) == 2 else "any pair"
    names = {2: "flush", 3: "straight", 4: "trips", 5: "straight flush"}
    return f"{names[category]} {'-'.join(ranks)}"


def card_text(card: int) -> str:
    return RANK_NAMES[card // 4] + SUIT_NAMES[card % 4]


def option_text(option: int) -> str:
    return "fold" if option == FOLD else f"{option}x"


def rules_json(rules: Rules) -> dict[str, Any]:
    def table(t: Any) -> Any:
        return None if t is None else {k: str(v) for k, v in t.items()}

    return {
        "face_up": rules.face_up,
        "options": [{"multiple": m, "at_least": None if w is None else list(w)} for m, w in rules.options],
        "qualifier": None if rules.qualifier is None else list(rules.qualifier),
        "ante_when_dealer_does_not_qualify": rules.ante_when_dealer_does_not_qualify,
        "play_needs_qualifier": rules.play_needs_qualifier,
        "ties": rules.ties,
        "blind": table(rules.blind),
        "ante_bonus": table(rules.ante_bonus),
    }


def report(name: str, result: Count, plans: dict[str, Strategy], checked: int, seconds: dict[str, float]) -> Any:
    """Print one rules set as tables and return its JSON."""
    cells = int(result.exists.sum())
    by_option = {option_text(o): int((result.exists & (result.choice == o)).sum()) for o in result.options}
    edge_per_wager = result.house_edge / result.average_wager
    print(f"\n== {name}  ({cells:,} cells, {cells * result.deals_per_cell:,} deals)")
    print(f"  house edge per Ante   {result.house_edge}  = {percent(result.house_edge)}%")
    print(f"  average total wager   {result.average_wager}  = {float(result.average_wager):.6f} Antes")
    print(f"  edge per unit wagered {edge_per_wager}  = {percent(edge_per_wager)}%")
    print(f"  variance per Ante^2   {result.variance}  = {float(result.variance):.6f}")
    print("  cells by option       " + ", ".join(f"{k} {v:,}" for k, v in by_option.items()))
    weakest = weakest_played(result)
    weakest_text = "; ".join(
        f"{label}: " + ", ".join(f"{option_text(k)} {hand_text(s)}" for k, s in by_multiple.items())
        for label, by_multiple in weakest.items()
    )
    print(
        textwrap.fill(
            weakest_text,
            118,
            initial_indent="  weakest hand played in any cell, by up rank: ",
            subsequent_indent="    ",
        )
    )
    strategies = {title: plan_report(result, title, plan, plans) for title, plan in plans.items()}
    print(f"  checked {checked} cells against family_brute.cell_evs: all equal")
    print("  time: " + ", ".join(f"{k} {v:.2f} s" for k, v in seconds.items()))
    return {
        "rules": rules_json(result.rules),
        "cells": cells,
        "deals": cells * result.deals_per_cell,
        "house_edge": str(result.house_edge),
        "house_edge_percent": percent(result.house_edge),
        "average_wager": str(result.average_wager),
        "edge_per_wager": str(edge_per_wager),
        "second_moment": str(result.second_moment),
        "variance": str(result.variance),
        "cells_by_option": by_option,
        "weakest_played_in_any_cell": {
            label: {str(k): None if s is None else list(s) for k, s in by_multiple.items()}
            for label, by_multiple in weakest.items()
        },
        "strategies": strategies,
        "cells_checked_against_plain": checked,
    }


def weakest_played(result: Count) -> dict[str, dict[int, Strength | None]]:
    """Per up rank and multiple k, the weakest hand that plays k or more in some cell (whatever its suits)."""
    weakest: dict[str, dict[int, Strength | None]] = {}
    for rank, ups in up_groups(result).items():
        level = np.broadcast_to(HAND_LEVEL, result.exists[ups].shape)
        label = "none" if rank is None else RANK_NAMES[rank]
        weakest[label] = {}
        for k in result.options[1:]:
            playing = result.exists[ups] & (result.choice[ups] >= k)
            weakest[label][k] = LEVELS[int(level[playing].min())] if playing.any() else None
    return weakest


def plan_report(result: Count, title: str, plan: Strategy, plans: dict[str, Strategy]) -> Any:
    """Print a rank-level rule as a table by up rank, with its exceptions, and return its JSON."""
    multiples = result.options[1:]
    print(f"  -- {title}: house edge {plan.house_edge} = {percent(plan.house_edge)}% played as the rule")
    others = [other for other in plans if other != title]
    head = "  up rank" + "".join(f"{'weakest ' + option_text(k):>14}" for k in multiples)
    print(head + "  exceptions: by ranks, by suits" + "".join(f"  {other}?" for other in others))
    by_rank = {}
    for rank, by_multiple in plan.thresholds.items():
        label = "none" if rank is None else RANK_NAMES[rank]
        mine = [e for e in plan.exceptions if rank is None or e[0] // 4 == rank]
        by_ranks = [e for e in mine if e[4]]
        line = f"  {label:>7}" + "".join(f"{hand_text(by_multiple[k]):>14}" for k in multiples)
        line += f"  {len(by_ranks):>22,}, {len(mine) - len(by_ranks):>8,}"
        line += "".join(
            f"  {'same' if plans[o].thresholds[rank] == by_multiple else 'differs':>{len(o) + 1}}" for o in others
        )
        print(line)
        hands: dict[tuple[int, int, int], int] = {}  # (level, optimal, rule) -> cells, of the exceptions by ranks
        for _, h, chosen, rule, _ in by_ranks:
            hands[int(HAND_LEVEL[h]), chosen, rule] = hands.get((int(HAND_LEVEL[h]), chosen, rule), 0) + 1
        by_rank[label] = {
            "weakest": {
                str(k): None if s is None else {"strength": list(s), "hand": hand_text(s)}
                for k, s in by_multiple.items()
            },
            "exceptions_by_ranks": [
                {"strength": list(LEVELS[lv]), "hand": hand_text(LEVELS[lv]), "optimal": o, "rule": r, "cells": n}
                for (lv, o, r), n in sorted(hands.items())
            ],
            "exceptions_by_suits": len(mine) - len(by_ranks),
        }
    for label, entry in by_rank.items():
        if entry["exceptions_by_ranks"]:
            text = ", ".join(
                f"{e['hand']} {option_text(e['optimal'])} (rule {option_text(e['rule'])})"
                for e in entry["exceptions_by_ranks"]
            )
            print(f"    by ranks vs {label}, in every suit pattern: {text}")
    by_suits = [e for e in plan.exceptions if not e[4]]
    for u, h, chosen, rule, _ in by_suits[:4]:
        evs = vectorised_evs(result, u, h)
        ev_text = ", ".join(f"{option_text(o)} {float(v):+.6f}" for o, v in evs.items())
        decision = f"optimal {option_text(chosen)}, rule {option_text(rule)}"
        print(f"    by suits: {cell_text(result, u, h)}: {decision} ({ev_text})")
    if len(by_suits) > 4:
        print(f"    ... and {len(by_suits) - 4:,} more by suits (all in the JSON)")
    return {
        "house_edge": str(plan.house_edge),
        "by_up_rank": by_rank,
        "exceptions": [
            {
                "player": [int(c) for c in HANDS[h]],
                "up": [u] if result.rules.face_up else [],
                "text": cell_text(result, u, h),
                "optimal": chosen,
                "rule": rule,
                "by": "ranks" if by_ranks else "suits",
                "evs": {str(o): str(v) for o, v in vectorised_evs(result, u, h).items()},
            }
            for u, h, chosen, rule, by_ranks in plan.exceptions
        ],
    }


def cell_text(result: Count, up_index: int, hand_index: int) -> str:
    player = "-".join(card_text(int(c)) for c in HANDS[hand_index])
    return player + (f" vs {card_text(up_index)}" if result.rules.face_up else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the exact results here")
    parser.add_argument("--cells", type=int, default=300, help="random cells checked against the plain count")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--only", action="append", choices=sorted(RULE_SETS), help="count only these rules sets")
    args = parser.parse_args()
    results = {}
    for name, rules in RULE_SETS.items():
        if args.only and name not in args.only:
            continue
        start = time.perf_counter()
        result = count(rules)
        plans = {"fitted rule": judge(result, fit(result))}
        if rules == FACE_UP_ULTIMATE:
            plans["How's"] = judge(result, HOW_THRESHOLDS)
        plan = plans["fitted rule"]
        counted = time.perf_counter()
        checked = check_cells(result, [e for p in plans.values() for e in p.exceptions], args.cells, args.seed)
        check_symmetry(result)
        checked_at = time.perf_counter()
        if name == "standard":
            assert result.house_edge == STANDARD_EDGE, result.house_edge
            assert plan.thresholds[None][1] == (0, 10, 4, 2) and not plan.exceptions  # Q-6-4, no exceptions
            assert int((result.choice == 1).sum()) == 14900
        if name == "face_up_ultimate":
            assert percent(result.house_edge) == FACE_UP_ULTIMATE_EDGE_PERCENT, result.house_edge
        seconds = {"count": counted - start, "checks": checked_at - counted}
        results[name] = report(name, result, plans, checked, seconds)
    if args.json:
        args.json.write_text(json.dumps({"format": "family-brute/1", "rule_sets": results}, indent=1) + "\n")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
