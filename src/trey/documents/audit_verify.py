"""``trey verify`` of a signed audit report (``trey audit --out DIR --sign KEY``): its PAdES signature checked as a
certificate's is, the audit's data read from inside it, and, given the hand histories it names, the audit run
again on them and compared with the report's, field by field.

The report's PDF carries two files: ``STEM.audit.json`` (``{"logs": [...], "audit": <trey audit --format json>}``)
and the paytable file the rounds were audited under. The signature covers both and every page; the audit run
again from the logs given (at the report's ``--alpha``) must give the same JSON.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from trey.core.errors import TreyError, VerificationError
from trey.core.files import display_name, read_bounded
from trey.trust.signing import TrustedKey

AUDIT_DATA_SUFFIX = ".audit.json"
MAX_REPORT_BYTES = 64 * 1024 * 1024  # an audit report's PDF: its charts and tables
MAX_AUDIT_DATA_BYTES = 16 * 1024 * 1024
MAX_LOGS = 1_000


@dataclass(frozen=True)
class AuditVerification:
    """A verified audit report: its data (the logs it names, the audit's JSON), the PDF's signature, and whether
    the audit was run again from the logs."""

    data: dict[str, Any]
    signature: Any  # trey.trust.pdf_signature.PdfSignature
    audited_again: bool
    summary: str


def _refused(path: Path, message: str, hint: str = "give an audit report's PDF as trey wrote it") -> VerificationError:
    return VerificationError(f"{display_name(path)}: {message}", hint=hint)


def _attached_names(raw: bytes) -> list[str]:
    """The names of the files a PDF carries (none when it cannot be read: the certificate's verification says why)."""
    import pypdf
    from pypdf import PdfReader

    limits = pypdf.get_configuration().with_overwrites(zlib_maximum_output_length=MAX_AUDIT_DATA_BYTES)
    try:
        with pypdf.apply_configuration(limits):
            reader = PdfReader(io.BytesIO(raw), strict=False)
            root: Any = reader.trailer["/Root"]
            entries = root.get("/Names", {}).get("/EmbeddedFiles", {}).get("/Names", [])
            return [str(e) for e in entries[0::2]]
    except Exception:
        return []


def is_audit_report(path: Path) -> bool:
    """Whether ``path`` is a PDF carrying an audit's data (else ``trey verify`` reads it as a certificate)."""
    from trey.documents.pdf_evidence import is_pdf

    if not path.is_file():
        return False
    try:  # what is not a readable audit report is left to the certificate's verification and its messages
        raw = read_bounded(path, limit=MAX_REPORT_BYTES, what="an audit report's PDF")
    except TreyError:
        return False
    return is_pdf(raw) and any(n.endswith(AUDIT_DATA_SUFFIX) for n in _attached_names(raw))


def verify_audit_report(
    path: Path, logs: list[Path] | None = None, *, trusted: list[TrustedKey] | None = None
) -> AuditVerification:
    """A signed audit report verified: its signature (trusted when ``trusted`` holds its key), its data, and with
    ``logs`` the audit run again on them; a VerificationError naming what differs."""
    import pypdf
    from pypdf import PdfReader

    from trey.core.jsonread import loads_strict
    from trey.documents.pdf_evidence import _attachments, is_pdf
    from trey.documents.verify import pdf_signature_text
    from trey.paytable.load import load_spec_bytes
    from trey.trust.pdf_signature import check_pdf_signature

    raw = read_bounded(path, limit=MAX_REPORT_BYTES, what="an audit report's PDF")
    if not is_pdf(raw):
        raise _refused(path, "not a PDF")
    signature = check_pdf_signature(raw, display_name(path), trusted or [])
    limits = pypdf.get_configuration().with_overwrites(zlib_maximum_output_length=MAX_AUDIT_DATA_BYTES)
    try:
        with pypdf.apply_configuration(limits):
            attachments = _attachments(PdfReader(io.BytesIO(raw), strict=False), path)
    except VerificationError:
        raise
    except Exception as exc:
        raise _refused(path, f"cannot read the PDF ({type(exc).__name__})") from None
    names = [n for n in attachments if n.endswith(AUDIT_DATA_SUFFIX)]
    if len(names) != 1:
        raise _refused(path, f"the PDF does not carry one audit's data (a {AUDIT_DATA_SUFFIX} attachment)")
    try:
        data = loads_strict(attachments[names[0]].decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise _refused(path, f"the audit's data inside is not JSON trey wrote ({exc})") from None
    if not isinstance(data, dict) or set(data) != {"logs", "audit"} or not isinstance(data["audit"], dict):
        raise _refused(path, 'the audit\'s data inside is not what trey writes ({"logs": …, "audit": …})')
    (paytable_name,) = [n for n in attachments if n != names[0]] or [""]
    stored = data["audit"]
    named = [str(n) for n in data["logs"]] if isinstance(data["logs"], list) else []
    said = pdf_signature_text(signature)
    verdict = stored.get("verdict", {}).get("result", "?") if isinstance(stored.get("verdict"), dict) else "?"
    head = f"{display_name(path)}: verified; audit report of {stored.get('rounds', 0):,} rounds, verdict {verdict}"
    if not logs:
        summary = f"{head}; {said}; not audited again (give the hand histories it names with --log: {', '.join(named)})"
        return AuditVerification(data, signature, False, summary)
    if len(logs) > MAX_LOGS:
        raise _refused(path, f"{len(logs):,} logs given; at most {MAX_LOGS:,}", "give the logs the report names")
    from trey.audit.audit import audit, audit_json
    from trey.engine import analyze

    spec = load_spec_bytes(attachments[paytable_name], f"{display_name(path)}:{paytable_name}")
    try:
        alpha = Fraction(str(stored["verdict"]["alpha"]))
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        raise _refused(path, "the audit's data inside states no level (verdict.alpha)") from None
    fresh = json.loads(json.dumps(audit_json(audit(spec, logs, analyze(spec), alpha=alpha))))
    differing = sorted(k for k in set(fresh) | set(stored) if fresh.get(k) != stored.get(k))
    if differing:
        raise VerificationError(
            f"{display_name(path)}: the audit of {', '.join(display_name(p) for p in logs)} differs from the report's "
            f"in {', '.join(differing)}",
            fields=differing,
            hint=f"give the hand histories the report names ({', '.join(named)}), as they were audited",
        )
    given = ", ".join(display_name(p) for p in logs)
    return AuditVerification(data, signature, True, f"{head}; {said}; audited again from {given}: the same")
