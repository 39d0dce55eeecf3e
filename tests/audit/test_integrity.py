"""The deal-integrity battery: its exact laws against every permutation of a small deck counted one by one, the
published riffle distances, known-bad shuffles flagged and Fisher–Yates passing, and the audit's verdict."""

from __future__ import annotations

import functools
from fractions import Fraction
from itertools import permutations, product
from math import factorial

import numpy as np
import pytest

from trey.audit.integrity import deal_integrity
from trey.audit.integrity.battery import OVERALL, Battery
from trey.audit.integrity.deal import deal
from trey.audit.integrity.features import guessing_scores, inverse, relative_order
from trey.audit.integrity.nulls import (
    adjacency_moments,
    eulerian,
    guessing_moments,
    packet_moments,
    riffle_distance,
    riffle_law,
    rising_law,
    turning_moments,
)
from trey.audit.verdict import DEFAULT_ALPHA, Family
from trey.cards.shuffles import Shuffle, new_deck_order


@functools.cache
def _all(n: int) -> np.ndarray:
    return np.array(list(permutations(range(n))), dtype=np.int64)


def _moments(values: list[int] | np.ndarray) -> tuple[Fraction, Fraction]:
    v = [int(x) for x in values]
    mean = Fraction(sum(v), len(v))
    return mean, Fraction(sum(x * x for x in v), len(v)) - mean * mean


def test_the_eulerian_law_is_every_permutations_rising_sequences() -> None:
    decks = _all(6)
    position = np.argsort(decks, axis=1)  # where input card i went
    rising = 1 + (position[:, 1:] < position[:, :-1]).sum(axis=1)
    assert tuple(np.bincount(rising, minlength=7)[1:].tolist()) == eulerian(6)
    law = rising_law()
    assert sum(law) == 1
    mean = sum(r * p for r, p in enumerate(law, start=1))
    assert (mean, sum(r * r * p for r, p in enumerate(law, start=1)) - mean**2) == (Fraction(53, 2), Fraction(53, 12))


def test_the_riffle_law_is_every_riffle_counted() -> None:
    """Two riffles of 5 cards: all 2^10 equally likely bit sequences, their decks' rising sequences."""
    from collections import Counter

    n, counts = 5, Counter()
    for bits in product(range(2), repeat=2 * n):
        deck = list(range(n))
        for k in range(2):
            b = bits[k * n : (k + 1) * n]
            top, bottom = [c for c in deck[: b.count(0)]], deck[b.count(0) :]
            out, ti, bi = [], 0, 0
            for x in b:
                if x == 0:
                    out.append(top[ti])
                    ti += 1
                else:
                    out.append(bottom[bi])
                    bi += 1
            deck = out
        position = [deck.index(i) for i in range(n)]
        counts[1 + sum(position[i + 1] < position[i] for i in range(n - 1))] += 1
    law = riffle_law(2, n)
    assert [Fraction(counts[r], 2 ** (2 * n)) for r in range(1, n + 1)] == list(law)


def test_bayer_and_diaconis_distances_after_5_to_10_riffles() -> None:
    published = ("0.9237", "0.6135", "0.3341", "0.1672", "0.0854", "0.0429")
    assert [f"{float(riffle_distance(k)):.4f}" for k in range(5, 11)] == list(published)
    assert riffle_distance(0, 6) == 1 - Fraction(1, factorial(6))


def test_adjacency_and_packet_moments_are_every_permutations() -> None:
    decks = _all(7)
    position = np.argsort(decks, axis=1)
    adjacent = (np.abs(np.diff(position, axis=1)) == 1).sum(axis=1)
    assert adjacency_moments(7) == _moments(adjacent)
    hand = np.array([0, 0, 0, 1, 1, 1, -1])[position]  # two hands dealt from the deck's top, by input card
    together = ((hand[:, 1:] == hand[:, :-1]) & (hand[:, 1:] >= 0)).sum(axis=1)
    assert packet_moments(2, 7) == _moments(together)
    assert packet_moments(1, 52)[0] == Fraction(51, 442)


def test_rank_turning_moments_are_every_permutations() -> None:
    decks = _all(6)
    r = decks // 2  # three ranks of two suits
    a, b, c = r[:, :-2], r[:, 1:-1], r[:, 2:]
    turning = (((b > a) & (b > c)) | ((b < a) & (b < c))).sum(axis=1)
    assert turning_moments(3, 2) == _moments(turning)


