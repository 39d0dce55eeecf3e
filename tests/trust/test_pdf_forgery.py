"""Issue 19: a certificate PDF is its own evidence. Each forgery a forger tried, made here with pypdf from a genuine
certificate, is refused by ``trey verify`` with its own message, and pyHanko's validator agrees with the verdict."""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from conftest import PAYTABLES, STANDARD, run_cli
from trey import __version__

DATE = "2026-01-01"
OVERLAY = b"q 1 1 1 rg 40 600 400 60 re f Q BT /F1 14 Tf 50 620 Td (Pair Plus 100 to 1) Tj ET"


@pytest.fixture(scope="module")
def lab(lab_keys: Path) -> Path:
    """keygen's "Example Lab" key and certificate (conftest: made once per process, shared with test_archival)."""
    return lab_keys


@pytest.fixture(scope="module")
def signed(signed_standard: Path) -> Path:
    """The standard certificate of DATE signed with ``lab``'s key (conftest: rendered once per process)."""
    assert DATE == "2026-01-01"
    return signed_standard / "standard.certificate.pdf"


@pytest.fixture(scope="module")
def unsigned(unsigned_standard: Path) -> Path:
    """The standard certificate of DATE, unsigned (conftest: rendered once per process)."""
    assert DATE == "2026-01-01"
    return unsigned_standard / "standard.certificate.pdf"


def trust(lab: Path) -> list[str]:
    return ["--trust", str(lab / "trey-signing-cert.pem")]


def pyhanko_verdict(pdf: Path, lab: Path) -> tuple[bool, bool, str]:
    """(intact and valid, trusted, coverage) as pyHanko's own validator sees the PDF's one signature."""
    from asn1crypto import x509
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    pem = (lab / "trey-signing-cert.pem").read_bytes()
    der = __import__("base64").b64decode(b"".join(pem.split(b"-----")[2].split()))
    context = ValidationContext(trust_roots=[x509.Certificate.load(der)], allow_fetching=False)
    (signature,) = PdfFileReader(io.BytesIO(pdf.read_bytes()), strict=False).embedded_signatures
    status = validate_pdf_signature(signature, context)
    return bool(status.intact and status.valid), bool(status.trusted), status.coverage.name


def test_a_genuine_signed_pdf_verifies_and_pyhanko_agrees(signed: Path, lab: Path) -> None:
    result = run_cli("verify", signed, *trust(lab))
    assert result.exit_code == 0, result.stderr
    assert "; the PDF is signed by Example Lab (SHA256:" in result.stdout
    assert pyhanko_verdict(signed, lab) == (True, True, "ENTIRE_FILE")
    # the signature a reader's signature panel shows: the lab's name, PAdES, and the issue date
    sig = PdfReader(signed).trailer["/Root"]["/AcroForm"]["/Fields"][0].get_object()["/V"].get_object()
    assert (sig["/Name"], sig["/SubFilter"], sig["/M"][:10]) == ("Example Lab", "/ETSI.CAdES.detached", "D:20260101")


def _overlay(writer: PdfWriter) -> None:
    """Paint a white box and other figures over page 1, in one of the page's own fonts (so it is real text)."""
    page = writer.pages[0]
    font = next(iter(page["/Resources"]["/Font"]))
    stream = DecodedStreamObject()
    stream.set_data(OVERLAY.replace(b"/F1", font.encode()))
    page[NameObject("/Contents")] = ArrayObject([page["/Contents"], writer._add_object(stream)])


def _incremental(source: Path, target: Path, change: str) -> Path:
    writer = PdfWriter(str(source), incremental=True)
    if change == "page":
        writer.add_blank_page()
    elif change == "overlay":
        _overlay(writer)
    elif change == "attachment":
        writer.add_attachment("approved.certificate.JSON", b"{}")
    elif change == "annotation":
        spec = DictionaryObject({NameObject("/Type"): NameObject("/Filespec")})
        annotation = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/FileAttachment"),
                NameObject("/FS"): writer._add_object(spec),
                NameObject("/Rect"): ArrayObject([NumberObject(0)] * 4),
            }
        )
        writer.pages[0][NameObject("/Annots")] = ArrayObject([writer._add_object(annotation)])
    elif change == "version":  # the catalog alone, as a reader that goes by /Version sees the document
        writer._root_object[NameObject("/Version")] = NameObject("/2.0")
    elif change == "javascript":  # an action run when the document opens
        action = DictionaryObject(
            {NameObject("/S"): NameObject("/JavaScript"), NameObject("/JS"): TextStringObject("app.alert('ok')")}
        )
        writer._root_object[NameObject("/OpenAction")] = writer._add_object(action)
    elif change == "information":  # the title a reader's window shows
        writer.add_metadata({"/Title": "Approved by the regulator"})
    elif change == "note":  # a visible note over the figures, in a reader's own annotation layer
        note = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/FreeText"),
                NameObject("/Rect"): ArrayObject(
                    [NumberObject(40), NumberObject(600), NumberObject(400), NumberObject(660)]
                ),
                NameObject("/Contents"): TextStringObject("Pair Plus 100 to 1"),
            }
        )
        annotations = list(writer.pages[0].get("/Annots", []))
        writer.pages[0][NameObject("/Annots")] = ArrayObject([*annotations, writer._add_object(note)])
    writer.write(target)
    return target


