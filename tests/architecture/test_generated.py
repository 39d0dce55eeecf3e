"""What restates a registry is generated from it: the shipped JSON Schemas' lists of readings, outcomes, rules,
patterns and figures, the documentation's table of problem codes (docs/commands/validate.md) and its copy of the
worked example of a reading (docs/extending.md), equal what ``make generated`` writes."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from trey.core.codes import CODE_TABLE, Code, is_known_code
from trey.core.errors import Problem

REPO = Path(__file__).resolve().parents[2]


def _generate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate", REPO / "scripts" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("generate", module)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_files_are_what_the_registries_give() -> None:
    assert _generate().differing() == []


def test_a_changed_registry_shows_as_a_stale_file(monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.figures.schema
    from trey.figures.registry import HOUSE_EDGE, WAGER_FIGURES

    reworded = dataclasses.replace(HOUSE_EDGE, meaning="something else")
    figures = tuple(reworded if f is HOUSE_EDGE else f for f in WAGER_FIGURES)
    monkeypatch.setattr(trey.figures.schema, "WAGER_FIGURES", figures)
    assert [p.name for p in _generate().differing()] == ["analysis.schema.json"]


def test_a_changed_code_table_shows_as_a_stale_page(monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.core.codes

    reworded = ((codes, "something else") for codes, _ in CODE_TABLE)
    monkeypatch.setattr(trey.core.codes, "CODE_TABLE", tuple(reworded))
    assert [p.relative_to(REPO).as_posix() for p in _generate().differing()] == ["docs/commands/validate.md"]


def test_every_code_is_in_the_table_once() -> None:
    listed = [code for codes, _ in CODE_TABLE for code in codes if code != "schema.<keyword>"]
    assert sorted(listed) == sorted(Code)


def test_a_problem_with_an_unlisted_code_is_a_bug() -> None:
    assert is_known_code("schema.min-items") and is_known_code("yaml.tab")
    assert not is_known_code("yaml.typo") and not is_known_code("")
    with pytest.raises(ValueError, match=re.escape("problem code 'made.up' is not in trey.core.codes.Code")):
        Problem("f.yaml", "message", code="made.up")
