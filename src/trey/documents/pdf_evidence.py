"""Verifying a certificate's PDF on its own: its signature, its structure, the evidence inside it, and its pages.

The PDF (PDF/A-3b) carries the certificate JSON and the paytable file as attachments and, when a lab signed it, a
PAdES signature over the whole file. Verification checks, cheapest first and every step bounded:

1. the signature (:mod:`trey.trust.pdf_signature`): intact, by a trusted key when ``--trust`` is given, covering every
   byte — an update appended after signing (a page, an overlay, an annotation, an attachment) is refused by name;
   an unsigned PDF must be the single revision trey writes;
2. the structure: exactly the two attachments trey puts in the document's EmbeddedFiles (the ``.certificate.json``
   and the paytable file the JSON names), each once, referenced by the catalog's associated files, of bounded
   size, and no attachment annotation on any page;
3. the evidence: the JSON verified exactly as ``trey verify CERT.json --paytable FILE`` verifies it;
4. the pages: each page's text must equal the text of the same page rendered afresh from the verified data, so
   that invisible text and foreign pages fail even in an unsigned PDF. A certificate issued by another version of
   trey is not compared page by page (the layout may differ): the result says so.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from trey import __version__
from trey.core.errors import VerificationError
from trey.core.files import display_name, read_bounded
from trey.trust.certificate import Certificate, parse_certificate, verify_certificate_data
from trey.trust.signing import TrustedKey

MAX_PDF_BYTES = 16 * 1024 * 1024
MAX_PAGES = 200
MAX_DATA_BYTES = 4 * 1024 * 1024  # the certificate JSON (a real one is some 20 KB)
MAX_PAYTABLE_BYTES = 1024 * 1024  # as trey reads a paytable file
# A page's decoded content, checked before any text is extracted from it (a certificate's pages hold about 50 KB).
MAX_PAGE_CONTENT_BYTES = 1024 * 1024
ALLOWED_ANNOTATIONS = ("/Link", "/Widget")  # WeasyPrint's links, the signature's (invisible) field


def is_pdf(raw: bytes) -> bool:
    return raw.startswith(b"%PDF-")


def _opening(raw: bytes) -> str:
    """How a file that is not a PDF begins, in words (its first bytes, quoted)."""
    if not raw:
        return "the file is empty"
    return f"it begins with the bytes {raw[:12].decode('latin-1')!r}"


def _pdf_refused(path: Path, message: str, field: str | None = None) -> VerificationError:
    return VerificationError(
        f"{display_name(path)}: {message}",
        fields=[field] if field else [],
        hint="give a certificate PDF that trey wrote",
    )


def _squeezed(text: str) -> str:
    return "".join(text.split())


@dataclass(frozen=True)
class PdfVerification:
    """A verified certificate PDF: the certificate, its PDF signature, and whether its pages were compared."""

    certificate: Certificate
    signature: Any  # trey.trust.pdf_signature.PdfSignature
    pages_compared: bool


def _attachments(reader: Any, path: Path) -> dict[str, bytes]:
    """The document's attachments, read without trusting the file: names and sizes first, data last."""
    from pypdf.generic import ArrayObject, DictionaryObject

    root = reader.trailer["/Root"]
    names = root.get("/Names", {}).get("/EmbeddedFiles", {})
    if "/Kids" in names:
        raise _pdf_refused(path, "the PDF's attachments are not where trey puts them (a name tree with /Kids)")
    entries = names.get("/Names", [])
    if not isinstance(entries, ArrayObject) or len(entries) != 4:
        count = len(entries) // 2 if isinstance(entries, ArrayObject) else 0
        raise _pdf_refused(
            path,
            f"the PDF carries {count} attachment(s); trey attaches exactly two: the "
            "certificate's data and the paytable file",
        )
    found: dict[str, Any] = {}
    keys: set[str] = set()
    for key, spec in zip(entries[0::2], entries[1::2], strict=True):
        # The file's own name (/UF, Unicode). WeasyPrint writes the tree's key as UTF-8 bytes, which a PDF reads
        # as PDFDocEncoding (a name in Chinese comes back in Latin-1 letters): the key must be that name, in either
        # reading, so that no reader (qpdf and pikepdf go by the key) can be shown another file than trey checks.
        name = str(spec.get_object().get("/UF", key))
        raw_key = getattr(key, "original_bytes", str(key).encode())
        if name in found or str(key) in keys:
            raise _pdf_refused(path, f"the PDF carries two attachments named {name if name in found else str(key)!r}")
        if name not in (str(key), raw_key.decode("utf-8", "replace")):
            raise _pdf_refused(path, f"the PDF's attachment {str(key)!r} is the file {name!r}")
        keys.add(str(key))
        found[name] = spec
    attached = {id(spec.get_object()) for spec in found.values()}
    associated = root.get("/AF", [])
    if not isinstance(associated, ArrayObject) or {id(a.get_object()) for a in associated} != attached:
        raise _pdf_refused(path, "the PDF's associated files are not its two attachments")
    for number, page in enumerate(reader.pages, 1):
        for annotation in page.get("/Annots", []) or []:
            subtype = annotation.get_object().get("/Subtype")
            if subtype not in ALLOWED_ANNOTATIONS:
                what = str(subtype).lstrip("/")
                raise _pdf_refused(path, f"page {number} carries an annotation trey does not write ({what})")
    data: dict[str, bytes] = {}
    for name, spec in found.items():
        stream = spec.get_object().get("/EF", {}).get("/F")
        stream = stream.get_object() if stream is not None else None
        if not isinstance(stream, DictionaryObject):
            raise _pdf_refused(path, f"the attachment {name!r} holds no file")
        limit = MAX_DATA_BYTES if name.endswith(".certificate.json") else MAX_PAYTABLE_BYTES
        declared = stream.get("/Params", {}).get("/Size", 0)
        if not isinstance(declared, int) or declared > limit or int(stream.get("/Length", 0)) > limit:
            raise _pdf_refused(path, f"the attachment {name!r} is larger than a certificate's ({limit:,} bytes)")
        content = stream.get_data()  # type: ignore[attr-defined]
        if len(content) > limit:
            raise _pdf_refused(path, f"the attachment {name!r} is larger than a certificate's ({limit:,} bytes)")
        data[name] = content
    return data


