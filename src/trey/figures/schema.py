"""The analysis schema's figures, generated from the figure registry (:mod:`trey.figures.registry`): the shipped
``schemas/analysis.schema.json`` is the result (``make generated``; a test holds the file equal to it)."""

from __future__ import annotations

import copy
from typing import Any

from trey.core.jsonschemas import load_schema
from trey.figures.family import FAMILY_FIGURES
from trey.figures.registry import ANTE_PLAY_FIGURES, WAGER_FIGURES, Figure


def _with_figures(part: dict[str, Any], figures: tuple[Figure, ...], *, after: str | None) -> None:
    """Put ``figures`` into a schema object's properties and required list, in the registry's order, after the
    property ``after`` (or first); the object's other properties keep their places."""
    names = [f.name for f in figures]
    others = [k for k in part["properties"] if k not in names]
    at = others.index(after) + 1 if after is not None else 0
    order = [*others[:at], *names, *others[at:]]
    generated = {f.name: f.schema() for f in figures}
    part["properties"] = {k: generated.get(k) or part["properties"][k] for k in order}
    required = [k for k in part.get("required", []) if k not in names]
    needed = {f.name for f in figures if f.required}
    part["required"] = [k for k in order if k in required or k in needed]


def analysis_schema() -> dict[str, Any]:
    schema = copy.deepcopy(load_schema("analysis"))
    _with_figures(schema["$defs"]["wager_figures"], WAGER_FIGURES, after="title")
    _with_figures(schema["$defs"]["ante_play"], ANTE_PLAY_FIGURES, after="ante_bonus")
    _with_family_figures(schema["$defs"]["game"])
    return schema


def _with_family_figures(part: dict[str, Any]) -> None:
    """A family game's figures (:data:`~trey.figures.family.FAMILY_FIGURES`) after its round, all required."""
    names = [f.name for f in FAMILY_FIGURES]
    others = [k for k in part["properties"] if k not in names]
    at = others.index("round") + 1
    generated = {f.name: f.schema() for f in FAMILY_FIGURES}
    part["properties"] = {k: generated.get(k) or part["properties"][k] for k in [*others[:at], *names, *others[at:]]}
    part["required"] = [k for k in part["properties"] if k in part["required"] or k in generated]
