"""``trey serve``: the paytable workbench, a Starlette application over the paytables of one folder.

Every input goes through the loader files go through (a paytable the page sends is written as YAML and read like a
file), every figure comes from the engine and is worded by the rows the terminal prints (trey.present.figures_view),
every document is the library's (trey.documents.make) with its fetcher that refuses everything outside the package,
made of the bytes the YAML download is: a table that differs from the file it was opened from is titled and sourced
as such (:mod:`trey.web.edited`). The application reads only the ``*.yaml`` files it listed inside its folder and
writes nothing anywhere, unless started ``writable`` (``trey serve DIR --writable``): then the page may save a valid
table into the folder itself under a name it gives (:func:`_save_name`), written all or nothing as the CLI writes its
files (:func:`trey.core.outputs.write_all`), a file of that name replaced only when the page confirms it.

What a request may cost is bounded before any work (:class:`Guard`): it must be addressed to one of the workbench's
names, carry its token when it must, and — when it costs an analysis or makes a document — come from the
workbench's own pages; its body is bounded in size and in time. The analyses are remembered by content, at most one
per CPU runs at once, and each is dropped at its next wager when its client has gone or a newer edit of its page
came (:class:`Analyses`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlencode

import anyio
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, QueryParams
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from trey.core.errors import SpecError, TreyError
from trey.core.jsonread import JsonInputError, loads_strict
from trey.core.numbers import percent_text
from trey.core.text import printable
from trey.core.version import __version__
from trey.engine import analyze
from trey.engine.family import FamilyAnalysis, analyze_family
from trey.engine.results import AntePlayAnalysis, GameAnalysis
from trey.figures.export import analysis_json
from trey.figures.theo import theoretical_wins
from trey.paytable.load import CheckResult, check_bytes
from trey.paytable.model import GameSpec, money_style, refuse_other_games
from trey.paytable.yamldoc import MAX_FILE_BYTES
from trey.present.figures_view import (
    ENVY_COLUMNS,
    HAND_COLUMNS,
    OUTCOME_COLUMNS,
    envy_rows,
    hand_outcome_rows,
    outcome_rows,
    progressive_rows,
    summary_rows,
)
from trey.web import shipped_paytables
from trey.web.edited import Documented, Naming, Original, documented, file_stem, naming
from trey.web.forms import sections, yaml_text
from trey.web.views import (
    SUMMARY_FIGURES,
    Summed,
    comparison_groups,
    family_summed,
    meter_pays,
    summarised,
    summary,
    wager_path,
)

MAX_BODY_BYTES = 1 << 20  # a request body: a paytable is at most 1 MiB too
BODY_SECONDS = 30  # a request body must have arrived within this (a stalled upload is answered 408)
MAX_FILES = 500  # paytables listed from the folder at most
MAX_DEPTH = 4  # folders below it
MAX_ENTRIES = 20_000  # files and folders looked at, to list the paytables
MAX_FORM_FIELDS = 4  # the page's forms post two: the paytable and the token
CACHE_ENTRIES = 64  # analyses remembered by content (each some tens of kilobytes)
MAX_PAGES = 1_024  # edit pages whose latest edit is remembered
DOCUMENTS = ("certificate", "dealer-sheet", "drill")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")

T = TypeVar("T")


class TooLarge(Exception):
    pass


class Refused(Exception):
    """A request refused with its status and words, before it costs anything."""

    def __init__(self, status: int, error: str, hint: str) -> None:
        super().__init__(error)
        self.status, self.error, self.hint = status, error, hint


class Gone(Exception):
    """The work of a request dropped: its client has gone, or a newer edit of its page replaced it."""

    def __init__(self, *, superseded: bool) -> None:
        super().__init__("superseded" if superseded else "gone")
        self.superseded = superseded


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
    return HTMLResponse(html, status_code=status)


# Every answer, pages, JSON and files alike (Guard adds them): nothing but this page's own script, styles and images;
# no frames of it elsewhere; no guessing of types; no address sent to another site.
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # not "no-referrer": with it, a page's own form posts say "Origin: null"
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


def _read(item: Listed) -> bytes:
    """A listed file's bytes, at most one more than a paytable may have (the loader refuses it, naming the file as
    the folder names it); a file that cannot be read is said so, named the same way."""
    try:
        with item.path.open("rb") as handle:
            return handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise TreyError(f"{item.name}: cannot be read ({exc.strerror})", hint="check the file's permissions") from None


async def _body(request: Request) -> bytes:
    size = int(request.headers.get("content-length") or 0)
    if size > MAX_BODY_BYTES:
        raise TooLarge
    chunks, total = [], 0
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                total += len(chunk)
                if total > MAX_BODY_BYTES:
                    raise TooLarge
                chunks.append(chunk)
    except TimeoutError:
        raise Refused(
            408, f"the request's body did not arrive within {BODY_SECONDS} seconds", "send the request whole"
        ) from None
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
                "outcomes": meter_pays(analysis, wager, outcome_rows(result)),
                "by_hand": hand_outcome_rows(result) if isinstance(result, AntePlayAnalysis) else None,
                "progressive": progressive_rows(result.progressive, style=style) if result.progressive else None,
                "envy": envy_rows(result.progressive, style=style) if result.progressive else None,
            }
        )
    return wagers


@dataclass(frozen=True)
class Checked:
    """A paytable's text, what the loader found in it, and its analysis when it is valid."""

    raw: bytes
    result: CheckResult
    analysis: GameAnalysis | None
    family: FamilyAnalysis | None = None  # a game of the family other than the standard one (issue 31)

    @property
    def yaml(self) -> str:
        return self.raw.decode("utf-8")

    @property
    def valid(self) -> bool:
        return self.analysis is not None or self.family is not None

    @property
    def spec(self) -> GameSpec:
        """The valid table's spec."""
        counted = self.analysis or self.family
        if counted is None:
            raise TreyError("fix the paytable's problems first", hint="the fields in red say what is wrong")
        return counted.spec


