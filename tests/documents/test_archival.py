"""Certificates that last: a version policy for verification, and schemas that standard validators use alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from conftest import PAYTABLES, REPO, STANDARD, embedded_fonts, run_cli
from trey import __version__
from trey.trust.certificate import content_id

SCHEMAS = REPO / "src" / "trey" / "schemas"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("outputs")
    assert run_cli("certify", STANDARD, "--out", out, "--date", "2026-01-01", "--simulate", "20000").exit_code == 0
    (out / "analysis.json").write_text(run_cli("analyze", STANDARD, "--format", "json").stdout)
    (out / "simulation.json").write_text(run_cli("simulate", STANDARD, "--rounds", "5000", "--format", "json").stdout)
    (out / "hand.json").write_text(run_cli("hand", STANDARD, "Q-6-3", "--seen", "7h", "--format", "json").stdout)
    return out


def check_jsonschema(schema: str, instance: Path) -> tuple[int, str]:
    """``check-jsonschema --schemafile schemas/SCHEMA.schema.json INSTANCE``: its exit code and output. Its command
    is run in this process (a process of its own spent a third of a second importing it, eight times)."""
    from check_jsonschema import main
    from click.testing import CliRunner

    result = CliRunner().invoke(main, ["--schemafile", str(SCHEMAS / f"{schema}.schema.json"), str(instance)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a crash is not the validator's verdict
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ("certificate", "standard.certificate.json"),
        ("analysis", "analysis.json"),
        ("simulation", "simulation.json"),
        ("hand", "hand.json"),
    ],
)
def test_check_jsonschema_validates_the_outputs_with_the_shipped_schemas(
    outputs: Path, schema: str, instance: str
) -> None:
    """A standard validator, given only the schemas/ folder (the schemas refer to each other by file name)."""
    code, output = check_jsonschema(schema, outputs / instance)
    assert code == 0, output
    assert "ok -- validation done" in output
    broken = json.loads((outputs / instance).read_text())
    broken[{"certificate": "analysis", "hand": "normal"}.get(schema, "wagers")] = "nothing"
    (outputs / f"broken-{instance}").write_text(json.dumps(broken))
    assert check_jsonschema(schema, outputs / f"broken-{instance}")[0] == 1


def _reissued(outputs: Path, change: object) -> Path:
    data = json.loads((outputs / "standard.certificate.json").read_text())
    change(data)  # type: ignore[operator]
    data["certificate_id"] = content_id(data)
    path = outputs / "reissued.json"
    path.write_text(json.dumps(data))
    return path


def test_a_certificate_from_an_earlier_version_verifies_when_every_figure_agrees(outputs: Path) -> None:
    def earlier(data: dict[str, object]) -> None:
        data["trey_version"] = "0.1.9"
        data["analysis"]["trey_version"] = "0.1.9"  # type: ignore[index]

    path = _reissued(outputs, earlier)
    result = run_cli("verify", path)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(", overall PASS (generic profile), issued by trey 0.1.9; not signed\n")


ADDED = ("rtp_range", "by_hand", "dealer_qualifies")  # issue 30: figures added to a wager's analysis


def _issued_before_the_added_figures(data: dict[str, Any]) -> None:
    data["simulation"] = None  # not re-run here: the point is the analysis
    for wager in data["analysis"]["wagers"].values():
        for key in ADDED:
            wager.pop(key, None)


def test_a_certificate_issued_before_figures_were_added_verifies_and_one_that_has_them_must_agree(
    outputs: Path,
) -> None:
    """The JSON gained the range of the realised RTP, the outcomes by hand and the dealer's qualifying without a
    change of format: a certificate without them (as issued before) still verifies; one with them is held to them."""
    result = run_cli("verify", _reissued(outputs, _issued_before_the_added_figures))
    assert result.exit_code == 0, result.stderr

    def changed(data: dict[str, Any]) -> None:
        _issued_before_the_added_figures(data)
        data["analysis"]["wagers"]["ante_play"]["dealer_qualifies"] = "7/10"  # a forger's better qualifying rate

    result = run_cli("verify", _reissued(outputs, changed))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1:] == ["  analysis.wagers.ante_play.dealer_qualifies"]

    def one_row_less(data: dict[str, Any]) -> None:
        data["simulation"] = None
        data["analysis"]["wagers"]["ante_play"]["by_hand"].pop()

    result = run_cli("verify", _reissued(outputs, one_row_less))
    assert (result.exit_code, result.stderr.splitlines()[1:]) == (1, ["  analysis.wagers.ante_play.by_hand"])

    def figure_removed(data: dict[str, Any]) -> None:  # a figure every certificate has is never excused
        _issued_before_the_added_figures(data)
        del data["analysis"]["wagers"]["pair_plus"]["variance"]

    result = run_cli("verify", path := _reissued(outputs, figure_removed))
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {path}: not a valid certificate: $.analysis.wagers.pair_plus: 'variance' is a required property "
        "(the file does not follow schemas/certificate.schema.json)\n",
    )


def test_a_certificate_of_a_newer_format_is_refused_first(outputs: Path) -> None:
    def newer(data: dict[str, object]) -> None:
        data["certificate_format"] = 5
        data["trey_version"] = "9.0.0"
        data["something_new"] = {"the": "future"}

    path = _reissued(outputs, newer)
    result = run_cli("verify", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {path}: the certificate is of format 5 (written by trey 9.0.0); this trey {__version__} reads formats "
        "2, 3 and 4 "
        "(verify it with the trey that issued it, or a newer one)\n"
    )


def test_a_certificate_of_the_format_before_the_progressive_names_is_refused_with_what_changed(outputs: Path) -> None:
    def older(data: dict[str, object]) -> None:
        data["certificate_format"] = 1
        data["trey_version"] = "0.2.0"

    path = _reissued(outputs, older)
    result = run_cli("verify", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {path}: the certificate is of format 1 (written by trey 0.2.0); this trey {__version__} reads formats "
        "2, 3 and 4 "
        "(format 2 names every progressive figure for what it is (rtp_at_reset and long_run_rtp for a lone bettor, "
        "..._with_envy with the assumed bettors) and judges a floor on the RTP at the reset: verify it with the trey "
        "that issued it, or certify the paytable again)\n"
    )


# --- signatures ----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def keys(lab_keys: Path) -> Path:
    """keygen's key and certificate (conftest: made and checked once per process, shared with the PDF forgeries)."""
    return lab_keys


