"""The certificate PDF's own signature: PAdES B-B, made and checked with pyHanko.

A lab signs the document a regulator reads, not only its data: every PDF reader then shows who signed it and
whether anything changed after signing. The signature is a CMS (CAdES) signature over the whole file but the
signature itself, appended to the finished PDF/A-3b as an incremental update with an invisible signature field, so
the pages, the XMP and the attachments stay as they were.

The same inputs, key and date give the same bytes: the signing time is the certificate's issue date (no clock), the
new document ID is derived from the old one (pyHanko would draw it at random), the space for the signature is fixed,
and ECDSA signs with RFC 6979's deterministic nonces. Without a timestamp authority (none is reachable here) the
signature is PAdES B-B; a lab that adds a TSA's timestamp gets B-T, proof of the time of signing.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from trey.core.errors import VerificationError
from trey.trust.signing import SignatureStatus, Signer, TrustedKey, fingerprint_of

SIGNATURE_FIELD = "TreyCertificateSignature"
RESERVED_BYTES = 16_384  # room for the CMS object, fixed so that its size never changes the bytes around it
MAX_REVISION_OBJECTS = 10_000  # what a description of an incremental update looks at, at most


def _asn1_certificate(certificate: Any) -> Any:
    """A ``cryptography`` certificate as pyHanko's asn1crypto reads it."""
    from asn1crypto import x509
    from cryptography.hazmat.primitives import serialization

    return x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))


def _asn1(signer: Signer) -> tuple[Any, Any, list[Any]]:
    from asn1crypto import keys
    from cryptography.hazmat.primitives import serialization

    der = signer.key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    chain = [_asn1_certificate(c) for c in signer.chain]
    return _asn1_certificate(signer.certificate), keys.PrivateKeyInfo.load(der), chain


def sign_pdf(pdf: bytes, signer: Signer, when: date, reason: str) -> bytes:
    """``pdf`` with a PAdES B-B signature by ``signer`` appended, dated ``when``."""
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers
    from pyhanko.sign.fields import SigSeedSubFilter
    from pyhanko.sign.signers.pdf_signer import PdfSignatureMetadata, PdfSigner
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    class Writer(IncrementalPdfFileWriter):
        def _update_meta(self) -> None:
            """Leave the document's Info and XMP as written: pyHanko would stamp the clock and itself into them
            (and the two would no longer agree, as PDF/A requires). The update adds the signature alone."""

        @classmethod
        def _handle_id(cls, prev: Any) -> Any:
            first, _ = prev.trailer["/ID"]
            second = hashlib.sha256(b"trey signature " + bytes(first.original_bytes)).digest()[:16]
            return generic.ArrayObject([first, generic.ByteStringObject(second)])

    class Deterministic(signers.SimpleSigner):
        def sign_raw(self, data: bytes, digest_algorithm: str) -> bytes:
            assert digest_algorithm == "sha256"
            return signer.sign(data)

    class Dated(PdfSigner):
        def register_extensions(self, pdf_out: Any, **_: Any) -> None:
            """PAdES's ESIC extension only. pyHanko would also declare ISO 32002 for ECDSA, which makes the
            document PDF 2.0, and PDF/A-3 is PDF 1.7; readers validate ECDSA in a 1.7 document all the same."""
            from pyhanko.sign.signers.pdf_signer import _ensure_esic_ext

            _ensure_esic_ext(pdf_out)

        def init_signing_session(self, pdf_out: Any, existing_fields_only: bool = False) -> Any:
            session = super().init_signing_session(pdf_out, existing_fields_only)
            session.system_time = datetime(when.year, when.month, when.day, tzinfo=UTC)
            return session

    certificate, key, chain = _asn1(signer)
    cms_signer = Deterministic(
        signing_cert=certificate,
        signing_key=key,
        cert_registry=SimpleCertificateStore.from_certs([certificate, *chain]),  # type: ignore[no-untyped-call]
    )
    meta = PdfSignatureMetadata(
        field_name=SIGNATURE_FIELD,
        subfilter=SigSeedSubFilter.PADES,
        md_algorithm="sha256",
        name=signer.name,
        reason=reason,
    )
    out = Dated(meta, signer=cms_signer).sign_pdf(Writer(io.BytesIO(pdf)), bytes_reserved=RESERVED_BYTES)
    return bytes(out.getvalue())


@dataclass(frozen=True)
class SigningJob:
    """What the signing child receives: the finished PDF, its date and the signature's reason."""

    pdf: bytes
    when: date
    reason: str


def signing_work(signer: Signer) -> Callable[[SigningJob], bytes]:
    """The signing of a job by ``signer`` (the key stays in this process and the child forked from it)."""

    def work(job: SigningJob) -> bytes:
        return sign_pdf(job.pdf, signer, job.when, job.reason)

    return work


def import_pyhanko() -> None:
    """Import what signing needs (pyHanko and its dependencies: a third of a second), ahead of signing."""
    import pyhanko.pdf_utils.incremental_writer
    import pyhanko.sign.signers.pdf_signer  # noqa: F401


