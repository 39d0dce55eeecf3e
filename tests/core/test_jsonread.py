"""The strict JSON reader's quick path (no walk through the tree when the text has no escape, no hidden
character and few brackets) refuses exactly what the walk refuses, with the same words."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from trey.core.jsonread import JsonInputError, _check_tree, _constant, _pairs, loads_strict

texts = st.text(
    alphabet=st.sampled_from(["a", "é", "\u202e", "\x01", "\t", "\n", "\r", "\ud800", "[", "{"]), max_size=6
)
values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=12,
)


def _walked(text: str) -> object:
    """The reader as it was before the quick path: parse, then always walk."""
    data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    _check_tree(data)
    return data


@settings(max_examples=300)
@given(values, st.booleans(), st.integers(0, 40))
def test_the_quick_path_refuses_what_the_walk_refuses(value: object, ascii_only: bool, depth: int) -> None:
    text = "[" * depth + json.dumps(value, ensure_ascii=ascii_only) + "]" * depth
    try:
        expected: object = _walked(text)
    except JsonInputError as exc:
        expected = ("refused", exc.code, str(exc))
    try:
        got: object = loads_strict(text)
    except JsonInputError as exc:
        got = ("refused", exc.code, str(exc))
    assert got == expected


def test_a_duplicate_key_is_refused_on_either_path() -> None:
    for text in ('{"a": 1, "a": 2}', '{"a": 1, "a": "\\u00e9"}'):
        try:
            loads_strict(text)
        except JsonInputError as exc:
            assert exc.code == "json.duplicate-key"
        else:
            raise AssertionError(text)