@pytest.mark.parametrize("strategy", ["riffle", "shelf"])
def test_every_guessing_strategy_scores_h_n_on_a_uniform_deck(strategy: str) -> None:
    decks = _all(6)
    inputs = np.tile(np.arange(6), (len(decks), 1))
    scores = guessing_scores(relative_order(decks, inputs), strategy)
    assert _moments(scores) == guessing_moments(6)
    assert f"{float(guessing_moments()[0]):.4f}" == "4.5380"


def test_the_relative_order_reads_decks_against_their_inputs() -> None:
    rng = np.random.default_rng(8)
    inputs = rng.permuted(new_deck_order(20), axis=1)
    decks = rng.permuted(inputs, axis=1)
    relative = relative_order(decks, inputs)
    assert (np.take_along_axis(inputs, relative, axis=1) == decks).all()
    assert (np.take_along_axis(relative, inverse(relative), axis=1) == np.arange(52)).all()


def test_a_shelf_pass_of_ten_shelves_is_guessed_about_nine_and_a_half_cards() -> None:
    rng = np.random.default_rng(9)
    inputs = new_deck_order(4000)
    scores = guessing_scores(relative_order(Shuffle("shelf:10").shuffle(rng, inputs), inputs), "shelf")
    assert 9.1 < scores.mean() < 9.6


@functools.cache
def _battery(model: str, decks: int, seed: int = 11, *, labelled: bool = False) -> Battery:
    rng = np.random.default_rng(seed)
    inputs = rng.permuted(new_deck_order(decks), axis=1)
    shuffled = Shuffle(model).shuffle(rng, inputs)
    if not labelled:
        return deal_integrity(deal(shuffled, seats=6, inputs=inputs))
    labels = {
        "shuffler": np.array([f"SH-{i % 2}" for i in range(decks)], dtype=object),
        "dealer": np.array([f"D{i % 3}" for i in range(decks)], dtype=object),
    }
    return deal_integrity(deal(shuffled, seats=6, inputs=inputs, labels=labels))


def _flagged(battery: Battery) -> list[str]:
    family = Family.of(battery.statistical_tests(), DEFAULT_ALPHA)
    return [t.name for t, f in zip(family.tests, family.flagged, strict=True) if f]


NEEDED = 260  # the decks the deck-position test says it needs (52 × 5)


@pytest.mark.parametrize("model", [*(f"riffle:{k}" for k in range(1, 7)), "shelf:10"])
def test_riffles_up_to_six_and_a_shelf_pass_are_flagged_at_the_sample_the_battery_needs(model: str) -> None:
    battery = _battery(model, NEEDED)
    positions = next(o for o in battery.outcomes if o.test == "deck positions" and o.group == OVERALL)
    assert positions.needed == NEEDED and positions.runs
    flagged = _flagged(battery)
    assert flagged
    key = "guessing, shelf strategy" if model.startswith("shelf") else "rising sequences"
    assert key in flagged


def test_the_naive_swap_is_flagged_where_the_input_cards_end_up_and_by_its_first_card() -> None:
    """Its bias is relative to the input: each input card too often one place up, and the deck's first card too
    often one of the input's first (1.35 times as often as 1/52) and too rarely one of its last."""
    assert "input positions" in _flagged(_battery("naive-swap", 1000))
    flagged = _flagged(_battery("naive-swap", 3000))
    assert "the deck's first card" in flagged


def test_fisher_yates_is_not_flagged_and_every_test_runs() -> None:
    battery = _battery("fisher-yates", 7000, labelled=True)
    assert _flagged(battery) == []
    overall = [o for o in battery.outcomes if o.group == OVERALL]
    assert all(o.runs for o in overall), [o.name for o in overall if not o.runs]
    groups = {o.group for o in battery.outcomes}
    assert groups == {OVERALL, "shuffler SH-0", "shuffler SH-1", "dealer D0", "dealer D1", "dealer D2"}
    rising = next(o for o in overall if o.test == "rising sequences")
    assert rising.expected == Fraction(53, 2) and rising.counts == "mean rising sequences per deck"


