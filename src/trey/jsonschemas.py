"""The JSON Schemas shipped inside the package (also at the repository's top-level ``schemas/``)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

NAMES = ("paytable", "analysis", "simulation", "profile", "certificate")


@cache
def load_schema(name: str) -> dict[str, Any]:
    """``load_schema("paytable")`` reads ``schemas/paytable.schema.json``."""
    text = resources.files("trey").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def validator(name: str) -> Draft202012Validator:
    """A validator for one schema, with the others registered so that ``$ref`` between them resolves."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Registry[Any] = Registry().with_resources(
        (load_schema(n)["$id"], Resource.from_contents(load_schema(n))) for n in NAMES
    )
    return Draft202012Validator(load_schema(name), registry=registry)