@pytest.fixture(scope="module")
def signed(signed_standard: Path) -> Path:
    """The standard certificate signed with ``keys`` (conftest: rendered once per process)."""
    return signed_standard / "standard.certificate.json"


def test_keygen_writes_a_private_key_only_its_owner_reads(keys: Path) -> None:
    from cryptography import x509

    assert (keys / "trey-signing-key.pem").stat().st_mode & 0o777 == 0o600
    public = (keys / "trey-signing-cert.pem").read_text().splitlines()
    assert public[0] == "Signer: Example Lab"
    assert public[1].startswith("Fingerprint: SHA256:") and len(public[1]) == len("Fingerprint: SHA256:") + 64
    certificate = x509.load_pem_x509_certificate((keys / "trey-signing-cert.pem").read_bytes())
    assert certificate.subject.rfc4514_string() == "O=Example Lab,CN=Example Lab" == certificate.issuer.rfc4514_string()
    assert certificate.signature_algorithm_oid.dotted_string == "1.2.840.10045.4.3.2"  # ecdsa-with-SHA256
    result = run_cli("keygen", "--out", keys)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: would overwrite {keys / 'trey-signing-key.pem'}, ")


def test_a_trusted_signature_verifies(signed: Path, keys: Path) -> None:
    data = json.loads(signed.read_text())
    fingerprint = data["signature"]["fingerprint"]
    assert (data["signature"]["algorithm"], data["signature"]["signer"]) == ("ECDSA-P256-SHA256", "Example Lab")
    result = run_cli("verify", signed, "--trust", keys / "trey-signing-cert.pem")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(f"; signed by Example Lab ({fingerprint}), a trusted key\n")
    result = run_cli("verify", signed)
    assert result.exit_code == 0
    assert result.stdout.endswith(
        f"; signed by a key not verified ({fingerprint}, which calls itself Example Lab; give its certificate "
        "with --trust)\n"
    )
    cover = "".join(PdfReader(signed.with_suffix(".pdf")).pages[0].extract_text().split())  # the key wraps
    assert f"SignedbyExampleLab(ECDSA-P256-SHA256,key{fingerprint});thePDFcarriesthelab'sPDFsignature" in cover