def test_too_few_decks_is_not_enough_data_and_says_how_many_are_needed() -> None:
    battery = _battery("fisher-yates", 120)
    positions = next(o for o in battery.outcomes if o.test == "deck positions" and o.group == OVERALL)
    assert positions.p_value is None and positions.needed == 260 and positions.sample == 120
    line = battery.not_checked[0]
    assert line.startswith("not checked: ")
    assert "deck positions (120 of 260 decks)" in line


def test_without_the_deck_order_the_deck_tests_are_named_as_not_run() -> None:
    rng = np.random.default_rng(1)
    decks = rng.permuted(new_deck_order(50), axis=1)
    battery = deal_integrity(deal(decks, seats=3, log_decks=False))
    assert "deck positions (needs the deck's order)" in battery.missing
    assert "rising sequences (needs the deck's order and the input order)" in battery.missing
    assert {o.test for o in battery.outcomes} >= {"packet position, seats", "hand categories, dealer"}


def test_a_flagged_deal_test_makes_the_audit_flagged() -> None:
    from conftest import STANDARD
    from trey.audit.audit import Audit, audit_deals
    from trey.audit.verdict import Result
    from trey.paytable.load import load_spec

    found = Audit(load_spec(STANDARD), rounds=1)
    rng = np.random.default_rng(2)
    inputs = new_deck_order(NEEDED)
    audit_deals(found, deal(Shuffle("riffle:3").shuffle(rng, inputs), seats=2, inputs=inputs))
    verdict = found.verdict
    assert verdict.result is Result.FLAGGED
    assert any(
        str(f).startswith("deal integrity, rising sequences: mean rising sequences per deck ") for f in verdict.findings
    )
    assert "deal-integrity tests" in verdict.family.statement