def _page_texts(reader: Any, path: Path) -> list[str]:
    """Each page's text, squeezed; a page whose content is larger than any certificate's is refused unread."""
    texts = []
    for number, page in enumerate(reader.pages, 1):
        contents = page.get_contents()
        if contents is not None and len(contents.get_data()) > MAX_PAGE_CONTENT_BYTES:
            raise _pdf_refused(path, f"page {number} holds more content than a certificate's page")
        texts.append(_squeezed(page.extract_text()))
    return texts


# The fresh renderings of the last few certificates verified in this process, by their verified data: rendering is
# a pure function of that data (the same bytes every time), and it is most of a PDF's verification (about 2 s).
_FRESH: dict[tuple[str, str], list[str]] = {}
FRESH_KEPT = 4


def _fresh_page_texts(cert: Certificate, json_name: str) -> list[str]:
    """The pages of the certificate rendered afresh from its verified data, as certify renders them."""
    key = (json.dumps(cert.data, sort_keys=True, ensure_ascii=False), json_name)
    if key not in _FRESH:
        if len(_FRESH) >= FRESH_KEPT:
            del _FRESH[next(iter(_FRESH))]
        _FRESH[key] = _rendered_page_texts(cert, json_name)
    return list(_FRESH[key])


def _rendered_page_texts(cert: Certificate, json_name: str) -> list[str]:
    from pypdf import PdfReader

    from trey.documents.certificate_view import render_certificate_html
    from trey.documents.pdf import ARCHIVAL, html_to_pdf

    html = render_certificate_html(cert, json_name=json_name, paytable_name=cert.data["paytable"]["file"])
    fresh = html_to_pdf(html, date.fromisoformat(cert.data["issue_date"]), variant=ARCHIVAL)
    return [_squeezed(page.extract_text()) for page in PdfReader(io.BytesIO(fresh)).pages]


def _first_difference(mine: str, theirs: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), min(len(mine), len(theirs)))
    return f"…{theirs[max(0, at - 30) : at + 30]}… where a fresh rendering has …{mine[max(0, at - 30) : at + 30]}…"