@pytest.mark.parametrize(
    ("change", "adds"),
    [
        ("page", "2 × a page (added or changed), another object"),
        ("overlay", "a page (added or changed), page content or an image"),
        ("attachment", "2 × an attachment, another object"),
        ("annotation", "a page (added or changed), an annotation (FileAttachment), an attachment"),
    ],
)
def test_an_update_appended_after_signing_is_refused_naming_what_it_adds(
    signed: Path, lab: Path, tmp_path: Path, change: str, adds: str
) -> None:
    forged = _incremental(signed, tmp_path / f"{change}.pdf", change)
    assert forged.read_bytes().startswith(signed.read_bytes())  # the signed bytes untouched
    for extra in (trust(lab), []):
        result = run_cli("verify", forged, *extra)
        assert (result.exit_code, result.stdout, result.stderr) == (
            1,
            "",
            f"error: {forged}: the PDF was changed after it was signed: 1 update(s) after the signed revision add "
            f"{adds} (the signed certificate is the PDF without them: ask the lab for it)\n",
        )
    intact, _, coverage = pyhanko_verdict(forged, lab)
    assert intact and coverage != "ENTIRE_FILE"  # pyHanko: the signed revision is intact, the file is not all signed


@pytest.mark.parametrize(
    ("change", "adds"),
    [
        ("version", "the document catalog (changed: /Version)"),
        ("javascript", "another object, the document catalog (changed: /OpenAction)"),
        ("information", "the document information (title, author, dates)"),
        ("note", "a page (added or changed), an annotation (FreeText)"),
    ],
)
def test_an_update_of_the_catalog_or_of_what_a_reader_shows_is_named_signed_or_not(
    signed: Path, unsigned: Path, lab: Path, tmp_path: Path, change: str, adds: str
) -> None:
    """A second red-team pass: an update after the signature that changes the catalog alone (the /Version a reader
    goes by, an action run on opening), the title a reader's window shows, or a note over the figures."""
    forged = _incremental(signed, tmp_path / f"{change}.pdf", change)
    result = run_cli("verify", forged, *trust(lab))
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"error: {forged}: the PDF was changed after it was signed: 1 update(s) after the signed revision add "
        f"{adds} (the signed certificate is the PDF without them: ask the lab for it)\n",
    )
    plain = _incremental(unsigned, tmp_path / f"unsigned-{change}.pdf", change)
    result = run_cli("verify", plain)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {plain}: the PDF was changed after it was written: 1 update(s) adding {adds} (give a certificate PDF "
        "as trey wrote it)\n",
    )


def test_a_pdf_rewritten_with_an_overlay_breaks_the_signature(signed: Path, lab: Path, tmp_path: Path) -> None:
    forged = _rewritten(signed, tmp_path / "rewritten.pdf", _overlay)
    result = run_cli("verify", forged, *trust(lab))
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {forged}: the PDF's signature does not match its content (the PDF was changed after it was signed, "
        "or the signature is not by the key it names)\n",
    )
    assert pyhanko_verdict(forged, lab)[0] is False


def _rewritten(source: Path, target: Path, edit: Callable[[PdfWriter], object]) -> Path:
    """``source`` rewritten whole by pypdf (one revision, as trey writes), after ``edit(writer)``."""
    writer = PdfWriter(clone_from=source)
    edit(writer)
    writer.write(target)
    return target


