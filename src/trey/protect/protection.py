"""``trey protect`` as a library call: the informed player's figures under each kind of information, and what it
does to each side bet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from trey.cards.card import RANK_CHARS, rank_from_char
from trey.cards.hand_table import hand_table
from trey.cards.hands import describe_key
from trey.cards.readings import READINGS, Deals, Seat
from trey.core.errors import TreyError
from trey.core.numbers import fraction_text, rounded_float, sqrt_decimal
from trey.core.runner import Where
from trey.core.version import __version__
from trey.engine import analyze
from trey.engine.results import GameAnalysis
from trey.engine.risk import risk_figures
from trey.figures.export import risk_json
from trey.paytable.model import GameSpec, OnFold, SideBet
from trey.protect.colluders import MAX_COLLUDERS, MAX_SAMPLES, ColluderPlay, scenario_name
from trey.protect.colluders import colluders as sample_colluders
from trey.protect.informed import Informed, InformedPlay, evaluate
from trey.protect.scenarios import (
    BUILT_IN_CLASSES,
    ONE_CARD_CONTEXTS,
    TWO_CARD_CONTEXTS,
    CardClasses,
    card_classes,
    one_card,
    two_cards,
)

MAX_CLASS_PARTITIONS = 8  # --classes given at most this many times
# A progress report: (the scenario, how much more of it is done, its total), in contexts of seen cards or samples.
Report = Callable[[str, int, int], None]


@dataclass(frozen=True)
class SideBetEffect:
    """What information about the dealer's cards does to a side bet placed before it is known."""

    wager: str
    title: str
    rtp: Fraction  # the bet's RTP under normal play
    informed_rtp: Fraction | None  # under the informed decisions of the one-card scenario (None: not computed)
    why: str


@dataclass(frozen=True)
class Protection:
    """What :func:`protect` finds: the game's exact analysis, each scenario of information (one dealer card
    seen, two, the class of one) with its informed play, each side bet's return under it, and the colluding seats
    sampled."""

    spec: GameSpec
    analysis: GameAnalysis
    scenarios: tuple[InformedPlay, ...]
    side_bets: tuple[SideBetEffect, ...]
    sampled: tuple[ColluderPlay, ...] = ()  # colluding seats: seeded Monte Carlo


def parse_classes(text: str) -> CardClasses:
    """``"A,K,Q|J,10,9,8|7,6,5,4,3,2"`` (or a built-in name): a partition of the thirteen ranks."""
    if text in BUILT_IN_CLASSES:
        return BUILT_IN_CLASSES[text]
    hint = "give every rank once, classes split by |, e.g. 'A,K,Q|J,10,9,8|7,6,5,4,3,2', or ace-face-other, high-low"
    if len(text) > 200:
        raise TreyError("the card classes are longer than any partition of thirteen ranks", hint=hint)
    try:
        classes = tuple(
            tuple(sorted((rank_from_char(r) for r in part.split(",")), reverse=True)) for part in text.split("|")
        )
    except ValueError as exc:
        raise TreyError(f"cannot read the card classes {text!r}: {exc}", hint=hint) from None
    ranks = [r for ranks in classes for r in ranks]
    if sorted(ranks) != list(range(13)) or len(classes) < 2:
        missing = "".join(RANK_CHARS[r] for r in range(13) if r not in ranks)
        said = f" (missing {missing})" if missing else " (a rank twice)" if len(ranks) > 13 else ""
        raise TreyError(f"{text!r} is not a partition of the thirteen ranks into two or more classes{said}", hint=hint)
    return CardClasses(text, classes)


