"""What a request can make the workbench do (issue 29.13 and 29.14): analyses remembered by content, at most one
per CPU at once, dropped when their client goes or a newer edit replaces them; the index read once per file;
malformed, stalled and abandoned requests answered in words (or not at all), never with a traceback."""

from __future__ import annotations

import json
import logging
import socket
import threading
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest

from trey.paytable.load import load_spec
from trey.web.app import Gone, workbench
from workbench import PATIENCE, PAYTABLES, InProcess, Served, page_token, wait_for

PAIR_PLUS = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"
YAML = {"Content-Type": "application/yaml"}


def _with_flush(pay: int) -> str:
    text = PAIR_PLUS.read_text()
    assert "\n    flush: 4\n" in text
    return text.replace("\n    flush: 4\n", f"\n    flush: {pay}\n")


def _edge(pay: int) -> str:
    """Pair Plus 40-30-6-N-1: each unit on the flush takes its probability, 274/5525, off the 4-to-1 edge."""
    return str(Fraction(128, 5525) - (pay - 4) * Fraction(274, 5525))


class Gate:
    """An analysis held at its checkpoints until let through (the real one runs then): to see how many run at once,
    and that a dropped one stops."""

    def __init__(self, real: Any) -> None:
        self.real, self.through = real, threading.Event()
        self.lock = threading.Lock()
        self.started = self.running = self.most = self.abandoned = 0

    def __call__(self, spec: Any, checkpoint: Any = None, **reusing: Any) -> Any:
        with self.lock:
            self.started += 1
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            while not self.through.wait(0.01):  # the wagers being counted, a checkpoint between each
                checkpoint()
        except Gone:
            with self.lock:
                self.abandoned += 1
            raise
        finally:
            with self.lock:
                self.running -= 1
        return self.real(spec, checkpoint, **reusing)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    import trey.web.app as web

    held = Gate(web.analyze)
    monkeypatch.setattr(web, "analyze", held)
    yield held
    held.through.set()


@pytest.fixture
def logged() -> Iterator[list[logging.LogRecord]]:
    """What the server logs (uvicorn's error log: a traceback of the application goes there)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    log = logging.getLogger("uvicorn.error")
    log.addHandler(handler)
    yield records
    log.removeHandler(handler)


def _raw(server: str, request: bytes) -> socket.socket:
    host, port = server.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=PATIENCE)
    connection.sendall(request)
    return connection


def _post_head(path: str, length: int, kind: str = "application/json", extra: str = "") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\nContent-Length: {length}\r\n{extra}\r\n"
    ).encode()


def _answer(connection: socket.socket) -> bytes:
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def test_analyses_run_one_per_cpu_at_once(served: Served, gate: Gate) -> None:
    """Issue 29.13: nothing bounded concurrent analyses (8 at once: 43 s, 2.3 GB)."""
    analyses = served.bench.analyses
    pays = [21, 22, 23, 24, 25][: analyses.slots + 2]
    answers: dict[int, str] = {}

    def post(pay: int) -> None:
        sent = httpx.post(
            f"{served.url}/api/analyze", content=_with_flush(pay).encode(), headers=YAML, timeout=PATIENCE
        )
        answers[pay] = sent.json()["wagers"]["pair_plus"]["house_edge"]

    threads = [threading.Thread(target=post, args=(pay,)) for pay in pays]
    for thread in threads:
        thread.start()
    wait_for(lambda: gate.started == analyses.slots and analyses.waiting == 2, "the slots full and two waiting")
    assert analyses.running == analyses.slots
    gate.through.set()
    for thread in threads:
        thread.join()
    assert gate.most == analyses.slots and answers == {pay: _edge(pay) for pay in pays}


def test_analyses_are_remembered_by_content_and_bounded(
    served: Served, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    import trey.web.app as web

    gate.through.set()

    def post(pay: int) -> str:
        sent = httpx.post(
            f"{served.url}/api/analyze", content=_with_flush(pay).encode(), headers=YAML, timeout=PATIENCE
        )
        return str(sent.json()["wagers"]["pair_plus"]["house_edge"])

    assert [post(31), post(31), post(31)] == [_edge(31)] * 3
    assert gate.started == 1  # the same text: analysed once
    monkeypatch.setattr(web, "CACHE_ENTRIES", 1)
    assert [post(32), post(31)] == [_edge(32), _edge(31)]
    assert gate.started == 3  # 31 was forgotten to keep one


def test_the_work_of_a_client_that_left_is_dropped_and_nothing_logged(
    served: Served, gate: Gate, logged: list[logging.LogRecord]
) -> None:
    """Issue 29.13 and 29.14: nothing was cancelled when the client went; a client leaving mid-body logged a 48-line
    traceback."""
    analyses = served.bench.analyses
    dropped = analyses.dropped
    body = json.dumps({"paytable": load_spec(PAIR_PLUS).canonical() | {"name": "left"}}).encode()
    connection = _raw(served.url, _post_head("/api/figures", len(body)) + body)
    wait_for(lambda: gate.started == 1 and analyses.running == 1, "the analysis to start")
    connection.close()
    wait_for(lambda: gate.abandoned == 1 and analyses.dropped == dropped + 1, "the analysis to be dropped")
    assert analyses.running == 0
    half = _raw(served.url, _post_head("/api/analyze", 1000, "application/yaml") + b"trey: 1\nna")
    half.close()
    wait_for(lambda: analyses.dropped == dropped + 2, "the half-sent request to be dropped")
    assert gate.started == 1 and [r.getMessage() for r in logged if r.levelno >= logging.WARNING] == []


def test_an_edit_replaced_by_a_newer_one_of_its_page_is_dropped(served: Served, gate: Gate) -> None:
    """Issue 29.13: the page sends every keystroke; an older edit still counting is dropped for the newer."""
    answers: dict[int, httpx.Response] = {}
    data = load_spec(PAIR_PLUS).canonical()

    def edit(number: int) -> None:
        data["wagers"]["pair_plus"]["flush"] = 40 + number
        sent = json.dumps({"paytable": data})
        headers = {"Content-Type": "application/json", "X-Trey-Edit": f"0a1b2c3d:{number}"}
        answers[number] = httpx.post(f"{served.url}/api/figures", content=sent, headers=headers, timeout=PATIENCE)

    first = threading.Thread(target=edit, args=(1,))
    first.start()
    wait_for(lambda: gate.started == 1, "the first edit to be analysed")
    second = threading.Thread(target=edit, args=(2,))
    second.start()
    first.join()
    assert answers[1].status_code == 409 and answers[1].json() == {
        "error": "a newer edit of this page replaced this one",
        "hint": "its figures follow",
    }
    gate.through.set()
    second.join()
    assert answers[2].status_code == 200 and answers[2].json()["valid"] is True
    assert gate.abandoned == 1
    bad = httpx.post(
        f"{served.url}/api/figures",
        content="{}",
        headers={"Content-Type": "application/json", "X-Trey-Edit": "page"},
        timeout=PATIENCE,
    )
    assert bad.status_code == 400 and bad.json() == {
        "error": "X-Trey-Edit 'page' is not PAGE:NUMBER",
        "hint": "send the page's id and the edit's number",
    }


def test_the_index_reads_each_file_once_until_it_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29.13: the index re-analysed every file on every GET /. Issue 29.14: an unloadable file's error named
    it by its full path; it is named as the folder names it."""
    import trey.web.app as web

    (tmp_path / "a.yaml").write_text(_with_flush(4))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bad.yaml").write_text(_with_flush(4).replace("\n    flush: 4\n", "\n    flush: 4x\n"))
    analysed: list[object] = []
    real = web.analyze
    monkeypatch.setattr(
        web, "analyze", lambda spec, checkpoint=None, **kw: analysed.append(spec) or real(spec, checkpoint, **kw)
    )
    client = InProcess(workbench(tmp_path), "http://127.0.0.1:8000")
    first = client.get("/")
    assert first.status_code == 200 and len(analysed) == 1 and "2.3167%" in first.text
    assert "sub/bad.yaml:10:12: $.wagers.pair_plus.flush: " in first.text and str(tmp_path) not in first.text
    assert client.get("/").text == first.text and len(analysed) == 1
    (tmp_path / "a.yaml").write_text(_with_flush(3))
    assert "7.2760%" in client.get("/").text and len(analysed) == 2
    opened = client.get("/edit", params={"file": "sub/bad.yaml"})
    assert opened.status_code == 400 and opened.json()["error"].startswith(
        "sub/bad.yaml cannot be opened: sub/bad.yaml:10:12: $.wagers.pair_plus.flush: "
    )