def test_unsigned_forgeries_are_refused_by_the_pages_and_the_structure(unsigned: Path, tmp_path: Path) -> None:
    assert run_cli("verify", unsigned).exit_code == 0

    forged = _rewritten(unsigned, tmp_path / "overlay.pdf", _overlay)
    result = run_cli("verify", forged)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {forged}: the text of page(s) 1 is not the certificate's: page 1 reads ")
    assert result.stderr.endswith("(the visible text was changed after the certificate was issued)\n")

    forged = _rewritten(unsigned, tmp_path / "extra.pdf", lambda w: w.add_attachment("standard-approved.yaml", b"x"))
    assert run_cli("verify", forged).stderr == (
        f"error: {forged}: the PDF carries 3 attachment(s); trey attaches exactly two: the certificate's data and the "
        "paytable file (give a certificate PDF that trey wrote)\n"
    )

    def duplicate(writer: PdfWriter) -> None:
        names = writer._root_object["/Names"]["/EmbeddedFiles"]["/Names"]
        names[2] = names[0]  # two attachments named standard.certificate.json

    forged = _rewritten(unsigned, tmp_path / "duplicate.pdf", duplicate)
    assert run_cli("verify", forged).stderr == (
        f"error: {forged}: the PDF carries two attachments named 'standard.certificate.json' (give a certificate PDF "
        "that trey wrote)\n"
    )

    def renamed(writer: PdfWriter) -> None:
        from pypdf.generic import TextStringObject

        names = writer._root_object["/Names"]["/EmbeddedFiles"]["/Names"]
        names[2] = TextStringObject("standard-approved.yaml")  # what qpdf and pikepdf list; the file says otherwise

    forged = _rewritten(unsigned, tmp_path / "renamed.pdf", renamed)
    assert run_cli("verify", forged).stderr == (
        f"error: {forged}: the PDF's attachment 'standard-approved.yaml' is the file 'standard.yaml' (give a "
        "certificate PDF that trey wrote)\n"
    )

    def annotation(writer: PdfWriter) -> None:
        files = writer._root_object["/Names"]["/EmbeddedFiles"]["/Names"]
        attached = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/FileAttachment"),
                NameObject("/FS"): files[1],
                NameObject("/Rect"): ArrayObject([NumberObject(0)] * 4),
            }
        )
        writer.pages[2][NameObject("/Annots")] = ArrayObject([writer._add_object(attached)])

    forged = _rewritten(unsigned, tmp_path / "annotation.pdf", annotation)
    assert run_cli("verify", forged).stderr == (
        f"error: {forged}: page 3 carries an annotation trey does not write (FileAttachment) (give a certificate PDF "
        "that trey wrote)\n"
    )

    forged = _incremental(unsigned, tmp_path / "update.pdf", "page")
    assert run_cli("verify", forged).stderr.startswith(
        f"error: {forged}: the PDF was changed after it was written: 1 update(s) adding "
    )


