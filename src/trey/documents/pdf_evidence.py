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
   that invisible text and foreign pages fail even in an unsigned PDF. A page that is the fresh page object for
   object (the same decoded content and resources, every reference followed) reads the same, so its text is not
   extracted (most of the time of a verification). A certificate issued by another version of trey is not compared
   page by page (the layout may differ): the result says so.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from trey.core.errors import VerificationError
from trey.core.files import display_name, read_bounded
from trey.core.version import __version__
from trey.trust.certificate import Certificate, parse_certificate, verify_certificate_data
from trey.trust.signing import SignatureStatus, TrustedKey

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
        limit = MAX_DATA_BYTES if name.endswith((".certificate.json", ".audit.json")) else MAX_PAYTABLE_BYTES
        declared = stream.get("/Params", {}).get("/Size", 0)
        if not isinstance(declared, int) or declared > limit or int(stream.get("/Length", 0)) > limit:
            raise _pdf_refused(path, f"the attachment {name!r} is larger than a certificate's ({limit:,} bytes)")
        content = stream.get_data()  # type: ignore[attr-defined]
        if len(content) > limit:
            raise _pdf_refused(path, f"the attachment {name!r} is larger than a certificate's ({limit:,} bytes)")
        data[name] = content
    return data


class FreshRendering:
    """The certificate's pages rendered afresh from its verified data, as certify renders them; each page's text is
    extracted when it is first asked for."""

    def __init__(self, pdf: bytes) -> None:
        from pypdf import PdfReader

        self.pages = PdfReader(io.BytesIO(pdf)).pages
        self._texts: dict[int, str] = {}

    def text(self, index: int) -> str:
        if index not in self._texts:
            self._texts[index] = _squeezed(self.pages[index].extract_text())
        return self._texts[index]


# The pages as a text extractor reads them: the page's own entries (its /Annots aside: links and the signature's
# field, checked apart, hold no page text) and those it inherits from the page tree.
_INHERITED = ("/Resources", "/MediaBox", "/CropBox", "/Rotate")
_STREAM_ENCODING = ("/Length", "/Filter", "/DecodeParms")  # how a stream is stored, not what it holds


def _same_page(given: Any, fresh: Any) -> bool:
    """Whether a page of the PDF is, object for object, the page rendered afresh: the same content streams (their
    decoded bytes) and the same resources (fonts, their glyph-to-text maps, images), followed through every
    reference. Such a page's text is the fresh page's, whatever a text extractor does, so it need not be
    extracted; any difference (or anything unreadable) leaves the page to the text comparison."""
    seen: set[tuple[int, int, int, int]] = set()
    try:
        return all(
            _same_object(_page_entry(given, key), _page_entry(fresh, key), seen)
            for key in sorted({*dict.keys(given), *dict.keys(fresh), *_INHERITED} - {"/Parent", "/Annots"})
        )
    except Exception:  # a PDF pypdf cannot follow is compared by its text, as before
        return False


def _page_entry(page: Any, key: str) -> Any:
    """A page's entry, inherited from its ancestors in the page tree when the page has none (PDF 7.7.3.4)."""
    node, depth = page, 0
    while key in _INHERITED and key not in node and "/Parent" in node and depth < 64:
        node, depth = node["/Parent"], depth + 1
    return dict.get(node, key)


def _same_object(given: Any, fresh: Any, seen: set[tuple[int, int, int, int]]) -> bool:
    """Deep equality of two PDF objects, walked in step with the fresh one (so bounded by it); references resolved,
    each pair of objects compared once."""
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, StreamObject

    if isinstance(given, IndirectObject) or isinstance(fresh, IndirectObject):
        if not (isinstance(given, IndirectObject) and isinstance(fresh, IndirectObject)):
            return False
        pair = (given.idnum, given.generation, fresh.idnum, fresh.generation)
        if pair in seen:
            return True
        seen.add(pair)
        return _same_object(given.get_object(), fresh.get_object(), seen)
    if type(given) is not type(fresh):
        return False
    if isinstance(fresh, StreamObject):
        if given.get_data() != fresh.get_data():
            return False
        keys = {*dict.keys(given), *dict.keys(fresh)} - set(_STREAM_ENCODING)
        return all(_same_object(dict.get(given, k), dict.get(fresh, k), seen) for k in sorted(keys))
    if isinstance(fresh, DictionaryObject):
        if set(dict.keys(given)) != set(dict.keys(fresh)):
            return False
        return all(_same_object(dict.__getitem__(given, k), v, seen) for k, v in dict.items(fresh))
    if isinstance(fresh, ArrayObject):
        return len(given) == len(fresh) and all(
            _same_object(a, b, seen) for a, b in zip(list.__iter__(given), list.__iter__(fresh), strict=True)
        )
    return bool(given == fresh)


