"""Load a paytable file: safe YAML → JSON Schema → semantic checks → :class:`~trey.spec.GameSpec`.

Every problem is collected and reported together, each located at file:line:column with its JSON path, the
offending value and a hint. Warnings (legal but suspicious tables) are reported beside errors; they fail only
when the caller asks for strictness.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trey.errors import Problem, Severity, SpecError
from trey.odds import Odds, OddsWording
from trey.schemas import load_schema
from trey.spec import (
    ANTE_BONUS_OUTCOMES,
    PAIR_PLUS_OUTCOMES,
    PRIME_OUTCOMES,
    SIX_CARD_OUTCOMES,
    AntePlay,
    DealerQualifier,
    GameSpec,
    PairPlusOnFold,
    Paytable,
    Rules,
    Strategy,
    StrategyKind,
    Table,
    Ties,
    Wagers,
    parse_high_card_hand,
)
from trey.yamldoc import JsonPath, Location, YamlDocument, json_path, parse_yaml

PAYTABLE_OUTCOMES: dict[JsonPath, tuple[str, ...]] = {
    ("wagers", "ante_play", "ante_bonus"): ANTE_BONUS_OUTCOMES,
    ("wagers", "pair_plus"): PAIR_PLUS_OUTCOMES,
    ("wagers", "prime"): PRIME_OUTCOMES,
    ("wagers", "six_card_bonus"): SIX_CARD_OUTCOMES,
}
STRATEGY_HINT = "use optimal, mimic-dealer, always-play or {play_at_least: Q-6-4}"
QUALIFIER_HINT = "use Q-high, none, J-high, K-high, A-high, pair or a high-card hand such as Q-6-4"
ODDS_HINT = "write a whole number (40 means 40 to 1) or quoted text such as '3 to 2'"


@dataclass(frozen=True)
class CheckResult:
    """The outcome of checking one file: the spec when it is valid, and every problem found."""

    spec: GameSpec | None
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.WARNING)


def read_file(path: str | Path) -> bytes:
    """A file's bytes, or a :class:`SpecError` saying plainly why it cannot be read."""
    name = str(path)
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise SpecError([Problem(name, "no such file", hint="check the path")]) from None
    except IsADirectoryError:
        raise SpecError([Problem(name, "is a directory", hint=f"give the files in it, e.g. {name}/*.yaml")]) from None
    except PermissionError:
        raise SpecError([Problem(name, "permission denied", hint="check the file's permissions")]) from None
    except OSError as exc:
        raise SpecError([Problem(name, f"cannot read the file: {exc.strerror}")]) from None


def check_file(path: str | Path) -> CheckResult:
    try:
        raw = read_file(path)
    except SpecError as exc:
        return CheckResult(None, exc.problems)
    return check_bytes(raw, str(path))


def check_bytes(raw: bytes, filename: str) -> CheckResult:
    try:
        doc = parse_yaml(filename, raw)
    except SpecError as exc:
        return CheckResult(None, exc.problems)
    result = check_document(doc)
    if result.spec is None:
        return result
    sha = hashlib.sha256(raw).hexdigest()
    return CheckResult(_with_sha(result.spec, sha), result.problems)


def check_data(data: Any, filename: str) -> CheckResult:
    """Check plain data (e.g. the canonical paytable inside a certificate); problems carry no line numbers."""
    return check_document(YamlDocument(filename, data), locate=False)


def load_spec(path: str | Path) -> GameSpec:
    """Load a valid paytable file, or raise :class:`SpecError` listing its errors (warnings are ignored)."""
    return _unwrap(check_file(path))


def load_spec_bytes(raw: bytes, filename: str) -> GameSpec:
    return _unwrap(check_bytes(raw, filename))


def _unwrap(result: CheckResult) -> GameSpec:
    if result.spec is None:
        raise SpecError(result.errors)
    return result.spec


def _with_sha(spec: GameSpec, sha: str) -> GameSpec:
    from dataclasses import replace

    return replace(spec, sha256=sha)


def check_document(doc: YamlDocument, *, locate: bool = True) -> CheckResult:
    # A value the reader refused (a tagged scalar) is None to the schema: report the reader's problem only.
    refused = {p.path for p in doc.problems}
    problems = list(doc.problems) + [p for p in _schema_problems(doc) if p.path not in refused]
    # Semantic checks read only values of the right type, so they run even when the schema failed elsewhere.
    reported = {p.path for p in problems}
    problems.extend(p for p in _semantic_problems(doc) if p.path not in reported)
    if not locate:
        problems = [Problem(p.file, p.message, p.path, None, None, p.hint, p.severity) for p in problems]
    problems.sort(key=lambda p: (p.line or 0, p.column or 0))
    if any(p.severity is Severity.ERROR for p in problems):
        return CheckResult(None, tuple(problems))
    return CheckResult(_build_spec(doc.data), tuple(problems))


# --- JSON Schema --------------------------------------------------------------------------------------------


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
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return doc.problem(path, f"odds cannot be negative: {value}", "a losing hand is simply left out")
    if isinstance(value, str):
        return doc.problem(path, f"cannot read odds {value!r}", "write N, 'N to M' or 'N for M'")
    return doc.problem(path, f"odds must be a whole number or text, got {_describe(value)}", ODDS_HINT)


