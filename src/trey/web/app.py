"""``trey serve``: the paytable workbench, a Starlette application over the paytables of one folder.

Every input goes through the loader files go through (a paytable the page sends is written as YAML and read like a
file), every figure comes from the engine and is worded by the rows the terminal prints (trey.present.figures_view),
every document is the library's (trey.documents.make) with its fetcher that refuses everything outside the package.
The application reads only the ``*.yaml`` files it listed inside its folder and writes nothing anywhere; request
bodies are bounded; the analyses and documents run on worker threads, so a slow one does not hold up the others.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from jinja2 import Environment, PackageLoader, StrictUndefined
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from trey import __version__
from trey.core.errors import SpecError, TreyError
from trey.core.jsonread import JsonInputError, loads_strict
from trey.core.numbers import percent_text
from trey.engine import analyze
from trey.engine.results import GameAnalysis
from trey.figures.export import analysis_json
from trey.figures.theo import theoretical_wins
from trey.paytable.load import CheckResult, check_bytes, load_spec
from trey.paytable.model import GameSpec, money_style
from trey.paytable.yamldoc import MAX_FILE_BYTES
from trey.present.figures_view import (
    ENVY_COLUMNS,
    OUTCOME_COLUMNS,
    envy_rows,
    outcome_rows,
    progressive_rows,
    summary_rows,
)
from trey.web.forms import sections, yaml_text

MAX_BODY_BYTES = 1 << 20  # a request body: a paytable is at most 1 MiB too
MAX_FILES = 500  # paytables listed from the folder at most
MAX_DEPTH = 4  # folders below it
MAX_ENTRIES = 20_000  # files and folders looked at, to list the paytables
DOCUMENTS = ("certificate", "dealer-sheet", "drill")


class TooLarge(Exception):
    pass


@cache
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("trey.web", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = _environment().get_template(template).render(trey_version=__version__, **context)
    return HTMLResponse(html, status_code=status, headers=_HEADERS)


# Nothing but this page's own script, styles and images; no frames of it elsewhere.
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_DOCUMENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"


@dataclass(frozen=True)
class Listed:
    name: str  # the path inside the folder, with forward slashes
    path: Path


def listed(folder: Path) -> dict[str, Listed]:
    """The paytables of the folder: ``*.yaml`` files inside it, at most :data:`MAX_DEPTH` folders down (hidden ones
    and links that lead out are left out), looking at :data:`MAX_ENTRIES` entries at most however large the tree."""
    root = folder.resolve()
    found: dict[str, Listed] = {}
    pending, seen = [(root, 0)], 0
    while pending and len(found) < MAX_FILES and seen < MAX_ENTRIES:
        directory, depth = pending.pop(0)
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES or len(found) >= MAX_FILES:
                break
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            if entry.is_dir(follow_symlinks=False):
                if depth < MAX_DEPTH:
                    pending.append((path, depth + 1))
            elif entry.name.endswith(".yaml"):
                real = path.resolve()
                if real.is_file() and real.is_relative_to(root):
                    name = path.relative_to(root).as_posix()
                    found[name] = Listed(name, real)
    return dict(sorted(found.items()))


async def _body(request: Request) -> bytes:
    size = int(request.headers.get("content-length") or 0)
    if size > MAX_BODY_BYTES:
        raise TooLarge
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY_BYTES:
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _problems(result: CheckResult) -> list[dict[str, object]]:
    return [p.as_json() for p in result.problems]


def _figures(analysis: GameAnalysis) -> list[dict[str, Any]]:
    """Every wager's figures as the terminal words them."""
    spec = analysis.spec
    style = money_style(spec.table)
    theos = theoretical_wins(analysis)
    wagers = []
    for wager, result in analysis.wagers.items():
        wagers.append(
            {
                "id": wager,
                "title": result.title,
                "cycle": f"{result.cycle:,}",
                "summary": summary_rows(result, style=style, theo=theos[wager]),
                "outcomes": outcome_rows(result),
                "progressive": progressive_rows(result.progressive, style=style) if result.progressive else None,
                "envy": envy_rows(result.progressive, style=style) if result.progressive else None,
            }
        )
    return wagers


@dataclass(frozen=True)
class Edited:
    """A paytable the page sent: its YAML, what the loader found, the analysis when it is valid, and the rest of
    the request (a solve's wager, row and target)."""

    yaml: str
    result: CheckResult
    analysis: GameAnalysis | None
    sent: dict[str, Any]