@dataclass(frozen=True)
class PdfSignature:
    """What a PDF's signature says, once checked: whether a trusted key made it, and which."""

    status: SignatureStatus  # UNSIGNED, TRUSTED or UNTRUSTED (an invalid one is refused)
    fingerprint: str = ""
    signer_claim: str = ""  # the name in the signer's certificate: a claim unless a trusted key vouches for it
    trusted: TrustedKey | None = None
    revisions: int = 1
    public_key: Any = None  # the signer's (the JSON inside must be signed by the same key)

    @property
    def signer(self) -> str:
        """The name to print: the trusted key's, or for a CA the certified subject's; else the claim."""
        if self.trusted is None:
            return self.signer_claim
        if self.trusted.certificate is not None and fingerprint_of(self.trusted.public_key) != self.fingerprint:
            return f"{self.signer_claim}, certified by {self.trusted.name}"
        return self.trusted.name


def _refused(name: str, message: str, hint: str = "give a certificate PDF as trey wrote it") -> VerificationError:
    return VerificationError(f"{name}: {message}", fields=["pdf"], hint=hint)


def _added(reader: Any, after: int) -> str:
    """What the revisions after ``after`` add, in words: "a page, an annotation (FileAttachment), 3 other objects"."""
    from pyhanko.pdf_utils import generic

    kinds: dict[str, int] = {}
    seen = 0
    try:
        info = reader.trailer.raw_get("/Info").idnum
    except Exception:
        info = None
    for revision in range(after + 1, reader.xrefs.total_revisions):
        for ref in reader.xrefs.explicit_refs_in_revision(revision):
            seen += 1
            if seen > MAX_REVISION_OBJECTS:
                break
            try:
                obj = reader.get_object(ref, revision=revision)
            except Exception:
                kinds["an unreadable object"] = kinds.get("an unreadable object", 0) + 1
                continue
            kind = "another object"
            if ref.idnum == info:
                kind = "the document information (title, author, dates)"
            elif isinstance(obj, generic.DictionaryObject):
                what, subtype = obj.get("/Type"), obj.get("/Subtype")
                if what == "/Page":
                    kind = "a page (added or changed)"
                elif what == "/Catalog":
                    kind = _catalog_change(reader, ref, obj, after)
                elif what == "/Annot" or subtype in ("/Widget", "/FreeText", "/Square", "/Text", "/Stamp"):
                    kind = f"an annotation ({str(subtype).lstrip('/')})"
                elif what in ("/Filespec", "/EmbeddedFile"):
                    kind = "an attachment"
                elif isinstance(obj, generic.StreamObject):
                    kind = "page content or an image"
            kinds[kind] = kinds.get(kind, 0) + 1
    words = [kind if n == 1 else f"{n} × {kind}" for kind, n in sorted(kinds.items())]
    return ", ".join(words) if words else "nothing but a new cross-reference section"


