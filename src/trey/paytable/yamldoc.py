"""Safe YAML reading that remembers where every value came from.

PyYAML's safe loader still accepts duplicate keys (keeping the last), expands aliases without limit and gives no
positions for the values it returns. We compose the node graph with the safe loader, then build plain Python data
ourselves: only the core YAML tags, duplicate keys refused, alias expansion bounded, and a line:column for every
JSON path so that errors can point at the offending text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from trey.core.errors import JsonPath, PathPart, Problem, SpecError, json_path
from trey.core.glyphs import first_unprintable
from trey.core.text import hidden_control, lone_surrogate

MAX_FILE_BYTES = 1024 * 1024
# A paytable has a few dozen nodes; this bound stops a "billion laughs" file after a few milliseconds.
MAX_EXPANDED_NODES = 10_000

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp")}

# PyYAML reads YAML 1.1, where 040 is octal 32, 0x28 is 40, 0b11 is 3, 1_0 is 10 and 1:30 is 90 (base 60), and
# yes/no/on/off are booleans. A regulator reads those as written, so trey accepts only the forms that mean the
# same to everyone: plain decimal integers without leading zeros, and true/false.
_PLAIN_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")
_BOOLEANS = {"true": True, "false": False}
_YAML11_BOOLEANS = {"yes", "no", "on", "off", "y", "n", "true", "false"}

__all__ = ["JsonPath", "Location", "PathPart", "YamlDocument", "json_path", "parse_yaml", "read_source"]

# The text fields documents print as written (every other string is a name, a number or odds the schema checks).
PRINTED_TEXT = frozenset({"name", "operator", "description", "source", "title"})


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

    def problem(
        self, code: str, path: JsonPath, message: str, hint: str | None = None, *, key: bool = False
    ) -> Problem:
        where = self.locate(path, key=key)
        return Problem(self.filename, message, path, where.line, where.column, hint, code=code)


def _location(node: yaml.Node) -> Location:
    return Location(node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    def __init__(self, doc: YamlDocument) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.expanded = 0
        self.constructor = yaml.constructor.SafeConstructor()

    def fail(self, code: str, node: yaml.Node, path: JsonPath, message: str, hint: str | None = None) -> None:
        where = _location(node)
        self.problems.append(Problem(self.doc.filename, message, path, where.line, where.column, hint, code=code))

    def build(self, node: yaml.Node, path: JsonPath) -> Any:
        self.expanded += 1
        if self.expanded > MAX_EXPANDED_NODES:
            raise _TooLarge(node)
        self.doc.value_locations.setdefault(path, _location(node))
        if isinstance(node, yaml.MappingNode):
            return self.build_mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _TAG + "seq":
                self.fail("yaml.tag", node, path, f"unsupported YAML tag {node.tag}", "remove the tag")
                return None
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        if node.tag not in _SCALAR_TAGS:
            self.fail(
                "yaml.tag", node, path, f"unsupported YAML tag {node.tag}", "paytables hold plain text and numbers only"
            )
            return None
        return self.build_scalar(node, path)

    def build_scalar(self, node: yaml.ScalarNode, path: JsonPath) -> Any:
        text = node.value
        shown = text if len(text) <= 20 else text[:17] + "..."
        tag = node.tag.removeprefix(_TAG)
        if tag == "timestamp":
            return text  # a date such as 2024-01-01 stays text
        if tag == "str":
            return self.checked_text(node, path, text)
        if tag == "bool":
            if text not in _BOOLEANS:
                yaml11 = text.lower() in _YAML11_BOOLEANS
                self.fail(
                    "yaml.boolean-form",
                    node,
                    path,
                    f"{shown!r} is a YAML 1.1 boolean, not plainly true or false"
                    if yaml11
                    else f"{shown!r} is not a boolean",
                    "write true or false, or quote the value if it is text",
                )
                return None
            return _BOOLEANS[text]
        if tag == "int" and not _PLAIN_INTEGER.fullmatch(text):
            self.fail(
                "yaml.number-form",
                node,
                path,
                f"the number {shown} is not written in plain decimal (YAML 1.1 would read it as "
                + (f"{self.read_yaml11(node)})" if self.read_yaml11(node) is not None else "something else)"),
                "write the number in decimal digits without leading zeros, '_' or ':', or quote it if it is text",
            )
            return None
        if tag == "float" and ("_" in text or ":" in text):
            self.fail(
                "yaml.number-form",
                node,
                path,
                f"the number {shown} is not written in plain decimal",
                "write decimal digits without '_' or ':', or quote it if it is text",
            )
            return None
        try:
            return self.constructor.construct_object(node)
        except ValueError:  # e.g. an integer of thousands of digits, beyond Python's conversion limit
            self.fail(
                "yaml.unreadable-value",
                node,
                path,
                f"cannot read the value {shown!r}",
                "numbers in a paytable are small",
            )
            return None

    def read_yaml11(self, node: yaml.ScalarNode) -> int | None:
        try:
            value = self.constructor.construct_object(node)
        except ValueError:
            return None
        return value if isinstance(value, int) else None

    def checked_text(self, node: yaml.Node, path: JsonPath, text: str) -> str | None:
        bad = lone_surrogate(text)
        if bad is not None:
            self.fail(
                "text.surrogate",
                node,
                path,
                f"the text holds {bad}, half of a UTF-16 pair, which is not a character",
                "remove the escape or write the character itself",
            )
            return None
        hidden = hidden_control(text)
        if hidden is not None:
            self.fail(
                "text.control-character",
                node,
                path,
                f"the text holds the control character {hidden}, which a report cannot show",
                "remove it; text on certificates and sheets is plain characters",
            )
            return None
        unprintable = first_unprintable(text) if path and path[-1] in PRINTED_TEXT else None
        if unprintable is not None:
            self.fail(
                "text.outside-fonts",
                node,
                path,
                f"the text holds {unprintable!r} U+{ord(unprintable):04X}, which trey's documents cannot print",
                "write it in Latin, Greek or Cyrillic letters: the documents' fonts have no other script, and a "
                "certificate must read back what it prints",
            )
            return None
        return text

    def build_mapping(self, node: yaml.MappingNode, path: JsonPath) -> dict[str, Any] | None:
        if node.tag != _TAG + "map":
            self.fail("yaml.tag", node, path, f"unsupported YAML tag {node.tag}", "remove the tag")
            return None
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge":
                self.fail(
                    "yaml.merge-key", key_node, path, "YAML merge keys (<<) are not supported", "write the keys out"
                )
                continue
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _TAG + "str":
                shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "a collection"
                self.fail(
                    "yaml.key-not-text", key_node, path, f"keys must be plain text, got {shown!r}", "quote the key"
                )
                continue
            key = self.checked_text(key_node, path, key_node.value)
            if key is None:
                continue
            child = (*path, key)
            if key in result:
                first = self.doc.key_locations[child]
                self.fail(
                    "yaml.duplicate-key",
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


def canonical_yaml(data: Any) -> str:
    """A paytable's canonical data as YAML text: its keys in the loader's order, Unicode as itself, lines of 100."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


