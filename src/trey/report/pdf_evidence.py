"""Verifying a certificate's PDF on its own: the certificate data and the paytable embedded in it, and the figures
it shows.

The PDF (PDF/A-3b) carries the certificate JSON and the paytable file as attachments. Verification extracts them,
verifies the JSON exactly as ``trey verify CERT.json --paytable FILE`` would (signature included), and then reads
the PDF's text: the certificate ID, the overall result and every wager's RTP and house edge, as a fresh computation
prints them, must be there — a PDF re-rendered with another figure beside genuine attachments fails, the field
named.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from trey.certificate import Certificate, parse_certificate, verify_certificate_data
from trey.errors import VerificationError
from trey.files import display_name, read_bounded

MAX_PDF_BYTES = 64 * 1024 * 1024


def is_pdf(raw: bytes) -> bool:
    return raw.startswith(b"%PDF-")


def _pdf_refused(path: Path, message: str, field: str | None = None) -> VerificationError:
    return VerificationError(
        f"{display_name(path)}: {message}",
        fields=[field] if field else [],
        hint="give a certificate PDF that trey wrote",
    )


def _squeezed(text: str) -> str:
    return "".join(text.split())


def visible_figures(cert: Certificate) -> dict[str, str]:
    """The figures a certificate's PDF must show, by the field they print, as the certificate prints them."""
    from trey.report.certificate_view import with_fraction

    figures = {"certificate_id": cert.certificate_id, "overall": f"Overall result: {cert.data['overall']}"}
    for wager, result in cert.analysis.wagers.items():
        figures[f"analysis.wagers.{wager}.rtp"] = with_fraction(result.stats.rtp)
        figures[f"analysis.wagers.{wager}.house_edge"] = with_fraction(result.stats.house_edge)
    return figures


def verify_pdf(
    path: Path,
    paytable: Path | None = None,
    *,
    allow_rounds: int,
    workers: int = 1,
    trusted: list[tuple[str, Any]] | None = None,
) -> Certificate:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    from trey.loader import read_file

    raw = read_bounded(path, limit=MAX_PDF_BYTES, what="a certificate's PDF")
    try:
        reader = PdfReader(io.BytesIO(raw))
        attachments = {name: contents[0] for name, contents in reader.attachments.items() if contents}
        text = _squeezed(" ".join(page.extract_text() for page in reader.pages))
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise _pdf_refused(path, f"cannot read the PDF: {exc}") from None
    data_files = [name for name in attachments if name.endswith(".certificate.json")]
    if len(data_files) != 1:
        raise _pdf_refused(path, "the PDF does not carry one certificate's data (a .certificate.json attachment)")
    stored = parse_certificate(attachments[data_files[0]], path)
    embedded = stored["paytable"]["file"]
    if paytable is not None:
        given = (display_name(paytable), read_file(paytable))
    elif embedded in attachments:
        given = (f"{display_name(path)}:{embedded}", attachments[embedded])
    else:
        raise _pdf_refused(path, f"the PDF does not carry the paytable file {embedded!r}", "paytable.file")
    cert = verify_certificate_data(stored, path, given, allow_rounds=allow_rounds, workers=workers, trusted=trusted)
    missing = [field for field, shown in visible_figures(cert).items() if _squeezed(shown) not in text]
    if missing:
        raise VerificationError(
            f"{display_name(path)}: the PDF's pages do not show what its data says; these fields differ:\n  "
            + "\n  ".join(f"{field} (the data says {visible_figures(cert)[field]})" for field in missing),
            fields=missing,
            hint="the visible text was changed after the certificate was issued",
        )
    return cert
