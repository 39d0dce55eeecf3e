"""What the documentation's build adds to MkDocs (mkdocs.yml loads this file twice: as a hook, and as a griffe
extension of the API pages).

- ``on_page_markdown``: a table cell's code may hold a pipe written ``\\|`` (``table\\|json``), as a git host's
  Markdown needs it; Python-Markdown reads pipes inside code as they are and would print the backslash.
- ``PlainRoles``: trey's docstrings name other objects with Sphinx's roles, ``:func:`analyze```,
  ``:class:`~trey.core.errors.SpecError```, which Markdown would print as written. Each becomes the name as code
  (`analyze`, `SpecError`: a leading ``~`` keeps the last part). The roles are not links: most of the objects
  they name are not on the API pages.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|mod|data|meth|attr|exc|obj|const):`(~?)([^`]+)`")
CODE = re.compile(r"`[^`\n]*`")


def plain_roles(text: str) -> str:
    """``text`` with every Sphinx role written as its name in code."""

    def name(found: re.Match[str]) -> str:
        short, target = found.group(1), found.group(2)
        return f"`{target.rsplit('.', 1)[-1] if short else target}`"

    return ROLE.sub(name, text)


def table_pipes(markdown: str) -> str:
    """``markdown`` with ``\\|`` inside the code of table rows written ``|`` (fenced blocks left alone)."""
    lines, fenced = [], False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("|"):
            line = CODE.sub(lambda code: code.group(0).replace("\\|", "|"), line)
        lines.append(line)
    return "\n".join(lines)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:  # noqa: ARG001
    """MkDocs' hook: each page's Markdown before it is rendered."""
    return table_pipes(markdown)


class PlainRoles(griffe.Extension):
    """Rewrites the roles of every docstring once the package is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:  # noqa: ARG002
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(obj.docstring.value)
