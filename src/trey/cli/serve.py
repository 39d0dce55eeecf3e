"""The command of the workbench: serve (the paytables of a folder, edited in the browser)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from trey.cli.app import app, say_error, user_errors
from trey.core.errors import TreyError

LOOPBACK = ("127.0.0.1", "localhost", "::1")
SHIPPED = Path(__file__).resolve().parents[3] / "paytables"


def shipped_paytables() -> Path:
    """The paytables shipped with trey: the repository's folder when trey runs from it."""
    return SHIPPED


@app.command()
@user_errors
def serve(
    folder: Annotated[
        Path | None,
        typer.Argument(help="The folder of paytables to open (default: the shipped ones).", show_default=False),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (others than this machine: warned).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
) -> None:
    """Start the paytable workbench in the browser: edit pays and rules and see every figure change."""
    import uvicorn

    from trey.web.app import LOCAL_HOSTS, workbench

    folder = folder if folder is not None else shipped_paytables()
    if not folder.is_dir():
        raise TreyError(f"{folder}: not a folder of paytables", hint="give a folder holding *.yaml paytables")
    if host not in LOOPBACK:
        say_error(
            f"warning: listening on {host}: anyone who can reach this machine can use the workbench "
            "(it reads the folder's paytables and makes documents; it writes nothing)"
        )
    say_error(f"trey workbench: http://{'[' + host + ']' if ':' in host else host}:{port}/ (Ctrl-C stops it)")
    hosts = LOCAL_HOSTS if host in LOOPBACK else ("*",)  # off this machine, whatever name reaches it
    uvicorn.run(workbench(folder, hosts=hosts), host=host, port=port, log_level="warning", access_log=False)
