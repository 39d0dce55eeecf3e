"""HTML to PDF with WeasyPrint, reproducibly."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime


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


def html_to_pdf(html: str, day: date) -> bytes:
    """Render an HTML document (its CSS sets the paper size) to PDF bytes.

    The same HTML and date give the same bytes: WeasyPrint writes no creation date unless the document asks for
    one, and the fonts' timestamps are pinned to ``day``.
    """
    import logging
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # WeasyPrint's notice about an optional system library
        from weasyprint import HTML

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    with _source_date(day):
        pdf: bytes = HTML(string=html, base_url=".").write_pdf()
    return pdf