def _schema_problems(doc: YamlDocument) -> Iterator[Problem]:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(load_schema("paytable"))
    if not isinstance(doc.data, dict):
        yield doc.problem((), f"a paytable file is a mapping of keys, got {_describe(doc.data)}", "start with 'trey: 1'")
        return
    for error in validator.iter_errors(doc.data):
        path: JsonPath = tuple(error.absolute_path)
        value = error.instance
        keyword = error.validator
        title = error.schema.get("title") if isinstance(error.schema, dict) else None
        if keyword == "additionalProperties":
            known = error.schema.get("properties", {}).keys()
            for extra in sorted(set(value) - set(known)):
                yield doc.problem(
                    (*path, extra), f"unknown key {extra!r}", _did_you_mean(extra, known), key=True
                )
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
            yield doc.problem(path, "no wager offered", "add at least one of ante_play, pair_plus, prime, six_card_bonus")
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


# --- Semantic checks ----------------------------------------------------------------------------------------


def _get(data: Any, path: JsonPath) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _semantic_problems(doc: YamlDocument) -> Iterator[Problem]:
    data = doc.data
    if not isinstance(data, dict):
        return
    for hand_path in (("rules", "dealer_qualifier"), ("wagers", "ante_play", "strategy", "play_at_least")):
        text = _get(data, hand_path)
        if isinstance(text, str) and text.count("-") == 2 and text not in ("Q-high", "J-high", "K-high", "A-high"):
            try:
                parse_high_card_hand(text)
            except ValueError as exc:
                yield doc.problem(hand_path, str(exc), "name a high-card hand with three different ranks, e.g. Q-6-4")

    table = _get(data, ("table",))
    table = table if isinstance(table, dict) else {}
    minimum, maximum = table.get("minimum"), table.get("maximum")
    if isinstance(minimum, int) and isinstance(maximum, int) and minimum > maximum:
        yield doc.problem(("table", "maximum"), f"the maximum {maximum} is below the minimum {minimum}", "swap them")

    for table_path, outcomes in PAYTABLE_OUTCOMES.items():
        pays = _get(data, table_path)
        if not isinstance(pays, dict):
            continue
        parsed: dict[str, Odds] = {}
        for outcome, raw in pays.items():
            try:
                odds = Odds.parse(raw)
            except ValueError as exc:
                hint = "the second number must be at least 1" if "divide by zero" in str(exc) else None
                if "less than the stake" in str(exc):
                    hint = "'N for M' includes the stake: N must be at least M"
                yield doc.problem((*table_path, outcome), str(exc), hint)
                continue
            parsed[outcome] = odds
            if odds.wording is OddsWording.FOR:
                yield _warning(
                    doc,
                    (*table_path, outcome),
                    f"'{odds}' uses 'for' wording",
                    f"New Jersey requires 'to' or 'win': write '{odds.to_one_text}'",
                )
        ordered = [o for o in outcomes if o in parsed]
        for i, rarer in enumerate(ordered):
            for commoner in ordered[i + 1 :]:
                if parsed[rarer].net < parsed[commoner].net:
                    yield _warning(
                        doc,
                        (*table_path, rarer),
                        f"{rarer} ({parsed[rarer]}) pays less than the commoner {commoner} ({parsed[commoner]})",
                        "a rarer hand usually pays more; check the table",
                    )


def _warning(doc: YamlDocument, path: JsonPath, message: str, hint: str) -> Problem:
    p = doc.problem(path, message, hint)
    return Problem(p.file, p.message, p.path, p.line, p.column, p.hint, Severity.WARNING)


# --- Model --------------------------------------------------------------------------------------------------


def _paytable(outcomes: tuple[str, ...], pays: dict[str, Any] | None) -> Paytable:
    return Paytable.from_mapping(outcomes, {k: Odds.parse(v) for k, v in (pays or {}).items()})


def _build_spec(data: dict[str, Any]) -> GameSpec:
    """Build the model from data that passed every check."""
    rules_data = data.get("rules", {})
    rules = Rules(
        dealer_qualifier=DealerQualifier.parse(rules_data.get("dealer_qualifier", "Q-high")),
        ties=Ties(rules_data.get("ties", "push")),
        ante_bonus_requires_play=rules_data.get("ante_bonus_requires_play", True),
        pair_plus_on_fold=PairPlusOnFold(rules_data.get("pair_plus_on_fold", "lost")),
    )
    table = None
    if "table" in data:
        t = data["table"]
        table = Table(
            currency=t.get("currency", "USD"),
            minimum=t.get("minimum"),
            maximum=t.get("maximum"),
            chips=tuple(sorted(t.get("chips", ()))),
            payout_cap=t.get("payout_cap"),
        )
    w = data["wagers"]
    ante_play = None
    if "ante_play" in w:
        ap = w["ante_play"] or {}
        raw_strategy = ap.get("strategy", "optimal")
        if isinstance(raw_strategy, dict):
            strategy = Strategy(StrategyKind.PLAY_AT_LEAST, parse_high_card_hand(raw_strategy["play_at_least"]))
        else:
            strategy = Strategy(StrategyKind(raw_strategy))
        ante_play = AntePlay(_paytable(ANTE_BONUS_OUTCOMES, ap.get("ante_bonus")), strategy)
    wagers = Wagers(
        ante_play=ante_play,
        pair_plus=_paytable(PAIR_PLUS_OUTCOMES, w["pair_plus"]) if "pair_plus" in w else None,
        prime=_paytable(PRIME_OUTCOMES, w["prime"]) if "prime" in w else None,
        six_card_bonus=_paytable(SIX_CARD_OUTCOMES, w["six_card_bonus"]) if "six_card_bonus" in w else None,
    )
    return GameSpec(
        name=data["name"],
        wagers=wagers,
        rules=rules,
        table=table,
        operator=data.get("operator"),
        description=data.get("description"),
        source=data.get("source"),
    )


__all__ = ["CheckResult", "Location", "check_bytes", "check_data", "check_file", "json_path", "load_spec"]
