"""Turn JSON Schema validation errors into located, readable problems with stable codes.

jsonschema's own messages name schema keywords; a table-games manager needs "unknown key 'pair_plsu' (did you
mean 'pair_plus'?)" at the line and column where the key stands. Each error is translated by where it failed in
the schema (its location, such as ``#/$defs/odds``), then by the keyword that failed: never by the wording of a
title or a message, which may change.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from trey.core.errors import Problem
from trey.core.jsonschemas import load_schema, strict_validator_class
from trey.core.text import non_ascii_characters
from trey.paytable.odds import Odds, OddsError, describe
from trey.paytable.pays import parse_money, parse_pay, parse_share
from trey.paytable.yamldoc import JsonPath, YamlDocument

if TYPE_CHECKING:
    from jsonschema import ValidationError

STRATEGY_HINT = "use optimal, mimic-dealer, always-play or {play_at_least: Q-6-4}"
QUALIFIER_HINT = "use Q-high, none, J-high, K-high, A-high, pair or a high-card hand such as Q-6-4"
AT_LEAST_HINT = "use pair (a pair or better), Q-high, J-high, K-high, A-high or a high-card hand such as Q-6-4"

_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "boolean": "true or false",
}


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """The closest choice, or the list of choices; says so when ``word`` differs only by look-alike characters."""
    options = sorted(choices)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        return "expected one of: " + ", ".join(options)
    hint = f"did you mean {close[0]!r}?"
    if not word.isascii():
        hint += f" the key contains non-ASCII characters: {non_ascii_characters(word)}"
    return hint


def _odds(doc: YamlDocument, path: JsonPath, value: Any, error: ValidationError) -> Iterator[Problem]:
    try:
        Odds.parse(value)  # says what is wrong with the value, in one place
    except OddsError as exc:
        yield doc.problem(exc.code, path, str(exc), exc.hint)
    else:  # the schema and the parser disagree: report the schema's finding rather than nothing
        yield doc.problem("odds.unreadable", path, f"cannot read odds {describe(value)}: {error.message}")


def _pay_problem(parse: Callable[[Any], object]) -> Translation:
    def translate(doc: YamlDocument, path: JsonPath, value: Any, error: ValidationError) -> Iterator[Problem]:
        try:
            parse(value)  # says what is wrong with the value, in one place
        except OddsError as exc:
            yield doc.problem(exc.code, path, str(exc), exc.hint)
        else:
            yield doc.problem("pay.unreadable", path, f"cannot read {describe(value)}: {error.message}")

    return translate


def _strategy(doc: YamlDocument, path: JsonPath, value: Any, _: ValidationError) -> Iterator[Problem]:
    if isinstance(value, str):
        hint = did_you_mean(value, ["optimal", "mimic-dealer", "always-play"])
        yield doc.problem("strategy.unknown", path, f"unknown strategy {value!r}", hint)
    elif isinstance(value, dict) and "play_at_least" in value:
        for extra in sorted(set(value) - {"play_at_least"}):
            yield doc.problem("schema.unknown-key", (*path, extra), f"unknown key {extra!r}", STRATEGY_HINT, key=True)
        hand = value["play_at_least"]
        if not isinstance(hand, str):
            yield doc.problem(
                "strategy.not-a-hand", (*path, "play_at_least"), f"expected a hand such as Q-6-4, got {describe(hand)}"
            )
        elif set(value) == {"play_at_least"}:
            yield doc.problem("strategy.not-a-hand", (*path, "play_at_least"), f"not a hand: {hand!r}", STRATEGY_HINT)
    else:
        yield doc.problem("strategy.invalid", path, f"invalid strategy: {describe(value)}", STRATEGY_HINT)


def _qualifier(doc: YamlDocument, path: JsonPath, value: Any, _: ValidationError) -> Iterator[Problem]:
    yield doc.problem("rules.dealer-qualifier", path, f"unknown dealer qualifier {describe(value)}", QUALIFIER_HINT)


def _version(doc: YamlDocument, path: JsonPath, value: Any, _: ValidationError) -> Iterator[Problem]:
    yield doc.problem(
        "format.version",
        path,
        f"unsupported format version {value!r}",
        "this trey reads 'trey: 3', 'trey: 2' and 'trey: 1'",
    )


def _at_least(doc: YamlDocument, path: JsonPath, value: Any, _: ValidationError) -> Iterator[Problem]:
    yield doc.problem("game.at-least", path, f"unknown weakest hand {describe(value)}", AT_LEAST_HINT)


def _reading(doc: YamlDocument, path: JsonPath, value: Any, error: ValidationError) -> Iterator[Problem]:
    from trey.cards.readings import READINGS

    if not isinstance(value, str):
        yield from _by_keyword(doc, path, value, error)
        return
    yield doc.problem("side-bet.unknown-reading", path, f"unknown reading {value!r}", did_you_mean(value, READINGS))


def _side_bet_id(doc: YamlDocument, path: JsonPath, value: Any, _: ValidationError) -> Iterator[Problem]:
    yield doc.problem(
        "side-bet.id",
        (*path, value) if isinstance(value, str) else path,
        f"{value!r} is not a side bet id",
        "use lowercase letters, digits and _, starting with a letter, at most 40 characters",
        key=True,
    )


def _currency(doc: YamlDocument, path: JsonPath, value: Any, error: ValidationError) -> Iterator[Problem]:
    if error.validator == "type":
        yield from _by_keyword(doc, path, value, error)
    else:
        yield doc.problem(
            "table.currency", path, f"not a currency code: {value!r}", "use a 3-letter ISO 4217 code such as USD"
        )


def _name(doc: YamlDocument, path: JsonPath, value: Any, error: ValidationError) -> Iterator[Problem]:
    if error.validator in ("pattern", "minLength"):
        yield doc.problem("name.blank", path, "the name is blank", "give the game a name")
    else:
        yield from _by_keyword(doc, path, value, error)


Translation = Callable[[YamlDocument, JsonPath, Any, "ValidationError"], Iterator[Problem]]

# Where in schemas/paytable.schema.json an error arose → how to say it.
BY_LOCATION: dict[str, Translation] = {
    "#/$defs/odds": _odds,
    "#/properties/wagers/properties/ante_play/properties/strategy": _strategy,
    "#/properties/rules/properties/dealer_qualifier": _qualifier,
    "#/properties/trey": _version,
    "#/properties/game/properties/options/items/properties/at_least": _at_least,
    "#/properties/table/properties/currency": _currency,
    "#/properties/name": _name,
    "#/$defs/side_bet/properties/reads": _reading,
    "#/$defs/pay": _pay_problem(parse_pay),
    "#/$defs/money": _pay_problem(parse_money),
    "#/$defs/share": _pay_problem(parse_share),
    "#/properties/side_bets/propertyNames": _side_bet_id,
}


def schema_location(error: ValidationError, root: dict[str, Any]) -> str:
    """The JSON pointer of the (sub)schema whose keyword failed, following ``$ref``s: ``#/$defs/odds``.

    jsonschema's schema path steps through a ``$ref`` without naming it: where the next step is not in the
    current subschema but a ``$ref`` is, the path continues in the referenced subschema."""
    location: list[str] = []
    node: Any = root
    steps = list(error.absolute_schema_path)
    for index, part in enumerate(steps):
        while isinstance(node, dict) and part not in node and "$ref" in node:
            location = node["$ref"].removeprefix("#/").split("/")
            node = root
            for step in location:
                node = node[step]
        if index == len(steps) - 1:  # the failing keyword itself is not part of the location
            break
        location.append(str(part))
        node = node[part]
    return "#/" + "/".join(location) if location else "#"


def _by_keyword(doc: YamlDocument, path: JsonPath, value: Any, error: ValidationError) -> Iterator[Problem]:
    keyword = error.validator
    schema: Any = error.schema  # jsonschema types these loosely; they are the schema's own values here
    expected: Any = error.validator_value
    if keyword == "additionalProperties":
        known = schema.get("properties", {}).keys()
        for extra in sorted(set(value) - set(known)):
            yield doc.problem(
                "schema.unknown-key", (*path, extra), f"unknown key {extra!r}", did_you_mean(extra, known), key=True
            )
    elif keyword == "required":
        for missing in expected:
            if missing not in value:
                hint = {"trey": "add 'trey: 2' as the first line"}.get(missing, f"add '{missing}:'")
                yield doc.problem("schema.missing-key", path, f"missing required key {missing!r}", hint)
    elif keyword == "type":
        wanted = _TYPE_NAMES.get(str(expected), str(expected))
        yield doc.problem("schema.type", path, f"expected {wanted}, got {describe(value)}")
    elif keyword == "enum":
        options = [str(v) for v in expected]
        hint = did_you_mean(value, options) if isinstance(value, str) else "expected one of: " + ", ".join(options)
        yield doc.problem("schema.enum", path, f"{describe(value)} is not allowed", hint)
    elif keyword == "minimum":
        yield doc.problem("schema.minimum", path, f"must be at least {expected}, got {value!r}")
    elif keyword == "maximum":
        yield doc.problem("schema.maximum", path, f"must be at most {expected:,}, got {value:,}")
    elif keyword == "maxProperties":
        what = "side bets" if path == ("side_bets",) else "entries"
        yield doc.problem(
            "schema.too-many",
            path,
            f"{len(value)} {what}, more than the {expected} allowed",
            f"keep {expected} at most",
        )
    elif keyword == "maxLength":
        yield doc.problem("schema.too-long", path, f"the text is longer than {expected} characters")
    elif keyword == "uniqueItems":
        yield doc.problem(
            "table.chips-duplicate", path, "a chip denomination is listed twice", "list each chip value once"
        )
    else:
        kebab = re.sub(r"(?<!^)(?=[A-Z])", "-", str(keyword)).lower()  # minItems -> min-items
        yield doc.problem(f"schema.{kebab}", path, error.message)


def schema_problems(
    doc: YamlDocument, schema: str = "paytable", root: dict[str, Any] | None = None
) -> Iterator[Problem]:
    """Problems of a document against one of trey's schemas (a paytable's, or a profile's): ``root``, else the
    schema as the registries state it now (the paytable's) or as shipped."""
    from trey.paytable.schema import checking_schema

    if root is None:
        root = checking_schema() if schema == "paytable" else load_schema(schema)
    if not isinstance(doc.data, dict):
        hint = "start with 'trey: 2'" if schema == "paytable" else "start with 'name:'"
        yield doc.problem("schema.type", (), f"a {schema} file is a mapping of keys, got {describe(doc.data)}", hint)
        return
    validator = strict_validator_class()(root)
    for error in validator.iter_errors(doc.data):
        path: JsonPath = tuple(error.absolute_path)
        translate = BY_LOCATION.get(schema_location(error, root), _by_keyword)
        yield from translate(doc, path, error.instance, error)