def test_signing_is_deterministic(tmp_path: Path, signed: Path, keys: Path) -> None:
    args = ["certify", STANDARD, "--out", tmp_path, "--date", "2026-01-01", "--sign", keys / "trey-signing-key.pem"]
    assert run_cli(*args).exit_code == 0
    for kind in ("json", "html", "pdf"):
        assert (tmp_path / f"standard.certificate.{kind}").read_bytes() == signed.with_suffix(f".{kind}").read_bytes()


def test_each_signature_failure_has_its_own_message(tmp_path: Path, signed: Path, keys: Path) -> None:
    other = tmp_path / "other"
    assert run_cli("keygen", "--out", other, "--name", "Someone Else").exit_code == 0
    trust_other = ["--trust", other / "trey-signing-cert.pem"]
    data = json.loads(signed.read_text())
    who = f"Example Lab ({data['signature']['fingerprint']})"
    result = run_cli("verify", signed, *trust_other)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {signed}: the certificate is signed by a key you do not trust ({data['signature']['fingerprint']}, "
        "which calls itself Example Lab) (check the key with the lab, then give its certificate with --trust)\n",
    )
    unsigned = tmp_path / "unsigned.json"
    unsigned.write_text(json.dumps({k: v for k, v in data.items() if k != "signature"}))
    result = run_cli("verify", unsigned, *trust_other)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {unsigned}: the certificate is not signed (ask the lab for a signed certificate)\n",
    )
    assert run_cli("verify", unsigned).stdout.endswith("; not signed\n")
    forged = dict(data, issue_date="2026-02-01")
    forged["certificate_id"] = content_id(forged)  # a forger recomputes the ID, but cannot re-sign
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    result = run_cli("verify", path, "--trust", keys / "trey-signing-cert.pem")
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {path}: the signature does not match the certificate's content (it names {who}) "
        "(the certificate was changed after it was signed, or the signature is not by the key it names)\n",
    )


def test_an_encrypted_key_needs_its_passphrase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TREY_KEY_PASSPHRASE", "correct horse")
    assert run_cli("keygen", "--out", tmp_path / "k", "--name", "Locked Lab").exit_code == 0
    key = tmp_path / "k" / "trey-signing-key.pem"
    assert b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in key.read_bytes()
    small = PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml"  # one wager: the key is what is tested, not the document
    args = ["certify", small, "--out", tmp_path / "c", "--date", "2026-01-01", "--sign", key]
    monkeypatch.delenv("TREY_KEY_PASSPHRASE")
    result = run_cli(*args)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {key} is encrypted (set TREY_KEY_PASSPHRASE, or run on a terminal to be asked for the passphrase)\n",
    )
    monkeypatch.setenv("TREY_KEY_PASSPHRASE", "wrong")
    assert run_cli(*args).stderr == f"error: {key}: cannot open the private key (check the file and the passphrase)\n"
    monkeypatch.setenv("TREY_KEY_PASSPHRASE", "correct horse")
    assert run_cli(*args).exit_code == 0


