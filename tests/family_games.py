"""The games of tests/family_brute.RULE_SETS as trey paytables, by the same names: what the engine, the settlement
and the simulation are checked on against the plain count (which states the rules apart from trey)."""

from __future__ import annotations

from conftest import PAYTABLES
from trey.paytable.load import load_spec, load_spec_bytes
from trey.paytable.model import GameSpec

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"

FU_GAME = """\
game:
  face_up: 1
  options: [{play: 1}, {play: 3, at_least: pair}]
  ante_when_dealer_does_not_qualify: pushes
  play_needs_qualifier: false
  blind: {BLIND}
"""
FU_BLIND = "{mini_royal: 100, straight_flush: 8, three_of_a_kind: 6, straight: 3 to 2, flush: 1}"


PRIME_PLAY = "{mini_royal: 20, straight_flush: 5, three_of_a_kind: 4, straight: 2, flush: 3 to 2, pair: 1}"


def paytable(name: str, body: str) -> GameSpec:
    return load_spec_bytes(f"trey: 3\nname: {name}\n{body}".encode(), f"{name}.yaml")


VARIANTS: dict[str, GameSpec] = {
    "standard": load_spec(PAYTABLES / "ante_bonus" / "5-4-1.yaml"),
    "face_up_ultimate": load_spec(FACE_UP_ULTIMATE),
    "face_up_ultimate_k_high": paytable(
        "FU K-high",
        FU_GAME.replace("{BLIND}", FU_BLIND) + "rules: {dealer_qualifier: K-high}\nwagers: {ante_play: {}}\n",
    ),
    "face_up_ultimate_blind_50_10_5_2_1": paytable(
        "FU Blind 50-10-5-2-1",
        FU_GAME.replace("{BLIND}", "{mini_royal: 50, straight_flush: 10, three_of_a_kind: 5, straight: 2, flush: 1}")
        + "wagers: {ante_play: {}}\n",
    ),
    "ante_pushes_no_face_up": paytable(
        "Ante pushes", "game: {ante_when_dealer_does_not_qualify: pushes}\nwagers: {ante_play: {}}\n"
    ),
    "face_up_no_raises": paytable(
        "Face up",
        "game: {face_up: 1}\nwagers: {ante_play: {ante_bonus: {straight_flush: 5, three_of_a_kind: 4, straight: 1}}}\n",
    ),
    "prime_style": paytable(
        "Prime style",
        "game:\n  ante_when_dealer_does_not_qualify: pushes\n"
        f"  play_pays: {PRIME_PLAY}\n  play_pays_on_tie: true\n  play_pays_when_dealer_does_not_qualify: true\n"
        "  bad_beat: {mini_royal: 20, straight_flush: 5, three_of_a_kind: 4, straight: 2}\n"
        "wagers: {ante_play: {}}\n",
    ),
    "face_up_ultimate_play_pays_bad_beat": paytable(
        "FU Play pays",
        FU_GAME.replace("{BLIND}", FU_BLIND)
        + "  play_pays: {straight_flush: 5, three_of_a_kind: 3, straight: 3 to 2}\n"
        + "  bad_beat: {straight_flush: 2, three_of_a_kind: 1 to 2}\n"
        + "wagers: {ante_play: {}}\n",
    ),
    "face_up_10x_pairs_push": paytable(
        "10x, pairs push",
        "game: {face_up: 1, options: [{play: 10}], play_pays: {flush: 0, pair: 0}}\nwagers: {ante_play: {}}\n",
    ),
}
