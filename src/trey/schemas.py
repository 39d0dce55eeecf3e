"""The JSON Schemas shipped inside the package (also at the repository's top-level ``schemas/``)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_schema(name: str) -> dict[str, Any]:
    """``load_schema("paytable")`` reads ``schemas/paytable.schema.json``."""
    text = resources.files("trey").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
