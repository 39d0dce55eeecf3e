"""Issue 33: ``trey serve DIR --writable`` saves the edited table into DIR under a name the page gives — validated,
never over a file without the page's confirmation, all or nothing as the CLI writes files — and without --writable
writes nothing; ``--open`` opens the browser; the list shows the default game first. In-process (httpx over ASGI):
no server, no browser."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from conftest import run_cli
from trey.paytable.load import load_spec
from trey.web.app import workbench
from workbench import PAYTABLES, InProcess

PAIR_PLUS = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"
OWN = {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"}


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "tables"
    (folder / "pair_plus").mkdir(parents=True)
    shutil.copyfile(PAIR_PLUS, folder / "pair_plus" / "40-30-6-4-1.yaml")
    return folder


def _edited(flush: int = 3) -> dict[str, object]:
    data = load_spec(PAIR_PLUS).canonical()
    data["wagers"]["pair_plus"]["flush"] = flush
    return {"paytable": data, "origin": "pair_plus/40-30-6-4-1.yaml"}


def _save(client: InProcess, file: str, *, replace: bool = False, flush: int = 3) -> tuple[int, dict[str, object]]:
    answer = client.post("/api/save", json={**_edited(flush), "file": file, "replace": replace}, headers=OWN)
    return answer.status_code, answer.json()


def test_a_workbench_started_without_writable_writes_nothing(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    before = sorted(folder.rglob("*"))
    client = InProcess(workbench(folder), "http://127.0.0.1:8000")
    assert _save(client, "mine") == (
        403,
        {
            "error": "this workbench writes nothing",
            "hint": "start it with trey serve DIR --writable to save tables into DIR; or download the YAML",
        },
    )
    assert sorted(folder.rglob("*")) == before
    assert "save into" not in client.get("/edit", params={"file": "pair_plus/40-30-6-4-1.yaml"}).text.lower()


def test_a_writable_workbench_saves_under_a_checked_name_and_replaces_only_when_asked(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    client = InProcess(workbench(folder, writable=True), "http://127.0.0.1:8000")
    status, said = _save(client, "grand-pp")
    written = folder / "grand-pp.yaml"
    assert status == 200 and said == {
        "saved": "grand-pp.yaml",
        "open": "/edit?file=grand-pp.yaml",
        "sha256": hashlib.sha256(written.read_bytes()).hexdigest(),
    }
    # The bytes the YAML download is: it says what it was edited from, and trey validate and analyze read it.
    assert written.read_text().startswith("# Edited in the trey workbench")
    assert run_cli("validate", written).exit_code == 0 and "7.2760%" in run_cli("analyze", written).stdout
    first = written.read_bytes()
    assert _save(client, "grand-pp.yaml", flush=5) == (
        409,
        {
            "error": "grand-pp.yaml already exists in tables",
            "hint": "confirm to replace it, or give another name",
            "exists": True,
        },
    )
    assert written.read_bytes() == first  # nothing written over it
    status, _ = _save(client, "grand-pp.yaml", replace=True, flush=5)
    # 40-30-6-5-1: the 4-to-1 edge 128/5525 less P(flush) 274/5525 = -146/5525 = -2.6425%.
    assert status == 200 and "-2.6425%" in run_cli("analyze", written).stdout
    # A name is a file of the folder itself, in plain characters: no path, no hidden file, no other extension.
    for bad in ("../out", "pair_plus/x", ".hidden", "", "a b", "x.yaml.yaml/..", "é"):
        status, said = _save(client, bad)
        assert status == 400 and said["hint"] == "use letters, digits, - and _ (at most 80), such as my-table.yaml"
    assert sorted(p.name for p in folder.iterdir()) == ["grand-pp.yaml", "pair_plus"]
    assert not list(folder.glob(".*.tmp"))  # all or nothing: no temporary file left
    # An invalid table is not saved.
    broken = _edited()
    broken["paytable"]["wagers"]["pair_plus"]["flush"] = "4x"  # type: ignore[index]
    refused = client.post("/api/save", json={**broken, "file": "broken"}, headers=OWN)
    assert refused.status_code == 400 and refused.json()["error"] == "fix the paytable's problems first"
    assert not (folder / "broken.yaml").exists()
    # The saved file is listed, with its house edge.
    assert "grand-pp.yaml" in client.get("/").text


def test_saving_is_refused_to_other_sites(tmp_path: Path) -> None:
    client = InProcess(workbench(_folder(tmp_path), writable=True), "http://127.0.0.1:8000")
    other = client.post(
        "/api/save",
        json={**_edited(), "file": "evil"},
        headers={"Origin": "http://attacker.test", "Sec-Fetch-Site": "cross-site"},
    )
    assert other.status_code == 403 and not (tmp_path / "tables" / "evil.yaml").exists()
    plain = client.post(
        "/api/save", content=json.dumps({**_edited(), "file": "evil"}), headers={"Content-Type": "text/plain", **OWN}
    )
    assert plain.status_code == 415 and not (tmp_path / "tables" / "evil.yaml").exists()


def test_the_list_shows_the_default_game_first_and_says_which_folder(tmp_path: Path) -> None:
    folder = tmp_path / "casino"
    folder.mkdir()
    for name in ("standard.yaml", "ante_bonus/3-2-1.yaml"):
        (folder / name).parent.mkdir(exist_ok=True)
        shutil.copyfile(PAYTABLES / name, folder / name)
    page = InProcess(workbench(folder), "http://127.0.0.1:8000").get("/").text
    assert "<h1>Paytables</h1>" in page and "The 2 paytables of the folder casino." in page
    listing = page[page.index('id="paytables"') :]
    assert listing.index("standard.yaml") < listing.index("ante_bonus/3-2-1.yaml")  # 'a' < 's', yet it is first


def test_a_new_table_opens_in_the_form_from_nothing_or_from_a_shipped_table(tmp_path: Path) -> None:
    client = InProcess(workbench(_folder(tmp_path)), "http://127.0.0.1:8000")
    page = client.get("/new")
    assert page.status_code == 200 and '<h1 id="title">New table</h1>' in page.text and "a new table" in page.text
    assert '<option value="prime/3-4.yaml">trey\'s prime/3-4.yaml</option>' in client.get("/").text  # shipped
    prime = client.get("/new", params={"from": "prime/3-4.yaml"}).text  # not in this folder: trey's own tables
    assert "a new table, started from trey's prime/3-4.yaml" in prime and "Prime 3 to 1, 4 to 1" in prime
    assert '"origin": null' in prime.replace("&#34;", '"')  # its documents are its own, not a file's of the folder
    missing = client.get("/new", params={"from": "../standard.yaml"})
    assert missing.status_code == 404 and "is not one of the paytables of this folder" in missing.text


def _started(app: Any, during: Callable[[], None]) -> None:
    """The application started and stopped as uvicorn does (its lifespan), ``during()`` run while it is up."""

    async def run() -> None:
        up, stop = anyio.Event(), anyio.Event()
        pending = [{"type": "lifespan.startup"}]

        async def receive() -> dict[str, str]:
            if pending:
                return pending.pop(0)
            await stop.wait()
            return {"type": "lifespan.shutdown"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "lifespan.startup.complete":
                up.set()

        async with anyio.create_task_group() as group:
            group.start_soon(app, {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send)
            await up.wait()
            await anyio.to_thread.run_sync(during)
            stop.set()

    anyio.run(run)


def test_serve_open_opens_the_browser_at_the_address_it_prints(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import threading

    import uvicorn

    import trey.cli.serve as serve

    opened: list[str] = []
    done = threading.Event()

    def fake_opener(address: str) -> None:
        opened.append(address)
        done.set()

    monkeypatch.setattr(serve, "OPENER", fake_opener)
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: _started(app, lambda: done.wait(60)))
    said = run_cli("serve", tmp_path, "--port", 8124, "--open")
    assert said.exit_code == 0 and opened == ["http://127.0.0.1:8124/"]
    assert said.stderr == "trey workbench: http://127.0.0.1:8124/ (Ctrl-C stops it)\n"
    opened.clear()
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: _started(app, lambda: None))
    assert run_cli("serve", tmp_path, "--port", 8124).exit_code == 0 and opened == []  # not without --open
