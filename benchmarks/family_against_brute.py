"""trey's family engine (issue 31) against the brute force of benchmarks/bruteforce_family.py, written apart from it,
over every deal of each of the brute force's games: the house edge per Ante, the average total wager, the
variance, the cells taking each option, and the optimal option of every one of the cells (all 52 up cards: trey's
decision module is asked of each up card directly, not through the suits' symmetry its analysis uses).

    .venv/bin/python benchmarks/family_against_brute.py [--only face_up_ultimate ...]

Exit 1 naming every figure that differs. About a minute (the brute force's count, 1-2 s a game, its tallies more).
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bruteforce_family import HANDS, RULE_SETS, count  # benchmarks/ is this script's folder
from family_brute import Rules
from trey.cards.hand_table import hand_indexes
from trey.cards.readings.player_hand import class_of_hand
from trey.engine.decide import Expectations, hidden_counts
from trey.engine.family import analyze_family, played_cells
from trey.paytable.load import load_spec_bytes
from trey.paytable.model import GameSpec

RANK_TEXT = "23456789TJQKA"


def _pays(table: dict[str, Fraction]) -> str:
    return "{" + ", ".join(f"{row}: '{pay.numerator} to {pay.denominator}'" for row, pay in table.items()) + "}"


def _hand(strength: tuple[int, ...]) -> str:
    """A qualifier or a requirement of family_brute's, as the paytable writes it."""
    if strength == (1,):
        return "pair"
    return "-".join(RANK_TEXT[r] for r in strength[1:])


def paytable_of(name: str, rules: Rules) -> GameSpec:
    """The brute force's rules set written as a paytable of format 3 (what a lab would write)."""
    options = ", ".join(
        f"{{play: {m}}}" if weakest is None else f"{{play: {m}, at_least: {_hand(weakest)}}}"
        for m, weakest in rules.options
    )
    lines = [
        "trey: 3",
        f"name: {name}",
        "game:",
        f"  face_up: {rules.face_up}",
        f"  options: [{options}]",
        f"  ante_when_dealer_does_not_qualify: {rules.ante_when_dealer_does_not_qualify}",
        f"  play_needs_qualifier: {str(rules.play_needs_qualifier).lower()}",
    ]
    if rules.blind is not None:
        lines.append(f"  blind: {_pays(dict(rules.blind))}")
    if rules.play_pays is not None:
        lines.append(f"  play_pays: {_pays(dict(rules.play_pays))}")
    for flag in ("play_pays_on_tie", "play_pays_when_dealer_does_not_qualify"):
        if getattr(rules, flag):
            lines.append(f"  {flag}: true")
    if rules.bad_beat is not None:
        lines.append(f"  bad_beat: {_pays(dict(rules.bad_beat))}")
    qualifier = "none" if rules.qualifier is None else _hand(rules.qualifier)
    lines += [f"rules: {{dealer_qualifier: {qualifier}, ties: {rules.ties}}}", "wagers:", "  ante_play:"]
    lines.append(f"    ante_bonus: {_pays(dict(rules.ante_bonus)) if rules.ante_bonus else '{}'}")
    return load_spec_bytes(("\n".join(lines) + "\n").encode(), f"{name}.yaml")


def compare(name: str, rules: Rules) -> list[str]:
    """Every figure and every cell's decision of one game; the differences, in words."""
    spec = paytable_of(name, rules)
    start = time.perf_counter()
    plain = count(rules)
    counted = time.perf_counter()
    found = analyze_family(spec)
    analysed = time.perf_counter()
    differ = []
    for label, mine, theirs in (
        ("house edge per Ante", found.house_edge_per_ante, plain.house_edge),
        ("average total wager", found.average_action, plain.average_wager),
        ("variance per Ante squared", found.stats.variance, plain.variance),
        ("cells", found.cells, int(plain.exists.sum())),
    ):
        if mine != theirs:
            differ.append(f"{label}: trey {mine}, the brute force {theirs}")
    by_option = {o: int((plain.exists & (plain.choice == o)).sum()) for o in plain.options}
    if {o.option: o.cells for o in found.options} != by_option:
        differ.append(f"cells by option: trey {found.options}, the brute force {by_option}")
    # Every cell: the brute force's hands are in the order of combinations(range(52), 3), as trey's hand table.
    assert (hand_indexes(HANDS) == np.arange(len(HANDS))).all()
    assert spec.wagers.ante_play is not None
    expect = Expectations(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)
    q = spec.rules.dealer_qualifier.minimum_key
    cells = wrong = 0
    for row, up in enumerate(range(52) if rules.face_up else [None]):
        counts = hidden_counts(up, q)
        exists = counts.sum(axis=1) > 0
        mine = expect.decide(counts)
        assert (exists == plain.exists[row]).all()
        cells += int(exists.sum())
        wrong += int((mine[exists] != plain.choice[row][exists]).sum())
    if wrong:
        differ.append(f"{wrong:,} of {cells:,} cells decided otherwise")
    # A side bet lost on a fold beside a face-up card counts each hand in the cells it plays, over all 52 up cards,
    # from the analysis's clubs through the suits' symmetry: against the brute force's choices for every up card.
    if rules.face_up:
        mine_played = played_cells(found.choices)
        theirs_played = (plain.exists & (plain.choice > 0)).sum(axis=0)
        if not (mine_played == theirs_played).all():
            differ.append("the up cards each hand is played against differ")
        by_category = np.bincount(class_of_hand(), weights=theirs_played).astype(np.int64)
        print(f"{name}: cells played by the player's hand class (the brute force's choices): {by_category.tolist()}")
    print(
        f"{name}: house edge per Ante {found.house_edge_per_ante} = {float(found.house_edge_per_ante):.4%}, "
        f"{cells:,} cells each decided as the brute force does: "
        + ("all equal" if not differ else "DIFFERS")
        + f" (brute force {counted - start:.2f} s, trey {analysed - counted:.2f} s)"
    )
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(RULE_SETS), help="compare only these games")
    args = parser.parse_args()
    failures = []
    for name, rules in RULE_SETS.items():
        if args.only and name not in args.only:
            continue
        failures += [f"{name}: {d}" for d in compare(name, rules)]
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
