"""Game protection: the informed player's figures equal the published ones for the standard game, and every
count and decision equals a brute force written here, apart from the module, under rule variants too."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from conftest import STANDARD, run_cli, standard_protection
from plain_hands import strength
from trey.cards.hand_table import HANDS, hand_indexes, hand_table
from trey.cards.hands import describe_key
from trey.core.errors import TreyError
from trey.core.jsonschemas import validator
from trey.core.numbers import decimal_text, percent_text, sqrt_decimal
from trey.paytable.load import load_spec, load_spec_bytes
from trey.paytable.model import ANTE_BONUS_OUTCOMES, AntePlay, DealerQualifier, Paytable, Rules, Ties
from trey.paytable.odds import Odds
from trey.protect.informed import ContextCounts, Informed, seen_counts
from trey.protect.protection import parse_classes, protect, protection_json

SPEC = load_spec(STANDARD)


def _scenario(name: str) -> object:
    return next(s for s in standard_protection().scenarios if s.scenario == name)


def test_one_seen_card_gives_the_published_figures() -> None:
    """Jacobson, "Hole-Card Play: Update #1" (apheat.net, 2015): +3.4829%, 54.2203%, 1.7417; the Wizard of Odds
    (2003): raise Q/K/A-9-2 or better on a seen Q, K or A, always raise on a J or lower."""
    one = _scenario("one dealer card")
    assert percent_text(one.stats.mean) == "3.4829%"  # type: ignore[attr-defined]
    assert percent_text(one.stats.hit_frequency) == "54.2203%"  # type: ignore[attr-defined]
    assert decimal_text(sqrt_decimal(one.stats.variance), 4) == "1.7417"  # type: ignore[attr-defined]
    chart = {line.seen: line for line in one.chart}  # type: ignore[attr-defined]
    assert [describe_key(chart[r].weakest_played) for r in ("A", "K", "Q", "J", "2")] == [
        "A-9-2",
        "K-9-2",
        "Q-9-2",
        "5-3-2",
        "5-3-2",
    ]
    assert all(line.folded_above == 0 for line in chart.values())


def test_the_class_of_one_card_gives_the_published_figures() -> None:
    """Wizard of Odds (2003): ace / face / other known for one card, +2.41%; apheat.net, "Edge-sorting Three Card
    Poker" (2013): one card known high (Q, K, A) or low, +1.837% (the exact 1.83781% to three decimals, cut)."""
    afo = _scenario("the class of one dealer card (ace-face-other)")
    high_low = _scenario("the class of one dealer card (high-low)")
    assert percent_text(afo.stats.mean, 2) == "2.41%"  # type: ignore[attr-defined]
    assert high_low.stats.mean == Fraction(467689, 25448150)  # type: ignore[attr-defined]
    assert percent_text(high_low.stats.mean, 5) == "1.83781%"  # type: ignore[attr-defined]


# --- a brute force written apart from trey's counting ----------------------------------------------------------


def _brute_counts(player: tuple[int, ...], seen: tuple[int, ...], qualifier: tuple[int, ...]) -> list[int]:
    """(dealer does not qualify, player higher, tie, dealer higher) over every dealer hand holding ``seen``."""
    rest = [c for c in range(52) if c not in player and c not in seen]
    mine = strength(player)
    counts = [0, 0, 0, 0]
    for others in combinations(rest, 3 - len(seen)):
        theirs = strength(tuple(seen) + others)
        if theirs < qualifier:
            counts[0] += 1
        elif mine > theirs:
            counts[1] += 1
        elif mine == theirs:
            counts[2] += 1
        else:
            counts[3] += 1
    return counts


