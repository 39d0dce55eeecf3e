"""A real workbench server for the tests (tests/web): uvicorn on a free port of this machine, in a thread, with the
settings ``trey serve`` gives it."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn

from trey.web.app import Workbench, workbench
from trey.web.server import server_options

PAYTABLES = Path(__file__).resolve().parents[1] / "paytables"
PATIENCE = 60.0  # seconds, for every wait on the server: an analysis or a document on a machine busy with other work


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Served:
    url: str
    bench: Workbench  # the application's state: its token, its analyses (running, waiting, dropped)


def wait_for(condition: Callable[[], bool], what: str, seconds: float = PATIENCE) -> None:
    """Wait until ``condition()`` holds (polling the state, never a fixed sleep), or fail saying ``what``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def serving(folder: Path, *, writable: bool = False) -> Iterator[Served]:
    """A workbench over ``folder`` on a free port, as ``trey serve`` runs it, until the generator is closed."""
    port = _free_port()
    app = workbench(folder, writable=writable)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, **server_options())
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    wait_for(lambda: running.started, "the workbench to start")
    yield Served(f"http://127.0.0.1:{port}", app.state.bench)
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def served() -> Iterator[Served]:
    yield from serving(PAYTABLES)


@pytest.fixture(scope="session")
def server(served: Served) -> str:
    return served.url


class InProcess:
    """A client of an application in this process (httpx over ASGI, no server), keeping its cookies."""

    def __init__(self, app: Any, base_url: str) -> None:
        self.app, self.base_url, self.cookies = app, base_url, httpx.Cookies()

    def request(self, method: str, url: str, **options: Any) -> httpx.Response:
        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url=self.base_url, cookies=self.cookies) as client:
                answer = await client.request(method, url, **options)
                self.cookies.update(client.cookies)
                return answer

        return anyio.run(send)

    def get(self, url: str, **options: Any) -> httpx.Response:
        return self.request("GET", url, **options)

    def post(self, url: str, **options: Any) -> httpx.Response:
        return self.request("POST", url, **options)


def page_token(server: str) -> str:
    """This start's token, as a client reads it: from the form of an editor page."""
    page = httpx.get(f"{server}/edit", params={"file": "standard.yaml"}, timeout=PATIENCE).text
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)
