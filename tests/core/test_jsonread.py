"""The strict JSON reader's quick path (no walk through the tree when the text's escapes are of allowed characters,
it holds no hidden character and its brackets are shallow) refuses exactly what the walk refuses, with the same
words."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trey.core.jsonread import JsonInputError, _check_tree, _constant, _pairs, loads_strict

texts = st.text(
    alphabet=st.sampled_from(["a", "é", "\u202e", "\x01", "\t", "\n", "\r", "\ud800", "[", "{", "]", '"', "\\", "/"]),
    max_size=6,
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


def test_a_large_document_with_line_breaks_takes_the_quick_path_and_a_deep_one_is_still_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A simulation part: a paytable's text (escaped line breaks) and twenty thousand small arrays, read without
    the walk (it took seconds for a part of a million meter hits)."""
    import trey.core.jsonread as jsonread

    part = {"paytable": "trey: 2\nname: x\n", "hits": [[0, i, 0] for i in range(20_000)]}
    text = json.dumps(part)
    with monkeypatch.context() as patched:
        patched.setattr(jsonread, "_check_tree", lambda _: pytest.fail("walked"))
        assert loads_strict(text) == part
    alternating = '[{"a":' * 17 + "1" + "}]" * 17  # 34 levels, one of each kind in turn
    assert not jsonread._shallow(alternating)
    try:
        loads_strict(alternating)
    except JsonInputError as exc:
        assert exc.code == "json.too-deep"
    else:
        raise AssertionError("34 levels are more than 32")
