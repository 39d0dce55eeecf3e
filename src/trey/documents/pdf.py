"""HTML to PDF with WeasyPrint, reproducibly, fetching nothing from outside the package."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

PACKAGE_DIR = Path(__file__).resolve().parent.parent


class FetchRefused(ValueError):
    """WeasyPrint asked for a resource outside the package: reports never load anything from elsewhere."""


def allowed_resource(url: str) -> bytes | None:
    """The bytes of a file inside the trey package named by a ``file:`` URL; None for ``data:`` URLs (read by
    WeasyPrint itself). Anything else raises :class:`FetchRefused`, so no text that reaches a document can make
    rendering read a local file or contact a server."""
    parts = urlsplit(url)
    if parts.scheme == "data":
        return None
    if parts.scheme == "file" and not parts.netloc:
        target = Path(unquote(parts.path)).resolve()
        if target.is_relative_to(PACKAGE_DIR) and target.is_file():
            return target.read_bytes()
    raise FetchRefused(f"trey does not fetch {url[:80]!r} while rendering")


def _not_looked_up(name: str) -> str | None:  # noqa: ARG001  # ctypes.util.find_library's signature
    return None


def load_weasyprint() -> None:
    """Import WeasyPrint (once; later imports of it are free).

    WeasyPrint loads Pango, HarfBuzz and fontconfig by trying several names for each library, Windows and macOS
    names first. cffi looks up every name that fails with ``ctypes.util.find_library``, which on Linux runs
    ldconfig and gcc as subprocesses: about twenty names, 0.2 s of every PDF. Each list also holds the library's
    Linux name ("libpango-1.0.so.0"), which the dynamic loader finds by itself, just as the look-up would have; so
    on Linux the look-up is skipped while WeasyPrint is imported, and restored at once."""
    if "weasyprint" in sys.modules:
        return
    import ctypes.util
    import logging
    import warnings

    look_up = ctypes.util.find_library
    if sys.platform.startswith("linux"):
        ctypes.util.find_library = _not_looked_up
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # WeasyPrint's notice about an optional library
            import weasyprint
    finally:
        ctypes.util.find_library = look_up
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    # The same PDF bytes on every machine: WeasyPrint subsets fonts with HarfBuzz when the system has
    # libharfbuzz-subset (Debian's chromium package brings it) and with fontTools otherwise, and the two write
    # different bytes. trey's documents are reproducible (a certificate, a dealer sheet rendered again is the same
    # file), so fontTools subsets them everywhere.
    import weasyprint.pdf.fonts

    weasyprint.pdf.fonts.harfbuzz_subset = None


def package_url_fetcher() -> Any:
    """WeasyPrint's ``url_fetcher``: inline ``data:`` URLs (the charts) and files inside the trey package only."""
    load_weasyprint()
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class PackageOnlyFetcher(URLFetcher):  # type: ignore[misc]  # WeasyPrint is untyped
        def fetch(self, url: str, headers: Any = None) -> Any:
            body = allowed_resource(url)
            if body is None:
                return super().fetch(url, headers)
            return URLFetcherResponse(url, body)

    return PackageOnlyFetcher(allowed_protocols=("data", "file"), allow_redirects=False)


@contextmanager
def _source_date(day: date) -> Iterator[None]:
    """fontTools stamps each embedded font subset with the current time unless SOURCE_DATE_EPOCH is set."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()))
    try:
        yield
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


ARCHIVAL = "pdf/a-3b"  # PDF/A-3b: archival, and files may be embedded (the certificate's evidence)


@dataclass(frozen=True)
class Embedded:
    """A file embedded in a PDF: its name, its bytes, what it is, and its relation to the document."""

    name: str
    content: bytes
    description: str
    relationship: str = "Data"  # PDF/A-3's AFRelationship: Data, Source, Alternative, Supplement


def render_document(html: str, variant: str | None = None) -> Any:
    """Lay out an HTML document (its CSS sets the paper size) with WeasyPrint: a ``weasyprint.Document`` whose
    pages and boxes can be measured before the PDF is written. ``variant``: a PDF variant such as "pdf/a-3b"."""
    load_weasyprint()
    from weasyprint import HTML

    document = HTML(string=html, base_url=PACKAGE_DIR.as_uri() + "/", url_fetcher=package_url_fetcher())
    return document.render(pdf_variant=variant)


def document_to_pdf(
    document: Any, day: date, *, variant: str | None = None, embedded: tuple[Embedded, ...] = ()
) -> bytes:
    """PDF bytes of a laid-out document, with ``embedded`` files; the same document, date and files give the same
    bytes: WeasyPrint writes no creation date unless the document asks for one, and the fonts' and the embedded
    files' timestamps are pinned to ``day``."""
    load_weasyprint()
    from weasyprint import Attachment

    when = datetime(day.year, day.month, day.day, tzinfo=UTC)
    attachments = [
        Attachment(
            string=file.content,
            name=file.name,
            description=file.description,
            created=when,
            modified=when,
            relationship=file.relationship,
            url_fetcher=package_url_fetcher(),
        )
        for file in embedded
    ]
    with _source_date(day):
        pdf: bytes = document.write_pdf(pdf_variant=variant, attachments=attachments or None)
    return pdf


def html_to_pdf(html: str, day: date, *, variant: str | None = None, embedded: tuple[Embedded, ...] = ()) -> bytes:
    """Render an HTML document to PDF bytes (see :func:`render_document` and :func:`document_to_pdf`)."""
    return document_to_pdf(render_document(html, variant), day, variant=variant, embedded=embedded)