@dataclass(frozen=True)
class Sent:
    """What the page sent: the paytable as YAML (without the comment naming its origin: that goes only into the
    downloaded file), its origin (the folder's file the page opened, and the SHA-256 it had then), and the rest of
    the request (a solve's wager, row and target)."""

    yaml: str
    origin: str | None
    origin_sha256: str | None
    rest: dict[str, Any]


def _sent(body: bytes) -> Sent:
    """The page's ``{"paytable": {...}, "origin": "..."}`` (the form's data) or ``{"yaml": "...", ...}`` (the YAML
    pane's text), read strictly."""
    try:
        sent = loads_strict(body.decode("utf-8"))
    except (UnicodeDecodeError, JsonInputError) as exc:
        raise TreyError(f"the request is not a JSON paytable: {exc}", hint='send {"paytable": {...}}') from None
    if not isinstance(sent, dict) or not (isinstance(sent.get("paytable"), dict) or isinstance(sent.get("yaml"), str)):
        raise TreyError("the request has no paytable", hint='send {"paytable": {...}} or {"yaml": "..."}')
    origin = sent.get("origin") if isinstance(sent.get("origin"), str) else None
    digest = sent.get("origin_sha256") if isinstance(sent.get("origin_sha256"), str) else None
    text = sent["yaml"] if isinstance(sent.get("yaml"), str) else yaml_text(sent["paytable"])
    if len(text.encode()) > MAX_FILE_BYTES:
        raise TooLarge
    return Sent(text, origin, digest, sent)


@dataclass(frozen=True)
class Edit:
    """An edit of one open page (the page's id and the edit's number): a later number of the same page replaces it."""

    page: str
    number: int


def _edit_of(headers: Headers) -> Edit | None:
    said = headers.get("x-trey-edit")
    if said is None:
        return None
    page, colon, number = said.partition(":")
    if not (colon and page.isascii() and page.isalnum() and len(page) <= 64 and number.isdigit() and len(number) < 10):
        raise Refused(400, f"X-Trey-Edit {said[:80]!r} is not PAGE:NUMBER", "send the page's id and the edit's number")
    return Edit(page, int(number))


class Analyses:
    """The workbench's analyses: remembered by content (the last :data:`CACHE_ENTRIES`), at most ``slots`` of them
    at once (the CPUs), each on a worker thread and dropped at its next wager when its client has gone or a newer
    edit of its page came. ``running`` and ``waiting`` say how many are counting and waiting for a slot now."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._free = asyncio.Semaphore(slots)
        self._lock = threading.Lock()
        self._remembered: OrderedDict[tuple[str, bytes], Checked] = OrderedDict()
        self._latest: OrderedDict[str, int] = OrderedDict()
        self.running = 0
        self.waiting = 0
        self.dropped = 0  # requests whose work was dropped (client gone, or replaced by a newer edit)
        self._reusable: GameAnalysis | None = None  # the latest analysis made, whose unchanged wagers the next takes

    def arrived(self, edit: Edit | None) -> None:
        """Note an edit as it arrives: any older one of its page still waiting or counting is dropped."""
        if edit is None:
            return
        with self._lock:
            self._latest[edit.page] = max(edit.number, self._latest.get(edit.page, edit.number))
            self._latest.move_to_end(edit.page)
            while len(self._latest) > MAX_PAGES:
                self._latest.popitem(last=False)

    def _superseded(self, edit: Edit | None) -> bool:
        with self._lock:
            return edit is not None and self._latest.get(edit.page, edit.number) > edit.number

    async def run(self, request: Request, work: Callable[[Callable[[], None]], T], edit: Edit | None = None) -> T:
        """``work(checkpoint)`` on a worker thread once a slot is free; ``checkpoint()`` raises :class:`Gone` when
        the request's client has gone (watched while the work runs) or a newer edit of its page came."""
        self.waiting += 1
        try:
            await self._free.acquire()
        finally:
            self.waiting -= 1
        try:
            if self._superseded(edit):
                raise Gone(superseded=True)
            if await request.is_disconnected():
                raise Gone(superseded=False)
            left = threading.Event()

            def checkpoint() -> None:
                if left.is_set():
                    raise Gone(superseded=False)
                if self._superseded(edit):
                    raise Gone(superseded=True)

            async def watch() -> None:
                while (await request.receive())["type"] != "http.disconnect":
                    pass
                left.set()

            self.running += 1
            watcher = asyncio.ensure_future(watch())
            try:
                return await run_in_threadpool(work, checkpoint)
            finally:
                self.running -= 1
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
        finally:
            self._free.release()

    async def checked(self, request: Request, raw: bytes, label: str, edit: Edit | None = None) -> Checked:
        """The paytable ``raw`` checked by the loader (its problems naming it ``label``) and analysed when valid."""
        key = (label, hashlib.sha256(raw).digest())
        with self._lock:
            if (hit := self._remembered.get(key)) is not None:
                self._remembered.move_to_end(key)
                return hit

        def work(checkpoint: Callable[[], None]) -> Checked:
            result = check_bytes(raw, label)
            valid = result.spec is not None and not result.errors
            if valid and result.spec is not None and not result.spec.is_standard_game:
                if result.spec.wagers.side_bets:  # the family's engine counts its round only
                    refuse_other_games(result.spec, WORKBENCH, label)
                return Checked(raw, result, None, analyze_family(result.spec))
            if not (valid and result.spec):
                return Checked(raw, result, None)
            # The wagers an edit left as they were are taken from the latest analysis (the engine compares them).
            analysis = analyze(result.spec, checkpoint, reuse=self._reusable)
            self._reusable = analysis
            return Checked(raw, result, analysis)

        made = await self.run(request, work, edit)
        with self._lock:
            self._remembered[key] = made
            while len(self._remembered) > CACHE_ENTRIES:
                self._remembered.popitem(last=False)
        return made