@dataclass(frozen=True)
class YamlKind:
    """What a YAML file of trey's is, as its errors say it: its noun and how it starts."""

    noun: str
    starts: str


PAYTABLE_FILE = YamlKind("paytable", "a paytable starts with 'trey: 1'")
MAPPING_FILE = YamlKind("mapping", "a mapping starts with 'mapping: 1'")
PROFILE_FILE = YamlKind("profile", "a profile names its checks (name, title, description, checks)")


def read_source(filename: str, raw: bytes, kind: YamlKind = PAYTABLE_FILE) -> str:
    """Decode a file's bytes, refusing what cannot be a file of ``kind`` (too big, empty, binary, not UTF-8)."""

    def refuse(code: str, message: str, hint: str) -> SpecError:
        return SpecError([Problem(filename, message, hint=hint, code=code)])

    if len(raw) > MAX_FILE_BYTES:
        too_large = f"file is too large ({len(raw):,} bytes)"
        raise refuse("file.too-large", too_large, f"a {kind.noun} file is at most 1 MiB")
    if b"\x00" in raw:
        raise refuse("file.binary", "binary file (it contains NUL bytes)", "give a YAML text file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise refuse(
            "file.not-utf8", f"not UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}", "save the file as UTF-8"
        ) from None
    if not text.strip():
        raise refuse("file.empty", "file is empty", kind.starts)
    return text


def parse_yaml(filename: str, raw: bytes, kind: YamlKind = PAYTABLE_FILE) -> YamlDocument:
    """Parse one YAML document into located plain data (``kind``: what the file is, for its errors' words).

    Raises :class:`SpecError` when nothing can be read; lesser problems are kept in ``doc.problems``.
    """
    text = read_source(filename, raw, kind)
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        detail = str(exc.problem or exc.context)
        code, message, hint = "yaml.syntax", f"invalid YAML: {detail}", "check the indentation and quoting"
        if "another document" in detail:
            code = "yaml.multiple-documents"
            message, hint = f"a {kind.noun} file holds one YAML document", "remove the second '---' and what follows"
        elif "'\\t'" in detail:
            code, hint = "yaml.tab", "indent with spaces, not tabs"
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        raise SpecError([Problem(filename, message, line=line, column=column, hint=hint, code=code)]) from None
    except yaml.YAMLError as exc:
        raise SpecError([Problem(filename, f"invalid YAML: {exc}", code="yaml.syntax")]) from None
    except RecursionError:
        raise SpecError([_too_deep(filename)]) from None
    if root is None:
        raise SpecError([Problem(filename, "file is empty", hint=kind.starts, code="file.empty")])
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
                    hint=f"YAML aliases (*name) are expanded; a {kind.noun} needs only a few dozen values",
                    code="yaml.too-many-values",
                )
            ]
        ) from None
    except RecursionError:
        raise SpecError([_too_deep(filename)]) from None
    doc.problems.extend(builder.problems)
    return doc


def _too_deep(filename: str) -> Problem:
    return Problem(
        filename, "the document is nested too deeply", hint="a paytable is a few levels deep", code="yaml.too-deep"
    )