def _changed_pages(reader: Any, fresh: FreshRendering, path: Path) -> list[tuple[int, str, str]]:
    """The pages whose text is not the fresh rendering's: (number, the fresh text, the PDF's text). A page whose
    content is larger than any certificate's is refused unread; a page that is the fresh one object for object is
    not extracted at all (see :func:`_same_page`)."""
    changed = []
    for number, page in enumerate(reader.pages, 1):
        contents = page.get_contents()
        if contents is not None and len(contents.get_data()) > MAX_PAGE_CONTENT_BYTES:
            raise _pdf_refused(path, f"page {number} holds more content than a certificate's page")
        if _same_page(page, fresh.pages[number - 1]):
            continue
        theirs, mine = _squeezed(page.extract_text()), fresh.text(number - 1)
        if mine != theirs:
            changed.append((number, mine, theirs))
    return changed


# The fresh renderings of the last few certificates verified in this process, by their verified data: rendering is
# a pure function of that data (the same bytes every time), and it is most of a PDF's verification (about 2 s).
_FRESH: dict[tuple[str, str], FreshRendering] = {}
FRESH_KEPT = 4
# The last few certificate pages certify rendered in this process, by their HTML and date: the PDF of an HTML page is
# a pure function of it, so a certificate verified where it was made (a test, the workbench) is not laid out twice.
_RENDERED: dict[tuple[str, date], bytes] = {}


def remember_rendering(html: str, day: date, pdf: bytes) -> None:
    """Keep certify's rendering of ``html`` (before any signature) for :func:`_fresh_rendering`; its pages are the
    pages :func:`trey.documents.pdf.html_to_pdf` gives (the embedded files are not on a page)."""
    if len(_RENDERED) >= FRESH_KEPT:
        del _RENDERED[next(iter(_RENDERED))]
    _RENDERED[(html, day)] = pdf


def _fresh_rendering(cert: Certificate, json_name: str) -> FreshRendering:
    """The pages of the certificate rendered afresh from its verified data, as certify renders them."""
    from trey.documents.certificate_view import render_certificate_html
    from trey.documents.pdf import ARCHIVAL, html_to_pdf

    key = (json.dumps(cert.data, sort_keys=True, ensure_ascii=False), json_name)
    if key not in _FRESH:
        if len(_FRESH) >= FRESH_KEPT:
            del _FRESH[next(iter(_FRESH))]
        html = render_certificate_html(cert, json_name=json_name, paytable_name=cert.data["paytable"]["file"])
        day = date.fromisoformat(cert.data["issue_date"])
        pdf = _RENDERED.get((html, day)) or html_to_pdf(html, day, variant=ARCHIVAL)
        _FRESH[key] = FreshRendering(pdf)
    return _FRESH[key]


def _first_difference(mine: str, theirs: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), min(len(mine), len(theirs)))
    return f"…{theirs[max(0, at - 30) : at + 30]}… where a fresh rendering has …{mine[max(0, at - 30) : at + 30]}…"


def _json_trust(signature: Any, trusted: list[TrustedKey] | None) -> list[TrustedKey] | None:
    """The keys the JSON inside may be signed by: when a trusted key (or a trusted CA) vouched for the PDF's signer,
    that signer's key alone, so that the data and the document are the same lab's; else the keys given."""
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
    """A certificate PDF verified (see the module's docstring); a VerificationError naming what is not."""
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
        # Another trey's layout cannot be compared page by page, and the version is the JSON's claim: only a trusted
        # signature vouches for pages nothing here reads (an unsigned PDF "of trey 0.3.0" verified with any text).
        if signature.status is not SignatureStatus.TRUSTED:
            raise VerificationError(
                f"{display_name(path)}: its data verifies, but its pages were laid out by trey {stored['trey_version']}"
                f", which this trey {__version__} cannot compare them with, and no trusted signature vouches for them",
                fields=["pages"],
                hint="verify its .certificate.json for the figures, or give the lab's certificate with --trust, whose "
                "signature then vouches for the pages",
            )
        return PdfVerification(cert, signature, pages_compared=False)
    # The fresh rendering first: its page count bounds how much of the PDF's text is read at all.
    fresh = _fresh_rendering(cert, data_files[0])
    if len(reader.pages) != len(fresh.pages):
        raise VerificationError(
            f"{display_name(path)}: the PDF has {len(reader.pages)} pages where the certificate has {len(fresh.pages)}",
            fields=["pages"],
            hint="the visible document is not the certificate its data describes",
        )
    try:
        with pypdf.apply_configuration(limits):
            changed = _changed_pages(reader, fresh, path)
    except VerificationError:
        raise
    except Exception as exc:
        raise _pdf_refused(path, f"cannot read the PDF's pages ({type(exc).__name__})") from None
    if changed:
        first, mine, theirs = changed[0]
        raise VerificationError(
            f"{display_name(path)}: the text of page(s) {', '.join(str(n) for n, _, _ in changed)} is not the "
            f"certificate's: page {first} reads {_first_difference(mine, theirs)}",
            fields=[f"page {n}" for n, _, _ in changed],
            hint="the visible text was changed after the certificate was issued",
        )
    return PdfVerification(cert, signature, pages_compared=True)