@dataclass(frozen=True)
class Row:
    """A line of the index: a file's game and house edges, or its first problem (named as the folder names it)."""

    name: str
    title: str | None = None
    edges: tuple[tuple[str, str], ...] = ()
    problem: str | None = None
    spec: GameSpec | None = None
    family: FamilyAnalysis | None = None  # a family game's analysis (compared without counting it again)


class Workbench:
    def __init__(self, folder: Path, token: str, *, writable: bool = False) -> None:
        self.folder = folder
        self.writable = writable  # trey serve --writable: the page may save tables into the folder
        self.token = token  # this start's: in the page's own forms (and needed off this machine, see Guard)
        self.analyses = Analyses(max(1, len(os.sched_getaffinity(0))))
        self.documents = asyncio.Lock()  # WeasyPrint lays out one document at a time
        self._rows: dict[str, tuple[tuple[int, int, int], Row]] = {}  # by file: its stat when read, its row
        self._rows_lock = threading.Lock()
        # The files pages were opened from, as read then: by name, their listing, their stat when read, their data.
        self._originals: OrderedDict[str, tuple[Listed, tuple[int, int, int], Original]] = OrderedDict()

    def paytables(self) -> dict[str, Listed]:
        return listed(self.folder)

    def _row(self, item: Listed, checkpoint: Callable[[], None]) -> Row:
        """A file's line of the index, remembered until the file changes (its size, time or inode)."""
        try:
            stat = item.path.stat()
        except OSError as exc:
            return Row(item.name, problem=f"{item.name}: cannot be read ({exc.strerror})")
        key = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        with self._rows_lock:
            known = self._rows.get(item.name)
        if known is not None and known[0] == key:
            return known[1]
        checkpoint()
        try:
            result = check_bytes(_read(item), item.name)
        except TreyError as exc:
            row = Row(item.name, problem=exc.message)
        else:
            if result.spec is None or result.errors:
                row = Row(item.name, problem=str(result.errors[0]).splitlines()[0])
            elif not result.spec.is_standard_game and result.spec.wagers.side_bets:
                row = Row(item.name, problem=_refusal(result.spec, item.name))
            elif not result.spec.is_standard_game:  # compared per Ante, as trey compare does across shapes
                family = analyze_family(result.spec)
                edges: tuple[tuple[str, str], ...] = (("Ante & Play", percent_text(family.house_edge_per_ante)),)
                row = Row(item.name, result.spec.name, edges, spec=result.spec, family=family)
            else:
                analysis = analyze(result.spec, checkpoint)
                edges = tuple((r.title, percent_text(r.stats.house_edge)) for r in analysis.wagers.values())
                row = Row(item.name, result.spec.name, edges, spec=result.spec)
        with self._rows_lock:
            self._rows[item.name] = (key, row)
        return row

    def _remember(self, item: Listed, key: tuple[int, int, int], original: Original) -> None:
        with self._rows_lock:
            self._originals[item.name] = (item, key, original)
            self._originals.move_to_end(item.name)
            while len(self._originals) > MAX_FILES:  # only listed names are kept: a client's cannot grow it
                self._originals.popitem(last=False)

    def original(self, name: str | None, claimed: str | None) -> Original:
        """The paytable of the folder a page was opened from, read again only when it changed since; refused when
        the page names none, or one that is not of the folder, or when the file is no longer the one the page
        opened (``claimed``: the SHA-256 the page was given)."""
        if not name:
            raise TreyError(
                "the request does not say which paytable of the folder it was opened from",
                hint="open a paytable from the list, and use its page's buttons",
            )
        with self._rows_lock:
            known = self._originals.get(name)
        item = known[0] if known is not None else self.paytables().get(name)
        if item is None:
            raise TreyError(
                f"{printable(name)[:200]} is not one of the paytables of this folder", hint="open one from the list"
            )
        key = _stat_key(item)
        if known is not None and known[1] == key:
            found = known[2]
        else:
            if known is not None and self.paytables().get(name) != item:  # changed: is it still the folder's?
                raise TreyError(
                    f"{name} is no longer one of the paytables of this folder", hint="open one from the list"
                )
            raw = _read(item)
            result = check_bytes(raw, item.name)
            if result.spec is None or result.errors:
                problem = str(result.errors[0]).splitlines()[0]
                raise TreyError(f"{name} cannot be opened: {problem}", hint="fix the file, then open it again")
            found = Original(item.name, raw, hashlib.sha256(raw).hexdigest(), result.spec.canonical())
            self._remember(item, key, found)
        if claimed is not None and not hmac.compare_digest(claimed.encode(), found.sha256.encode()):
            raise Refused(
                409,
                f"{name} has changed since this page opened it",
                "open it again from the list (download the YAML first to keep these edits)",
            )
        return found

    def rows(self, checkpoint: Callable[[], None]) -> list[Row]:
        """The index's lines: only the files new or changed since they were last read are read and analysed."""
        items = self.paytables()
        rows = [self._row(item, checkpoint) for item in items.values()]
        with self._rows_lock:
            for name in [n for n in self._rows if n not in items]:
                del self._rows[name]
        return rows

    async def index(self, request: Request) -> Response:
        rows = await self.analyses.run(request, self.rows)
        rows.sort(key=lambda row: row.name != DEFAULT_GAME)  # the default game first, the others by name
        return _page(
            "index.html.j2",
            shipped=list(listed(shipped_paytables())),
            paytables=rows,
            folder=self.folder.name or ".",
            writable=self.writable,
            saved=request.query_params.get("saved", "")[:200],
        )

    async def new(self, request: Request) -> Response:
        """A new paytable, opened from no file of the folder (its documents are its own): Ante & Play alone, or a
        copy of one of the tables trey ships (``?from=NAME``, as the shipped folder names it)."""
        start = request.query_params.get("from", "")
        if not start:
            data = await run_in_threadpool(_blank)
            checked = await self.analyses.checked(request, yaml_text(data).encode(), "the new paytable")
            return self._editor(checked, None, None, data, started=None)
        item = listed(shipped_paytables()).get(start)
        if item is None:
            return _page("missing.html.j2", status=404, name=start[:200])
        checked = await self.analyses.checked(request, await run_in_threadpool(_read, item), start)
        if not checked.valid:
            raise TreyError(f"{start} cannot be opened", hint="choose another shipped table")
        return self._editor(checked, None, None, checked.spec.canonical(), started=start)

    async def edit(self, request: Request) -> Response:
        name = request.query_params.get("file", "")
        item = self.paytables().get(name)
        if item is None:
            return _page("missing.html.j2", status=404, name=name[:200])
        key = await run_in_threadpool(_stat_key, item)  # before the read: a change after it is seen next time
        raw = await run_in_threadpool(_read, item)
        checked = await self.analyses.checked(request, raw, name)
        if not checked.valid:
            problem = str(checked.result.errors[0]).splitlines()[0]
            raise TreyError(f"{name} cannot be opened: {problem}", hint="fix the file, then open it again")
        data = checked.spec.canonical()
        original = Original(name, raw, hashlib.sha256(raw).hexdigest(), data)
        self._remember(item, key, original)
        return self._editor(checked, name, original.sha256, data)

    def _editor(
        self, checked: Checked, name: str | None, sha256: str | None, data: Any, started: str | None = None
    ) -> Response:
        from trey.trust.compliance import shipped_profiles

        return _page(
            "edit.html.j2",
            name=name,
            spec=checked.spec,
            sections=sections(data),
            data_json=json.dumps(
                {"paytable": data, "origin": name, "origin_sha256": sha256, "writable": self.writable}
            ),
            yaml=yaml_text(data),
            token=self.token,
            page_id=secrets.token_hex(8),
            figures=Markup(_figures_html(checked)),  # the server's own templates, every value escaped there
            rows=summary(_summed(checked), _summed(checked), []),
            figure_names=SUMMARY_FIGURES,
            profiles=shipped_profiles(),
            writable=self.writable,
            folder=self.folder.name or ".",
            started=started,
            **_columns(),
        )

    async def _edited(self, request: Request, body: bytes, edit: Edit | None = None) -> tuple[Sent, Checked]:
        sent = await run_in_threadpool(_sent, body)
        return sent, await self.analyses.checked(request, sent.yaml.encode(), "the edited paytable", edit)

    async def figures(self, request: Request) -> Response:
        """The page's edit: the figures (as HTML), or the problems at their fields."""
        edit = _edit_of(request.headers)
        self.analyses.arrived(edit)
        sent, checked = await self._edited(request, await _body(request), edit)
        environment = _environment()
        # The form is made again only when the page asks (a row or part added or removed, the YAML edited): a value
        # typed into it leaves it as it is, and its HTML is half of what an answer would weigh.
        form = sent.rest.get("form") is True
        if not checked.valid:
            said: dict[str, Any] = {"valid": False, "problems": _problems(checked.result)}
            if form and isinstance(sent.rest.get("paytable"), dict):  # the form as sent, rows added or removed
                said["fields"] = environment.get_template("fields.html.j2").render(
                    sections=sections(sent.rest["paytable"])
                )
            return JSONResponse(said)
        baseline = await self._baseline(request, sent)
        return JSONResponse(await run_in_threadpool(self._answer, sent, checked, baseline, form))

    def _answer(self, sent: Sent, checked: Checked, baseline: Checked | None, form: bool) -> dict[str, Any]:
        """A valid edit's answer, made on one worker thread: one hand-over rather than one for each part (on a busy
        machine each waits for a CPU), and nothing that takes milliseconds on the event loop."""
        data = checked.spec.canonical()
        findings = _findings(sent.rest.get("profile"), checked.analysis)
        said: dict[str, Any] = {
            "valid": True,
            "problems": _problems(checked.result),
            "figures": _figures_html(checked),
            "summary": _summary_html(checked, baseline, findings),
            "findings": findings,
            # What its documents would be titled (None when the page names no file it was opened from).
            "documents": self._naming(sent, data) if sent.origin is not None else None,
            # For the page to keep its form and its YAML pane in step, whichever was edited.
            "paytable": data,
            "yaml": yaml_text(data),
        }
        if form:
            said["fields"] = _environment().get_template("fields.html.j2").render(sections=sections(data))
        return said

    async def _baseline(self, request: Request, sent: Sent) -> Checked | None:
        """The analysis of the file the page was opened from, as it is now (None for a new table, or a file
        that changed or went: the page is told why by its documents' line)."""
        if sent.origin is None:
            return None
        try:
            original = await run_in_threadpool(self.original, sent.origin, sent.origin_sha256)
        except (TreyError, Refused):
            return None
        checked = await self.analyses.checked(request, original.raw, original.name)
        return checked if checked.valid else None

    def _naming(self, sent: Sent, data: dict[str, Any]) -> dict[str, Any]:
        try:
            titled = naming(data, self.original(sent.origin, sent.origin_sha256))
        except Refused as exc:
            return {"problem": exc.error, "hint": exc.hint}
        except TreyError as exc:
            return {"problem": exc.message, "hint": exc.hint}
        return {"differs": titled.differs, "named": titled.named, "title": titled.title}

    async def analyze_api(self, request: Request) -> Response:
        """``POST /api/analyze`` with a paytable's YAML: ``trey analyze --format json``, or its problems (422)."""
        checked = await self.analyses.checked(request, await _body(request), "the posted paytable")
        if not checked.valid:
            return JSONResponse({"valid": False, "problems": _problems(checked.result)}, status_code=422)
        if checked.family is not None:
            from trey.figures.family import family_analysis_json

            return JSONResponse(await run_in_threadpool(family_analysis_json, checked.family))
        assert checked.analysis is not None
        return JSONResponse(await run_in_threadpool(_analysis_with_money, checked.analysis))

    async def solve(self, request: Request) -> Response:
        from trey.choose.solve import solve, target_percent
        from trey.present.solve_view import solution_json

        sent, checked = await self._edited(request, await _body(request))
        spec = _valid(checked)
        wager, row = str(sent.rest.get("wager", ""))[:64], str(sent.rest.get("row", ""))[:64]
        target = target_percent(str(sent.rest.get("house_edge", ""))[:20], "house edge")

        def run(_: Callable[[], None]) -> dict[str, Any]:
            solution = solve(spec, wager, row, target)
            said = solution_json(solution)
            said["exact_pay_decimal"] = f"{float(solution.exact_pay):,.4f}"  # rendered once, for people
            said["target_percent"] = percent_text(target)
            return said

        return JSONResponse(await self.analyses.run(request, run))

    async def compare(self, request: Request) -> Response:
        """The edited table with every paytable of the folder: the ``trey compare --out`` page (a form's POST)."""
        from trey.choose.compare import compare
        from trey.documents.compare_view import render_comparison_html

        _, checked = await self._edited(request, await self._form_request(request))
        spec = _valid(checked)

        def run(checkpoint: Callable[[], None]) -> str:
            games: list[tuple[str, GameSpec]] = [("edited", spec)]
            rows = self.rows(checkpoint)
            games += [(row.name, row.spec) for row in rows if row.spec is not None]
            return render_comparison_html(compare(games, counted=_counted(checked, rows)), "edited")

        # The comparison page's own styles are inline; it runs no script and loads nothing.
        page = await self.analyses.run(request, run)
        return HTMLResponse(page, headers={"Content-Security-Policy": _DOCUMENT_POLICY})

    async def compare_panel(self, request: Request) -> Response:
        """``POST /api/compare``: the edited table with every paytable of the folder, as the page's panel."""
        from trey.choose.compare import compare

        _, checked = await self._edited(request, await _body(request))
        spec = _valid(checked)

        def run(checkpoint: Callable[[], None]) -> str:
            games: list[tuple[str, GameSpec]] = [("edited", spec)]
            rows = self.rows(checkpoint)
            games += [(row.name, row.spec) for row in rows if row.spec is not None]
            groups = comparison_groups(compare(games, counted=_counted(checked, rows)), "edited")
            return _environment().get_template("compare.html.j2").render(groups=groups)

        return JSONResponse({"html": await self.analyses.run(request, run)})

    async def save(self, request: Request) -> Response:
        """``POST /api/save`` (``trey serve --writable`` only): the edited table written into the folder under the
        name the page gives, all or nothing; a file of that name is replaced only when the page says ``replace``."""
        from trey.core.errors import OutputError
        from trey.core.outputs import write_all

        if not self.writable:
            raise Refused(
                403,
                "this workbench writes nothing",
                "start it with trey serve DIR --writable to save tables into DIR; or download the YAML",
            )
        sent = await run_in_threadpool(_sent, await _body(request))
        name = _save_name(sent.rest.get("file"))
        original = await run_in_threadpool(self.original, sent.origin, sent.origin_sha256) if sent.origin else None
        checked = await self.analyses.checked(request, sent.yaml.encode(), "the edited paytable")
        data = checked.spec.canonical()
        made = await run_in_threadpool(_saved_bytes, data, original)
        replace = sent.rest.get("replace") is True
        target = self.folder / name
        if not replace and (target.exists() or target.is_symlink()):
            said = {
                "error": f"{name} already exists in {self.folder.name or '.'}",
                "hint": "confirm to replace it, or give another name",
                "exists": True,
            }
            return JSONResponse(said, status_code=409)
        try:
            await run_in_threadpool(lambda: write_all(self.folder, {name: lambda: made}, force=replace, option="name"))
        except OutputError as exc:
            exists = exc.message.startswith("would overwrite")
            said = {"error": f"{name} already exists" if exists else exc.message, "hint": "give another name"}
            return JSONResponse({**said, "exists": exists}, status_code=409 if exists else 400)
        except OSError as exc:
            raise TreyError(
                f"cannot write {name}: {exc.strerror}", hint="check the folder and its permissions"
            ) from None
        return JSONResponse({"saved": name, "open": f"/edit?file={name}", "sha256": hashlib.sha256(made).hexdigest()})

    async def download(self, request: Request) -> Response:
        """The edited paytable as YAML, or its certificate, dealer sheet or drill as PDF (a form's POST): each made
        of the same bytes, which say what the table is (:mod:`trey.web.edited`)."""
        kind = request.path_params["kind"]
        if kind != "yaml" and kind not in DOCUMENTS:
            return JSONResponse({"error": f"no download {kind[:40]!r}", "hint": "use the page's buttons"}, 404)
        sent = await run_in_threadpool(_sent, await self._form_request(request))
        new = sent.origin is None and sent.rest.get("new") is True  # a table made in the page, from no file
        original = None if new else await run_in_threadpool(self.original, sent.origin, sent.origin_sha256)
        checked = await self.analyses.checked(request, sent.yaml.encode(), "the edited paytable")
        data = checked.spec.canonical()  # a valid table only
        made = await run_in_threadpool(documented, data, original) if original else _new_documented(data)
        if kind == "yaml":
            return _attachment(made.raw, f"{made.stem}.yaml", "application/yaml")
        async with self.documents:
            files = await self.analyses.run(request, lambda _: _document(kind, made))
        name = next(n for n in files if n.endswith(".pdf"))
        return _attachment(files[name], name, "application/pdf")

    async def _form_request(self, request: Request) -> bytes:
        """The page's paytable, as its forms post it (the field ``request``), with this start's token."""
        kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/x-www-form-urlencoded":
            raise Refused(415, f"the request is {kind or 'untyped'}, not a form", "use the page's buttons")
        body = await _body(request)
        try:
            fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=MAX_FORM_FIELDS)
        except ValueError:
            raise Refused(400, f"the form has more than {MAX_FORM_FIELDS} fields", "use the page's buttons") from None
        for name, values in fields.items():
            if len(values) > 1:
                raise Refused(400, f"the form gives the field {name[:40]!r} twice", "use the page's buttons")
        token = fields.get("token", [""])[0]
        if not hmac.compare_digest(token.encode(), self.token.encode()):
            raise Refused(403, "the form is not one of this workbench's pages", "reload the page and try again")
        sent = fields.get("request", [None])[0]
        if not isinstance(sent, str):
            raise TreyError("the request needs the paytable", hint="use the page's buttons")
        return sent.encode()