def test_malformed_forms_are_refused_in_words(served: Served) -> None:
    """Issue 29.14: a form post of five fields was a 500."""
    token = page_token(served.url)
    request = json.dumps({"paytable": load_spec(PAIR_PLUS).canonical()})
    five = {"request": request, "token": token, "a": "1", "b": "2", "c": "3"}
    answer = httpx.post(f"{served.url}/download/yaml", data=five, timeout=PATIENCE)
    assert answer.status_code == 400 and answer.json() == {
        "error": "the form has more than 4 fields",
        "hint": "use the page's buttons",
    }
    twice = f"request=1&token={token}&request=2"
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    answer = httpx.post(f"{served.url}/download/yaml", content=twice, headers=form, timeout=PATIENCE)
    assert answer.status_code == 400 and answer.json() == {
        "error": "the form gives the field 'request' twice",
        "hint": "use the page's buttons",
    }


def test_stalled_connections_are_let_go(served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29.14: a body that stops arriving is answered 408; a request head sent a byte at a time (which uvicorn
    waits for for ever) is closed."""
    import trey.web.app as web
    import trey.web.server as server

    monkeypatch.setattr(web, "BODY_SECONDS", 0.3)
    body = _raw(served.url, _post_head("/api/analyze", 100, "application/yaml", "Connection: close\r\n") + b"trey")
    head, _, said = _answer(body).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ") and json.loads(said) == {
        "error": "the request's body did not arrive within 0.3 seconds",
        "hint": "send the request whole",
    }
    monkeypatch.setattr(server, "HEAD_SECONDS", 0.3)
    stalled = _raw(served.url, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    assert _answer(stalled) == b""  # closed, unanswered


def test_every_answer_carries_the_pages_security_headers(served: Served) -> None:
    """Issue 29.14: the JSON answers had neither ``nosniff`` nor the pages' Content-Security-Policy."""
    policy = httpx.get(f"{served.url}/", timeout=PATIENCE).headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    answers = [
        httpx.post(f"{served.url}/api/analyze", content=PAIR_PLUS.read_bytes(), headers=YAML, timeout=PATIENCE),  # 200
        httpx.post(f"{served.url}/api/analyze", content=b"trey: [", headers=YAML, timeout=PATIENCE),  # 422
        httpx.post(
            f"{served.url}/api/figures", content=b"[]", headers={"Content-Type": "application/json"}, timeout=PATIENCE
        ),  # 400
        httpx.post(f"{served.url}/api/figures", content=b"[]", timeout=PATIENCE),  # 415, refused before the application
        httpx.get(f"{served.url}/static/workbench.js", timeout=PATIENCE),
    ]
    assert [a.status_code for a in answers] == [200, 422, 400, 415, 200]
    for answer in answers:
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["content-security-policy"] == policy
        assert answer.headers["referrer-policy"] == "same-origin"