def test_a_foreign_document_with_genuine_attachments_is_refused(unsigned: Path, tmp_path: Path) -> None:
    """Every page from another, genuine certificate, the strings verify used to look for added as invisible text."""
    other = tmp_path / "other"
    assert (
        run_cli("certify", PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml", "--out", other, "--date", DATE).exit_code == 0
    )
    writer = PdfWriter(clone_from=unsigned)
    foreign = PdfReader(other / "40-30-6-4-1.certificate.pdf")
    while len(writer.pages):
        writer.remove_page(0)
    for page in foreign.pages:
        writer.add_page(page)
    forged = tmp_path / "foreign.pdf"
    writer.write(forged)
    result = run_cli("verify", forged)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {forged}: the PDF has ")
    assert "pages where the certificate has" in result.stderr or "is not the certificate's" in result.stderr


def test_a_swapped_embedded_paytable_is_refused_even_with_the_genuine_file_given(
    unsigned: Path, tmp_path: Path
) -> None:
    def swap(writer: PdfWriter) -> None:
        names = writer._root_object["/Names"]["/EmbeddedFiles"]["/Names"]
        stream = names[3].get_object()["/EF"]["/F"].get_object()
        stream.set_data(STANDARD.read_bytes().replace(b"    pair: 1\n", b"    pair: 2\n"))

    forged = _rewritten(unsigned, tmp_path / "swapped.pdf", swap)
    result = run_cli("verify", forged, "--paytable", STANDARD)
    assert result.exit_code == 1
    assert "paytable.canonical (the file given with --paytable describes another game than the certificate)" in (
        result.stderr
    )


def test_the_signers_name_is_covered_and_told_from_the_trusted_key(signed: Path, lab: Path, tmp_path: Path) -> None:
    data_path = signed.with_suffix(".json")
    data = json.loads(data_path.read_text())
    data["signature"]["signer"] = "Other Lab"
    forged = tmp_path / "renamed.certificate.json"
    forged.write_text(json.dumps(data))
    result = run_cli("verify", forged, *trust(lab))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {forged}: the signature does not match the certificate's content")
    # a trust file naming the lab differently: the name printed is the trust file's
    renamed = tmp_path / "lab.pem"
    renamed.write_bytes(
        (lab / "trey-signing-cert.pem").read_bytes().replace(b"Signer: Example Lab", b"Signer: Our Lab")
    )
    result = run_cli("verify", data_path, "--trust", renamed)
    assert result.exit_code == 0 and "; signed by Our Lab (SHA256:" in result.stdout


def test_trust_files_must_say_what_they_hold(lab: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    assert run_cli("keygen", "--out", other, "--name", "Other Lab").exit_code == 0
    mine = (lab / "trey-signing-cert.pem").read_bytes()
    theirs = (other / "trey-signing-cert.pem").read_bytes()
    lying = tmp_path / "lying.pem"  # Example Lab's header and fingerprint, Other Lab's certificate
    lying.write_bytes(mine.split(b"-----BEGIN")[0] + b"-----BEGIN" + theirs.split(b"-----BEGIN", 1)[1])
    result = run_cli("verify", STANDARD.parent / "standard.yaml", "--trust", lying)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {lying}: its Fingerprint line (SHA256:")
    assert "is not the fingerprint of the key it holds" in result.stderr
    both = tmp_path / "both.pem"
    both.write_bytes(mine + theirs)
    assert run_cli("verify", STANDARD, "--trust", both).stderr == (
        f"error: {both} holds 2 keys or certificates (give one certificate or public key a file (repeat --trust for "
        "several))\n"
    )
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    edwards = tmp_path / "ed25519.pem"
    edwards.write_bytes(
        Ed25519PrivateKey.generate()
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    assert run_cli("verify", STANDARD, "--trust", edwards).stderr == (
        f"error: {edwards}: not an ECDSA P-256 or RSA certificate or public key (give the lab's certificate "
        "(trey-signing-cert.pem) or its CA's)\n"
    )


def test_a_private_key_others_can_read_is_refused_and_encryption_is_read_from_the_pem(tmp_path: Path) -> None:
    assert run_cli("keygen", "--out", tmp_path / "k", "--name", "ENCRYPTED Data Labs").exit_code == 0
    key = tmp_path / "k" / "trey-signing-key.pem"
    out = tmp_path / "c"
    small = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"  # one wager: the key is what is tested, not the document
    assert run_cli("certify", small, "--out", out, "--date", DATE, "--sign", key).exit_code == 0  # not encrypted
    os.chmod(key, 0o644)
    result = run_cli("certify", small, "--out", out, "--date", DATE, "--sign", key, "--force")
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {key} can be read by others (mode 0644); a private key must be readable only by its owner "
        f"(chmod 600 {key})\n",
    )


def test_a_labs_pkcs12_key_and_certificate_sign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs12

    from trey.trust.signing import self_signed_certificate

    key = ec.generate_private_key(ec.SECP256R1())
    certificate = self_signed_certificate("PKCS Lab", key)
    bundle = tmp_path / "lab.p12"
    encryption = serialization.BestAvailableEncryption(b"secret")
    bundle.write_bytes(pkcs12.serialize_key_and_certificates(b"lab", key, certificate, None, encryption))
    bundle.chmod(0o600)
    (tmp_path / "lab.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    monkeypatch.setenv("TREY_KEY_PASSPHRASE", "secret")
    out = tmp_path / "c"
    small = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"  # one wager: the bundle is what is tested, not the document
    assert run_cli("certify", small, "--out", out, "--date", DATE, "--sign", bundle).exit_code == 0
    result = run_cli("verify", out / "40-30-6-4-1.certificate.pdf", "--trust", tmp_path / "lab.pem")
    assert result.exit_code == 0, result.stderr
    assert "; the PDF is signed by PKCS Lab (SHA256:" in result.stdout


def _hostile(tmp_path: Path, name: str, unsigned: Path) -> Path:
    path = tmp_path / f"{name}.pdf"
    raw = unsigned.read_bytes()
    if name == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif name == "garbage":
        path.write_bytes(b"%PDF-1.7\n" + os.urandom(3000))
    elif name == "many-pages":
        writer = PdfWriter()
        for _ in range(300):
            writer.add_blank_page(10, 10)
        writer.write(path)
    elif name == "content-bomb":  # one page whose content decompresses to 100 MB of spaces
        import zlib

        writer = PdfWriter(clone_from=unsigned)
        bomb = DecodedStreamObject()
        bomb.set_data(b" " * 100_000_000)
        bomb = bomb.flate_encode()
        writer.pages[0][NameObject("/Contents")] = writer._add_object(bomb)
        writer.write(path)
        assert zlib  # (the stream is compressed by pypdf)
    return path


@pytest.mark.parametrize("name", ["truncated", "garbage", "many-pages", "content-bomb"])
def test_a_hostile_pdf_is_one_clear_error_within_seconds(unsigned: Path, tmp_path: Path, name: str) -> None:
    path = _hostile(tmp_path, name, unsigned)
    started = time.monotonic()
    result = run_cli("verify", path)
    elapsed = time.monotonic() - started
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {path}: ") and "Traceback" not in result.stderr
    assert elapsed < 30, elapsed  # a bound, not a speed test: hostile PDFs once took 43 s and 40 minutes


@pytest.mark.parametrize("tail", [b"X", b"\n", b"<< /Injected true >>\n"], ids=["byte", "newline", "object"])
def test_bytes_after_the_end_of_a_signed_or_unsigned_pdf_are_refused(
    signed: Path, unsigned: Path, lab: Path, tmp_path: Path, tail: bytes
) -> None:
    """Issue 29, finding 19: one byte after %%EOF is not "0 update(s)" but what it is; the signature does not
    cover it, and trey never writes it."""
    count = "1 byte" if len(tail) == 1 else f"{len(tail)} bytes"
    forged = tmp_path / "signed.pdf"
    forged.write_bytes(signed.read_bytes() + tail)
    for extra in (trust(lab), []):
        result = run_cli("verify", forged, *extra)
        assert (result.exit_code, result.stderr) == (
            1,
            f"error: {forged}: the PDF has {count} after the end of its signed revision (%%EOF), which the signature "
            "does not cover (the signed certificate is the PDF without what follows its end: ask the lab for it)\n",
        )
    plain = tmp_path / "unsigned.pdf"
    plain.write_bytes(unsigned.read_bytes() + tail)
    result = run_cli("verify", plain)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {plain}: the PDF has {count} after its end (%%EOF), which trey never writes (give a certificate "
        "PDF as trey wrote it)\n",
    )


def test_a_pdf_file_that_is_not_a_pdf_is_said_to_be_so(tmp_path: Path) -> None:
    data = tmp_path / "certificate.pdf"
    data.write_bytes(b'{"certificate_id": "530ee613c4f2"}')  # a JSON named .pdf is not read as a certificate's JSON
    empty = tmp_path / "EMPTY.PDF"
    empty.write_bytes(b"")
    said = {path: run_cli("verify", path) for path in (data, empty)}
    assert [(r.exit_code, r.stderr) for r in said.values()] == [
        (
            1,
            f"error: {data}: not a PDF: it does not begin with %PDF- (it begins with the bytes '{{\"certificat')"
            " (give a certificate PDF that trey wrote)\n",
        ),
        (
            1,
            f"error: {empty}: not a PDF: it does not begin with %PDF- (the file is empty) (give a certificate PDF that "
            "trey wrote)\n",
        ),
    ]


def _document_signing() -> object:
    """The key usage of a certificate for signing documents (PDF signatures ask for non-repudiation)."""
    from cryptography import x509

    unused = ("key_encipherment", "data_encipherment", "key_agreement", "key_cert_sign", "crl_sign")
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=True,
        encipher_only=False,
        decipher_only=False,
        **dict.fromkeys(unused, False),
    )


def test_a_lab_certified_by_a_ca_signs_and_the_ca_is_trusted(tmp_path: Path) -> None:
    """A lab's own key and CA-issued certificate (with --sign-cert); the verifier trusts the CA."""
    from datetime import UTC, datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    def name(text: str) -> x509.Name:
        return x509.Name(
            [x509.NameAttribute(NameOID.COMMON_NAME, text), x509.NameAttribute(NameOID.ORGANIZATION_NAME, text)]
        )

    ca_key, lab_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    start, end = datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("Gaming CA"))
        .issuer_name(name("Gaming CA"))
        .public_key(ca_key.public_key())
        .serial_number(1)
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    lab = (
        x509.CertificateBuilder()
        .subject_name(name("Certified Lab"))
        .issuer_name(ca.subject)
        .public_key(lab_key.public_key())
        .serial_number(2)
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(_document_signing(), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = tmp_path / "lab-key.pem"
    key.write_bytes(
        lab_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    key.chmod(0o600)
    chain = tmp_path / "lab-chain.pem"
    chain.write_bytes(lab.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    small = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"
    out = tmp_path / "c"
    result = run_cli("certify", small, "--out", out, "--date", DATE, "--sign", key, "--sign-cert", chain)
    assert result.exit_code == 0, result.stderr
    result = run_cli("verify", out / "40-30-6-4-1.certificate.pdf", "--trust", tmp_path / "ca.pem")
    assert result.exit_code == 0, result.stderr
    assert "; the PDF is signed by Certified Lab, certified by Gaming CA (SHA256:" in result.stdout
    # the key alone, without its certificate, cannot sign: a PDF signature names its signer by a certificate
    result = run_cli("certify", small, "--out", tmp_path / "d", "--date", DATE, "--sign", key)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {key}: no certificate for this key (give the key's certificate in the same file, or with "
        "--sign-cert)\n",
    )


def test_a_genuine_certificate_of_a_file_named_in_another_script_verifies(tmp_path: Path) -> None:
    """The attachment's name comes from its file specification (/UF): WeasyPrint writes the name tree's key as
    UTF-8 bytes, which read back as other letters."""
    paytable = tmp_path / "澳門.yaml"
    paytable.write_bytes((PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml").read_bytes())
    assert run_cli("certify", paytable, "--out", tmp_path, "--date", DATE).exit_code == 0
    result = run_cli("verify", tmp_path / "澳門.certificate.pdf")
    assert result.exit_code == 0, result.stderr


def _relabelled(source: Path, target: Path, version: str) -> Path:
    """``source`` with its data claiming another trey (the ID recomputed, as anyone can) and a house edge painted
    over page 1: the pages of another trey's layout are not compared."""
    from trey.trust.certificate import content_id

    def relabel(writer: PdfWriter) -> None:
        names = writer._root_object["/Names"]["/EmbeddedFiles"]["/Names"]
        stream = names[1].get_object()["/EF"]["/F"].get_object()
        data = json.loads(stream.get_data())
        data["trey_version"] = version
        data["certificate_id"] = content_id(data)
        raw = json.dumps(data).encode()
        stream.set_data(raw)
        stream["/Params"][NameObject("/Size")] = NumberObject(len(raw))
        _overlay(writer)

    return _rewritten(source, target, relabel)


def test_a_pdf_claiming_another_trey_needs_a_trusted_signature_for_its_pages(
    unsigned: Path, lab: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second red-team pass: an unsigned certificate PDF relabelled "trey 0.3.0", a house edge painted over its
    page 1, verified ("pages not compared"), exit 0."""
    forged = _relabelled(unsigned, tmp_path / "relabelled.pdf", "0.3.0")
    result = run_cli("verify", forged)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"error: {forged}: its data verifies, but its pages were laid out by trey 0.3.0, which this trey {__version__} "
        "cannot compare them with, and no trusted signature vouches for them (verify its .certificate.json for the "
        "figures, or give the lab's certificate with --trust, whose signature then vouches for the pages)\n",
    )
    # A lab's certificate of an earlier trey, signed: with its key trusted, its signature vouches for the pages.
    import trey.trust.certificate as certificate_module

    monkeypatch.setattr(certificate_module, "__version__", "0.3.0")
    out = tmp_path / "earlier"
    small = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"  # one wager: the version is tested, not the document
    made = run_cli("certify", small, "--out", out, "--date", DATE, "--sign", lab / "trey-signing-key.pem")
    assert made.exit_code == 0, made.stderr
    monkeypatch.undo()
    earlier = out / "40-30-6-4-1.certificate.pdf"
    result = run_cli("verify", earlier, *trust(lab))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(
        "; pages not compared (issued by trey 0.3.0, which lays them out otherwise): the trusted signature vouches "
        "for them\n"
    )
    assert run_cli("verify", earlier).stderr.startswith(f"error: {earlier}: its data verifies, but its pages were")