WORKBENCH = "the workbench (trey serve)"
DEFAULT_GAME = "standard.yaml"  # listed first
SAVE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}")


def _blank() -> dict[str, Any]:
    """A new table: Ante & Play with the common Ante Bonus and the default rules, as the loader reads it."""
    from trey.paytable.load import check_data

    data = {
        "trey": 2,
        "name": "New table",
        "wagers": {"ante_play": {"ante_bonus": {"straight_flush": 5, "three_of_a_kind": 4, "straight": 1}}},
    }
    checked = check_data(data, "the new paytable")
    assert checked.spec is not None
    return checked.spec.canonical()


def _save_name(given: object) -> str:
    """The file name a table is saved under: letters, digits, ``-``, ``_`` and ``.``, ending in ``.yaml`` (added
    when left out), in the folder itself (no path)."""
    text = given.strip() if isinstance(given, str) else ""
    if text and not text.endswith(".yaml"):
        text += ".yaml"
    if not SAVE_NAME.fullmatch(text) or ".." in text or text == ".yaml":
        raise TreyError(
            f"{printable(text)[:80] or 'an empty name'!r} cannot be a paytable's file name",
            hint="use letters, digits, - and _ (at most 80), such as my-table.yaml",
        )
    return text


def _saved_bytes(data: dict[str, Any], original: Original | None) -> bytes:
    """What is saved: the bytes the YAML download is (:mod:`trey.web.edited`)."""
    return documented(data, original).raw if original is not None else _new_documented(data).raw