# --- the PDF as the evidence ----------------------------------------------------------------------------------------


_LAID_OUT: dict[str, Any] = {}  # the pages laid out once per HTML: only the embedded files differ between forgeries


def _rebuilt_pdf(
    signed: Path, target: Path, *, html: str | None = None, data: bytes | None = None, paytable: bytes | None = None
) -> Path:
    """The certificate's PDF made again by trey's own renderer, with one part replaced (html_to_pdf in its two steps,
    the layout kept for the next forgery of the same page)."""
    from datetime import date

    from trey.documents.pdf import ARCHIVAL, Embedded, document_to_pdf, render_document

    evidence = (
        Embedded("standard.certificate.json", data or signed.read_bytes(), "data"),
        Embedded("standard.yaml", paytable or STANDARD.read_bytes(), "paytable", "Source"),
    )
    page = html or signed.with_suffix(".html").read_text()
    if page not in _LAID_OUT:
        _LAID_OUT[page] = render_document(page, ARCHIVAL)
    target.write_bytes(document_to_pdf(_LAID_OUT[page], date(2026, 1, 1), variant=ARCHIVAL, embedded=evidence))
    return target


def test_the_pdf_alone_verifies(signed: Path, keys: Path) -> None:
    pdf = signed.with_suffix(".pdf")
    result = run_cli("verify", pdf, "--trust", keys / "trey-signing-cert.pem")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{pdf}: verified; certificate ")
    fingerprint = json.loads(signed.read_text())["signature"]["fingerprint"]
    assert result.stdout.endswith(f"; the PDF is signed by Example Lab ({fingerprint}), a trusted key\n")


def test_the_pdf_is_pdf_a_3b_with_every_font_embedded(signed: Path) -> None:
    reader = PdfReader(signed.with_suffix(".pdf"))
    metadata = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
    assert 'pdfaid:part="3"' in metadata and 'pdfaid:conformance="B"' in metadata
    assert "/OutputIntents" in reader.trailer["/Root"]
    assert sorted(reader.attachments) == ["standard.certificate.json", "standard.yaml"]
    assert reader.attachments["standard.certificate.json"][0] == signed.read_bytes()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            described = descendants[0].get_object() if descendants else font
            descriptor = described["/FontDescriptor"].get_object()
            assert any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")), font
    # trey's own fonts, the charts' text included
    assert embedded_fonts(signed.with_suffix(".pdf")) == {"Trey-Sans", "Trey-Sans-Bold", "Trey-Sans-Mono"}


def test_an_altered_embedded_certificate_fails(tmp_path: Path, signed: Path) -> None:
    data = json.loads(signed.read_text())
    data["analysis"]["wagers"]["pair_plus"]["rtp"] = "99/100"
    data["certificate_id"] = content_id(data)
    pdf = _rebuilt_pdf(signed, tmp_path / "data.pdf", data=json.dumps(data).encode())
    result = run_cli("verify", pdf)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {pdf}: the signature does not match the certificate's content")
    unsigned = {k: v for k, v in data.items() if k != "signature"}
    pdf = _rebuilt_pdf(signed, tmp_path / "unsigned.pdf", data=json.dumps(unsigned).encode())
    lines = run_cli("verify", pdf).stderr.splitlines()
    assert "  analysis.wagers.pair_plus.rtp" in lines


def test_an_altered_embedded_paytable_fails(tmp_path: Path, signed: Path) -> None:
    changed = STANDARD.read_bytes().replace(b"    pair: 1\n", b"    pair: 2\n")
    pdf = _rebuilt_pdf(signed, tmp_path / "paytable.pdf", paytable=changed)
    lines = run_cli("verify", pdf).stderr.splitlines()
    assert lines[1:] == [
        "  paytable.canonical (the file given with --paytable describes another game than the certificate)",
        "  paytable.sha256 (the file given with --paytable has another SHA-256)",
    ]


