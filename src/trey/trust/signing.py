"""Who issued a certificate: a lab's key and its X.509 certificate, the JSON's signature, and the keys a verifier
trusts.

A lab signs with ECDSA on the P-256 curve (SHA-256), or with an RSA key its CA issued a certificate for. ECDSA P-256
is what PDF readers validate everywhere (Adobe Acrobat and Reader, Foxit, pdf.js-based viewers and pyHanko; EdDSA
entered PDF signatures only with ISO 32002 and most readers do not validate it), and signed with RFC 6979's
deterministic nonces it gives the same signature for the same content and key, so a signed certificate stays
byte-reproducible.

``trey keygen`` writes the private key (mode 0600; encrypted when a passphrase is given), followed by a self-signed
certificate naming the lab, and the certificate alone for verifiers. Each file starts with a ``Signer:`` line, the
certificate's with a ``Fingerprint:`` line: ``SHA256:`` and the hex SHA-256 of the DER SubjectPublicKeyInfo.

A signed certificate JSON carries a ``signature`` block: the algorithm, the signer's claimed name, the fingerprint,
the public key, and the signature of the canonical JSON of everything else, the block itself (but its value)
included, so that no word of the block can be changed either. The name a verifier is told comes from the trusted
key that matched, never from the block.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from trey.core.errors import TreyError
from trey.core.files import display_name, read_bounded
from trey.core.glyphs import first_unprintable
from trey.core.text import hidden_control, printable

PRIVATE_KEY_FILE = "trey-signing-key.pem"
CERTIFICATE_FILE = "trey-signing-cert.pem"
PASSPHRASE_VARIABLE = "TREY_KEY_PASSPHRASE"
MAX_KEY_BYTES = 64 * 1024
ECDSA = "ECDSA-P256-SHA256"
RSA = "RSA-PKCS1v15-SHA256"
# A self-signed certificate's validity: long before any certificate trey issues, long after it is filed.
VALID_FROM = datetime(2000, 1, 1, tzinfo=UTC)
VALID_UNTIL = datetime(2100, 1, 1, tzinfo=UTC)

_PEM_BLOCK = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----\r?\n(.*?)-----END \1-----", re.S)


@dataclass(frozen=True)
class Signer:
    """A lab's private key, its certificate and the certificates that chain it to a CA (none: self-signed)."""

    name: str
    key: Any  # an EllipticCurvePrivateKey on P-256, or an RSAPrivateKey
    certificate: Any  # cryptography.x509.Certificate
    chain: tuple[Any, ...] = ()

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.key.public_key())

    @property
    def algorithm(self) -> str:
        return algorithm_of(self.key.public_key())

    def sign(self, content: bytes) -> bytes:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec, padding

        if self.algorithm == ECDSA:
            return bytes(self.key.sign(content, ec.ECDSA(hashes.SHA256(), deterministic_signing=True)))
        return bytes(self.key.sign(content, padding.PKCS1v15(), hashes.SHA256()))


@dataclass(frozen=True)
class TrustedKey:
    """A key a verifier trusts: the name its trust file gives, the public key, the certificate when one was given."""

    name: str
    public_key: Any
    certificate: Any | None

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.public_key)


def _spki(public_key: Any) -> bytes:
    from cryptography.hazmat.primitives import serialization

    der: bytes = public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return der


def fingerprint_of(public_key: Any) -> str:
    """``SHA256:`` and the hex SHA-256 of the key's DER SubjectPublicKeyInfo."""
    return "SHA256:" + hashlib.sha256(_spki(public_key)).hexdigest()


def algorithm_of(public_key: Any) -> str:
    """The signature algorithm trey uses with this key; a key of any other kind is refused by its readers."""
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    if isinstance(public_key, ec.EllipticCurvePublicKey) and public_key.curve.name == "secp256r1":
        return ECDSA
    if isinstance(public_key, rsa.RSAPublicKey) and public_key.key_size >= 2048:
        return RSA
    raise ValueError("not an ECDSA P-256 or RSA (2048 bits or more) key")


def _checked_name(name: str) -> str:
    bad = not name.strip() or hidden_control(name) is not None or "\n" in name or len(name) > 200
    if bad or first_unprintable(name) is not None:
        raise TreyError(
            f"the signer's name {printable(name)!r} cannot go on a certificate",
            hint="one line of at most 200 letters in Latin, Greek or Cyrillic (what the certificate's fonts print)",
        )
    return name.strip()