def _new_documented(data: dict[str, Any]) -> Documented:
    """The documents of a table made in the page from no file: its own name, its own YAML."""
    name = str(data["name"])
    return Documented(Naming(True, True, name), yaml_text(data).encode(), file_stem(name.replace(" ", "-") + ".yaml"))


def _findings(profile: object, analysis: GameAnalysis | None) -> list[dict[str, Any]]:
    """The chosen profile's findings (``trey validate --profile NAME``), each with the path of its wager."""
    from trey.trust.compliance import finding_json, run_checks, shipped_profile, shipped_profiles

    if profile in (None, "") or analysis is None:  # a family game: the checks read the standard game's figures
        return []
    chosen = shipped_profile(str(profile)[:64])
    if chosen is None:
        raise TreyError(f"no profile {str(profile)[:64]!r}", hint="choose one of: " + ", ".join(shipped_profiles()))
    return [{**finding_json(f), "path": wager_path(f.wager)} for f in run_checks(chosen, analysis)]


def _summed(checked: Checked) -> Summed:
    """Each wager's title, house edge and summary figures, of the standard game or of another of the family."""
    if checked.family is not None:
        return family_summed(checked.family)
    assert checked.analysis is not None
    return summarised(checked.analysis)


def _summary_html(checked: Checked, baseline: Checked | None, findings: list[dict[str, Any]]) -> str:
    rows = summary(_summed(checked), _summed(baseline) if baseline else None, findings)
    return _environment().get_template("summary.html.j2").render(rows=rows, figure_names=SUMMARY_FIGURES)