def _edited(body: bytes) -> tuple[Edited, str]:
    """The page's ``{"paytable": {...}, "origin": "..."}`` (the form's data) or ``{"yaml": "...", ...}`` (the YAML
    pane's text), read strictly and checked by the loader."""
    try:
        sent = loads_strict(body.decode("utf-8"))
    except (UnicodeDecodeError, JsonInputError) as exc:
        raise TreyError(f"the request is not a JSON paytable: {exc}", hint='send {"paytable": {...}}') from None
    if not isinstance(sent, dict) or not (isinstance(sent.get("paytable"), dict) or isinstance(sent.get("yaml"), str)):
        raise TreyError("the request has no paytable", hint='send {"paytable": {...}} or {"yaml": "..."}')
    origin = sent.get("origin") if isinstance(sent.get("origin"), str) else None
    text = sent["yaml"] if isinstance(sent.get("yaml"), str) else yaml_text(sent["paytable"], origin)
    if len(text.encode()) > MAX_FILE_BYTES:
        raise TooLarge
    result = check_bytes(text.encode(), "the edited paytable")
    analysis = analyze(result.spec) if result.spec is not None and not result.errors else None
    return Edited(text, result, analysis, sent), origin or "the workbench"


class Workbench:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.documents = threading.Lock()  # WeasyPrint lays out one document at a time

    def paytables(self) -> dict[str, Listed]:
        return listed(self.folder)

    async def index(self, _: Request) -> Response:
        def rows() -> list[dict[str, Any]]:
            found: list[dict[str, Any]] = []
            for name, item in self.paytables().items():
                try:
                    spec = load_spec(item.path)
                except (SpecError, TreyError) as exc:
                    found.append({"name": name, "title": None, "problem": str(exc).splitlines()[0]})
                    continue
                analysis = analyze(spec)
                edges = [(r.title, r.stats.house_edge) for r in analysis.wagers.values()]
                found.append({"name": name, "title": spec.name, "edges": [(t, percent_text(e)) for t, e in edges]})
            return found

        return _page("index.html.j2", paytables=await run_in_threadpool(rows), folder=self.folder.name or ".")

    async def edit(self, request: Request) -> Response:
        name = request.query_params.get("file", "")
        item = self.paytables().get(name)
        if item is None:
            return _page("missing.html.j2", status=404, name=name[:200])
        spec = await run_in_threadpool(load_spec, item.path)
        analysis = await run_in_threadpool(analyze, spec)
        data = spec.canonical()
        return _page(
            "edit.html.j2",
            name=name,
            spec=spec,
            sections=sections(data),
            data_json=json.dumps({"paytable": data, "origin": name}),
            yaml=yaml_text(data),
            wagers=_figures(analysis),
            outcome_columns=OUTCOME_COLUMNS,
            envy_columns=ENVY_COLUMNS,
        )

    async def figures(self, request: Request) -> Response:
        """The page's edit: the figures (as HTML), or the problems at their fields."""
        edited, _ = await run_in_threadpool(_edited, await _body(request))
        if edited.analysis is None:
            return JSONResponse({"valid": False, "problems": _problems(edited.result)})
        environment = _environment()
        figures = environment.get_template("figures.html.j2").render(
            wagers=_figures(edited.analysis), outcome_columns=OUTCOME_COLUMNS, envy_columns=ENVY_COLUMNS
        )
        data = edited.analysis.spec.canonical()
        return JSONResponse(
            {
                "valid": True,
                "problems": _problems(edited.result),
                "figures": figures,
                # For the page to keep its form and its YAML pane in step, whichever was edited.
                "paytable": data,
                "yaml": yaml_text(data),
                "fields": environment.get_template("fields.html.j2").render(sections=sections(data)),
            }
        )

    async def analyze_api(self, request: Request) -> Response:
        """``POST /api/analyze`` with a paytable's YAML: ``trey analyze --format json``, or its problems (422)."""
        raw = await _body(request)

        def run() -> tuple[int, dict[str, Any]]:
            result = check_bytes(raw, "the posted paytable")
            if result.spec is None or result.errors:
                return 422, {"valid": False, "problems": _problems(result)}
            return 200, analysis_json(analyze(result.spec))

        status, document = await run_in_threadpool(run)
        return JSONResponse(document, status_code=status)

    async def solve(self, request: Request) -> Response:
        from trey.choose.solve import solve, target_percent
        from trey.present.solve_view import solution_json

        raw = await _body(request)

        def run() -> dict[str, Any]:
            edited, _ = _edited(raw)
            sent = edited.sent
            if edited.analysis is None:
                raise TreyError("fix the paytable's problems first", hint="the fields in red say what is wrong")
            wager, row = str(sent.get("wager", ""))[:64], str(sent.get("row", ""))[:64]
            target = target_percent(str(sent.get("house_edge", ""))[:20], "house edge")
            return solution_json(solve(edited.analysis.spec, wager, row, target))

        return JSONResponse(await run_in_threadpool(run))

    async def compare(self, request: Request) -> Response:
        """The edited table with every paytable of the folder: the ``trey compare --out`` page (a form's POST)."""
        from trey.choose.compare import compare
        from trey.documents.compare_view import render_comparison_html

        edited, _ = await run_in_threadpool(_edited, _form_request(await _body(request)).encode())

        def run() -> str:
            if edited.analysis is None:
                raise TreyError("fix the paytable's problems first", hint="the fields in red say what is wrong")
            games: list[tuple[str, GameSpec]] = [("edited", edited.analysis.spec)]
            for name, item in self.paytables().items():
                try:
                    games.append((name, load_spec(item.path)))
                except (SpecError, TreyError):
                    continue
            return render_comparison_html(compare(games), "edited")

        # The comparison page's own styles are inline; it runs no script and loads nothing.
        headers = {**_HEADERS, "Content-Security-Policy": _DOCUMENT_POLICY}
        return HTMLResponse(await run_in_threadpool(run), headers=headers)

    async def download(self, request: Request) -> Response:
        """The edited paytable as YAML, or its certificate, dealer sheet or drill as PDF (a form's POST)."""
        kind = request.path_params["kind"]
        sent = _form_request(await _body(request))
        edited, origin = await run_in_threadpool(_edited, sent.encode())
        if edited.analysis is None:
            raise TreyError("fix the paytable's problems first", hint="the fields in red say what is wrong")
        stem = _stem(origin)
        if kind == "yaml":
            return _attachment(edited.yaml.encode(), f"{stem}.yaml", "application/yaml")
        if kind not in DOCUMENTS:
            return Response("no such download", status_code=404)
        files = await run_in_threadpool(self._document, kind, edited, stem)
        name = next(n for n in files if n.endswith(".pdf"))
        return _attachment(files[name], name, "application/pdf")

    def _document(self, kind: str, edited: Edited, stem: str) -> dict[str, bytes]:
        from trey.documents.make import certify, dealer_sheet, drill

        today = datetime.now(UTC).date()
        assert edited.analysis is not None
        spec = edited.analysis.spec
        with self.documents:
            if kind == "certificate":
                return dict(certify(edited.yaml.encode(), f"{stem}.yaml", issue_date=today).files)
            if kind == "dealer-sheet":
                return dealer_sheet(spec, stem, effective=today)
            return drill(spec, stem, effective=today)


