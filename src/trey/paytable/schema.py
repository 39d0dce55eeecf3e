"""The paytable's JSON Schema: the shipped file, whose parts that restate a registry are generated from it.

The readings a side bet may read, each preset's outcomes with their words, the Ante Bonus rows, the names of
the rules, qualifiers and strategies with their defaults, and the patterns of odds, amounts and shares are each
stated once, in the registry or model that owns them; :func:`generated_parts` puts them into the schema.
``make generated`` writes the result to ``schemas/paytable.schema.json`` (a test holds the shipped file equal to
it), and the loader validates against :func:`paytable_schema`, so a reading registered at run time is accepted.
"""

from __future__ import annotations

from typing import Any

from trey.cards.readings import READINGS, Outcome
from trey.core.jsonschemas import load_schema, with_parts
from trey.paytable.model import (
    ANTE_BONUS_OUTCOMES,
    BLIND_OUTCOMES,
    ENVY_ON_FOLD,
    MAX_FACE_UP,
    MAX_MULTIPLE,
    MAX_OPTIONS,
    NAMED_HIGH_CARD_QUALIFIERS,
    PLAY_OUTCOMES,
    PRESETS,
    READABLE_VERSIONS,
    SIDE_BET_ON_FOLD,
    STANDARD_ROUND,
    AnteWithoutQualifier,
    EnvyOnFold,
    OnFold,
    Rules,
    Strategy,
    StrategyKind,
    Table,
    Ties,
)
from trey.paytable.odds import ODDS_PATTERN
from trey.paytable.pay_kind import pay_description, pay_schema
from trey.paytable.pays import DECIMAL_PATTERN, FRACTION_PATTERN, PERCENT_PATTERN

ODDS_ROW = "#/$defs/odds"
PAY_ROW = "#/$defs/pay"


def _row(outcome: Outcome, ref: str, prefix: str = "") -> dict[str, Any]:
    return {"$ref": ref, "title": outcome.title, "description": prefix + outcome.description}


