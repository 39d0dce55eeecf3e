"""The documents trey makes, as library calls: each returns its files' bytes by name, and writes nothing.

``trey certify`` is :func:`certify` and a write; anyone who embeds trey gets the same certificate, byte for byte.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from trey.paytable.load import load_spec_bytes
from trey.paytable.model import GameSpec
from trey.protect.protection import Protection
from trey.trust.certificate import (
    Certificate,
    SimulationOptions,
    build_certificate,
    refuse_what_a_family_certificate_lacks,
)
from trey.trust.signing import Signer

if TYPE_CHECKING:  # the audit brings pyarrow (half a second): a certificate has no need of it
    from trey.audit.audit import Audit
    from trey.audit.hold import HoldReport
    from trey.protect.family import FamilyProtection
    from trey.protect.money import LeakMoney


@dataclass(frozen=True)
class CertificateDocuments:
    """A certificate and its three files: ``stem.certificate.json``, ``.html`` and ``.pdf``."""

    certificate: Certificate
    files: dict[str, bytes]


def certify(
    raw: bytes,
    file_name: str,
    *,
    issue_date: date,
    profile: str = "generic",
    paper: str = "a4",
    simulation: SimulationOptions | None = None,
    signer: Signer | None = None,
    source: str | None = None,
    protection: bool = False,
) -> CertificateDocuments:
    """The certificate of the paytable file ``raw`` (named ``file_name``): its JSON, its HTML and its PDF/A-3b with
    the JSON and the paytable embedded, the PDF signed as PAdES and the JSON signed when ``signer`` is given.

    The other core does what it can meanwhile (Linux): it imports matplotlib while the figures are computed here and
    draws the charts while the PDF engine is imported; then, with a key, it imports pyHanko while the PDF is laid out
    here, and signs it. ``source``: how messages name the file (its path as given; default ``file_name``)."""
    from trey.core.background import in_background
    from trey.documents.certificate_view import chart_inputs, draw_charts, render_certificate_html
    from trey.documents.charts import import_matplotlib
    from trey.documents.pdf import ARCHIVAL, Embedded, html_to_pdf, load_weasyprint
    from trey.documents.pdf_evidence import remember_rendering

    stem = file_name.rsplit(".", 1)[0] if "." in file_name else file_name
    names = {kind: f"{stem}.certificate.{kind}" for kind in ("json", "html", "pdf")}
    spec = load_spec_bytes(raw, source or file_name)
    refuse_what_a_family_certificate_lacks(spec, protection=protection, where=source or file_name)
    with in_background(draw_charts, prepare=import_matplotlib) as charts:
        cert = build_certificate(
            spec,
            file_name=file_name,
            file_size=len(raw),
            issue_date=issue_date,
            profile_name=profile,
            simulation=simulation,
            paper=paper,
            signer=signer,
            protection=protection,
        )
        charts.send(chart_inputs(cert))
        load_weasyprint()
        html = render_certificate_html(cert, json_name=names["json"], paytable_name=file_name, charts=charts.result())
    data = (json.dumps(cert.data, indent=2, ensure_ascii=False) + "\n").encode()
    # The PDF is the evidence on its own: PDF/A-3b, with the certificate's data and the paytable file inside.
    evidence = (
        Embedded(names["json"], data, "The certificate's data: trey verify reads it from this PDF", "Data"),
        Embedded(cert.data["paytable"]["file"], raw, "The paytable file that was certified", "Source"),
    )
    with _background_signing(signer) as signature:
        pdf = html_to_pdf(html, issue_date, variant=ARCHIVAL, embedded=evidence)
        remember_rendering(html, issue_date, pdf)  # trey.verify in this process need not lay the pages out again
        if signature is not None:  # signed last, as a PDF, after everything else is in it
            from trey.trust.pdf_signature import SigningJob

            signature.send(SigningJob(pdf, issue_date, f"Mathematical evaluation certificate {cert.certificate_id}"))
            pdf = signature.result()
    return CertificateDocuments(cert, {names["json"]: data, names["html"]: html.encode(), names["pdf"]: pdf})


def _background_signing(signer: Signer | None) -> Any:
    """A child that imports pyHanko (a third of a second) while the PDF is laid out, then signs it; nothing without
    a key."""
    if signer is None:
        return contextlib.nullcontext()
    from trey.core.background import in_background
    from trey.trust.pdf_signature import import_pyhanko, signing_work

    return in_background(signing_work(signer), prepare=import_pyhanko)


def dealer_sheet(
    spec: GameSpec, stem: str, *, paper: str = "letter", effective: date, bets: tuple[int, ...] | None = None
) -> dict[str, bytes]:
    """The dealer payout sheet, laid out and measured to fit its pages: ``stem.dealer-sheet.html`` and ``.pdf``."""
    from trey.documents.dealer_view import fit_dealer_sheet
    from trey.documents.pdf import document_to_pdf
    from trey.engine import analyze

    if spec.is_standard_game:
        sheet = fit_dealer_sheet(spec, analyze(spec), paper=paper, effective=effective, bets=bets)
    else:  # a game of the family (issue 31)
        from trey.documents.family_dealer_view import fit_family_dealer_sheet
        from trey.engine.family import analyze_family

        sheet = fit_family_dealer_sheet(spec, analyze_family(spec), paper=paper, effective=effective, bets=bets)
    return {
        f"{stem}.dealer-sheet.html": sheet.html.encode(),
        f"{stem}.dealer-sheet.pdf": document_to_pdf(sheet.document, effective),
    }


def drill(
    spec: GameSpec,
    stem: str,
    *,
    hands: int = 24,
    seed: int = 1,
    level: str = "basic",
    paper: str = "letter",
    effective: date,
) -> dict[str, bytes]:
    """A payout drill for dealer training, the answer key from a page of its own: ``stem.drill.html`` and ``.pdf``."""
    from trey.documents.drill_view import render_drill_html
    from trey.documents.pdf import html_to_pdf
    from trey.engine import analyze
    from trey.floor.drill import Level, make_drill

    if spec.is_standard_game:
        practice = make_drill(spec, analyze(spec), hands=hands, seed=seed, level=Level(level))
    else:  # a game of the family (issue 31): the engine's decision, the round's settlement
        from trey.engine.family import analyze_family
        from trey.floor.family import make_family_drill

        practice = make_family_drill(spec, analyze_family(spec), hands=hands, seed=seed, level=Level(level))
    html = render_drill_html(practice, paper=paper, day=effective)
    return {f"{stem}.drill.html": html.encode(), f"{stem}.drill.pdf": html_to_pdf(html, effective)}


def surveillance_sheet(
    protection: Protection | FamilyProtection,
    stem: str,
    *,
    paper: str = "letter",
    effective: date,
    leaks: LeakMoney | None = None,
) -> dict[str, bytes]:
    """The one-page surveillance sheet of ``trey protect --out``: ``stem.surveillance.html`` and ``.pdf``; of the
    standard game, or of another game of the family (``protection`` from :func:`trey.protect.family.protect_family`);
    with ``leaks``, each leak's cost an hour and the hours until it shows."""
    from trey.documents.pdf import html_to_pdf

    if isinstance(protection, Protection):
        from trey.documents.surveillance_view import render_surveillance_html

        html = render_surveillance_html(protection, paper=paper, day=effective, leaks=leaks)
    else:  # a game of the family (issue 31)
        from trey.documents.family_surveillance_view import render_family_surveillance_html

        html = render_family_surveillance_html(protection, paper=paper, day=effective, leaks=leaks)
    return {f"{stem}.surveillance.html": html.encode(), f"{stem}.surveillance.pdf": html_to_pdf(html, effective)}


