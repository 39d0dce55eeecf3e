"""The JSON Schemas shipped inside the package (also at the repository's top-level ``schemas/``)."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

NAMES = (
    "paytable",
    "analysis",
    "simulation",
    "profile",
    "certificate",
    "validation",
    "comparison",
    "protection",
    "audit",
    "hand-history",
    "simulation-part",
    "hand",
    "source-mapping",
    "risk",
    "hold",
)


@cache
def load_schema(name: str) -> dict[str, Any]:
    """``load_schema("paytable")`` reads ``schemas/paytable.schema.json``."""
    from trey.core.jsonread import loads_strict  # every JSON trey reads refuses duplicate keys, its own included

    text = resources.files("trey").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = loads_strict(text)
    return schema


def _is_whole_number(_: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _anchored(pattern: str) -> re.Pattern[str]:
    """A schema's pattern as Python must search it to mean what JSON Schema (ECMA-262) means: there ``$`` is the
    end of the text, where Python's ``$`` also matches before a final line break, so that ``"0.4.0\\n"`` passed
    ``^...$`` and put a line break into a one-line summary. Every pattern of trey's schemas ends with ``$``."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + "\\Z"
    return re.compile(pattern)


def _pattern(validator: Any, pattern: str, instance: object, schema: Any) -> Iterator[Any]:  # noqa: ARG001
    from jsonschema.exceptions import ValidationError

    if isinstance(instance, str) and _anchored(pattern).search(instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def strict_validator_class() -> type[Draft202012Validator]:
    """Draft 2020-12, except that ``integer`` means a whole number as written (JSON Schema counts ``7.0`` as an
    integer, which would put a float where trey's model and ``range(7.0)`` expect an int), and that a pattern's
    ``$`` is the end of the text (:func:`_anchored`)."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole_number)
    strict: type[Draft202012Validator] = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, {"pattern": _pattern}, type_checker=checker
    )
    return strict


def validator(name: str) -> Draft202012Validator:
    """A validator for one schema, with the others registered so that ``$ref`` between them resolves."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    # The schemas refer to each other by file name ("paytable.schema.json"), so that a standard validator given the
    # schemas/ folder resolves them without a network; here they are registered under those names.
    # Each without its "$schema": jsonschema validates a referenced schema that names its dialect with that
    # dialect's standard class, and trey's rules (whole numbers, patterns' ends) would hold at the top level alone.
    registry: Registry[Any] = Registry().with_resources(
        (f"{n}.schema.json", Resource.from_contents(_undeclared(n), default_specification=DRAFT202012)) for n in NAMES
    )
    return strict_validator_class()(_undeclared(name), registry=registry)


def _undeclared(name: str) -> dict[str, Any]:
    return {key: value for key, value in load_schema(name).items() if key != "$schema"}


def with_parts(schema: dict[str, Any], parts: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` with the value at each JSON pointer of ``parts`` replaced (the place must exist)."""
    result = copy.deepcopy(schema)
    for pointer, value in parts.items():
        *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in pointer.lstrip("/").split("/")]
        node: Any = result
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            if last not in node:
                raise KeyError(f"the schema has no {pointer}")
            node[last] = value
    return result


def error_message(error: Any) -> str:
    """A schema error of a document trey is handed, in words that neither restate the whole instance (jsonschema
    prints a list of a million items in full) nor a pattern no reader can read (a version's), at most 200
    characters."""
    from trey.core.text import VERSION_PATTERN
    from trey.core.version import __version__

    if error.validator in ("maxProperties", "maxItems"):
        message = f"{len(error.instance)} entries, more than the {error.validator_value} allowed"
    elif error.validator == "pattern" and error.validator_value == VERSION_PATTERN:
        message = f"{str(error.instance)[:40]!r} is not a version of trey (such as {__version__})"
    else:
        message = str(error.message)
    return message if len(message) <= 200 else message[:197] + "..."
