"""The package tree is the architecture: each layer imports only the layers below it, never a sibling's or one
above (lazy and type-checking imports included), so the tree a newcomer opens shows what depends on what."""

from __future__ import annotations

import ast
from pathlib import Path

import trey

PACKAGE = Path(trey.__file__).resolve().parent

# Bottom first. Packages on one line are siblings: neither imports the other.
LAYERS: list[tuple[str, ...]] = [
    ("core",),
    ("cards",),
    ("paytable",),
    ("rules",),
    ("engine",),
    ("figures",),
    ("play", "choose", "protect"),
    ("trust", "floor"),
    ("audit",),
    ("present",),
    ("documents",),
    ("web",),
    ("cli",),
]
RANK = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}
TOP = "trey"  # the package's top, the public API (``from trey import __version__``): above every layer
RANK[TOP] = len(LAYERS)


def _imported(tree: ast.AST) -> set[str]:
    """The trey packages a module imports, wherever the import statement is."""
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        if isinstance(node, ast.ImportFrom) and node.module == TOP and node.level == 0:
            found.add(TOP)  # from trey import ...: the top's names, which import every layer
        if isinstance(node, ast.Import) and any(alias.name == TOP for alias in node.names):
            found.add(TOP)
        for name in names:
            parts = name.split(".")
            if parts[0] == "trey" and len(parts) > 1 and parts[1] in RANK:
                found.add(parts[1])
    return found


def _modules() -> list[tuple[str, Path]]:
    """Every module of the library with the package (layer) it sits in; the top-level ``trey`` API is above all."""
    return [
        (path.relative_to(PACKAGE).parts[0], path)
        for path in sorted(PACKAGE.rglob("*.py"))
        if len(path.relative_to(PACKAGE).parts) > 1
    ]


def test_every_package_of_the_library_has_a_layer() -> None:
    packages = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert packages == set(RANK) - {TOP}


def test_each_layer_imports_only_the_layers_below_it() -> None:
    wrong = []
    for package, path in _modules():
        for used in _imported(ast.parse(path.read_text(encoding="utf-8"))) - {package}:
            if RANK[used] >= RANK[package]:
                wrong.append(f"{path.relative_to(PACKAGE)} imports trey.{used}")
    assert wrong == []


def test_the_checker_sees_lazy_and_type_checking_imports() -> None:
    source = "if TYPE_CHECKING:\n    from trey.cli import app\ndef f():\n    import trey.documents.pdf\n"
    assert _imported(ast.parse(source)) == {"cli", "documents"}


def test_the_checker_sees_imports_from_the_top_of_the_package() -> None:
    """``from trey import __version__`` imports the top, which imports every layer (thirteen modules did so before
    issue 31 moved the version into core)."""
    assert _imported(ast.parse("from trey import __version__\n")) == {TOP}
    assert _imported(ast.parse("def f():\n    import trey\n")) == {TOP}
    assert _imported(ast.parse("from trey.core.version import __version__\n")) == {"core"}


def test_the_version_is_stated_once_in_core_and_agrees_with_the_project() -> None:
    import tomllib

    from trey.core.version import __version__

    project = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert trey.__version__ == __version__ == project["version"]
