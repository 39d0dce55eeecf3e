"""Write the files whose parts are generated from trey's registries: the JSON Schemas' lists of readings,
outcomes, rules, patterns and figures; the documentation's table of problem codes (docs/commands/validate.md) and its
copy of the worked example of a reading (docs/extending.md).

    .venv/bin/python scripts/generate.py          # rewrite them (make generated)
    .venv/bin/python scripts/generate.py --check  # exit 1 naming each file that differs (the tests do this)
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "src" / "trey" / "schemas"
CODES_PAGE = REPO / "docs" / "commands" / "validate.md"
EXAMPLE_PAGE = REPO / "docs" / "extending.md"
CODES_START = "<!-- problem codes: generated from trey.core.codes by `make generated` -->"
CODES_END = "<!-- end of problem codes -->"
EXAMPLE_START = "<!-- the module, copied by `make generated` -->"
EXAMPLE_END = "<!-- end of the module -->"
EXAMPLE = REPO / "src" / "trey" / "cards" / "readings" / "bad_beat.py"


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def paytable_schema() -> str:
    from trey.paytable.schema import paytable_schema

    return schema_text(paytable_schema())


def versioned(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``trey_version`` held to the one pattern of a version (:data:`trey.core.text.VERSION`)."""
    from trey.core.text import VERSION_PATTERN

    schema["properties"]["trey_version"]["pattern"] = VERSION_PATTERN
    return schema


def analysis_schema() -> str:
    from trey.figures.schema import analysis_schema

    return schema_text(versioned(analysis_schema()))


def version_schema(name: str) -> Callable[[], str]:
    """A schema whose generated part is the pattern of its ``trey_version`` alone."""

    def make() -> str:
        from trey.core.jsonschemas import load_schema

        return schema_text(versioned(copy.deepcopy(load_schema(name))))

    return make


def profile_schema() -> str:
    from trey.trust.compliance import profile_schema

    return schema_text(profile_schema())


def validation_schema() -> str:
    from trey.core.jsonschemas import load_schema, with_parts
    from trey.trust.compliance import finding_checks

    place = "/properties/files/items/properties/profile_checks/items/properties/check/enum"
    return schema_text(with_parts(load_schema("validation"), {place: finding_checks()}))


def code_table() -> str:
    from trey.core.codes import CODE_TABLE

    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| {', '.join(f'`{c}`' for c in codes)} | {meaning} |" for codes, meaning in CODE_TABLE]
    return "\n".join(rows)


def _between(text: str, start: str, end: str, content: str) -> str:
    before, rest = text.split(start + "\n", 1)
    _, after = rest.split(end, 1)
    return f"{before}{start}\n{content}\n{end}{after}"


def codes_page() -> str:
    return _between(CODES_PAGE.read_text(encoding="utf-8"), CODES_START, CODES_END, code_table())


def example_page() -> str:
    module = EXAMPLE.read_text(encoding="utf-8")
    return _between(EXAMPLE_PAGE.read_text(encoding="utf-8"), EXAMPLE_START, EXAMPLE_END, f"```python\n{module}```")


GENERATED: dict[Path, Callable[[], str]] = {
    SCHEMAS / "paytable.schema.json": paytable_schema,
    SCHEMAS / "analysis.schema.json": analysis_schema,
    SCHEMAS / "profile.schema.json": profile_schema,
    CODES_PAGE: codes_page,
    EXAMPLE_PAGE: example_page,
    SCHEMAS / "validation.schema.json": validation_schema,
    **{
        SCHEMAS / f"{name}.schema.json": version_schema(name)
        for name in ("certificate", "simulation-part", "simulation", "protection", "audit", "hand", "risk", "hold")
    },
}


def differing() -> list[Path]:
    """The generated files whose content is not what the registries give."""
    return [path for path, make in GENERATED.items() if path.read_text(encoding="utf-8") != make()]


def main() -> None:
    if sys.argv[1:] == ["--check"]:
        stale = differing()
        for path in stale:
            print(f"{path.relative_to(REPO)} differs from what the registries give: run make generated")
        sys.exit(1 if stale else 0)
    for path, make in GENERATED.items():
        text = make()
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}")


if __name__ == "__main__":
    main()
