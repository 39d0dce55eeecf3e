"""The commands of certification: certify, verify and keygen."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from trey.cli.app import (
    DateOption,
    Force,
    OutDir,
    Paper,
    PaytableFile,
    Scheduler,
    Seed,
    Workers,
    app,
    made,
    parse_date,
    say,
    say_error,
    user_errors,
    write_files,
)


@app.command()
@user_errors
def certify(
    file: PaytableFile,
    out: OutDir,
    issue_date: DateOption = None,
    profile: Annotated[
        str,
        typer.Option("--profile", help="Compliance profile: generic, rng-85, example-approved, or a profile file."),
    ] = "generic",
    paper: Annotated[Paper, typer.Option("--paper", help="a4 or letter.")] = Paper.A4,
    force: Force = False,
    simulate_rounds: Annotated[
        int | None, typer.Option("--simulate", min=1, help="Add a simulation of N rounds.", show_default=False)
    ] = None,
    seed: Seed = 1,
    workers: Workers = 1,
    scheduler: Scheduler = None,
    sign: Annotated[
        Path | None,
        typer.Option(
            "--sign",
            help="Sign with this key: trey keygen's, a PEM key with its certificate, or PKCS#12.",
            show_default=False,
        ),
    ] = None,
    sign_cert: Annotated[
        Path | None,
        typer.Option(
            "--sign-cert", help="The key's certificate (and its CA's), when not in the key file.", show_default=False
        ),
    ] = None,
    protection: Annotated[
        bool, typer.Option("--protection", help="Add a game protection section (trey protect's exact figures).")
    ] = False,
) -> None:
    """Write a regulator-style certificate: FILE-stem.certificate.html, .pdf and .json in DIR."""
    from trey.core.outputs import refuse_existing
    from trey.documents.make import certify as make_certificate
    from trey.paytable.load import read_file
    from trey.trust.certificate import SimulationOptions, default_issue_date

    when = parse_date(issue_date) or default_issue_date()
    refuse_existing(
        out, [f"{file.stem}.certificate.{kind}" for kind in ("html", "pdf", "json")], force=force, option="--out"
    )
    signer = None
    if sign is not None:
        from trey.trust.signing import load_signer

        signer = load_signer(sign, _ask_passphrase, sign_cert)
    elif sign_cert is not None:
        raise typer.BadParameter("--sign-cert goes with --sign KEY")
    raw = read_file(file)  # the bytes once: their size and SHA-256 go on the certificate
    simulation = SimulationOptions(simulate_rounds, seed, workers, scheduler) if simulate_rounds else None
    documents = made(
        lambda: make_certificate(
            raw,
            file.name,
            issue_date=when,
            profile=profile,
            paper=paper.value,
            simulation=simulation,
            signer=signer,
            source=str(file),
            protection=protection,
        )
    )
    files = documents.files
    order = sorted(files, key=lambda name: ("json", "html", "pdf").index(name.rsplit(".", 1)[1]))
    for path in write_files(out, {name: files[name] for name in order}, force=force):
        say(str(path))
    cert = documents.certificate
    if cert.family is not None and cert.spec.table is not None and cert.spec.table.has_mix:
        say_error(  # said, never silently left out
            f"note: {cert.spec.name}: the table's money (table: seats, occupancy, side_bets) is worked out for "
            "standard Three Card Poker; not in the certificate"
        )
    verdict = cert.data["overall"]
    say_error(f"certificate {cert.certificate_id}: overall {verdict} ({cert.profile_label})")
    if verdict != "PASS":
        raise typer.Exit(1)


@app.command()
@user_errors
def verify(
    certificate: Annotated[
        Path, typer.Argument(help="The certificate: its .json or its .pdf.", show_default=False, metavar="CERT")
    ],
    paytable: Annotated[
        Path | None, typer.Option("--paytable", help="Also check this paytable file against the certificate.")
    ] = None,
    allow_rounds: Annotated[
        int,
        typer.Option(
            "--allow-rounds",
            min=1,
            max=10**10,
            help="Re-run a certificate's simulation of up to N rounds (default 100,000,000).",
        ),
    ] = 100_000_000,
    workers: Workers = 1,
    scheduler: Scheduler = None,
    trust: Annotated[
        list[Path] | None,
        typer.Option(
            "--trust",
            help="A lab's certificate or public key, or its CA's, that you trust (repeatable): the certificate must "
            "be signed by one.",
        ),
    ] = None,
    log: Annotated[
        list[Path] | None,
        typer.Option(
            "--log",
            help="A hand history a signed audit report names (repeatable): the audit is run again on them and "
            "compared with the report's.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Recompute a certificate from the paytable inside it, or check a signed audit report (and, given its hand
    histories with --log, audit them again). Exit 1 naming each field that differs."""
    from trey.documents.audit_verify import is_audit_report, verify_audit_report
    from trey.documents.verify import verify as run_verification
    from trey.trust.signing import load_trusted

    trusted = [load_trusted(path) for path in trust or []]
    if is_audit_report(certificate):
        say(verify_audit_report(certificate, log, trusted=trusted).summary)
        return
    if log:
        raise typer.BadParameter("--log goes with a signed audit report (trey audit --out DIR --sign KEY)")
    result = run_verification(
        certificate, paytable, allow_rounds=allow_rounds, workers=workers, scheduler=scheduler, trusted=trusted
    )
    say(result.summary)


def _ask_passphrase() -> str:
    """The passphrase of an encrypted key, asked on the terminal (never taken from the command line)."""
    if not sys.stdin.isatty():
        return ""
    import getpass

    return getpass.getpass("passphrase of the signing key: ")


@app.command()
@user_errors
def keygen(
    out: OutDir,
    name: Annotated[str, typer.Option("--name", help="The signer, as certificates will name it.")] = "trey signer",
    force: Force = False,
) -> None:
    """Write an ECDSA P-256 key for signing certificates (mode 0600, with its self-signed certificate) and the
    certificate alone, for those who verify.

    The private key is encrypted when TREY_KEY_PASSPHRASE is set."""
    import os

    from trey.core.outputs import refuse_existing
    from trey.trust.signing import CERTIFICATE_FILE, PASSPHRASE_VARIABLE, PRIVATE_KEY_FILE, key_files

    refuse_existing(out, [PRIVATE_KEY_FILE, CERTIFICATE_FILE], force=force, option="--out")
    passphrase = os.environ.get(PASSPHRASE_VARIABLE)
    files = key_files(name, passphrase.encode() if passphrase else None)
    written = write_files(
        out,
        files,
        force=force,
        modes={PRIVATE_KEY_FILE: 0o600},
    )
    for path in written:
        say(str(path))