def self_signed_certificate(name: str, key: Any) -> Any:
    """A certificate for ``key`` naming the lab as its subject and issuer, for signing documents."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    subject = x509.Name(
        [x509.NameAttribute(NameOID.COMMON_NAME, name), x509.NameAttribute(NameOID.ORGANIZATION_NAME, name)]
    )
    serial = int.from_bytes(hashlib.sha256(_spki(key.public_key())).digest()[:16], "big") >> 1
    usage = x509.KeyUsage(
        digital_signature=True,
        content_commitment=True,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=False,
        crl_sign=False,
        encipher_only=False,
        decipher_only=False,
    )
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(serial)
        .not_valid_before(VALID_FROM)
        .not_valid_after(VALID_UNTIL)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(usage, critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.EMAIL_PROTECTION]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )
    return builder.sign(key, hashes.SHA256())


def key_files(name: str, passphrase: bytes | None = None) -> dict[str, bytes]:
    """A new key and its self-signed certificate as the two files' contents: the private key file (the key,
    encrypted with ``passphrase`` when given, then the certificate) and the certificate file for verifiers."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    signer = _checked_name(name)
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = self_signed_certificate(signer, key).public_bytes(serialization.Encoding.PEM)
    encryption: Any = serialization.BestAvailableEncryption(passphrase) if passphrase else serialization.NoEncryption()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    header = f"Signer: {signer}\n".encode()
    return {
        PRIVATE_KEY_FILE: header + private + certificate,
        CERTIFICATE_FILE: header + f"Fingerprint: {fingerprint_of(key.public_key())}\n".encode() + certificate,
    }


def _headers(text: bytes) -> dict[str, str]:
    """The ``Name: value`` lines before a file's first PEM block."""
    found = {}
    for line in text.split(b"-----BEGIN", 1)[0].decode("utf-8", "replace").splitlines():
        key, colon, value = line.partition(": ")
        if colon:
            found[key] = value.strip()
    return found


def _blocks(text: bytes) -> list[tuple[str, bytes]]:
    """The PEM blocks of a file: (label, the whole block)."""
    return [(m[1].decode(), m[0]) for m in _PEM_BLOCK.finditer(text)]


def is_encrypted(text: bytes) -> bool:
    """Whether a PEM private key is encrypted, read from its structure: a PKCS#8 ``ENCRYPTED PRIVATE KEY`` block, or
    a legacy block with a ``Proc-Type: 4,ENCRYPTED`` header (never a word found anywhere in the file)."""
    for label, block in _blocks(text):
        if label == "ENCRYPTED PRIVATE KEY":
            return True
        if label.endswith("PRIVATE KEY") and re.search(rb"\nProc-Type: 4,ENCRYPTED\r?\n", block):
            return True
    return False


def _refuse_readable_by_others(path: Path) -> None:
    """As ssh does: a private key that others can read is not used."""
    mode = path.stat().st_mode
    if stat.S_ISREG(mode) and mode & 0o077:
        raise TreyError(
            f"{display_name(path)} can be read by others (mode {stat.S_IMODE(mode):04o}); a private key must be "
            "readable only by its owner",
            hint=f"chmod 600 {printable(str(path))}",
        )


def _passphrase(path: Path, ask: Callable[[], str] | None) -> bytes:
    secret = os.environ.get(PASSPHRASE_VARIABLE) or (ask() if ask is not None else None)
    if not secret:
        raise TreyError(
            f"{display_name(path)} is encrypted",
            hint=f"set {PASSPHRASE_VARIABLE}, or run on a terminal to be asked for the passphrase",
        )
    return secret.encode()


def _certificates(text: bytes, path: Path) -> list[Any]:
    from cryptography import x509

    try:
        return [x509.load_pem_x509_certificate(block) for label, block in _blocks(text) if label == "CERTIFICATE"]
    except ValueError:
        raise TreyError(
            f"{display_name(path)}: cannot read a certificate in it", hint="give PEM certificates"
        ) from None


def subject_name(certificate: Any) -> str:
    """The name a certificate gives its subject: its organisation, else its common name."""
    from cryptography.x509.oid import NameOID

    for oid in (NameOID.ORGANIZATION_NAME, NameOID.COMMON_NAME):
        values = certificate.subject.get_attributes_for_oid(oid)
        if values:
            return _checked_name(str(values[0].value))
    return _checked_name(certificate.subject.rfc4514_string())


