"""A certificate verifies as issued, and any field changed fails: with its certificate ID left as it was (the ID
covers every field), and, for every recomputed figure and check, with the ID recomputed by the forger too."""

from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trey.core.errors import TreyError, VerificationError
from trey.paytable.load import load_spec
from trey.trust.certificate import build_certificate, content_id, parse_certificate, verify_certificate_data

STANDARD = Path(__file__).resolve().parents[2] / "paytables" / "standard.yaml"
ISSUED = build_certificate(
    load_spec(STANDARD), file_name="standard.yaml", file_size=STANDARD.stat().st_size, issue_date=date(2026, 1, 1)
).data


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, (*path, key))]
    if isinstance(value, list):
        return [leaf for i, item in enumerate(value) for leaf in _leaves(item, (*path, i))]
    return [path]


def _changed(value: object) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.0001
    if isinstance(value, str):
        return value + "1" if value[-1:].isdigit() else value + "x"
    return "x"  # null


def _mutated(path: tuple[Any, ...], *, new_id: bool) -> dict[str, Any]:
    data = copy.deepcopy(ISSUED)
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = _changed(node[path[-1]])
    if new_id:
        data["certificate_id"] = content_id(data)
    return data


LEAVES = [leaf for leaf in _leaves(ISSUED) if leaf != ("certificate_id",)]
# The figures and checks, which verification recomputes; the version of trey that wrote them is a statement, like
# the issue date, that only a signature vouches for.
RECOMPUTED = [leaf for leaf in LEAVES if leaf[0] in ("analysis", "checks", "overall") and leaf[-1] != "trey_version"]


NAME = Path("standard.certificate.json")


def _verify(data: dict[str, Any]) -> None:
    """As ``trey verify`` reads a certificate: strict JSON and the schema first, then the recomputation."""
    verify_certificate_data(parse_certificate(json.dumps(data).encode(), NAME), NAME)


def test_the_certificate_as_issued_verifies() -> None:
    _verify(copy.deepcopy(ISSUED))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(LEAVES))
def test_any_field_changed_fails(path: tuple[Any, ...]) -> None:
    with pytest.raises(TreyError):  # a VerificationError, or the embedded paytable's SpecError: exit 1 either way
        _verify(_mutated(path, new_id=False))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(RECOMPUTED))
def test_a_recomputed_figure_changed_fails_even_with_its_id_recomputed(path: tuple[Any, ...]) -> None:
    with pytest.raises(VerificationError):
        _verify(_mutated(path, new_id=True))


def test_every_field_but_the_version_is_compared_with_the_fresh_computation() -> None:
    """A second red-team pass asked whether each figure verify shows is compared (the house edge of Ante & Play
    with the optimal strategy among them): every leaf of a certificate with a simulation, changed, is a difference;
    only the version of trey, a statement, is not. (Game protection, 1.5 s to compute, is compared the same way.)"""
    from trey.trust.certificate import SimulationOptions, _differences

    rich = build_certificate(
        load_spec(STANDARD),
        file_name="standard.yaml",
        file_size=STANDARD.stat().st_size,
        issue_date=date(2026, 1, 1),
        simulation=SimulationOptions(20_000, 7),
    ).data
    leaves = _leaves(rich)
    assert len(leaves) > 700 and ("analysis", "wagers", "ante_play", "house_edge") in leaves
    changed = copy.deepcopy(rich)  # every leaf changed at once: each must be named, in one walk
    for leaf in leaves:
        node = changed
        for part in leaf[:-1]:
            node = node[part]
        node[leaf[-1]] = _changed(node[leaf[-1]])
    named = {"$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in leaf) for leaf in leaves}
    unnamed = {path for path in named if path.endswith(".trey_version")}
    assert unnamed == {"$.trey_version", "$.analysis.trey_version"}
    assert sorted(_differences(changed, rich, "$")) == sorted(named - unnamed)


def test_the_house_edge_with_the_optimal_strategy_is_recomputed() -> None:
    data = copy.deepcopy(ISSUED)
    data["analysis"]["wagers"]["ante_play"]["house_edge"] = "1/100"
    data["checks"][2]["detail"] = "house edge 1.0000%"
    data["certificate_id"] = content_id(data)
    with pytest.raises(VerificationError) as refused:
        _verify(data)
    assert list(refused.value.fields) == ["analysis.wagers.ante_play.house_edge", "checks[2].detail"]