def _json_trust(signature: Any, trusted: list[TrustedKey] | None) -> list[TrustedKey] | None:
    """The keys the JSON inside may be signed by: when a trusted key (or a trusted CA) vouched for the PDF's signer,
    that signer's key alone, so that the data and the document are the same lab's; else the keys given."""
    from trey.trust.signing import SignatureStatus

    if signature.status is SignatureStatus.TRUSTED:
        return [TrustedKey(signature.signer, signature.public_key, None)]
    return trusted


def verify_pdf(
    path: Path,
    paytable: Path | None = None,
    *,
    allow_rounds: int,
    workers: int = 1,
    scheduler: str | None = None,
    trusted: list[TrustedKey] | None = None,
) -> PdfVerification:
    import pypdf
    from pypdf import PdfReader

    from trey.paytable.load import read_file
    from trey.trust.pdf_signature import check_pdf_signature

    raw = read_bounded(path, limit=MAX_PDF_BYTES, what="a certificate's PDF")
    if not is_pdf(raw):
        raise _pdf_refused(path, f"not a PDF: it does not begin with %PDF- ({_opening(raw)})")
    signature = check_pdf_signature(raw, display_name(path), trusted or [])
    limits = pypdf.get_configuration().with_overwrites(
        zlib_maximum_output_length=MAX_DATA_BYTES, stream_decoding_work_maximum_length=50_000_000
    )
    try:
        with pypdf.apply_configuration(limits):
            reader = PdfReader(io.BytesIO(raw), strict=False)
            if len(reader.pages) > MAX_PAGES:
                raise _pdf_refused(path, f"the PDF has {len(reader.pages):,} pages; a certificate has far fewer")
            attachments = _attachments(reader, path)
    except VerificationError:
        raise
    except Exception as exc:
        raise _pdf_refused(path, f"cannot read the PDF ({type(exc).__name__})") from None
    data_files = [name for name in attachments if name.endswith(".certificate.json")]
    if len(data_files) != 1:
        raise _pdf_refused(path, "the PDF does not carry one certificate's data (a .certificate.json attachment)")
    stored = parse_certificate(attachments[data_files[0]], path)
    embedded = stored["paytable"]["file"]
    if embedded not in attachments:
        raise _pdf_refused(path, f"the PDF does not carry the paytable file {embedded!r}", "paytable.file")
    given = (f"{display_name(path)}:{embedded}", attachments[embedded])
    cert = verify_certificate_data(
        stored,
        path,
        given,
        allow_rounds=allow_rounds,
        workers=workers,
        scheduler=scheduler,
        trusted=_json_trust(signature, trusted),
    )
    # The file the user holds must be the one inside, byte for byte.
    if paytable is not None and read_file(paytable) != attachments[embedded]:
        raise VerificationError(
            f"{display_name(path)}: {display_name(paytable)} is not the paytable file inside the PDF",
            fields=["paytable"],
            hint="compare the two files: the certificate covers the one inside",
        )
    if str(stored["trey_version"]) != __version__:
        return PdfVerification(cert, signature, pages_compared=False)
    # The fresh rendering first: its page count bounds how much of the PDF's text is read at all.
    fresh = _fresh_page_texts(cert, data_files[0])
    if len(reader.pages) != len(fresh):
        raise VerificationError(
            f"{display_name(path)}: the PDF has {len(reader.pages)} pages where the certificate has {len(fresh)}",
            fields=["pages"],
            hint="the visible document is not the certificate its data describes",
        )
    try:
        with pypdf.apply_configuration(limits):
            pages = _page_texts(reader, path)
    except VerificationError:
        raise
    except Exception as exc:
        raise _pdf_refused(path, f"cannot read the PDF's pages ({type(exc).__name__})") from None
    changed = [number for number, (mine, theirs) in enumerate(zip(fresh, pages, strict=True), 1) if mine != theirs]
    if changed:
        first = changed[0]
        raise VerificationError(
            f"{display_name(path)}: the text of page(s) {', '.join(map(str, changed))} is not the certificate's: "
            f"page {first} reads {_first_difference(fresh[first - 1], pages[first - 1])}",
            fields=[f"page {n}" for n in changed],
            hint="the visible text was changed after the certificate was issued",
        )
    return PdfVerification(cert, signature, pages_compared=True)