def generated_parts() -> dict[str, Any]:
    """The generated parts, by JSON pointer into the schema."""
    rules, table, game = Rules(), Table(), STANDARD_ROUND
    player_hand = READINGS["player_hand"]
    qualifiers = [*NAMED_HIGH_CARD_QUALIFIERS, "none", "pair"]
    option = "/properties/game/properties/options"
    parts: dict[str, Any] = {
        "/properties/trey/enum": list(READABLE_VERSIONS),
        "/properties/game/properties/face_up/maximum": MAX_FACE_UP,
        "/properties/game/properties/face_up/default": game.face_up,
        f"{option}/maxItems": MAX_OPTIONS,
        f"{option}/default": [o.canonical() for o in game.options],
        f"{option}/items/properties/play/maximum": MAX_MULTIPLE,
        f"{option}/items/properties/play/description": f"The Play bet in Antes: 1 to {MAX_MULTIPLE}.",
        f"{option}/items/properties/at_least/anyOf/0/enum": qualifiers,
        "/properties/game/properties/ante_when_dealer_does_not_qualify/enum": [str(v) for v in AnteWithoutQualifier],
        "/properties/game/properties/ante_when_dealer_does_not_qualify/default": str(
            game.ante_when_dealer_does_not_qualify
        ),
        "/properties/game/properties/play_needs_qualifier/default": game.play_needs_qualifier,
        "/properties/game/properties/blind/properties": {
            slug: _row(player_hand.outcome(slug), ODDS_ROW, "Blind odds. ") for slug in BLIND_OUTCOMES
        },
        "/properties/game/properties/play_pays/properties": {
            slug: _row(player_hand.outcome(slug), ODDS_ROW, "Play odds. ") for slug in PLAY_OUTCOMES
        },
        "/properties/game/properties/bad_beat/properties": {
            slug: _row(player_hand.outcome(slug), ODDS_ROW, "Bad-beat odds, on a losing Play. ")
            for slug in PLAY_OUTCOMES
        },
        "/properties/game/properties/play_pays_on_tie/default": game.play_pays_on_tie,
        "/properties/game/properties/play_pays_when_dealer_does_not_qualify/default": (
            game.play_pays_when_dealer_does_not_qualify
        ),
        "/$defs/side_bet/properties/reads/enum": list(READINGS),
        "/$defs/side_bet/properties/reads/description": "The cards the bet is paid on: "
        + ", ".join(f"{name} ({reading.title})" for name, reading in READINGS.items())
        + ".",
        "/$defs/side_bet/properties/on_fold/enum": [str(v) for v in OnFold],
        "/$defs/side_bet/properties/on_fold/default": str(SIDE_BET_ON_FOLD),
        "/$defs/side_bet/properties/envy_on_fold/enum": [str(v) for v in EnvyOnFold],
        "/$defs/side_bet/properties/envy_on_fold/default": str(ENVY_ON_FOLD),
        "/properties/rules/properties/pair_plus_on_fold/enum": [str(v) for v in OnFold],
        "/properties/rules/properties/pair_plus_on_fold/default": str(rules.pair_plus_on_fold),
        "/properties/rules/properties/ties/enum": [str(v) for v in Ties],
        "/properties/rules/properties/ties/default": str(rules.ties),
        "/properties/rules/properties/ante_bonus_requires_play/default": rules.ante_bonus_requires_play,
        "/properties/rules/properties/dealer_qualifier/anyOf/0/enum": qualifiers,
        "/properties/rules/properties/dealer_qualifier/default": rules.dealer_qualifier.label,
        "/properties/table/properties/currency/default": table.currency,
        "/properties/table/properties/payout_cap_covers_progressive/default": table.payout_cap_covers_progressive,
        "/properties/wagers/properties/ante_play/properties/strategy/default": str(Strategy().kind),
        "/properties/wagers/properties/ante_play/properties/strategy/anyOf/0/enum": [
            str(k) for k in StrategyKind if k is not StrategyKind.PLAY_AT_LEAST
        ],
        "/properties/wagers/properties/ante_play/properties/ante_bonus/properties": {
            slug: _row(player_hand.outcome(slug), ODDS_ROW, "Ante Bonus odds. ") for slug in ANTE_BONUS_OUTCOMES
        },
        "/$defs/odds/anyOf/1/pattern": f"^{ODDS_PATTERN.pattern}$",
        "/$defs/money/anyOf/1/pattern": f"^{DECIMAL_PATTERN.pattern}$",
        "/$defs/share/pattern": f"^({PERCENT_PATTERN.pattern}|{FRACTION_PATTERN.pattern})$",
        "/$defs/pay/description": pay_description(),
        "/$defs/pay/anyOf": pay_schema(),
    }
    for preset in PRESETS.values():
        reading = READINGS[preset.reads]
        parts[f"/properties/wagers/properties/{preset.id}/properties"] = {
            o.slug: _row(o, ODDS_ROW) for o in reading.outcomes
        }
    return parts


def paytable_schema() -> dict[str, Any]:
    """The paytable schema as the registries state it now."""
    return with_parts(load_schema("paytable"), generated_parts())


_checking: tuple[dict[str, Any], dict[str, Any]] | None = None  # the generated parts, and the schema made of them


def checking_schema() -> dict[str, Any]:
    """:func:`paytable_schema`, made again only when the registries changed since it was last made (the loader
    reads it for every paytable it checks; copying it takes 3 ms of the workbench's 50 per edit). Shared: read
    it, never change it."""
    global _checking
    parts = generated_parts()  # 0.2 ms: what the registries state now
    made = _checking
    if made is None or made[0] != parts:
        made = (parts, with_parts(load_schema("paytable"), parts))
        _checking = made  # one assignment: a thread reads the old pair or the new one, each whole
    return made[1]
