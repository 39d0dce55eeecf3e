"""Paytable format 3's ``game:`` section (issue 31): the round as data, read into a RoundShape; older files, and a
format-3 file without the section or with the standard game's, mean the standard game, and its canonical form is the
format-2 one certificates embed, byte for byte."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import trey
from conftest import ALL_PAYTABLES, PAYTABLES, STANDARD, validate_json
from trey.cards.readings import READINGS
from trey.core.errors import SpecError
from trey.paytable.load import check_data, load_spec, load_spec_bytes
from trey.paytable.model import (
    BLIND_OUTCOMES,
    STANDARD_ROUND,
    AnteWithoutQualifier,
    DealerQualifier,
    OnFold,
    Paytable,
    PlayOption,
    RoundShape,
    SideBet,
    refuse_other_games,
)
from trey.paytable.odds import Odds

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
SCHEMA = json.loads((Path(trey.__file__).parent / "schemas" / "paytable.schema.json").read_text())


def test_face_up_ultimate_reads_as_its_round() -> None:
    spec = load_spec(FACE_UP_ULTIMATE)
    assert spec.game == RoundShape(
        face_up=1,
        options=(PlayOption(1), PlayOption(3, DealerQualifier.parse("pair"))),
        ante_when_dealer_does_not_qualify=AnteWithoutQualifier.PUSHES,
        play_needs_qualifier=False,
        blind=Paytable.from_mapping(
            BLIND_OUTCOMES,
            {
                "mini_royal": Odds(100, 1),
                "straight_flush": Odds(8, 1),
                "three_of_a_kind": Odds(6, 1),
                "straight": Odds(3, 2),
                "flush": Odds(1, 1),
            },
        ),
    )
    assert not spec.is_standard_game and spec.game.initial_bet == 2 and spec.game.multiples == (1, 3)
    assert [o.label for o in spec.game.options] == ["1x", "3x with a pair or better"]
    assert spec.rules.dealer_qualifier.label == "Q-high" and spec.wagers.side_bets == ()
    validate_json(__import__("yaml").safe_load(FACE_UP_ULTIMATE.read_text()), SCHEMA)


def test_a_family_game_s_canonical_form_is_format_3_and_reads_back_equal() -> None:
    spec = load_spec(FACE_UP_ULTIMATE)
    canonical = spec.canonical()
    assert list(canonical)[:6] == ["trey", "name", "description", "source", "game", "rules"]
    assert canonical["trey"] == 3
    assert canonical["game"] == {
        "face_up": 1,
        "options": [{"play": 1}, {"play": 3, "at_least": "pair"}],
        "ante_when_dealer_does_not_qualify": "pushes",
        "play_needs_qualifier": False,
        "blind": {"mini_royal": 100, "straight_flush": 8, "three_of_a_kind": 6, "straight": "3 to 2", "flush": 1},
    }
    again = check_data(canonical, "canonical")
    assert again.problems == () and again.spec == replace(spec, sha256="")


def test_the_play_s_pays_are_read_written_and_read_back_equal() -> None:
    spec = load_spec_bytes(
        b"trey: 3\nname: x\ngame:\n  play_pays: {straight: 3, pair: 3 to 2}\n  play_pays_on_tie: true\n"
        b"  play_pays_when_dealer_does_not_qualify: true\n  bad_beat: {three_of_a_kind: 1}\nwagers: {ante_play: {}}\n",
        "x.yaml",
    )
    game = spec.game
    assert game.play_pays is not None and game.play_pays.canonical() == {"straight": 3, "pair": "3 to 2"}
    assert game.bad_beat is not None and game.bad_beat.canonical() == {"three_of_a_kind": 1}
    assert game.play_pays_on_tie and game.play_pays_when_dealer_does_not_qualify and game.play_is_paid_by_table
    canonical = spec.canonical()
    assert list(canonical["game"])[-4:] == [
        "play_pays",
        "play_pays_on_tie",
        "play_pays_when_dealer_does_not_qualify",
        "bad_beat",
    ]
    again = check_data(canonical, "canonical")
    assert again.problems == () and again.spec == replace(spec, sha256="")
    validate_json(canonical, SCHEMA)


@pytest.mark.parametrize("path", ALL_PAYTABLES, ids=lambda p: str(p.relative_to(PAYTABLES)))
def test_every_shipped_standard_game_is_still_written_as_format_2(path: Path) -> None:
    spec = load_spec(path)
    assert spec.canonical()["trey"] == (2 if spec.is_standard_game else 3)
    assert ("game" in spec.canonical()) is (not spec.is_standard_game)


def test_a_format_3_file_describing_the_standard_round_is_the_standard_game() -> None:
    standard = load_spec(STANDARD)
    text = STANDARD.read_text().replace("trey: 1\n", "trey: 3\n")
    described = text.replace(
        "rules:\n",
        "game:\n  face_up: 0\n  options: [{play: 1, at_least: none}]\n  ante_when_dealer_does_not_qualify: wins\n"
        "  play_needs_qualifier: true\nrules:\n",
    )
    for raw in (text, described):
        spec = load_spec_bytes(raw.encode(), "standard-3.yaml")
        assert spec.is_standard_game and spec.game == STANDARD_ROUND
        assert spec.canonical() == standard.canonical()  # the certificate's canonical paytable, as before


def test_options_are_read_in_any_order_and_kept_ascending() -> None:
    spec = load_spec_bytes(
        b"trey: 3\nname: x\ngame:\n  options: [{play: 3, at_least: Q-6-4}, {play: 1}]\nwagers: {ante_play: {}}\n",
        "x.yaml",
    )
    assert spec.game.multiples == (1, 3)
    assert spec.game.options[1].label == "3x with Q-6-4 or better"
    assert spec.game.options[1].minimum_key == DealerQualifier.parse("Q-6-4").minimum_key


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"face_up": 2}, "a game shows 0 to 1 dealer cards before the player decides"),
        ({"options": (PlayOption(3), PlayOption(1))}, "1 to 4 Play bets of different sizes, ascending, not [3, 1]"),
        ({"options": ()}, "1 to 4 Play bets of different sizes, ascending, not []"),
        ({"blind": Paytable(("pair",), ())}, "the Blind's paytable must use the Blind's outcomes"),
        ({"bad_beat": Paytable(("pair",), ())}, "the Play's paytables must use the Play's outcomes"),
        (
            {"play_needs_qualifier": False, "play_pays_when_dealer_does_not_qualify": True},
            "play_pays_when_dealer_does_not_qualify needs play_needs_qualifier",
        ),
    ],
)
def test_a_round_that_cannot_be_is_refused_when_built_in_code(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        replace(STANDARD_ROUND, **change)  # type: ignore[arg-type]


def test_a_play_option_is_one_to_ten_antes_and_none_means_every_hand() -> None:
    with pytest.raises(ValueError, match="a Play bet is 1 to 10 Antes, not 11"):
        PlayOption(11)
    with pytest.raises(ValueError, match="an option open to every hand has no at_least"):
        PlayOption(1, DealerQualifier.parse("none"))


def test_a_family_game_built_in_code_is_counted_with_the_side_bets_the_engine_counts() -> None:
    spec = load_spec(FACE_UP_ULTIMATE)
    pair_plus = SideBet.of_preset("pair_plus", {"pair": Odds(1, 1)})
    replace(spec, wagers=replace(spec.wagers, side_bets=(pair_plus,)))  # lost on a fold, on the player's cards
    beaten = SideBet(
        "beaten",
        "Beaten",
        "bad_beat",
        Paytable(READINGS["bad_beat"].outcome_slugs, (("straight_beaten", Odds(5, 1)),)),
        OnFold.LOST,
    )
    with pytest.raises(ValueError, match="beaten: a side bet lost on a fold beside a face-up card is counted only"):
        replace(spec, wagers=replace(spec.wagers, side_bets=(beaten,)))
    replace(spec, wagers=replace(spec.wagers, side_bets=(replace(beaten, on_fold=OnFold.STANDS),)))  # it stands
    with pytest.raises(ValueError, match="needs Ante & Play"):
        replace(spec, wagers=replace(spec.wagers, ante_play=None, side_bets=(pair_plus,)))


def test_the_refusal_is_one_located_problem_with_its_code() -> None:
    spec = load_spec(FACE_UP_ULTIMATE)
    with pytest.raises(SpecError) as raised:
        refuse_other_games(spec, "trey certify", "fu.yaml")
    (problem,) = raised.value.problems
    assert str(problem) == (
        "fu.yaml: $.game: trey certify is not yet supported for games other than standard Three Card Poker "
        "(trey validate and trey analyze read this game)"
    )
    assert problem.code == "game.not-yet-supported"
    refuse_other_games(load_spec(STANDARD), "trey certify")  # the standard game passes
