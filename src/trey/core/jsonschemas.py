"""The JSON Schemas shipped inside the package (also at the repository's top-level ``schemas/``)."""

from __future__ import annotations

import copy
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
def strict_validator_class() -> type[Draft202012Validator]:
    """Draft 2020-12, except that ``integer`` means a whole number as written: JSON Schema counts ``7.0`` as an
    integer, which would put a float where trey's model (and ``range(7.0)``) expects an int."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole_number)
    strict: type[Draft202012Validator] = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, type_checker=checker
    )
    return strict


def validator(name: str) -> Draft202012Validator:
    """A validator for one schema, with the others registered so that ``$ref`` between them resolves."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    # The schemas refer to each other by file name ("paytable.schema.json"), so that a standard validator given the
    # schemas/ folder resolves them without a network; here they are registered under those names.
    registry: Registry[Any] = Registry().with_resources(
        (f"{n}.schema.json", Resource.from_contents(load_schema(n), default_specification=DRAFT202012)) for n in NAMES
    )
    return strict_validator_class()(load_schema(name), registry=registry)


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
