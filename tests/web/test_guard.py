"""Who the workbench answers (issue 29.10 and 29.11): a request from another site changes nothing and costs
nothing; off this machine, only the names it was given and a client holding the token printed at start-up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from conftest import STANDARD, run_cli
from trey.paytable.load import load_spec
from workbench import PATIENCE, PAYTABLES, InProcess, Served, page_token

EDITED = json.dumps({"paytable": load_spec(STANDARD).canonical(), "origin": "standard.yaml"})
JSON = {"Content-Type": "application/json"}


def _another_site(own: str, said: str) -> dict[str, str]:
    return {
        "error": f"the workbench answers only its own pages, and this request came from another site ({said})",
        "hint": f"open {own}/ yourself",
    }


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every analysis the workbench starts (the server runs in this process)."""
    import trey.web.app as web

    calls: list[object] = []
    real = web.analyze

    def counting(spec: object, checkpoint: object = None, **reusing: Any) -> object:
        calls.append(spec)
        return real(spec, checkpoint, **reusing)  # type: ignore[arg-type]

    monkeypatch.setattr(web, "analyze", counting)
    return calls


def test_a_request_from_another_site_is_refused_before_any_work(served: Served, counted: list[object]) -> None:
    """Issue 29.10: a page on another origin made the workbench analyse a table, render a certificate and push its
    download. Every costly or document-making route refuses what a browser says came from elsewhere, with the
    right token and body, before reading the body."""
    server, token = served.url, page_token(served.url)
    form = {"request": EDITED, "token": token}
    yaml = {"Content-Type": "application/yaml"}
    routes: list[tuple[str, dict[str, object], dict[str, str]]] = [
        ("/download/certificate", {"data": form}, {}),
        ("/download/yaml", {"data": form}, {}),
        ("/compare", {"data": form}, {}),
        ("/api/figures", {"content": EDITED}, JSON),
        ("/api/solve", {"content": EDITED}, JSON),
        ("/api/analyze", {"content": STANDARD.read_bytes()}, yaml),
    ]
    counted.clear()
    for path, body, headers in routes:
        for said, sent in [
            ("Origin: https://evil.example", {"Origin": "https://evil.example"}),
            ("Origin: null", {"Origin": "null"}),  # a sandboxed frame, a data: page
            ("Sec-Fetch-Site: cross-site", {"Sec-Fetch-Site": "cross-site"}),
            ("Origin: http://localhost:1", {"Origin": "http://localhost:1", "Sec-Fetch-Site": "same-site"}),
        ]:
            answer = httpx.post(f"{server}{path}", headers={**headers, **sent}, timeout=PATIENCE, **body)  # type: ignore[arg-type]
            assert (answer.status_code, answer.json()) == (403, _another_site(server, said)), path
    for page in ("/", "/edit?file=standard.yaml"):  # a link or an image of another site: the index analyses
        linked = httpx.get(f"{server}{page}", headers={"Sec-Fetch-Site": "same-site"}, timeout=PATIENCE)
        assert linked.status_code == 403 and linked.json() == _another_site(server, "Sec-Fetch-Site: same-site")
    assert counted == []  # nothing was analysed
    own = httpx.post(
        f"{server}/download/yaml",
        data=form,
        headers={"Origin": server, "Sec-Fetch-Site": "same-origin"},
        timeout=PATIENCE,
    )
    assert own.status_code == 200 and own.headers["content-type"] == "application/yaml"


def test_the_api_takes_json_and_the_forms_need_this_starts_token(served: Served) -> None:
    """What another site's page can send without asking first (a form's or text/plain body, no custom header) is
    refused: /api/* takes JSON (or YAML for /api/analyze) only; a form must carry the token of the page's form."""
    server = served.url
    for path in ("/api/figures", "/api/solve"):
        for kind in ("text/plain", "application/x-www-form-urlencoded", None):
            headers = {"Content-Type": kind} if kind else {}
            answer = httpx.post(f"{server}{path}", content=EDITED, headers=headers, timeout=PATIENCE)
            assert answer.status_code == 415 and answer.json() == {
                "error": f"{path} takes application/json, not {kind or 'an untyped body'}",
                "hint": "send Content-Type: application/json",
            }
    plain = httpx.post(
        f"{server}/api/analyze", content=STANDARD.read_bytes(), headers={"Content-Type": "text/plain"}, timeout=PATIENCE
    )
    assert plain.status_code == 415 and plain.json() == {
        "error": "/api/analyze takes application/json or application/yaml, not text/plain",
        "hint": "send Content-Type: application/yaml",
    }
    refused = {"error": "the form is not one of this workbench's pages", "hint": "reload the page and try again"}
    for form in ({"request": EDITED}, {"request": EDITED, "token": "guessed"}):
        answer = httpx.post(f"{server}/download/certificate", data=form, timeout=PATIENCE)
        assert answer.status_code == 403 and answer.json() == refused
    token = page_token(server)
    assert token == served.bench.token and len(token) >= 32
    json_answer = httpx.post(f"{server}/download/yaml", json={"request": EDITED, "token": token}, timeout=PATIENCE)
    assert json_answer.status_code == 415 and json_answer.json() == {
        "error": "the request is application/json, not a form",
        "hint": "use the page's buttons",
    }