def hold_report(
    report: HoldReport, spec: GameSpec, stem: str, *, paper: str = "a4", effective: date
) -> dict[str, bytes]:
    """The hold report of ``trey hold LEDGER --out``: ``stem.hold.html`` and ``.pdf``."""
    from trey.documents.hold_report_view import render_hold_report_html
    from trey.documents.pdf import html_to_pdf

    html = render_hold_report_html(report, spec, paper=paper, day=effective)
    return {f"{stem}.hold.html": html.encode(), f"{stem}.hold.pdf": html_to_pdf(html, effective)}


def audit_report(
    found: Audit,
    stem: str,
    *,
    logs: list[str],
    paper: str = "a4",
    effective: date,
    signer: Signer | None = None,
    paytable: tuple[str, bytes] | None = None,
) -> dict[str, bytes]:
    """The audit report of ``trey audit --out``: ``stem.audit.html`` and ``.pdf``. With ``signer`` (``--sign``),
    the PDF carries the audit's data (``stem.audit.json``: the logs it names and the audit's JSON) and the paytable
    file (``paytable``: its name and bytes), and is signed as PAdES, as certificates are: ``trey verify`` checks the
    signature and, given the logs, audits them again (:mod:`trey.documents.audit_verify`)."""
    from trey.documents.audit_view import render_audit_html
    from trey.documents.pdf import ARCHIVAL, Embedded, html_to_pdf

    html = render_audit_html(found, paper=paper, day=effective, logs=logs)
    if signer is None:
        return {f"{stem}.audit.html": html.encode(), f"{stem}.audit.pdf": html_to_pdf(html, effective)}
    from trey.audit.audit import audit_json
    from trey.documents.audit_verify import AUDIT_DATA_SUFFIX

    if paytable is None:
        raise ValueError("a signed audit report carries its paytable file")
    data = (json.dumps({"logs": logs, "audit": audit_json(found)}, indent=2, ensure_ascii=False) + "\n").encode()
    evidence = (
        Embedded(f"{stem}{AUDIT_DATA_SUFFIX}", data, "The audit's data: trey verify reads it from this PDF", "Data"),
        Embedded(paytable[0], paytable[1], "The paytable file the rounds were audited under", "Source"),
    )
    with _background_signing(signer) as signature:
        # PDF/A-3b, as a certificate: the files inside are its associated files
        pdf = html_to_pdf(html, effective, variant=ARCHIVAL, embedded=evidence)
        from trey.trust.pdf_signature import SigningJob

        signature.send(SigningJob(pdf, effective, f"Audit report of {', '.join(logs)}"[:200]))
        pdf = signature.result()
    return {f"{stem}.audit.html": html.encode(), f"{stem}.audit.pdf": pdf}
