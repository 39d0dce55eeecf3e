"""Strict JSON reading for documents trey is handed (certificates): one meaning per file or a located refusal.

Python's ``json`` keeps the last of two duplicate keys (a reader that keeps the first would see other values),
accepts ``NaN`` and ``Infinity``, lone surrogates and any depth. Here a duplicate key, a non-number constant, a
string that is not text and a document nested deeper than any trey output are each refused with the JSON path.
"""

from __future__ import annotations

import re
from typing import Any

from trey.core.errors import JsonPath, json_path
from trey.core.text import hidden_control, lone_surrogate

MAX_DEPTH = 32  # a certificate is about eight levels deep


class JsonInputError(ValueError):
    """Why a JSON document was refused; ``path`` locates the offending value when known."""

    def __init__(self, message: str, path: JsonPath | None = None, *, code: str) -> None:
        self.path = path
        self.code = code
        super().__init__(f"{json_path(path)}: {message}" if path is not None else message)


class _Object(dict[str, Any]):
    """A JSON object that remembers the first key it saw twice."""

    duplicate: str | None = None


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    result = _Object()
    for key, value in pairs:
        if key in result and result.duplicate is None:
            result.duplicate = key
        result[key] = value
    return result


def _constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a number JSON allows", code="json.constant")


def loads_strict(text: str) -> Any:
    """Parse JSON text, refusing what :mod:`json` would let through (see the module's docstring)."""
    import json

    duplicated: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> _Object:
        found = _pairs(items)
        if found.duplicate is not None:
            duplicated.append(found.duplicate)
        return found

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=_constant)
    except RecursionError:
        raise JsonInputError("the document is nested too deeply", code="json.too-deep") from None
    except json.JSONDecodeError as exc:
        raise JsonInputError(
            f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", code="json.syntax"
        ) from None
    except ValueError as exc:  # an integer beyond Python's conversion limit
        if isinstance(exc, JsonInputError):
            raise
        raise JsonInputError(f"cannot read a value: {exc}", code="json.value") from None
    # Without an escape but of a line break, a tab, a quote, a slash or a backslash, every string is the text as
    # written but for characters that are all allowed, so checking the text once checks them all; and when its
    # brackets are shallow enough nothing is nested too deeply: no walk through the tree. Any doubt, and the walk
    # finds and locates what is wrong.
    visible = "\\" not in text or set(_ESCAPE.findall(text)) <= _VISIBLE_ESCAPES
    quick = not duplicated and visible and _shallow(text)
    if quick and lone_surrogate(text) is None and hidden_control(text) is None:
        return data
    _check_tree(data)
    return data


_ESCAPE = re.compile(r"\\(.)")  # in text that parsed as JSON, a backslash always begins an escape
_VISIBLE_ESCAPES = {"n", "t", '"', "\\", "/"}
_NEITHER_BRACKET_NOR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"')
_QUOTED = re.compile(rb'"[^"]*"')
_INNERMOST = re.compile(rb"\[\]|\{\}")


def _shallow(text: str) -> bool:
    """Whether nothing in the text (parsed as JSON already) is nested deeper than :data:`MAX_DEPTH` (a sure "yes",
    else the walk decides): its brackets alone, strings taken out, lose their innermost level at each pass. Half a
    second for a document of a million arrays, where the walk through its tree took ten."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return True
    # Escaped backslashes and quotes taken out, a string is a quote, other characters and a quote: of the brackets
    # and quotes alone (a lone surrogate, refused later, passes as its bytes), the strings go (brackets in a name).
    plain = text.replace("\\\\", "").replace('\\"', "")
    brackets = _QUOTED.sub(b"", plain.encode("utf-8", "surrogatepass").translate(None, _NEITHER_BRACKET_NOR_QUOTE))
    del plain
    for _ in range(MAX_DEPTH):
        if not brackets:
            return True
        brackets = _INNERMOST.sub(b"", brackets)  # one level a pass: what a pass uncovers waits for the next
    return not brackets


def _check_tree(data: Any) -> None:
    stack: list[tuple[JsonPath, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if len(path) > MAX_DEPTH:
            raise JsonInputError(f"nested more than {MAX_DEPTH} levels deep", path, code="json.too-deep")
        if isinstance(value, str):
            _check_text(value, path)
        elif isinstance(value, list):
            stack.extend(((*path, i), item) for i, item in enumerate(value))
        elif isinstance(value, dict):
            if isinstance(value, _Object) and value.duplicate is not None:
                raise JsonInputError(
                    f"duplicate key {value.duplicate!r}", (*path, value.duplicate), code="json.duplicate-key"
                )
            for key, item in value.items():
                _check_text(key, (*path, key))
                stack.append(((*path, key), item))


def _check_text(text: str, path: JsonPath) -> None:
    bad = lone_surrogate(text)
    if bad is not None:
        raise JsonInputError(f"the text holds {bad}, which is not a character", path, code="text.surrogate")
    hidden = hidden_control(text)
    if hidden is not None:
        raise JsonInputError(f"the text holds the control character {hidden}", path, code="text.control-character")


def oversized(data: Any, *, values: int, entries: int, text: int) -> tuple[JsonPath, str] | None:
    """Where a parsed document is larger than a document of its kind can be, and how, before any schema validator
    walks it (a validator's work grows with every item, and a hostile document chooses their number): more than
    ``values`` values in all, a list or an object of more than ``entries`` entries, a text or a key of more than
    ``text`` characters. None when it is within every bound. The walk stops at the first excess, so it does at most
    ``values`` steps."""
    stack: list[tuple[JsonPath, Any]] = [((), data)]
    seen = 0
    while stack:
        path, value = stack.pop()
        seen += 1
        if seen > values:
            return path, f"more than the {values:,} values a document of this kind holds"
        if isinstance(value, str):
            if len(value) > text:
                return path, f"a text of {len(value):,} characters, more than the {text:,} allowed"
        elif isinstance(value, list | dict):
            if len(value) > entries:
                return path, f"{len(value):,} entries, more than the {entries:,} allowed"
            if isinstance(value, list):
                stack.extend(((*path, i), item) for i, item in enumerate(value))
                continue
            for key, item in value.items():
                if len(key) > text:
                    return (*path, key[:40]), f"a key of {len(key):,} characters, more than the {text:,} allowed"
                stack.append(((*path, key), item))
    return None
