"""How the workbench is served: uvicorn, with its connections bounded in number and in time, and the names and token
of a workbench listening off this machine.

uvicorn closes an idle kept-alive connection after ``timeout_keep_alive`` and answers 503 past ``limit_concurrency``
connections, but waits for ever for a request's head that arrives a byte at a time: :class:`BoundedH11Protocol`
closes a connection whose request line and headers have not all arrived within :data:`HEAD_SECONDS` of its opening
(or of its last answer). A stalled body is the application's to time out (``trey.web.app.BODY_SECONDS``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0  # a request's line and headers must have arrived within this
KEEP_ALIVE_SECONDS = 5  # an idle connection is closed after this
MAX_CONNECTIONS = 64  # connections (and requests) at once; past it, 503


class BoundedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection that does not send a whole request head in time."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_head()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete and self._head_timer is not None:
            self._head_timer.cancel()  # a request has begun: its body and answer are timed elsewhere
            self._head_timer = None

    def on_response_complete(self) -> None:
        self._wait_for_head()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)

    def _wait_for_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._stalled)

    def _stalled(self) -> None:
        self._head_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and not self.transport.is_closing():
            self.transport.close()


def server_options() -> dict[str, Any]:
    """uvicorn's settings for the workbench (``uvicorn.run(app, host=..., port=..., **server_options())``)."""
    return {
        "http": BoundedH11Protocol,
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "limit_concurrency": MAX_CONNECTIONS,
        "log_level": "warning",
        "access_log": False,
    }


def on_loopback(host: str) -> bool:
    """Whether an address to listen on is this machine's loopback (``127.0.0.0/8``, ``::1``, ``localhost``): only
    this machine can reach it."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def unspecified(host: str) -> bool:
    """``0.0.0.0`` or ``::``: every address of the machine."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def machine_names() -> tuple[str, ...]:
    """This machine's names, as a browser on the network may address it."""
    names = [socket.gethostname(), socket.getfqdn()]  # getfqdn falls back to the host name when nothing resolves
    return tuple(dict.fromkeys(n.lower() for n in names if n))


def allowed_hosts(host: str, extra: Iterable[str], local: Iterable[str]) -> tuple[str, ...]:
    """The names a request may be addressed to: this machine's loopback names (``local``), the address listened on
    (unless it is every address), this machine's names and ``extra`` (``--allow-host``)."""
    names = [*local, *machine_names(), *extra]
    if not unspecified(host):
        names.append(f"[{host}]" if ":" in host else host)
    return tuple(dict.fromkeys(n.lower() for n in names))
