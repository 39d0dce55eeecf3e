"""The command of the workbench: serve (the paytables of a folder, edited in the browser)."""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Annotated

import typer

from trey.cli.app import app, say_error, user_errors
from trey.core.errors import TreyError
from trey.web import shipped_paytables

HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\]")


def _allowed(names: list[str]) -> list[str]:
    for name in names:
        if not HOST_NAME.fullmatch(name.lower()):
            raise typer.BadParameter(
                f"{name!r} is not a host name or address such as bench.lan, 192.168.1.5 or [fe80::1]",
                param_hint="--allow-host",
            )
    return [n.lower() for n in names]


@app.command()
@user_errors
def serve(
    folder: Annotated[
        Path | None,
        typer.Argument(help="The folder of paytables to open (default: the shipped ones).", show_default=False),
    ] = None,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (off this machine: warned, and a token is asked).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="Another name the workbench may be addressed by (besides its address and the machine's names).",
            show_default=False,
        ),
    ] = None,
    writable: Annotated[
        bool, typer.Option("--writable", help="Let the page save tables into the folder (never over a file unasked).")
    ] = False,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the workbench in the browser.")] = False,
) -> None:
    """Start the paytable workbench in the browser: edit pays and rules and see every figure change."""
    import uvicorn

    from trey.web.app import LOCAL_HOSTS, workbench
    from trey.web.server import allowed_hosts, machine_names, on_loopback, server_options, unspecified

    extra = _allowed(allow_host or [])
    folder = folder if folder is not None else shipped_paytables()
    if not folder.is_dir():
        raise TreyError(f"{folder}: not a folder of paytables", hint="give a folder holding *.yaml paytables")
    token = secrets.token_urlsafe(24)
    local = on_loopback(host)
    shown = machine_names()[0] if unspecified(host) else f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/" + ("" if local else f"?token={token}")
    if not local:
        say_error(
            f"warning: listening on {host}: anyone who can reach this machine and has the address below can use "
            "the workbench (it reads the folder's paytables and makes documents; "
            + ("it saves tables into the folder)" if writable else "it writes nothing)")
        )
    say_error(f"trey workbench: {address} (Ctrl-C stops it)")
    application = workbench(
        folder,
        hosts=allowed_hosts(host, extra, LOCAL_HOSTS),
        token=token,
        token_required=not local,
        writable=writable,
        ready=(lambda: OPENER(address)) if open_browser else None,
    )
    uvicorn.run(application, host=host, port=port, **server_options())


def _open_in_browser(address: str) -> None:
    import webbrowser

    webbrowser.open(address)


OPENER = _open_in_browser  # how --open opens the address (the webbrowser module; the tests give a fake one)