def _served_app(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[Starlette, str]:
    """What ``trey serve ARGS`` would run over a folder of one table, and what it printed."""
    import uvicorn

    started: list[Starlette] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: started.append(app))
    result = run_cli("serve", PAYTABLES / "prime", *args)
    assert result.exit_code == 0, result.stderr
    return started[0], result.stderr


def test_off_this_machine_only_its_names_and_the_printed_token_are_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29.11: off loopback the Host check was switched off and nothing asked who you are."""
    monkeypatch.setattr("socket.gethostname", lambda: "bench-host")
    monkeypatch.setattr("socket.getfqdn", lambda: "bench-host.example.org")
    app, printed = _served_app(monkeypatch, "--host", "0.0.0.0", "--port", "8400", "--allow-host", "Bench.LAN")
    token = app.state.bench.token
    assert printed.splitlines()[1] == f"trey workbench: http://bench-host:8400/?token={token} (Ctrl-C stops it)"
    asked = {
        "error": "this workbench needs the token trey serve printed",
        "hint": "open the address it printed, which ends in ?token=...",
    }
    analysed = {"content": STANDARD.read_bytes(), "headers": {"Content-Type": "application/yaml"}}
    for name in ("bench.lan", "bench-host", "bench-host.example.org", "127.0.0.1"):
        client = InProcess(app, f"http://{name}:8400")
        bare = client.get("/")
        assert bare.status_code == 401 and bare.json() == asked
        wrong = client.get("/", params={"token": token[:-1] + ("y" if token.endswith("x") else "x")})  # never it
        assert wrong.status_code == 401 and wrong.json() == asked
        assert client.post("/api/analyze", **analysed).status_code == 401
        entered = client.get("/", params={"token": token})
        assert entered.status_code == 303 and entered.headers["location"] == "/"  # the token leaves the address
        assert "HttpOnly" in entered.headers["set-cookie"] and "SameSite=strict" in entered.headers["set-cookie"]
        assert client.get("/").status_code == 200  # the cookie carries it from there on
        assert client.post("/api/analyze", **analysed).status_code == 200
    for name in ("evil.example", "0.0.0.0", "bench.lan.evil.example"):
        rebound = InProcess(app, f"http://{name}:8400").get("/", params={"token": token})
        assert rebound.status_code == 400 and rebound.json()["error"] == (
            f"the request is addressed to '{name}:8400', not to this workbench"
        )
    script = InProcess(app, "http://bench.lan:8400")  # no cookie: the token in each address
    assert script.post("/api/analyze", params={"token": token}, **analysed).status_code == 200


def test_another_loopback_address_keeps_the_host_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """127.0.0.2 is this machine's loopback: no token, but only its names (it was the Host check's blind spot)."""
    app, printed = _served_app(monkeypatch, "--host", "127.0.0.2")
    assert printed == "trey workbench: http://127.0.0.2:8000/ (Ctrl-C stops it)\n"
    assert InProcess(app, "http://127.0.0.2:8000").get("/").status_code == 200
    assert InProcess(app, "http://evil.example:8000").get("/").status_code == 400


def test_allow_host_takes_names_only(tmp_path: Path) -> None:
    for bad in ("*", "evil.example:80", "a b", "http://x"):
        said = run_cli("serve", tmp_path, "--allow-host", bad)
        assert said.exit_code == 2
        assert f"'{bad}' is not a host name or address such as bench.lan, 192.168.1.5 or [fe80::1]" in " ".join(
            said.stderr.replace("│", " ").split()
        )
