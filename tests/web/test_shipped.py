"""`trey serve` without DIR opens the paytables shipped with trey (issue 29.15): package data found through
importlib.resources, in an installed wheel as in the editable install of a checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from trey.web import shipped_paytables
from workbench import PAYTABLES

ROOT = PAYTABLES.parent


def test_the_wheel_ships_the_paytables_and_serve_finds_them_there(tmp_path: Path) -> None:
    """From a wheel, serve looked in <site-packages>/../paytables."""
    from hatchling.builders.wheel import WheelBuilder

    built = WheelBuilder(str(ROOT)).build(directory=str(tmp_path / "dist"), versions=["standard"])
    wheel = Path(next(iter(built)))
    with zipfile.ZipFile(wheel) as archive:
        inside = {n: archive.read(n) for n in archive.namelist() if n.startswith("trey/paytables/")}
        archive.extractall(tmp_path / "site-packages")
    files = {f"trey/paytables/{p.relative_to(PAYTABLES).as_posix()}": p.read_bytes() for p in PAYTABLES.rglob("*.*")}
    assert len(files) > 20 and inside == files  # every table, byte for byte
    assert shipped_paytables().resolve() == PAYTABLES  # the editable install: the repository's own folder
    found = subprocess.run(  # trey imported from the unpacked wheel, as from an installed one
        [
            sys.executable,
            "-I",
            "-c",
            "import sys; sys.path.insert(0, sys.argv[1]); import trey.web as w; "
            "print(w.__file__); print(w.shipped_paytables())",
            str(tmp_path / "site-packages"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert found == [
        str(tmp_path / "site-packages" / "trey" / "web" / "__init__.py"),
        str(tmp_path / "site-packages" / "trey" / "paytables"),
    ]


def test_serve_without_a_folder_opens_the_shipped_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    started: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: started.append(app))
    assert run_cli("serve").exit_code == 0
    assert started[0].state.bench.folder == shipped_paytables()
