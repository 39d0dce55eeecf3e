"""Turn JSON Schema validation errors into located, readable problems.

jsonschema's own messages name schema keywords; a table-games manager needs "unknown key 'pair_plsu' (did you
mean 'pair_plus'?)" at the line and column where the key stands.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Any

from trey.errors import Problem
from trey.jsonschemas import load_schema
from trey.odds import Odds, OddsError
from trey.yamldoc import JsonPath, YamlDocument

STRATEGY_HINT = "use optimal, mimic-dealer, always-play or {play_at_least: Q-6-4}"
QUALIFIER_HINT = "use Q-high, none, J-high, K-high, A-high, pair or a high-card hand such as Q-6-4"
ODDS_HINT = "write a whole number (40 means 40 to 1) or quoted text such as '3 to 2'"


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, int):
        return f"{value} (a whole number)"
    if isinstance(value, float):
        return f"{value!r} (a decimal number)"
    if isinstance(value, str):
        return f"{value!r} (text)"
    if value is None:
        return "nothing (null)"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "boolean": "true or false",
}


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    options = sorted(choices)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    return "expected one of: " + ", ".join(options)


def _odds_problem(doc: YamlDocument, path: JsonPath, value: Any) -> Problem:
    if isinstance(value, float):
        return doc.problem(path, f"odds must be exact, not the decimal number {value!r}", ODDS_HINT)
    if isinstance(value, int | str) and not isinstance(value, bool):
        try:
            Odds.parse(value)  # says what is wrong with a whole number or a text, in one place
        except OddsError as exc:
            return doc.problem(path, str(exc), exc.hint)
    return doc.problem(path, f"odds must be a whole number or text, got {_describe(value)}", ODDS_HINT)


def schema_problems(doc: YamlDocument) -> Iterator[Problem]:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(load_schema("paytable"))
    if not isinstance(doc.data, dict):
        yield doc.problem(
            (), f"a paytable file is a mapping of keys, got {_describe(doc.data)}", "start with 'trey: 1'"
        )
        return
    for error in validator.iter_errors(doc.data):
        path: JsonPath = tuple(error.absolute_path)
        value = error.instance
        keyword = error.validator
        title = error.schema.get("title") if isinstance(error.schema, dict) else None
        if keyword == "additionalProperties":
            known = error.schema.get("properties", {}).keys()
            for extra in sorted(set(value) - set(known)):
                yield doc.problem((*path, extra), f"unknown key {extra!r}", _did_you_mean(extra, known), key=True)
        elif keyword == "required":
            for missing in error.validator_value:
                if missing not in value:
                    hint = {"trey": "add 'trey: 1' as the first line"}.get(missing, f"add '{missing}:'")
                    yield doc.problem(path, f"missing required key {missing!r}", hint)
        elif keyword == "const" and path == ("trey",):
            yield doc.problem(path, f"unsupported format version {value!r}", "this trey reads 'trey: 1'")
        elif title == "Odds":
            yield _odds_problem(doc, path, value)
        elif title == "Player strategy":
            if isinstance(value, str):
                hint = _did_you_mean(value, ["optimal", "mimic-dealer", "always-play"])
                yield doc.problem(path, f"unknown strategy {value!r}", hint)
            elif isinstance(value, dict) and "play_at_least" in value:
                for extra in sorted(set(value) - {"play_at_least"}):
                    yield doc.problem((*path, extra), f"unknown key {extra!r}", STRATEGY_HINT, key=True)
                if not isinstance(value["play_at_least"], str):
                    got = _describe(value["play_at_least"])
                    yield doc.problem((*path, "play_at_least"), f"expected a hand such as Q-6-4, got {got}")
                elif set(value) == {"play_at_least"}:
                    yield doc.problem(
                        (*path, "play_at_least"), f"not a hand: {value['play_at_least']!r}", STRATEGY_HINT
                    )
            else:
                yield doc.problem(path, f"invalid strategy: {_describe(value)}", STRATEGY_HINT)
        elif title == "Dealer qualifier":
            yield doc.problem(path, f"unknown dealer qualifier {_describe(value)}", QUALIFIER_HINT)
        elif keyword == "type":
            expected = _TYPE_NAMES.get(str(error.validator_value), str(error.validator_value))
            yield doc.problem(path, f"expected {expected}, got {_describe(value)}")
        elif keyword == "enum":
            options = [str(v) for v in error.validator_value]
            hint = _did_you_mean(value, options) if isinstance(value, str) else "expected one of: " + ", ".join(options)
            yield doc.problem(path, f"{_describe(value)} is not allowed", hint)
        elif keyword == "minProperties" and path == ("wagers",):
            yield doc.problem(
                path, "no wager offered", "add at least one of ante_play, pair_plus, prime, six_card_bonus"
            )
        elif keyword == "minimum":
            yield doc.problem(path, f"must be at least {error.validator_value}, got {value!r}")
        elif keyword == "pattern" and path == ("table", "currency"):
            yield doc.problem(path, f"not a currency code: {value!r}", "use a 3-letter ISO 4217 code such as USD")
        elif keyword in ("pattern", "minLength") and path == ("name",):
            yield doc.problem(path, "the name is blank", "give the game a name")
        elif keyword == "uniqueItems":
            yield doc.problem(path, "a chip denomination is listed twice", "list each chip value once")
        else:
            yield doc.problem(path, error.message)


def _strategy_problems(doc: YamlDocument, path: JsonPath, value: Any) -> Iterator[Problem]:
    if not (isinstance(value, dict) and "play_at_least" in value):
        yield doc.problem(path, f"invalid strategy: {_describe(value)}", STRATEGY_HINT)
        return
    for extra in sorted(set(value) - {"play_at_least"}):
        yield doc.problem((*path, extra), f"unknown key {extra!r}", STRATEGY_HINT, key=True)
    hand = value["play_at_least"]
    if not isinstance(hand, str):
        yield doc.problem((*path, "play_at_least"), f"expected a hand such as Q-6-4, got {_describe(hand)}")
    elif set(value) == {"play_at_least"}:
        yield doc.problem((*path, "play_at_least"), f"not a hand: {hand!r}", STRATEGY_HINT)