@functools.cache
def _flagged_audit() -> object:
    from conftest import STANDARD
    from trey.audit.audit import Audit, audit_deals
    from trey.paytable.load import load_spec

    found = Audit(load_spec(STANDARD), rounds=NEEDED)
    rng = np.random.default_rng(6)
    inputs = new_deck_order(NEEDED)
    labels = {"shuffler": np.array(["SH-1", "SH-2"] * (NEEDED // 2), dtype=object)}
    audit_deals(found, deal(Shuffle("shelf:10").shuffle(rng, inputs), seats=3, inputs=inputs, labels=labels))
    return found


def test_the_report_shows_each_test_by_group_and_the_charts() -> None:
    from datetime import date

    from trey.audit.audit import Audit
    from trey.documents.audit_view import render_audit_html

    found = _flagged_audit()
    assert isinstance(found, Audit)
    html = render_audit_html(found, paper="a4", day=date(2026, 1, 1), logs=["rounds.jsonl"])
    assert "<h2>6. Deal integrity: is the shuffle random?</h2>" in html
    assert '<td>guessing, shelf strategy</td><td class="num">260 decks</td><td class="num">100</td>' in html
    assert '<td>shuffler SH-1</td><td class="num">130</td>' in html
    assert "not enough data" in html  # the hand categories need 2,303 hands
    assert html.count("<svg") == 2  # the heat maps, the rising sequences' histogram
    assert "input position to deck position" in html and "rising sequences of the deck, relative to its input" in html


def test_the_json_carries_every_deal_test_and_follows_its_schema() -> None:
    import json

    from trey.audit.audit import Audit, audit_json
    from trey.core.jsonschemas import validator

    found = _flagged_audit()
    assert isinstance(found, Audit)
    document = json.loads(json.dumps(audit_json(found)))
    validator("audit").validate(document)
    tests = document["deal_integrity"]["tests"]
    shelf = next(t for t in tests if t["test"] == "guessing, shelf strategy" and t["group"] == "all rounds")
    assert shelf["flagged"] and shelf["method"] == "z, one-sided" and shelf["expected"] == str(guessing_moments()[0])
    assert document["verdict"]["result"] == "FLAGGED"


def test_records_that_are_not_what_the_readers_promise_are_refused() -> None:
    import dataclasses

    rng = np.random.default_rng(3)
    decks = rng.permuted(new_deck_order(4), axis=1)
    good = deal(decks, seats=2, inputs=new_deck_order(4))
    bad_deck = decks.copy()
    bad_deck[0, 0] = bad_deck[0, 1]
    cases = [
        (dataclasses.replace(good, decks=bad_deck), "every round's deck must hold each of the 52 cards once"),
        (
            dataclasses.replace(good, inputs=new_deck_order(3)),
            "every round's input must hold each of the 52 cards once",
        ),
        (
            dataclasses.replace(good, seat_number=good.seat_number * 4),
            "seats must belong to rounds in order, numbered 1 to 7",
        ),
        (
            dataclasses.replace(good, labels={"colour": np.array(["x"] * 4, dtype=object)}),
            "labels must be among table, dealer, shuffler, shift, one a round",
        ),
    ]
    for records, message in cases:
        with pytest.raises(ValueError) as caught:
            deal_integrity(records)
        assert str(caught.value) == message


def test_the_battery_counted_in_chunks_is_the_battery_counted_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from trey.audit.integrity import battery, features

    rng = np.random.default_rng(12)
    inputs = rng.permuted(new_deck_order(700), axis=1)
    labels = {"shift": np.array(["day", "night"] * 350, dtype=object)}
    records = deal(Shuffle("riffle:5").shuffle(rng, inputs), seats=4, inputs=inputs, labels=labels)
    whole = deal_integrity(records)
    monkeypatch.setattr(features, "CHUNK", 97)
    monkeypatch.setattr(battery, "CHUNK", 89)
    chunked = deal_integrity(records)
    assert chunked.outcomes == whole.outcomes
    assert whole.positions is not None and chunked.positions is not None
    assert (chunked.positions == whole.positions).all()


def test_the_gamma_tail_of_a_whole_shape_is_a_poisson_sum() -> None:
    """Q(k, x) = P(Poisson(x) < k), summed term by term."""
    from math import exp

    from trey.play.chisquare import gamma_sf

    for k, x in ((1, 0.5), (3, 2.0), (10, 25.0), (69, 116.0)):
        poisson = sum(exp(-x) * x**i / factorial(i) for i in range(k))
        assert abs(gamma_sf(k, x) - poisson) <= 1e-12 + 1e-9 * poisson


def _labelled_records(decks: int, seed: int, **kwargs: object) -> object:
    rng = np.random.default_rng(seed)
    inputs = rng.permuted(new_deck_order(decks), axis=1)
    labels = {"dealer": np.array([f"D{i % 3}" for i in range(decks)], dtype=object)}
    return deal(Shuffle("riffle:6").shuffle(rng, inputs), seats=3, inputs=inputs, labels=labels, **kwargs)


def test_battery_states_merged_are_the_rounds_counted_at_once() -> None:
    import dataclasses

    from trey.audit.integrity.battery import BatteryState

    first, second = _labelled_records(150, 21), _labelled_records(110, 22)
    whole = deal_integrity(
        deal(
            np.concatenate([first.decks, second.decks]),
            seats=3,
            inputs=np.concatenate([first.inputs, second.inputs]),
            labels={"dealer": np.concatenate([first.labels["dealer"], second.labels["dealer"]])},
        )
    )  # type: ignore[attr-defined]
    a, b = BatteryState(), BatteryState()
    a.add(first)  # type: ignore[arg-type]
    b.add(second)  # type: ignore[arg-type]
    a.merge(b)
    merged = a.battery()
    assert merged.outcomes == whole.outcomes and merged.groups_left == whole.groups_left
    # A part without decks: the deck tests not run on the whole, as on the rounds read at once.
    bare = BatteryState()
    bare.add(dataclasses.replace(second, decks=None, inputs=None))  # type: ignore[arg-type]
    a.merge(bare)
    assert "deck positions (needs the deck's order)" in a.battery().missing


def test_a_state_that_counting_rounds_cannot_give_is_refused() -> None:
    """What a worker returns is a claim: checked before it is merged."""
    from trey.audit.integrity.battery import BatteryState

    def forged(change: object) -> str:
        state = BatteryState()
        state.add(_labelled_records(30, 23))  # type: ignore[arg-type]
        change(state)  # type: ignore[operator]
        with pytest.raises(ValueError) as caught:
            BatteryState().merge(state)
        return str(caught.value)

    def extra_deck(s: BatteryState) -> None:
        s.overall["positions"][0, 0] += 1

    def shape(s: BatteryState) -> None:
        s.overall.cells["rising"] = np.zeros(53, dtype=np.int64)

    def negative(s: BatteryState) -> None:
        s.groups["dealer"]["D0"]["moves"][0] = -1

    def more_rounds(s: BatteryState) -> None:
        s.groups["dealer"]["D1"].rounds += 30

    def guessed(s: BatteryState) -> None:
        s.overall["guess_shelf"][...] = 53 * 30

    assert forged(extra_deck) == "positions does not add up to the group's 30 rounds and 90 seats"
    assert forged(shape) == "rising must be int64 counts of shape (52,)"
    assert forged(negative) == "moves must not be negative"
    assert forged(more_rounds) == "positions does not add up to the group's 40 rounds and 30 seats"
    assert forged(guessed) == "guess_shelf must be at most 52 a round"


def test_labels_past_the_values_followed_are_said_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    from trey.audit.integrity import battery

    monkeypatch.setattr(battery, "MAX_TRACKED", 3)
    monkeypatch.setattr(battery, "MAX_GROUPS", 2)
    rng = np.random.default_rng(24)
    decks = rng.permuted(new_deck_order(50), axis=1)
    labels = {"dealer": np.array([f"D{min(i // 5, 5)}" for i in range(50)], dtype=object)}  # D5: 25 rounds
    result = deal_integrity(deal(decks, seats=2, labels=labels))
    assert {o.group for o in result.outcomes} == {OVERALL, "dealer D0", "dealer D1"}
    assert result.not_checked[-2:] == [
        "not checked: deal integrity of 1 dealers beyond the 2 with the most rounds",
        "not checked: deal integrity of the dealers met after the first 3 (35 rounds: at most 3 dealers are followed)",
    ]


def test_a_state_travels_as_plain_data_and_is_read_back_as_a_claim() -> None:
    """How a worker hands its counts back: JSON's (and msgpack's) plain types, checked when read."""
    import json

    from trey.audit.integrity.battery import BatteryState, state_of_plain, state_to_plain

    state = BatteryState()
    state.add(_labelled_records(120, 25))  # type: ignore[arg-type]
    plain = json.loads(json.dumps(state_to_plain(state)))
    assert state_of_plain(plain).battery().outcomes == state.battery().outcomes

    def refused(change: object) -> str:
        data = json.loads(json.dumps(plain))
        change(data)  # type: ignore[operator]
        with pytest.raises(ValueError) as caught:
            state_of_plain(data)
        return str(caught.value)

    assert refused(lambda d: d.pop("untracked")) == "a battery's state has decks, inputs, overall, groups, untracked"
    assert refused(lambda d: d["overall"]["cells"]["rising"].append(0)) == "rising must be a list of 52 counts"
    assert refused(lambda d: d["overall"]["cells"]["hands"].__setitem__(1, 1.5)) == (
        "hands must be whole numbers from 0 to 2^62"
    )
    assert refused(lambda d: d.__setitem__("decks", 1)) == "decks and inputs must be flags"
    assert refused(lambda d: d["groups"]["dealer"].append(d["groups"]["dealer"][0])) == (
        "each dealer is named once, with its counts"
    )
    assert refused(lambda d: d["groups"].__setitem__("colour", [])) == (
        "a battery's groups are by label: table, dealer, shuffler, shift"
    )


def _guessed(relative: np.ndarray) -> tuple[list[int], list[int]]:
    """Both guessers played card by card as :func:`guessing_scores` says they guess: the reference of its pass on
    bit masks over all the decks at once."""
    riffle, shelf = [], []
    for deck in relative.tolist():
        size, unseen, last, down = len(deck), set(range(len(deck))), -1, True
        right = [0, 0]
        for card in deck:
            if last < 0:
                guesses = (0, size - 1)
            else:
                above = [c for c in unseen if c > last]
                below = [c for c in unseen if c < last]
                if down:
                    shelf_guess = max(below) if below else min(above, default=None)
                else:
                    shelf_guess = min(above) if above else max(unseen)
                guesses = (min(above) if above else min(unseen), shelf_guess)
                down = card < last
            right = [r + (g == card) for r, g in zip(right, guesses, strict=True)]
            unseen.remove(card)
            last = card
        riffle.append(right[0])
        shelf.append(right[1])
    return riffle, shelf


def test_the_guessers_pass_on_bit_masks_is_each_deck_guessed_card_by_card() -> None:
    rng = np.random.default_rng(31)
    relatives = [np.argsort(rng.random((40, size)), axis=1) for size in (1, 2, 3, 5, 13, 52)]
    inputs = rng.permuted(new_deck_order(30), axis=1)
    for model in ("riffle:1", "riffle:3", "shelf:10", "shelf:2", "naive-swap"):
        relatives.append(relative_order(Shuffle(model).shuffle(rng, inputs), inputs))
    for relative in relatives:
        riffle, shelf = _guessed(relative)
        assert guessing_scores(relative, "riffle").tolist() == riffle
        assert guessing_scores(relative, "shelf").tolist() == shelf
    assert max(shelf) >= 10  # the shelf guesser right often on a shelf pass: its right guesses are checked too


def _counted_group_by_group(state: object, records: object) -> None:
    """A batch counted into ``state`` one group at a time, each group's rounds by :meth:`Counts.add`: the reference
    of :meth:`BatteryState.add`, which counts every group's cells at once."""
    import dataclasses

    from trey.audit.deals import GROUPS
    from trey.audit.integrity.battery import check_records
    from trey.audit.integrity.features import features

    check_records(records)  # type: ignore[arg-type]
    state._logged(records.decks is not None, records.inputs is not None)  # type: ignore[attr-defined]
    if not state.decks:  # type: ignore[attr-defined]
        records = dataclasses.replace(records, decks=None)  # type: ignore[type-var]
    if not state.inputs:  # type: ignore[attr-defined]
        records = dataclasses.replace(records, inputs=None)  # type: ignore[type-var]
    f = features(records)  # type: ignore[arg-type]
    state.overall.add(f)  # type: ignore[attr-defined]
    for label in GROUPS:
        values = records.labels.get(label)  # type: ignore[attr-defined]
        if values is None:
            continue
        names, first, codes = np.unique(values.astype(str), return_index=True, return_inverse=True)
        seat_codes = codes.ravel()[records.seat_round]  # type: ignore[attr-defined]
        for i in np.argsort(first, kind="stable").tolist():
            if names[i] != "":
                rounds = np.flatnonzero(codes.ravel() == i)
                counts = state._group(label, str(names[i]), len(rounds))  # type: ignore[attr-defined]
                if counts is not None:
                    counts.add(f, rounds, np.flatnonzero(seat_codes == i))


@pytest.mark.parametrize("combinations", [64, 1])
def test_a_batch_counted_by_group_at_once_is_each_groups_rounds_counted_alone(
    monkeypatch: pytest.MonkeyPatch, combinations: int
) -> None:
    """Every group's cells counted at once, chunk by chunk (:func:`~trey.audit.integrity.battery.stacked_counts`:
    each combination of labels, summed by value; or, past ``MAX_COMBINATIONS``, each label's values): the same
    state as each group's rounds counted alone, with or without decks and inputs, labels one value or many, some
    not given, more than are followed."""
    import dataclasses
    import json

    from trey.audit.integrity import battery
    from trey.audit.integrity.battery import BatteryState, state_to_plain

    monkeypatch.setattr(battery, "MAX_TRACKED", 4)
    monkeypatch.setattr(battery, "CHUNK", 7)
    monkeypatch.setattr(battery, "MAX_COMBINATIONS", combinations)
    batches = []
    for seed, decks in ((41, 30), (42, 23), (43, 1)):
        records = _labelled_records(decks, seed)
        n = records.rounds  # type: ignore[attr-defined]
        labels = {
            "table": np.array(["T1"] * n, dtype=object),
            "dealer": np.array([f"D{(seed + i * i) % 7}" if i % 5 else "" for i in range(n)], dtype=object),
            "shuffler": np.array(["" if i % 3 else "S9" for i in range(n)], dtype=object),
            "shift": np.array([""] * n, dtype=object),
        }
        batches.append(dataclasses.replace(records, labels=labels))  # type: ignore[type-var]
    for kept in ({}, {"inputs": None}, {"decks": None, "inputs": None}):
        at_once, alone = BatteryState(), BatteryState()
        for records in batches:
            at_once.add(dataclasses.replace(records, **kept))  # type: ignore[type-var]
            _counted_group_by_group(alone, dataclasses.replace(records, **kept))  # type: ignore[type-var]
        assert json.dumps(state_to_plain(at_once)) == json.dumps(state_to_plain(alone))
        assert at_once.untracked == {"dealer": alone.untracked["dealer"]} and alone.untracked["dealer"] > 0