def _figures_html(checked: Checked) -> str:
    """The figures as the page shows them: every wager's, or a family game's round, figures and strategy chart."""
    environment = _environment()
    if checked.family is not None:
        from trey.present.family_view import family_parts

        return environment.get_template("family.html.j2").render(parts=family_parts(checked.family))
    assert checked.analysis is not None
    return environment.get_template("figures.html.j2").render(
        wagers=_figures(checked.analysis), money=_money_card(checked.analysis), **_columns()
    )


def _analysis_with_money(analysis: GameAnalysis) -> dict[str, Any]:
    """``trey analyze --format json`` exactly: with the table's money when the paytable's ``table:`` describes a
    bet mix (the whole table counted, as the command counts it)."""
    data = analysis_json(analysis)
    table = analysis.spec.table
    if table is not None and table.has_mix:
        from trey.engine.money import table_money_json
        from trey.play.table import money_of_table

        found = money_of_table(analysis.spec, analysis, None)
        if found is not None:
            data["table_money"] = table_money_json(found[0]) | {"from": found[1].source_json()}
    return data


def _money_card(analysis: GameAnalysis) -> dict[str, Any] | None:
    """The table's money when the paytable's ``table:`` describes a bet mix: the blended edge and theoretical win
    per hour, and the hour's range when the whole table is counted in a fraction of a second (side bets on the
    player's own cards); with Ante & Play it takes half a minute, so the card says trey analyze gives it."""
    from trey.documents.money_view import money_lines
    from trey.play.table import moments_are_quick, money_of_paytable

    money = money_of_paytable(analysis.spec, analysis, with_range=moments_are_quick(analysis.spec))
    return None if money is None else money_lines(money, analysis.spec)