def _form_request(body: bytes) -> str:
    """The page's paytable, as its forms post it (the field ``request``)."""
    fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=4)
    sent = fields.get("request", [None])[0]
    if not isinstance(sent, str):
        raise TreyError("the request needs the paytable", hint="use the page's buttons")
    return sent


def _stem(origin: str) -> str:
    """A file name for what is downloaded: the opened file's stem, edited, in safe characters."""
    base = Path(origin).stem if origin else "paytable"
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "-" for c in base)[:80].strip("-.")
    return f"{safe or 'paytable'}-edited"


def _attachment(content: bytes, name: str, media_type: str) -> Response:
    return Response(
        content,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{name}"', **_HEADERS},
    )


def _errors(
    handler: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """A user error is a JSON answer with its words (400), a body too large is 413: never a traceback."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except TooLarge:
            said = {"error": f"the request is larger than {MAX_BODY_BYTES:,} bytes", "hint": "send one paytable"}
            return JSONResponse(said, status_code=413)
        except TreyError as exc:
            return JSONResponse({"error": exc.message, "hint": exc.hint}, status_code=400)

    return wrapped


LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


def workbench(folder: Path, *, hosts: tuple[str, ...] = LOCAL_HOSTS) -> Starlette:
    """The application over the paytables of ``folder``, answering requests addressed to ``hosts`` only: on this
    machine, a page of another site whose name was pointed at 127.0.0.1 (DNS rebinding) is refused (400)."""
    bench = Workbench(folder)
    static = StaticFiles(packages=[("trey.web", "static")])
    return Starlette(
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))],
        routes=[
            Route("/", _errors(bench.index)),
            Route("/edit", _errors(bench.edit)),
            Route("/api/figures", _errors(bench.figures), methods=["POST"]),
            Route("/api/analyze", _errors(bench.analyze_api), methods=["POST"]),
            Route("/api/solve", _errors(bench.solve), methods=["POST"]),
            Route("/compare", _errors(bench.compare), methods=["POST"]),
            Route("/download/{kind}", _errors(bench.download), methods=["POST"]),
            Mount("/static", static, name="static"),
        ],
    )
