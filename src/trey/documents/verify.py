"""``trey verify`` as a library call: a certificate's JSON or PDF verified, and what the verification found, in
words. The signer's name in those words always comes from the trusted key that matched, never from the
certificate's own claim."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trey.core.files import display_name
from trey.trust.certificate import VERIFY_RECHECK, VERIFY_ROUNDS_LIMIT, Certificate, verify_certificate
from trey.trust.signing import SignatureStatus, TrustedKey


@dataclass(frozen=True)
class Verification:
    """A verified certificate and the sentence that reports it."""

    certificate: Certificate
    summary: str


def verify(
    path: Path,
    paytable: Path | None = None,
    *,
    allow_rounds: int = VERIFY_ROUNDS_LIMIT,
    workers: int = 1,
    scheduler: str | None = None,
    trusted: list[TrustedKey] | None = None,
) -> Verification:
    """Verify a certificate's ``.json`` or ``.pdf`` (told apart by its first bytes); raise
    :class:`~trey.core.errors.VerificationError` naming what differs."""
    from trey.documents.pdf_evidence import is_pdf, verify_pdf

    head = b""
    if path.is_file():  # anything else is refused, with its reason, by the JSON reader
        with open(path, "rb") as stream:
            head = stream.read(5)
    if is_pdf(head) or path.suffix.lower() == ".pdf":  # a .pdf that is not a PDF is refused as not a PDF
        result = verify_pdf(
            path, paytable, allow_rounds=allow_rounds, workers=workers, scheduler=scheduler, trusted=trusted
        )
        cert = result.certificate
        said = pdf_signature_text(result.signature)
        if not result.pages_compared:
            said += (
                f"; pages not compared (issued by trey {cert.issued_by}, which lays them out otherwise): the trusted "
                "signature vouches for them"
            )
    else:
        cert = verify_certificate(
            path, paytable, allow_rounds=allow_rounds, workers=workers, scheduler=scheduler, trusted=trusted
        )
        said = json_signature_text(cert)
    checked = f" and {display_name(paytable)}" if paytable is not None else ""
    summary = (
        f"{display_name(path)}{checked}: verified; certificate {cert.certificate_id}, overall {cert.data['overall']} "
        f"({cert.profile_label}), issued by trey {cert.issued_by}; {said}"
    )
    return Verification(cert, summary + _cluster_text(cert, scheduler))


def _cluster_text(cert: Certificate, scheduler: str | None) -> str:
    """What a simulation re-run on a cluster at an address proves: the chunks dealt again here agree; the others are
    the cluster's figures (trey.core.runner)."""
    from trey.core.runner import parse_scheduler, rechecked
    from trey.play.simulate import chunk_sizes

    simulation = cert.data["simulation"]
    if scheduler is None or simulation is None or parse_scheduler(scheduler).local:
        return ""
    count = len(chunk_sizes(simulation["rounds"]))
    again = rechecked(count, VERIFY_RECHECK)
    if again == count:
        return (
            f"; the simulation was dealt on the Dask cluster at {scheduler}, and all its {count:,} chunk(s) dealt "
            "again here agree"
        )
    return (
        f"; the simulation was dealt on the Dask cluster at {scheduler}: {again} of its {count:,} chunks, chosen at "
        f"random, dealt again here agree, the other {count - again:,} are the cluster's figures"
    )


def json_signature_text(cert: Certificate) -> str:
    """What the JSON's signature says: the name comes from the trusted key that matched, never from the JSON."""
    check = cert.signature
    if check is None or check.status is SignatureStatus.UNSIGNED:
        return "not signed"
    if check.trusted is not None:
        return f"signed by {check.trusted.name} ({check.fingerprint}), a trusted key"
    claim = cert.data["signature"]["signer"]
    return (
        f"signed by a key not verified ({check.fingerprint}, which calls itself {claim}; give its certificate "
        "with --trust)"
    )


def pdf_signature_text(signature: Any) -> str:
    """What the PDF's signature says (a :class:`trey.trust.pdf_signature.PdfSignature`)."""
    if signature.status is SignatureStatus.UNSIGNED:
        return "the PDF is not signed"
    if signature.status is SignatureStatus.TRUSTED:
        return f"the PDF is signed by {signature.signer} ({signature.fingerprint}), a trusted key"
    return (
        f"the PDF is signed by a key not verified ({signature.fingerprint}, whose certificate names "
        f"{signature.signer_claim}; give its certificate with --trust)"
    )