def _refusal(spec: GameSpec, name: str) -> str:
    """The line that says the workbench cannot deal ``spec``'s game yet (issue 31)."""
    try:
        refuse_other_games(spec, WORKBENCH, name)
    except SpecError as exc:
        return str(exc.problems[0])
    raise AssertionError("only a game other than standard Three Card Poker is refused")


def _valid(checked: Checked) -> GameSpec:
    """The valid table's game, of the standard game or of another of the family (solve and compare read either,
    as ``trey solve`` and ``trey compare`` do)."""
    if checked.family is not None:
        return checked.family.spec
    if checked.analysis is None:
        raise TreyError("fix the paytable's problems first", hint="the fields in red say what is wrong")
    return checked.analysis.spec


def _counted(checked: Checked, rows: list[Row]) -> dict[str, FamilyAnalysis]:
    """The family games' analyses the workbench has made already (the edited table's, the folder's), by SHA-256."""
    found = [row.family for row in rows if row.family is not None]
    if checked.family is not None:
        found.append(checked.family)
    return {analysis.spec.sha256: analysis for analysis in found}


def _document(kind: str, made: Documented) -> dict[str, bytes]:
    """A document of the bytes the YAML download is (so its SHA-256 and the certificate's are the YAML's)."""
    from trey.documents.make import certify, dealer_sheet, drill
    from trey.paytable.load import load_spec_bytes

    today = datetime.now(UTC).date()
    name = f"{made.stem}.yaml"
    if kind == "certificate":
        return dict(certify(made.raw, name, issue_date=today).files)
    spec = load_spec_bytes(made.raw, name)
    if kind == "dealer-sheet":
        return dealer_sheet(spec, made.stem, effective=today)
    return drill(spec, made.stem, effective=today)


def _columns() -> dict[str, Any]:
    """The columns of the figures' tables (figures.html.j2)."""
    return {"outcome_columns": OUTCOME_COLUMNS, "envy_columns": ENVY_COLUMNS, "hand_columns": HAND_COLUMNS}