def protect(
    spec: GameSpec,
    *,
    classes: tuple[CardClasses, ...] = (),
    two: bool = True,
    colluders: int | None = None,
    samples: int = 20_000,
    seed: int = 1,
    analysis: GameAnalysis | None = None,
    scheduler: str | None = None,
    progress: Report | None = None,
) -> Protection:
    """The informed player's figures: one dealer card seen, two (with ``two``), the built-in card classes and
    ``classes``, and ``colluders`` other seats' hands (``samples`` seeded samples, run on the Dask ``scheduler``
    when one is given); and each side bet's return, which information changes only through the decisions.
    ``progress`` is told how far each scenario has got (the contexts of seen cards decided, the samples drawn)."""
    game = spec.wagers.ante_play
    if game is None:
        raise TreyError(
            "the game has no Ante & Play: information about the dealer's cards changes no decision",
            hint="game protection studies the Ante & Play decision",
        )
    if len(classes) > MAX_CLASS_PARTITIONS:
        raise TreyError(f"at most {MAX_CLASS_PARTITIONS} --classes", hint="give fewer partitions")
    analysis = analysis or analyze(spec)
    ante = analysis.ante_play
    assert ante is not None
    informed = Informed(game, spec.rules)
    q = spec.rules.dealer_qualifier.minimum_key

    def advance(scenario: str, total: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(scenario, done, total)

    scenarios = [("one dealer card", one_card(q), ONE_CARD_CONTEXTS)]
    if two:
        scenarios.append(("two dealer cards", two_cards(q), TWO_CARD_CONTEXTS))
    for partition in (*BUILT_IN_CLASSES.values(), *(c for c in classes if c.name not in BUILT_IN_CLASSES)):
        name = f"the class of one dealer card ({partition.name})"
        scenarios.append((name, card_classes(q, partition), partition.contexts))
    results = [
        evaluate(name, informed, batches, ante.plays, ante.stats, advance(name, total))
        for name, batches, total in scenarios
    ]
    sampled: tuple[ColluderPlay, ...] = ()
    if colluders is not None:
        if not 1 <= colluders <= MAX_COLLUDERS or not 1 <= samples <= MAX_SAMPLES:
            raise TreyError(
                f"{colluders} colluders and {samples:,} samples",
                hint=f"give 1 to {MAX_COLLUDERS} colluders and 1 to {MAX_SAMPLES:,} samples",
            )
        sampled = (
            sample_colluders(
                game,
                spec.rules,
                ante.plays,
                ante.stats.mean,
                colluders=colluders,
                samples=samples,
                seed=seed,
                where=Where(scheduler=scheduler),
                advance=advance(f"{scenario_name(colluders)} (sampled)", samples),
            ),
        )
    return Protection(spec, analysis, tuple(results), _side_bets(spec, analysis, results[0]), sampled)


def _side_bets(spec: GameSpec, analysis: GameAnalysis, one: InformedPlay) -> tuple[SideBetEffect, ...]:
    effects = []
    for bet in spec.wagers.side_bets:
        rtp = analysis.wagers[bet.id].stats.rtp
        if bet.on_fold is OnFold.STANDS:
            effects.append(SideBetEffect(bet.id, bet.title, rtp, rtp, "settled whatever the player decides: unchanged"))
            continue
        why = "lost on a fold: it follows the informed decisions (one dealer card seen)"
        effects.append(SideBetEffect(bet.id, bet.title, rtp, _lost_on_a_fold(bet, one), why))
    return tuple(effects)


FOLDED_PAIRS_A_STEP = 2_000_000  # (player hand, dealer hand) pairs classified at a time


def _lost_on_a_fold(bet: SideBet, one: InformedPlay) -> Fraction:
    """The RTP of a bet lost on a fold when the player sees one dealer card: what the bet returns over every deal
    (its reading's exact counts, as if it stood), less what it would have returned on the deals the informed player
    folds. Those are classified by the bet's reading (the folded hands of each seen card against every dealer hand
    that holds it)."""
    assert one.plays is not None
    table = hand_table()
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), table.cards.astype(np.int64)), axis=1)
    reading = READINGS[bet.reads]
    paid = reading.paid_by(bet.pays.listed)
    returned = [Fraction(0) if row is None else bet.net(bet.pays.rows[row][1]) + 1 for row in paid]
    counts = reading.class_counts()
    standing = sum((r * n for r, n in zip(returned, counts, strict=True)), Fraction(0)) / reading.cycle
    total = int(one.hand_deals.sum())  # every deal, once per seen card: three times the game's cycle
    if reading.seat is Seat.PLAYER:  # paid on the player's hand alone: its deals played are counted per hand
        classes = reading.classify(Deals(table.cards, table.cards)).tolist()
        back = sum((returned[c] * int(n) for c, n in zip(classes, one.hand_played.tolist(), strict=True)), Fraction(0))
        return back / total
    folded_classes = np.zeros(len(reading.classes), dtype=np.int64)
    dealer_classes = reading.classify(Deals(table.cards, table.cards)) if reading.seat is Seat.DEALER else None
    for (card,), plays in zip(one.seen, one.plays, strict=True):
        holding = np.flatnonzero((masks >> card) & 1)
        folded = np.flatnonzero(~plays & (((masks >> card) & 1) == 0))
        if dealer_classes is not None:  # paid on the dealer's hand alone: each folded hand's dealer hands, by class
            one_hot = np.eye(len(reading.classes), dtype=np.int64)[dealer_classes[holding]]
            ok = (masks[folded][:, None] & masks[holding][None, :]) == 0
            folded_classes += (ok.astype(np.int64) @ one_hot).sum(axis=0)
            continue
        step = max(1, FOLDED_PAIRS_A_STEP // len(holding))
        for start in range(0, len(folded), step):
            players = folded[start : start + step]
            ok = (masks[players][:, None] & masks[holding][None, :]) == 0
            rows, columns = np.nonzero(ok)
            deals = Deals(table.cards[players[rows]], table.cards[holding[columns]])
            folded_classes += np.bincount(reading.classify(deals), minlength=len(reading.classes))
    lost = sum((returned[c] * int(n) for c, n in enumerate(folded_classes.tolist())), Fraction(0))
    return standing - lost / total


def _stats_json(play: InformedPlay) -> dict[str, Any]:
    stats = play.stats
    return {
        "deals": stats.cycle,
        "player_edge": fraction_text(stats.mean),
        "rtp": fraction_text(stats.rtp),
        "gain": fraction_text(play.gain),
        "hit_frequency": fraction_text(stats.hit_frequency),
        "variance": fraction_text(stats.variance),
        "std_dev": rounded_float(sqrt_decimal(stats.variance), 4),
        "average_wager": fraction_text(play.average_wager),
        "risk": risk_json(risk_figures(play.net_results)),
    }


def protection_json(protection: Protection) -> dict[str, Any]:
    """``trey protect --format json`` (schemas/protection.schema.json)."""
    ante = protection.analysis.ante_play
    assert ante is not None
    normal = ante.stats
    scenarios = []
    for play in protection.scenarios:
        deals = play.stats.cycle
        scenarios.append(
            {
                "scenario": play.scenario,
                "exact": True,
                **_stats_json(play),
                "chart": [
                    {
                        "seen": c.seen,
                        "weakest_played": describe_key(c.weakest_played) if c.weakest_played is not None else None,
                        "folded_at_or_above": c.folded_above,
                    }
                    for c in play.chart
                ],
                "tells": [
                    {
                        "seen": t.seen,
                        "plays_below_normal": fraction_text(Fraction(t.plays_below, deals)),
                        "folds_above_normal": fraction_text(Fraction(t.folds_above, deals)),
                        "plays_below_per_1000": rounded_float(Fraction(t.plays_below * 1000, deals), 4),
                        "folds_above_per_1000": rounded_float(Fraction(t.folds_above * 1000, deals), 4),
                    }
                    for t in play.tells
                ],
            }
        )
    return {
        "trey_version": __version__,
        "spec_sha256": protection.spec.sha256,
        "name": protection.spec.name,
        "normal": {
            "player_edge": fraction_text(normal.mean),
            "rtp": fraction_text(normal.rtp),
            "hit_frequency": fraction_text(normal.hit_frequency),
            "std_dev": rounded_float(sqrt_decimal(normal.variance), 4),
            "average_wager": fraction_text(ante.average_wager),
            "risk": risk_json(risk_figures(ante.net_results)),
        },
        "scenarios": scenarios
        + [
            {
                "scenario": c.scenario,
                "exact": False,
                "samples": c.samples,
                "seed": c.seed,
                "player_edge": rounded_float(Fraction(c.edge), 6),
                "player_edge_standard_error": rounded_float(Fraction(c.edge_error), 6),
                "gain": rounded_float(Fraction(c.gain), 6),
                "gain_standard_error": rounded_float(Fraction(c.gain_error), 6),
                "hit_frequency": rounded_float(Fraction(c.hit_frequency), 6),
                "std_dev": rounded_float(Fraction(c.std_dev), 4),
                "average_wager": rounded_float(Fraction(c.average_wager), 6),
            }
            for c in protection.sampled
        ],
        "side_bets": [
            {
                "wager": b.wager,
                "title": b.title,
                "rtp": fraction_text(b.rtp),
                "informed_rtp": fraction_text(b.informed_rtp) if b.informed_rtp is not None else None,
                "changes": b.informed_rtp != b.rtp,
                "why": b.why,
            }
            for b in protection.side_bets
        ],
    }


def certified_protection_json(protection: Protection) -> dict[str, Any]:
    """The certificate's ``protection`` section: the exact scenarios and the side bets (no sampled figure: a
    certificate states what every deal gives)."""
    data = protection_json(protection)
    # Without the risk figures (issue 34), as certificates were issued before them, so that those still verify.
    scenarios = [{k: v for k, v in s.items() if k != "risk"} for s in data["scenarios"] if s["exact"]]
    return {"scenarios": scenarios, "side_bets": data["side_bets"]}


def strategy_words(weakest: int | None) -> str:
    """The informed player's rule for one seen card, in words: "Q-9-2 or better", "every hand", "nothing"."""
    if weakest is None:
        return "nothing"
    if weakest == int(hand_table().keys.min()):
        return "every hand"
    return f"{describe_key(weakest)} or better"
