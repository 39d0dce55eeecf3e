"""The README and the documentation site (docs/, mkdocs.yml): the site builds with ``mkdocs build --strict`` (a
broken link, anchor or API reference fails), loads nothing from another site, and every page's links lead to a file
of the repository; the README stays a page a table-games manager can start from, and its examples are true."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, STANDARD, run_cli

README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")  # a Markdown link or image, [text](target)
HEADING = re.compile(r"^#{1,6} (.+?)(?: \{#([\w-]+)\})?$", re.M)
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _text(path: Path) -> str:
    """The page without its fenced blocks (a link inside one is an example, not a link)."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as Python-Markdown's toc makes them (or as ``{#id}`` names them)."""
    anchors = set()
    for title, given in HEADING.findall(_text(page)):
        if given:
            anchors.add(given)
        else:
            slug = re.sub(r"[^\w\s-]", "", title.replace("`", "")).strip().lower()
            anchors.add(re.sub(r"[-\s]+", "-", slug))
    return anchors


def test_the_site_builds_strictly_and_fetches_nothing(tmp_path: Path) -> None:
    site = tmp_path / "site"
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,  # mkdocs.yml names the griffe extension by its path from here
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    pages = {p.relative_to(DOCS).with_suffix(".html") for p in PAGES}
    assert pages <= {p.relative_to(site) for p in site.rglob("*.html")}
    api = (site / "api" / "engine.html").read_text(encoding="utf-8")
    assert "Count every deal of every wager the game offers." in api  # the docstring of trey.analyze
    assert ":func:" not in api and ":class:" not in api  # Sphinx roles written as code (scripts/docs_build.py)
    for path in site.rglob("*"):
        if path.suffix in (".html", ".css", ".js"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", text), path  # no font, script, style
            assert not re.search(r"""url\(["']?(?:https?:)?//""", text), path
            assert not re.search(r"""@import\s+["']?(?:https?:)?//""", text), path


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: str(p.relative_to(REPO)))
def test_every_link_leads_to_a_file_of_the_repository(page: Path) -> None:
    for target in LINK.findall(_text(page)):
        assert not re.match(r"(?:[a-z]+:)?//|[a-z]+:", target), f"{page.name} points outside: {target}"
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.is_file() and linked.is_relative_to(REPO), f"{page.name}: {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{page.name}: {target} (no such heading)"


def test_the_readme_is_a_page_to_start_from() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    for said in ("make demo", "make test", ".venv/bin/trey", "source .venv/bin/activate", "make docs"):
        assert said in text
    for command in ("trey certify", "trey cheatsheet", "trey serve"):
        assert f"$ {command} " in text or f"$ {command}\n" in text
    assert "](docs/img/workbench.png)" in text
    assert (DOCS / "img" / "workbench.png").stat().st_size < 300_000
    linked = {(REPO / t.partition("#")[0]).resolve() for t in LINK.findall(_text(README))}
    # every page a link away, but the site's home (the README's own text) and the API's pages built from docstrings
    unlinked = [p for p in PAGES if p not in linked and p != DOCS / "index.md" and p.parent != DOCS / "api"]
    assert unlinked == []


def test_the_readmes_paytable_is_the_default_games_own_text() -> None:
    shown = README.read_text(encoding="utf-8").split("```yaml\n", 1)[1].split("```", 1)[0]
    assert shown.startswith("wagers:\n") and shown in STANDARD.read_text(encoding="utf-8")


def test_the_readmes_analysis_is_what_trey_analyze_prints() -> None:
    readme = README.read_text(encoding="utf-8")
    shown = readme.split("$ trey analyze paytables/standard.yaml\n", 1)[1].split("```", 1)[0]
    printed = run_cli("analyze", STANDARD)
    assert printed.exit_code == 0
    lines = printed.stdout.splitlines()
    for line in shown.splitlines():
        if line not in ("", "..."):
            assert line in lines, line


def test_the_validate_example_is_what_trey_validate_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = (DOCS / "commands" / "validate.md").read_text(encoding="utf-8")
    table = page.split("```yaml\n", 1)[1].split("```", 1)[0]
    shown = page.split("$ trey validate table.yaml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "table.yaml").write_text(table, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    printed = run_cli("validate", "table.yaml")
    assert (printed.exit_code, printed.stderr) == (1, shown)
    assert shown in README.read_text(encoding="utf-8")  # the README's example is this one


def test_the_readmes_certificate_is_what_trey_certify_and_verify_print(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's first job, run as shown (about 5 s: a certificate made and verified, its PDF page by page)."""
    readme = README.read_text(encoding="utf-8")
    start = readme.index("$ trey certify paytables/standard.yaml --out certificates --date 2026-01-01\n")
    shown = readme[start : readme.index("```", start)]
    assert shown in (DOCS / "commands" / "certify.md").read_text(encoding="utf-8")  # the page shows the same run
    certify_shown, verify_shown = shown.split("$ trey verify ")
    monkeypatch.chdir(tmp_path)
    made = run_cli("certify", STANDARD, "--out", "certificates", "--date", "2026-01-01")
    assert made.exit_code == 0
    assert certify_shown.splitlines()[1:] == made.stdout.splitlines() + made.stderr.splitlines()
    checked = run_cli("verify", "certificates/standard.certificate.pdf")
    assert checked.exit_code == 0
    assert verify_shown.splitlines()[1:] == checked.stdout.splitlines()


def test_every_version_a_page_shows_is_this_one() -> None:
    import trey

    for page in [README, *PAGES]:
        for version in re.findall(r"(?:issued by |^)trey (\d+\.\d+\.\d+)", page.read_text(encoding="utf-8"), re.M):
            assert version == trey.__version__, page.name