def test_altered_visible_figures_fail(tmp_path: Path, signed: Path) -> None:
    page = signed.with_suffix(".html").read_text()
    assert page.count("96.6270% (19671831/20358520)") >= 1
    forged = page.replace("96.6270% (19671831/20358520)", "97.6270% (19671831/20358520)")
    pdf = _rebuilt_pdf(signed, tmp_path / "visible.pdf", html=forged)
    result = run_cli("verify", pdf)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {pdf}: the text of page(s) 5 is not the certificate's: page 5 reads …ikelydealsReturntoplayer(RTP)"
        "97.6270%(19671831/20358520)Hous… where a fresh rendering has …ikelydealsReturntoplayer(RTP)96.6270%"
        "(19671831/20358520)Hous… (the visible text was changed after the certificate was issued)\n"
    )


def test_the_library_verifies_as_the_command_does(signed: Path, keys: Path) -> None:
    """``trey.verify`` gives the sentence ``trey verify`` prints; the command only prints it."""
    import trey
    from trey.trust.signing import load_trusted

    trusted = [load_trusted(keys / "trey-signing-cert.pem")]
    for path in (signed, signed.with_suffix(".pdf")):
        result = trey.verify(path, trusted=trusted)
        assert run_cli("verify", path, "--trust", keys / "trey-signing-cert.pem").stdout == result.summary + "\n"
        assert result.certificate.certificate_id == json.loads(signed.read_text())["certificate_id"]


def test_a_pdf_verified_where_nothing_was_rendered_is_laid_out_afresh(
    signed: Path, keys: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verifying where certify ran reuses its layout of the same pages (trey.documents.pdf_evidence); a fresh process
    has none. With both caches emptied the pages are laid out again, and each is the PDF's page object for object,
    so no page's text needs extracting."""
    from trey.documents import pdf, pdf_evidence

    monkeypatch.setattr(pdf_evidence, "_RENDERED", {})
    monkeypatch.setattr(pdf_evidence, "_FRESH", {})
    laid_out: list[str] = []
    render = pdf.html_to_pdf

    def counted(html: str, *args: Any, **kwargs: Any) -> bytes:
        laid_out.append(html)
        return render(html, *args, **kwargs)

    monkeypatch.setattr(pdf, "html_to_pdf", counted)
    result = run_cli("verify", signed.with_suffix(".pdf"), "--trust", keys / "trey-signing-cert.pem")
    assert result.exit_code == 0, result.stderr
    assert laid_out == [signed.with_suffix(".html").read_text()]
    (fresh,) = pdf_evidence._FRESH.values()
    assert fresh._texts == {}


def test_the_certificate_trey_0_4_0_issued_still_verifies() -> None:
    """Issue 30 changed the certificate's pages (numbered sections, a return column, the RTP's range): every figure
    of a certificate 0.4.0 issued still verifies, but its PDF's pages, laid out by 0.4.0, cannot be compared with
    this trey's layout, so the PDF alone verifies only when a trusted signature vouches for its pages."""
    release = Path(__file__).resolve().parents[1] / "data" / "release-0.4.0"
    data = run_cli("verify", release / "standard.certificate.json")
    assert (data.exit_code, data.stdout) == (
        0,
        f"{release / 'standard.certificate.json'}: verified; certificate 58833469da8e, overall PASS (generic "
        "profile), issued by trey 0.4.0; not signed\n",
    )
    pdf = run_cli("verify", release / "standard.certificate.pdf")
    assert (pdf.exit_code, pdf.stdout) == (1, "")
    assert pdf.stderr == (
        f"error: {release / 'standard.certificate.pdf'}: its data verifies, but its pages were laid out by trey "
        f"0.4.0, which this trey {__version__} cannot compare them with, and no trusted signature vouches for them "
        "(verify its .certificate.json for the figures, or give the lab's certificate with --trust, whose signature "
        "then vouches for the pages)\n"
    )