def load_signer(path: Path, ask: Callable[[], str] | None = None, certificate_path: Path | None = None) -> Signer:
    """A lab's private key and certificate: a PEM file (the key, then its certificate and any CA certificates;
    or the certificates in ``certificate_path``), or a PKCS#12 file. An encrypted key is opened with
    ``$TREY_KEY_PASSPHRASE`` or ``ask()`` (a prompt on a terminal), never a command-line argument."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    text = read_bounded(path, limit=MAX_KEY_BYTES, what="a private key file")  # a regular file, bounded
    _refuse_readable_by_others(path)  # before its contents are used, as ssh checks
    try:
        if b"-----BEGIN" not in text:  # PKCS#12: its password protects the whole file
            secret = os.environ.get(PASSPHRASE_VARIABLE)
            key, certificate, chain = pkcs12.load_key_and_certificates(text, secret.encode() if secret else None)
            certificates = [certificate, *chain] if certificate is not None else [*chain]
        else:
            password = _passphrase(path, ask) if is_encrypted(text) else None
            key = serialization.load_pem_private_key(text, password=password)
            certificates = _certificates(text, path)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise TreyError(
            f"{display_name(path)}: cannot open the private key", hint="check the file and the passphrase"
        ) from None
    if certificate_path is not None:
        certificates = _certificates(
            read_bounded(certificate_path, limit=MAX_KEY_BYTES, what="a certificate file"), certificate_path
        )
    if key is None:
        raise TreyError(f"{display_name(path)} holds no private key", hint="give the lab's key and its certificate")
    try:
        algorithm_of(key.public_key())
    except ValueError:
        raise TreyError(
            f"{display_name(path)} is not an ECDSA P-256 or RSA key", hint="give a key written by trey keygen"
        ) from None
    mine = [c for c in certificates if _spki(c.public_key()) == _spki(key.public_key())]
    if not mine:
        raise TreyError(
            f"{display_name(path)}: no certificate for this key",
            hint="give the key's certificate in the same file, or with --sign-cert",
        )
    name = _headers(text).get("Signer") or subject_name(mine[0])
    return Signer(_checked_name(name), key, mine[0], tuple(c for c in certificates if c is not mine[0]))


def load_trusted(path: Path) -> TrustedKey:
    """A key a verifier trusts: one certificate (the lab's own, or the CA that issued it) or one public key. A
    ``Fingerprint:`` line must name that key, and a file with several keys is refused: which would be meant?"""
    from cryptography import x509
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization

    text = read_bounded(path, limit=MAX_KEY_BYTES, what="a trusted key file")
    blocks = [(label, block) for label, block in _blocks(text) if label in ("CERTIFICATE", "PUBLIC KEY")]
    if len(blocks) != 1:
        raise TreyError(
            f"{display_name(path)} holds {len(blocks)} keys or certificates",
            hint="give one certificate or public key a file (repeat --trust for several)",
        )
    label, block = blocks[0]
    try:
        certificate = x509.load_pem_x509_certificate(block) if label == "CERTIFICATE" else None
        public_key = certificate.public_key() if certificate is not None else serialization.load_pem_public_key(block)
        algorithm_of(public_key)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise TreyError(
            f"{display_name(path)}: not an ECDSA P-256 or RSA certificate or public key",
            hint="give the lab's certificate (trey-signing-cert.pem) or its CA's",
        ) from None
    headers = _headers(text)
    stated = headers.get("Fingerprint")
    if stated is not None and stated != fingerprint_of(public_key):
        raise TreyError(
            f"{display_name(path)}: its Fingerprint line ({printable(stated)}) is not the fingerprint of the key it "
            f"holds ({fingerprint_of(public_key)})",
            hint="the file was edited: ask the lab for its certificate again",
        )
    if "Signer" in headers:
        name = _checked_name(headers["Signer"])
    elif certificate is not None:
        name = subject_name(certificate)
    else:
        name = f"the key {fingerprint_of(public_key)}"
    return TrustedKey(name, public_key, certificate)


# --- the JSON's signature --------------------------------------------------------------------------------------------


def unsigned_block(signer: Signer) -> dict[str, str]:
    """The signature block without its value: what the signature covers besides the certificate's content."""
    return {
        "algorithm": signer.algorithm,
        "signer": signer.name,
        "fingerprint": signer.fingerprint,
        "public_key": base64.b64encode(_spki(signer.key.public_key())).decode(),
    }


class SignatureStatus(StrEnum):
    UNSIGNED = "unsigned"
    INVALID = "invalid"  # the signature is not over this content (or not by the key it names)
    TRUSTED = "trusted"  # a trusted key signed exactly this content
    UNTRUSTED = "untrusted"  # valid, by a key not among the trusted ones


@dataclass(frozen=True)
class SignatureCheck:
    status: SignatureStatus
    fingerprint: str = ""
    trusted: TrustedKey | None = None  # the trusted key that matched: the name a verifier is told comes from it


def check_signature(
    block: dict[str, str] | None, content: Callable[[dict[str, str]], bytes], trusted: list[TrustedKey]
) -> SignatureCheck:
    """``content(block without value)``: the bytes the signature must cover."""
    from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, padding

    if block is None:
        return SignatureCheck(SignatureStatus.UNSIGNED)
    try:
        key: Any = serialization.load_der_public_key(base64.b64decode(block["public_key"], validate=True))
        if fingerprint_of(key) != block["fingerprint"] or algorithm_of(key) != block["algorithm"]:
            return SignatureCheck(SignatureStatus.INVALID, block["fingerprint"])
        signed = content({k: v for k, v in block.items() if k != "value"})
        value = base64.b64decode(block["value"], validate=True)
        if block["algorithm"] == ECDSA:
            key.verify(value, signed, ec.ECDSA(hashes.SHA256()))
        else:
            key.verify(value, signed, padding.PKCS1v15(), hashes.SHA256())
    except (InvalidSignature, ValueError, TypeError, UnsupportedAlgorithm):
        return SignatureCheck(SignatureStatus.INVALID, str(block.get("fingerprint", "")))
    match = next((t for t in trusted if _spki(t.public_key) == _spki(key)), None)
    status = SignatureStatus.TRUSTED if match is not None else SignatureStatus.UNTRUSTED
    return SignatureCheck(status, fingerprint_of(key), match)