def _stat_key(item: Listed) -> tuple[int, int, int]:
    """What says a file changed: its time, size and inode."""
    try:
        stat = item.path.stat()
    except OSError as exc:
        raise TreyError(f"{item.name}: cannot be read ({exc.strerror})", hint="check the file's permissions") from None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def _attachment(content: bytes, name: str, media_type: str) -> Response:
    return Response(content, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _errors(
    bench: Workbench, handler: Callable[[Request], Awaitable[Response]]
) -> Callable[[Request], Awaitable[Response]]:
    """A user error is a JSON answer with its words (400), a body too large is 413, a refusal its own status: never
    a traceback. A client that left (mid-body, or while its work waited or ran) is not answered and not logged."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except TooLarge:
            said = {"error": f"the request is larger than {MAX_BODY_BYTES:,} bytes", "hint": "send one paytable"}
            return JSONResponse(said, status_code=413)
        except Refused as exc:
            return JSONResponse({"error": exc.error, "hint": exc.hint}, status_code=exc.status)
        except TreyError as exc:
            return JSONResponse({"error": exc.message, "hint": exc.hint}, status_code=400)
        except Gone as exc:
            bench.analyses.dropped += 1
            if exc.superseded:
                said = {"error": "a newer edit of this page replaced this one", "hint": "its figures follow"}
                return JSONResponse(said, status_code=409)
            return Response(status_code=400)  # nobody is there to read it
        except ClientDisconnect:
            bench.analyses.dropped += 1
            return Response(status_code=400)

    return wrapped


def _host_name(value: str) -> str:
    """The name a Host header addresses, without its port: ``127.0.0.1``, ``bench.lan``, ``[::1]``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.partition(":")[0]


class Guard:
    """Every request, before any work: it must be addressed to one of ``hosts`` (a site whose name was pointed at
    this machine — DNS rebinding — is refused), carry ``token`` when ``token_required`` (off this machine: in the
    address ``trey serve`` printed, then in a cookie), and, when it costs work or makes a document (every POST, the
    index and the editor), come from the workbench's own pages: its ``Origin`` and ``Sec-Fetch-Site`` say so when a
    browser sends them, and ``/api/*`` takes JSON only (YAML too for ``/api/analyze``: body types no other site's page
    can send without asking first). Every answer gets the pages' security headers."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str], token: str, token_required: bool) -> None:
        self.app = app
        self.hosts = frozenset(_host_name(h) if h.startswith("[") else h.lower() for h in hosts)
        self.token = token
        self.token_required = token_required

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [
                    (k.lower().encode(), v.encode()) for k, v in _HEADERS.items() if k.lower().encode() not in present
                ]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        try:
            response = self._check(scope)
        except Refused as exc:
            response = JSONResponse({"error": exc.error, "hint": exc.hint}, status_code=exc.status)
        if response is not None:
            await response(scope, receive, secured)
            return
        await self.app(scope, receive, secured)

    def _check(self, scope: Scope) -> Response | None:
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if _host_name(host) not in self.hosts:
            raise Refused(
                400,
                f"the request is addressed to {host[:100]!r}, not to this workbench",
                "use the address trey serve printed (or start it with --allow-host NAME)",
            )
        method, path = scope["method"], scope["path"]
        if self.token_required:
            query = QueryParams(scope.get("query_string", b""))
            cookie = _cookie(headers, _cookie_name(scope))
            if "token" in query and self._is_token(query["token"]):
                if method == "GET":  # the printed address: keep the token in a cookie, and out of the address
                    rest = urlencode([(k, v) for k, v in query.multi_items() if k != "token"])
                    going = RedirectResponse("/" + path.lstrip("/") + (f"?{rest}" if rest else ""), status_code=303)
                    going.set_cookie(_cookie_name(scope), self.token, httponly=True, samesite="strict")
                    return going
            elif cookie is None or not self._is_token(cookie):
                raise Refused(
                    401,
                    "this workbench needs the token trey serve printed",
                    "open the address it printed, which ends in ?token=...",
                )
        costly = method != "GET" or path in ("/", "/edit", "/new")
        if costly:
            site = headers.get("sec-fetch-site")
            allowed = ("same-origin",) if method != "GET" else ("same-origin", "none")
            origin = headers.get("origin")
            own = f"{scope.get('scheme', 'http')}://{host.strip().lower()}"
            if (site is not None and site not in allowed) or (origin is not None and origin.lower() != own):
                said = f"Origin: {origin[:100]}" if origin is not None else f"Sec-Fetch-Site: {site}"
                raise Refused(
                    403,
                    f"the workbench answers only its own pages, and this request came from another site ({said})",
                    f"open {own}/ yourself",
                )
        if path.startswith("/api/"):
            kind = headers.get("content-type", "").partition(";")[0].strip().lower()
            accepted = ("application/json", "application/yaml") if path == "/api/analyze" else ("application/json",)
            if kind not in accepted:
                raise Refused(
                    415,
                    f"{path} takes {' or '.join(accepted)}, not {kind or 'an untyped body'}",
                    f"send Content-Type: {accepted[-1]}",
                )
        return None

    def _is_token(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())


def _cookie_name(scope: Scope) -> str:
    """The token's cookie, one per port (a browser sends a host's cookies to all its ports)."""
    server = scope.get("server") or ("", 0)
    return f"trey-token-{server[1]}"


def _cookie(headers: Headers, name: str) -> str | None:
    for part in headers.get("cookie", "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def workbench(
    folder: Path,
    *,
    hosts: Iterable[str] = LOCAL_HOSTS,
    token: str | None = None,
    token_required: bool = False,
    writable: bool = False,
    ready: Callable[[], None] | None = None,
) -> Starlette:
    """The application over the paytables of ``folder``, answering requests addressed to ``hosts`` only, with
    ``token`` (this start's; made when not given) in its pages' forms and, when ``token_required``, asked of every
    request (see :class:`Guard`); ``writable``: the page may save tables into ``folder`` (``POST /api/save``);
    ``ready``: called (on a thread of its own) once the application has started, to open the browser."""
    token = token or secrets.token_urlsafe(24)
    bench = Workbench(folder, token, writable=writable)
    static = StaticFiles(packages=[("trey.web", "static")])

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        if ready is not None:
            threading.Thread(target=ready, daemon=True).start()
        yield

    app = Starlette(
        lifespan=lifespan,
        middleware=[Middleware(Guard, hosts=hosts, token=token, token_required=token_required)],
        routes=[
            Route("/", _errors(bench, bench.index)),
            Route("/edit", _errors(bench, bench.edit)),
            Route("/new", _errors(bench, bench.new)),
            Route("/api/compare", _errors(bench, bench.compare_panel), methods=["POST"]),
            Route("/api/save", _errors(bench, bench.save), methods=["POST"]),
            Route("/api/figures", _errors(bench, bench.figures), methods=["POST"]),
            Route("/api/analyze", _errors(bench, bench.analyze_api), methods=["POST"]),
            Route("/api/solve", _errors(bench, bench.solve), methods=["POST"]),
            Route("/compare", _errors(bench, bench.compare), methods=["POST"]),
            Route("/download/{kind}", _errors(bench, bench.download), methods=["POST"]),
            Mount("/static", static, name="static"),
        ],
    )
    app.state.bench = bench
    return app