STANDARD_BONUS = {5: 5, 4: 4, 3: 1}  # Ante Bonus by _strength's category: straight flush, trips, straight
# Each variant's rules, its Ante Bonus and, written apart, the weakest dealer hand that qualifies as _strength
# orders hands.
VARIANTS = {
    "standard": (SPEC.rules, STANDARD_BONUS, (0, 10, 1, 0)),  # Q-3-2
    "Q-6-4, ties to the player": (
        Rules(DealerQualifier.parse("Q-6-4"), Ties.PLAYER_WINS),
        STANDARD_BONUS,
        (0, 10, 4, 2),
    ),
    "pair, bonus on a fold": (Rules(DealerQualifier.parse("pair"), Ties.PUSH, False), STANDARD_BONUS, (1, 0)),
    "Ante Bonus 4-3-1": (SPEC.rules, {5: 4, 4: 3, 3: 1}, (0, 10, 1, 0)),
}


def _ante_play(bonus: dict[int, int]) -> AntePlay:
    names = {5: "straight_flush", 4: "three_of_a_kind", 3: "straight"}
    return AntePlay(Paytable.from_mapping(ANTE_BONUS_OUTCOMES, {names[c]: Odds(pay) for c, pay in bonus.items()}))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_counts_and_decisions_equal_a_brute_force(variant: str) -> None:
    rules, ante_bonus, lowest = VARIANTS[variant]
    table = hand_table()
    rng = random.Random(variant)
    informed = Informed(_ante_play(ante_bonus), rules)
    q = rules.dealer_qualifier.minimum_key
    for _ in range(6):
        seen = tuple(sorted(rng.sample(range(52), rng.choice((1, 2)))))
        counts = seen_counts(seen, q)
        for hand in rng.sample(range(HANDS), 3):
            player = tuple(int(c) for c in table.cards[hand])
            if set(player) & set(seen):
                assert counts[hand].sum() == 0
                continue
            brute = _brute_counts(player, seen, lowest)
            assert counts[hand].tolist() == brute, (seen, player)
            # The decision, from the brute force's counts and the rules written out here.
            tie = 1 if rules.ties is Ties.PLAYER_WINS else 0
            nets = (1, 2, 2 * tie, -2)  # Ante + Play: dealer does not qualify, player higher, tie, dealer higher
            bonus = ante_bonus.get(strength(player)[0], 0)
            play = sum(n * c for n, c in zip(nets, brute, strict=True)) + bonus * sum(brute)
            fold = (-1 + (0 if rules.ante_bonus_requires_play else bonus)) * sum(brute)
            batch = ContextCounts(counts[None, :, :], counts.sum(axis=1)[None, :])
            assert bool(informed.decide(batch).plays[0, hand]) == (play > fold), (variant, seen, player)


def test_a_partition_is_read_or_refused_with_its_reason() -> None:
    assert parse_classes("A,K,Q|J,10,9,8|7,6,5,4,3,2").classes == ((12, 11, 10), (9, 8, 7, 6), (5, 4, 3, 2, 1, 0))
    with pytest.raises(
        TreyError, match=r"not a partition of the thirteen ranks into two or more classes \(missing 2\)"
    ):
        parse_classes("A,K,Q|J,10,9,8|7,6,5,4,3")
    with pytest.raises(TreyError, match="not a rank: 'X'"):
        parse_classes("A,X|K")