def _catalog_change(reader: Any, ref: Any, catalog: Any, after: int) -> str:
    """A document catalog an update writes, in words: which of its entries differ from the signed revision's
    ("the document catalog (changed: /OpenAction, /Version)"), at most five named."""
    try:
        signed = reader.get_object(ref, revision=after)
        keys = sorted({*signed.keys(), *catalog.keys()}, key=str)
        changed = [str(k)[:40] for k in keys if signed.get(k) != catalog.get(k)]
    except Exception:
        return "a new document catalog"
    if not changed:
        return "the document catalog (unchanged)"
    more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
    return f"the document catalog (changed: {', '.join(changed[:5])}{more})"


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """pyHanko logs what it finds (a self-signed certificate, a suspicious update) with tracebacks; trey reports
    its own verdict, once, so their loggers are silenced while it checks."""
    loggers = [logging.getLogger(name) for name in ("pyhanko", "pyhanko_certvalidator")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def check_pdf_signature(raw: bytes, name: str, trusted: list[TrustedKey]) -> PdfSignature:
    with _quiet():
        return _check_pdf_signature(raw, name, trusted)


def _check_pdf_signature(raw: bytes, name: str, trusted: list[TrustedKey]) -> PdfSignature:
    """The PDF's signature: intact, by a trusted key when keys are given, covering every byte of the file.

    An unsigned PDF must be a single revision (trey writes one); a signed one exactly two, the second the
    signature's. Any other update — a page, an overlay, an annotation, an attachment appended after signing — is
    refused, naming what it adds. Nothing here reads the pages' text."""
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko.sign.validation.status import SignatureCoverageLevel

    try:
        reader = PdfFileReader(io.BytesIO(raw), strict=True)
        revisions = reader.xrefs.total_revisions
        signatures = list(reader.embedded_signatures)
    except Exception as exc:
        raise _refused(name, f"cannot read the PDF ({_short(exc)})") from None
    if not signatures:
        if trusted:
            raise _refused(name, "the PDF is not signed", hint="ask the lab for a signed certificate PDF")
        if revisions != 1:
            raise _refused(
                name, f"the PDF was changed after it was written: {revisions - 1} update(s) adding {_added(reader, 0)}"
            )
        trailing = _after_end(raw)
        if trailing:
            raise _refused(name, f"the PDF has {_bytes(trailing)} after its end (%%EOF), which trey never writes")
        return PdfSignature(SignatureStatus.UNSIGNED)
    if len(signatures) > 1:
        raise _refused(name, f"the PDF holds {len(signatures)} signatures; trey signs a certificate once")
    signature = signatures[0]
    # Cheap before expensive: updates after the signed revision are refused before pyHanko's validator analyses
    # them (its review of each change costs about a second here, and grows with what a forger appends).
    try:
        after = signature.signed_revision
    except Exception as exc:
        raise _refused(name, f"cannot read the PDF's signature ({_short(exc)})") from None
    if after != revisions - 1:
        raise _changed_after_signing(name, reader, revisions, after)
    uncovered = _after_signed_bytes(signature, raw)
    if uncovered:
        raise _refused(
            name,
            f"the PDF has {_bytes(uncovered)} after the end of its signed revision (%%EOF), which the signature "
            "does not cover",
            hint="the signed certificate is the PDF without what follows its end: ask the lab for it",
        )
    try:
        status = validate_pdf_signature(signature, _validation_context(trusted))
        certificate = signature.signer_cert
    except Exception as exc:  # a hostile signature can fail anywhere in the validator: one clear error
        raise _refused(name, f"cannot check the PDF's signature ({_short(exc)})") from None
    if not (status.intact and status.valid):
        raise _refused(
            name,
            "the PDF's signature does not match its content",
            hint="the PDF was changed after it was signed, or the signature is not by the key it names",
        )
    if status.coverage is not SignatureCoverageLevel.ENTIRE_FILE:
        raise _changed_after_signing(name, reader, revisions, signature.signed_revision)
    from cryptography import x509

    from trey.trust.signing import subject_name

    signer = x509.load_der_x509_certificate(certificate.dump())
    key, claim = signer.public_key(), subject_name(signer)
    fingerprint = fingerprint_of(key)
    match = _trusted_match(fingerprint, certificate, trusted, bool(status.trusted))
    if trusted and match is None:
        raise _refused(
            name,
            f"the PDF is signed by a key you do not trust ({fingerprint}, whose certificate names {claim})",
            hint="check the key with the lab, then give its certificate with --trust",
        )
    state = SignatureStatus.TRUSTED if match is not None else SignatureStatus.UNTRUSTED
    return PdfSignature(state, fingerprint, claim, match, revisions, key)


END_OF_FILE = b"%%EOF"
END_OF_LINE = (b"", b"\n", b"\r\n", b"\r")  # the one end of line a PDF's last %%EOF may have (trey writes \n)


def _after_end(raw: bytes) -> int:
    """How many bytes follow the PDF's last end marker (%%EOF) and its end of line."""
    end = raw.rfind(END_OF_FILE)
    if end < 0:
        return 0  # no end at all: the reader has refused it, or will
    rest = raw[end + len(END_OF_FILE) :]
    eol = next(e for e in sorted(END_OF_LINE, key=len, reverse=True) if rest.startswith(e))
    return len(rest) - len(eol)


def _after_signed_bytes(signature: Any, raw: bytes) -> int:
    """How many bytes follow the range the signature covers (its /ByteRange), when that range ends at an end marker
    (%%EOF): bytes appended to a signed file. Anything else (no readable range, a file rewritten so that the range
    no longer ends at its end) is left to the validator, which finds the signature does not match."""
    try:
        ranges = [int(n) for n in signature.sig_object["/ByteRange"]]
    except Exception:
        return 0
    if len(ranges) != 4 or not 0 < ranges[2] + ranges[3] < len(raw):
        return 0
    covered = raw[: ranges[2] + ranges[3]]
    return len(raw) - len(covered) if covered.rstrip(b"\r\n").endswith(END_OF_FILE) else 0


def _bytes(count: int) -> str:
    return "1 byte" if count == 1 else f"{count:,} bytes"


def _changed_after_signing(name: str, reader: Any, revisions: int, after: int) -> VerificationError:
    return _refused(
        name,
        f"the PDF was changed after it was signed: {revisions - 1 - after} update(s) after the signed revision "
        f"add {_added(reader, after)}",
        hint="the signed certificate is the PDF without them: ask the lab for it",
    )


def _validation_context(trusted: list[TrustedKey]) -> Any:
    from pyhanko_certvalidator import ValidationContext

    roots = [_asn1_certificate(t.certificate) for t in trusted if t.certificate is not None]
    # No revocation look-ups: nothing outside this machine is reached, and a self-signed certificate has none.
    return ValidationContext(trust_roots=roots, allow_fetching=False, revocation_mode="soft-fail")


def _trusted_match(fingerprint: str, certificate: Any, trusted: list[TrustedKey], chained: bool) -> TrustedKey | None:
    """The trusted key that vouches for the signer: its own key or certificate, else (when pyHanko found a path to a
    trusted root) the CA certificate that issued it."""
    for candidate in trusted:
        if candidate.fingerprint == fingerprint:
            return candidate
    if chained:
        for candidate in trusted:
            if candidate.certificate is not None and _asn1_certificate(candidate.certificate).subject == (
                certificate.issuer
            ):
                return candidate
    return None


def _short(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
