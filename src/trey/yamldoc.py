"""Safe YAML reading that remembers where every value came from.

PyYAML's safe loader still accepts duplicate keys (keeping the last), expands aliases without limit and gives no
positions for the values it returns. We compose the node graph with the safe loader, then build plain Python data
ourselves: only the core YAML tags, duplicate keys refused, alias expansion bounded, and a line:column for every
JSON path so that errors can point at the offending text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from trey.errors import Problem, SpecError

MAX_FILE_BYTES = 1024 * 1024
# A paytable has a few dozen nodes; this bound stops a "billion laughs" file after a few milliseconds.
MAX_EXPANDED_NODES = 10_000

PathPart = str | int
JsonPath = tuple[PathPart, ...]

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp")}


def json_path(path: JsonPath) -> str:
    """``("wagers", "pair_plus", "pair")`` → ``$.wagers.pair_plus.pair``; list indexes as ``[0]``."""
    text = "$"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


@dataclass(frozen=True)
class Location:
    line: int
    column: int


@dataclass
class YamlDocument:
    """Plain data (dicts, lists, str, int, float, bool, None) and where each piece stands in the file."""

    filename: str
    data: Any
    value_locations: dict[JsonPath, Location] = field(default_factory=dict)
    key_locations: dict[JsonPath, Location] = field(default_factory=dict)
    # Problems found while reading (duplicate keys, unsupported tags): reported with the schema's findings.
    problems: list[Problem] = field(default_factory=list)

    def locate(self, path: JsonPath, *, key: bool = False) -> Location:
        """The location of the value at ``path`` (of its key with ``key=True``), or of its nearest ancestor."""
        table = self.key_locations if key else self.value_locations
        while path:
            if path in table:
                return table[path]
            path = path[:-1]
        return self.value_locations.get((), Location(1, 1))

    def problem(self, path: JsonPath, message: str, hint: str | None = None, *, key: bool = False) -> Problem:
        where = self.locate(path, key=key)
        return Problem(self.filename, message, json_path(path), where.line, where.column, hint)


def _location(node: yaml.Node) -> Location:
    return Location(node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    def __init__(self, doc: YamlDocument) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.expanded = 0
        self.constructor = yaml.constructor.SafeConstructor()

    def fail(self, node: yaml.Node, path: JsonPath, message: str, hint: str | None = None) -> None:
        where = _location(node)
        self.problems.append(Problem(self.doc.filename, message, json_path(path), where.line, where.column, hint))

    def build(self, node: yaml.Node, path: JsonPath) -> Any:
        self.expanded += 1
        if self.expanded > MAX_EXPANDED_NODES:
            raise _TooLarge(node)
        self.doc.value_locations.setdefault(path, _location(node))
        if isinstance(node, yaml.MappingNode):
            return self.build_mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _TAG + "seq":
                self.fail(node, path, f"unsupported YAML tag {node.tag}", "remove the tag")
                return None
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        if node.tag not in _SCALAR_TAGS:
            self.fail(node, path, f"unsupported YAML tag {node.tag}", "paytables hold plain text and numbers only")
            return None
        if node.tag == _TAG + "timestamp":
            return node.value  # a date such as 2024-01-01 stays text
        try:
            return self.constructor.construct_object(node)
        except ValueError:  # e.g. an integer of thousands of digits, beyond Python's conversion limit
            shown = node.value if len(node.value) <= 20 else node.value[:17] + "..."
            self.fail(node, path, f"cannot read the value {shown!r}", "numbers in a paytable are small")
            return None

    def build_mapping(self, node: yaml.MappingNode, path: JsonPath) -> dict[str, Any] | None:
        if node.tag != _TAG + "map":
            self.fail(node, path, f"unsupported YAML tag {node.tag}", "remove the tag")
            return None
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge":
                self.fail(key_node, path, "YAML merge keys (<<) are not supported", "write the keys out")
                continue
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _TAG + "str":
                self.fail(key_node, path, f"keys must be plain text, got {key_node.value!r}", "quote the key")
                continue
            key = key_node.value
            child = (*path, key)
            if key in result:
                first = self.doc.key_locations[child]
                self.fail(
                    key_node,
                    child,
                    f"duplicate key {key!r}",
                    f"it is already given at line {first.line}; keep one",
                )
                continue
            self.doc.key_locations[child] = _location(key_node)
            result[key] = self.build(value_node, child)
        return result


class _TooLarge(Exception):
    def __init__(self, node: yaml.Node) -> None:
        self.node = node


def read_source(filename: str, raw: bytes) -> str:
    """Decode a file's bytes, refusing what cannot be a paytable (too big, empty, binary, not UTF-8)."""

    def refuse(message: str, hint: str) -> SpecError:
        return SpecError([Problem(filename, message, hint=hint)])

    if len(raw) > MAX_FILE_BYTES:
        raise refuse(f"file is too large ({len(raw):,} bytes)", "a paytable file is at most 1 MiB")
    if b"\x00" in raw:
        raise refuse("binary file (it contains NUL bytes)", "give a YAML text file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise refuse(
            f"not UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}", "save the file as UTF-8"
        ) from None
    if not text.strip():
        raise refuse("file is empty", "a paytable starts with 'trey: 1'")
    return text


def parse_yaml(filename: str, raw: bytes) -> YamlDocument:
    """Parse one YAML document into located plain data.

    Raises :class:`SpecError` when nothing can be read; lesser problems are kept in ``doc.problems``.
    """
    text = read_source(filename, raw)
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        detail = str(exc.problem or exc.context)
        message, hint = f"invalid YAML: {detail}", "check the indentation and quoting"
        if "another document" in detail:
            message, hint = "a paytable file holds one YAML document", "remove the second '---' and what follows"
        elif "'\\t'" in detail:
            hint = "indent with spaces, not tabs"
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        raise SpecError([Problem(filename, message, line=line, column=column, hint=hint)]) from None
    except yaml.YAMLError as exc:
        raise SpecError([Problem(filename, f"invalid YAML: {exc}")]) from None
    except RecursionError:
        raise SpecError([_too_deep(filename)]) from None
    if root is None:
        raise SpecError([Problem(filename, "file is empty", hint="a paytable starts with 'trey: 1'")])
    doc = YamlDocument(filename, None)
    builder = _Builder(doc)
    try:
        doc.data = builder.build(root, ())
    except _TooLarge as exc:
        where = _location(exc.node)
        raise SpecError(
            [
                Problem(
                    filename,
                    f"the document expands to more than {MAX_EXPANDED_NODES:,} values",
                    line=where.line,
                    column=where.column,
                    hint="YAML aliases (*name) are expanded; a paytable needs only a few dozen values",
                )
            ]
        ) from None
    except RecursionError:
        raise SpecError([_too_deep(filename)]) from None
    doc.problems.extend(builder.problems)
    return doc


def _too_deep(filename: str) -> Problem:
    return Problem(filename, "the document is nested too deeply", hint="a paytable is a few levels deep")
