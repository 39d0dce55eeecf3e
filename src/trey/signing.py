"""Signing certificates with Ed25519 (the ``cryptography`` package): who issued a certificate, not only that it
is intact.

A key pair is two PEM files. The private key (mode 0600; encrypted when a passphrase was given) and the public key
each start with a line naming the signer; the public key's file also states its fingerprint, the SHA-256 of the raw
32-byte public key. A signed certificate carries a ``signature`` block: the algorithm, the signer's name, the
fingerprint, the public key, and the signature of the canonical JSON of everything else in the certificate.
Ed25519 signatures are deterministic: the same certificate and key give the same signature, so signed reports stay
byte-reproducible.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from trey.errors import TreyError
from trey.files import display_name, read_bounded
from trey.text import hidden_control

PRIVATE_KEY_FILE = "trey-signing-key.pem"
PUBLIC_KEY_FILE = "trey-signing-key.pub.pem"
PASSPHRASE_VARIABLE = "TREY_KEY_PASSPHRASE"
ALGORITHM = "Ed25519"
MAX_KEY_BYTES = 64 * 1024


@dataclass(frozen=True)
class Signer:
    name: str
    key: Any  # Ed25519PrivateKey

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.key.public_key())


def _raw(public_key: Any) -> bytes:
    from cryptography.hazmat.primitives import serialization

    raw: bytes = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw


def fingerprint_of(public_key: Any) -> str:
    """``SHA256:`` and the hex SHA-256 of the raw public key."""
    return "SHA256:" + hashlib.sha256(_raw(public_key)).hexdigest()


def _checked_name(name: str) -> str:
    if not name.strip() or hidden_control(name) is not None or "\n" in name or len(name) > 200:
        raise TreyError(f"the signer's name {name!r} cannot go on a certificate", hint="one line of printable text")
    return name.strip()


def key_files(name: str, passphrase: bytes | None = None) -> dict[str, bytes]:
    """A new key pair as the two files' contents (private key encrypted with ``passphrase`` when given)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    signer = _checked_name(name)
    key = Ed25519PrivateKey.generate()
    encryption: Any = serialization.BestAvailableEncryption(passphrase) if passphrase else serialization.NoEncryption()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    header = f"Signer: {signer}\n".encode()
    return {
        PRIVATE_KEY_FILE: header + private,
        PUBLIC_KEY_FILE: header + f"Fingerprint: {fingerprint_of(key.public_key())}\n".encode() + public,
    }


def _signer_name(text: bytes, path: Path) -> str:
    first = text.split(b"\n", 1)[0].decode("utf-8", "replace")
    if not first.startswith("Signer: "):
        raise TreyError(f"{display_name(path)}: no 'Signer:' line", hint="give a key file written by trey keygen")
    return _checked_name(first.removeprefix("Signer: "))


def load_signer(path: Path, ask: Callable[[], str] | None = None) -> Signer:
    """The private key of ``path``; an encrypted one is opened with ``$TREY_KEY_PASSPHRASE`` or ``ask()`` (a
    prompt on a terminal), never a command-line argument."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    text = read_bounded(path, limit=MAX_KEY_BYTES, what="a private key file")
    name = _signer_name(text, path)
    password = None
    if b"ENCRYPTED" in text:
        secret = os.environ.get(PASSPHRASE_VARIABLE) or (ask() if ask is not None else None)
        if not secret:
            raise TreyError(
                f"{display_name(path)} is encrypted",
                hint=f"set {PASSPHRASE_VARIABLE}, or run on a terminal to be asked for the passphrase",
            )
        password = secret.encode()
    try:
        key = serialization.load_pem_private_key(text, password=password)
    except (ValueError, TypeError):
        raise TreyError(
            f"{display_name(path)}: cannot open the private key", hint="check the file and the passphrase"
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise TreyError(f"{display_name(path)} is not an Ed25519 key", hint="give a key file written by trey keygen")
    return Signer(name, key)


def load_public_key(path: Path) -> tuple[str, Any]:
    """(signer, public key) of a public key file."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    text = read_bounded(path, limit=MAX_KEY_BYTES, what="a public key file")
    name = _signer_name(text, path)
    try:
        key = serialization.load_pem_public_key(text)
    except ValueError:
        raise TreyError(f"{display_name(path)}: cannot read the public key", hint="give a .pub.pem file") from None
    if not isinstance(key, Ed25519PublicKey):
        raise TreyError(f"{display_name(path)} is not an Ed25519 public key", hint="give a .pub.pem file")
    return name, key


def signature_block(signer: Signer, content: bytes) -> dict[str, str]:
    return {
        "algorithm": ALGORITHM,
        "signer": signer.name,
        "fingerprint": signer.fingerprint,
        "public_key": base64.b64encode(_raw(signer.key.public_key())).decode(),
        "value": base64.b64encode(signer.key.sign(content)).decode(),
    }


class SignatureStatus(StrEnum):
    UNSIGNED = "unsigned"
    INVALID = "invalid"  # the signature is not over this content (or not by the key it names)
    TRUSTED = "trusted"  # a trusted key signed exactly this content
    UNTRUSTED = "untrusted"  # valid, by a key not among the trusted ones


def check_signature(block: dict[str, str] | None, content: bytes, trusted: list[Any]) -> SignatureStatus:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if block is None:
        return SignatureStatus.UNSIGNED
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(block["public_key"], validate=True))
        if fingerprint_of(key) != block["fingerprint"]:
            return SignatureStatus.INVALID
        key.verify(base64.b64decode(block["value"], validate=True), content)
    except (InvalidSignature, ValueError):
        return SignatureStatus.INVALID
    return SignatureStatus.TRUSTED if any(_raw(t) == _raw(key) for t in trusted) else SignatureStatus.UNTRUSTED