def test_the_json_follows_its_schema_and_the_command_prints_the_same_figures() -> None:
    data = protection_json(standard_protection())
    assert list(validator("protection").iter_errors(data)) == []
    result = run_cli("protect", STANDARD, "--no-two-cards", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == data
    table = run_cli("protect", STANDARD, "--no-two-cards")
    assert "│ one dealer card" in table.stdout and "3.4829%" in table.stdout and "6.8558 pt" in table.stdout
    sampled = run_cli("protect", STANDARD, "--no-two-cards", "--colluders", "1", "--samples", "300", "--format", "json")
    data = json.loads(sampled.stdout)
    assert list(validator("protection").iter_errors(data)) == []
    assert data["scenarios"][-1]["scenario"] == "1 colluding seat's hands" and data["scenarios"][-1]["exact"] is False
    refused = run_cli("protect", STANDARD, "--colluders", "7")
    assert refused.exit_code == 2 and "7 is not in the range 1<=x<=6" in refused.stderr


def test_a_game_without_ante_and_play_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "pp.yaml"
    path.write_text("trey: 2\nname: PP alone\nwagers:\n  pair_plus: {pair: 1}\n")
    result = run_cli("protect", path)
    assert result.exit_code == 1
    assert "the game has no Ante & Play" in result.stderr and "Traceback" not in result.stderr


def test_colluders_sample_reproducibly_with_the_exact_expectation_inside_each_sample() -> None:
    from trey.protect.colluders import colluders, sample_figures

    ante = standard_protection().analysis.ante_play
    assert ante is not None
    game = SPEC.wagers.ante_play
    assert game is not None
    first = colluders(game, SPEC.rules, ante.plays, ante.stats.mean, colluders=2, samples=600, seed=9)
    again = colluders(game, SPEC.rules, ante.plays, ante.stats.mean, colluders=2, samples=600, seed=9)
    assert first == again and first.gain_error < 0.01
    # Inside a sample, against every dealer hand the cards left make, by the brute force written above.
    informed = Informed(game, SPEC.rules)
    rng = random.Random(3)
    rows = [rng.sample(range(52), 9) for _ in range(3)]  # the player's three, two colluders' six
    figures = sample_figures(informed, ante.plays, np.array(rows))
    for row, expected in zip(rows, figures.informed.tolist(), strict=True):
        player, known = tuple(row[:3]), set(row)
        rest = [c for c in range(52) if c not in known]
        mine = strength(player)
        play_total = 0.0
        hands = list(combinations(rest, 3))
        column = informed.columns[int(hand_indexes(np.array([sorted(player)]))[0])]
        bonus = float(informed.bonus[column])
        for dealer in hands:
            theirs = strength(dealer)
            net = 1 if theirs < (0, 10, 1, 0) else 2 if mine > theirs else 0 if mine == theirs else -2
            play_total += net + bonus
        assert abs(max(play_total / len(hands), -1.0) - expected) < 1e-12


DEALER_BONUS_LOST = b"""trey: 2
name: Dealer Bonus lost on a fold
wagers:
  ante_play:
    ante_bonus: {straight_flush: 5, three_of_a_kind: 4, straight: 1}
side_bets:
  dealer_bonus:
    reads: dealer_hand
    on_fold: lost
    pays: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}
"""


def test_a_side_bet_on_the_dealers_hand_lost_on_a_fold_follows_the_informed_decisions() -> None:
    """Counted another way: for each seen card and each dealer hand holding it, how many of the hands the informed
    player plays share no card with it (by inclusion and exclusion over its three cards), times what it returns."""
    spec = load_spec_bytes(DEALER_BONUS_LOST, "dealer-bonus.yaml")
    found = protect(spec, two=False)
    (effect,) = found.side_bets
    one = found.scenarios[0]
    assert one.plays is not None
    table = hand_table()
    cards = table.cards.astype(np.int64)
    pays = {"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 3, "pair": 1}
    strengths = [strength(tuple(int(c) for c in row)) for row in table.cards]
    category = ["straight_flush", "three_of_a_kind", "straight", "flush", "pair", None]
    returned = np.array([pays[category[5 - s[0]]] + 1 if category[5 - s[0]] else 0 for s in strengths], dtype=np.int64)
    incidence = np.zeros((len(cards), 52), dtype=np.int64)  # hand x card
    np.put_along_axis(incidence, cards, 1, axis=1)
    a, b, c = cards[:, 0], cards[:, 1], cards[:, 2]
    back = 0
    for (card,), plays in zip(one.seen, one.plays, strict=True):
        played = incidence[plays].astype(np.float64)  # BLAS; every count is a whole number far below 2^53
        single = played.sum(axis=0).astype(np.int64)  # played hands holding each card
        pair = np.rint(played.T @ played).astype(np.int64)  # ... holding both of two cards
        holding = np.flatnonzero(incidence[:, card])
        x, y, z = a[holding], b[holding], c[holding]
        sharing = single[x] + single[y] + single[z] - pair[x, y] - pair[x, z] - pair[y, z] + plays[holding]
        back += int(((int(plays.sum()) - sharing) * returned[holding]).sum())
    assert effect.informed_rtp == Fraction(back, one.stats.cycle)
    assert effect.informed_rtp > effect.rtp  # the informed player folds less: the bet is lost less often


# --- progress (issue 30.7): two dealer cards take 25-75 s ------------------------------------------------------


def test_protect_reports_each_scenarios_progress_and_changes_nothing() -> None:
    reports: dict[str, list[tuple[int, int]]] = {}
    found = protect(
        SPEC,
        two=False,
        colluders=1,
        samples=600,
        analysis=standard_protection().analysis,
        progress=lambda task, done, total: reports.setdefault(task, []).append((done, total)),
    )
    assert [s.stats for s in found.scenarios] == [s.stats for s in standard_protection().scenarios]
    assert {task: (sum(done for done, _ in r), {total for _, total in r}, len(r)) for task, r in reports.items()} == {
        "one dealer card": (52, {52}, 13),  # a report per chart line (a rank's four suits), to its 52 cards
        "the class of one dealer card (ace-face-other)": (3, {3}, 3),
        "the class of one dealer card (high-low)": (2, {2}, 2),
        "1 colluding seat's hands (sampled)": (600, {600}, 1),  # a report per task of samples
    }
    assert list(reports)[-1] == found.sampled[0].scenario + " (sampled)"
    # two dealer cards report their contexts the same way: each pair of cards once
    from trey.protect.scenarios import TWO_CARD_CONTEXTS, two_card_contexts

    pairs = [pair for _, seen in two_card_contexts() for pair in seen]
    assert len(pairs) == len(set(pairs)) == TWO_CARD_CONTEXTS == len(list(combinations(range(52), 2)))


def test_progress_goes_to_a_terminal_and_never_with_json(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import trey.cli.protect
    from trey.cli.app import progress_tasks

    with progress_tasks(enabled=True) as report:
        assert report is None  # stderr is not a terminal under pytest
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with progress_tasks(enabled=False) as report:
        assert report is None  # --format json
    monkeypatch.undo()
    # the command asks for bars in table format only, and hands protect what it gets
    asked: list[bool] = []
    given: list[object] = []
    protection = standard_protection()  # worked out before protect is replaced (it is made by protect)

    def recording(*, enabled: bool) -> object:
        asked.append(enabled)
        return progress_tasks(enabled=enabled)

    def fake(_spec: object, **options: object) -> object:
        given.append(options["progress"])
        return protection

    monkeypatch.setattr(trey.cli.protect, "progress_tasks", recording)
    monkeypatch.setattr("trey.protect.protection.protect", fake)
    assert run_cli("protect", STANDARD, "--format", "json").exit_code == 0
    assert run_cli("protect", STANDARD).exit_code == 0
    assert (asked, given) == ([False, True], [None, None])  # and stderr is no terminal here: no bar either way


PTY_RUN = """
import sys
import trey.protect.protection as protection
from trey.core.errors import TreyError

def fake(spec, *, progress, **options):
    print("progress given" if progress else "no progress", file=sys.stderr, flush=True)
    if progress:
        for _ in range(4):
            progress("one dealer card", 13, 52)
    raise TreyError("stopped after the progress")

protection.protect = fake
from trey.cli import app
path = sys.argv[1]
for format in ("table", "json"):
    sys.argv = ["trey", "protect", path, "--format", format]
    try:
        app()
    except SystemExit:
        pass
"""


def test_a_pseudo_terminal_gets_the_bar_and_json_does_not() -> None:
    import os
    import subprocess
    import sys

    parent, child = os.openpty()
    run = subprocess.Popen(
        [sys.executable, "-c", PTY_RUN, str(STANDARD)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=child,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(child)
    shown = b""
    while True:
        try:
            chunk = os.read(parent, 65536)
        except OSError:  # the child end closed: everything was read
            break
        if not chunk:
            break
        shown += chunk
    os.close(parent)
    assert run.wait() == 0 and run.stdout is not None and run.stdout.read() == b""
    table, json_run = shown.decode().split("no progress")
    assert "progress given" in table and "one dealer card" in table and "100%" in table
    assert "one dealer card" not in json_run and "stopped after the progress" in json_run
