"""The library does what the commands do: every name of ``trey``'s API resolves, and the documentation's example of
the library (docs/api/index.md) runs as written and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

import trey

REPO = Path(__file__).resolve().parents[2]


def test_every_name_of_the_api_resolves() -> None:
    assert sorted(trey.__all__) == sorted(["__version__", *trey._API])
    for name in trey.__all__:
        assert getattr(trey, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        trey.nothing  # noqa: B018


def _library_example() -> str:
    text = (REPO / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    start = text.index("```python\n", text.index("Each command is a thin layer over one library call")) + 10
    return text[start : text.index("```", start)]


def test_the_docs_library_example_runs_as_written(tmp_path: Path) -> None:
    (tmp_path / "paytables").symlink_to(REPO / "paytables")
    printed = io.StringIO()
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        namespace: dict[str, object] = {}
        with contextlib.redirect_stdout(printed):
            exec(compile(_library_example(), "docs/api/index.md", "exec"), namespace)
    finally:
        os.chdir(here)
    first, summary = printed.getvalue().splitlines()
    assert first == "686689/20358520 Q-6-4"
    assert summary.startswith("standard.certificate.pdf: verified")
    assert namespace["found"].passed  # type: ignore[attr-defined]
    assert [r.file for r in namespace["rows"]] == ["standard"]  # type: ignore[attr-defined]
    assert namespace["rounds"].rounds == 100_000  # type: ignore[attr-defined]
    assert sorted(namespace["drill"]) == ["standard.drill.html", "standard.drill.pdf"]  # type: ignore[call-overload]
