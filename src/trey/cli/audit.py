"""The command of audits: audit (and the hand history simulate --log writes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from trey.audit.verdict import DEFAULT_ALPHA
from trey.cli.app import (
    DateOption,
    Force,
    OutputFormat,
    Paper,
    PaytableFile,
    Scheduler,
    app,
    made,
    parse_date,
    say_error,
    user_errors,
    write_files,
)
from trey.core.numbers import fraction_text


@app.command()
@user_errors
def audit(
    file: PaytableFile,
    logs: Annotated[
        list[str],
        typer.Argument(
            help="Hand histories: JSON Lines, CSV, Parquet (a file or a partitioned folder), or a database URL "
            "(sqlite:///rounds.db, postgresql+psycopg://...) with --query or --table.",
            show_default=False,
            metavar="LOG",
        ),
    ],
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the audit report (HTML, PDF) here.", show_default=False)
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size of the report.")] = Paper.A4,
    alpha: Annotated[
        str | None,
        typer.Option(
            "--alpha",
            help="Family-wise significance level of the statistical tests, Holm-corrected: 1e-6, 0.001 or 1/1000 "
            f"[default: {fraction_text(DEFAULT_ALPHA)}].",
            show_default=False,
        ),
    ] = None,
    mapping: Annotated[
        Path | None,
        typer.Option(
            "--mapping",
            help="A source's own column names, cards and money (YAML, trey's source-mapping schema).",
            show_default=False,
        ),
    ] = None,
    query: Annotated[
        str | None, typer.Option("--query", help="With a database URL: the query of its rounds.", show_default=False)
    ] = None,
    table: Annotated[
        str | None,
        typer.Option(
            "--table", help="With a database URL: the table of its rounds (a row per seat).", show_default=False
        ),
    ] = None,
    effective: DateOption = None,
    force: Force = False,
    sign: Annotated[
        Path | None,
        typer.Option(
            "--sign",
            help="Sign the report's PDF with this key (PAdES, as certificates are; it then carries the audit's data "
            "and the paytable for trey verify): trey keygen's, a PEM key with its certificate, or PKCS#12.",
            show_default=False,
        ),
    ] = None,
    sign_cert: Annotated[
        Path | None,
        typer.Option(
            "--sign-cert", help="The key's certificate (and its CA's), when not in the key file.", show_default=False
        ),
    ] = None,
    scheduler: Scheduler = None,
) -> None:
    """Re-settle the rounds of hand histories: every mis-paid round, each wager's return as paid, due and expected,
    the cards and the decisions tested. Exit 0 only on PASS; 1 on FAIL (a line refused, a round id logged twice, a
    wager mis-paid, a meter that does not follow), FLAGGED (a statistical test) or INCOMPLETE (something not
    checked, or no rounds read)."""
    from trey.audit.audit import audit as run_audit
    from trey.audit.audit import audit_json
    from trey.audit.verdict import parse_alpha
    from trey.core.outputs import Interrupted
    from trey.paytable.load import load_spec

    try:
        level = DEFAULT_ALPHA if alpha is None else parse_alpha(alpha)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--alpha") from None

    if out is not None:
        from trey.core.outputs import refuse_existing

        refuse_existing(out, [f"{file.stem}.audit.{kind}" for kind in ("html", "pdf")], force=force, option="--out")
    from trey.audit.mapping import load_mapping
    from trey.audit.sources import Source, SqlSource

    sources: list[Source] = []
    for log in logs:
        if "://" in log:
            if (query is None) == (table is None):
                raise typer.BadParameter("a database URL is read with --query or --table, one of the two")
            sources.append(SqlSource(log, query=query, table=table))
        else:
            sources.append(Path(log))
    if (query is not None or table is not None) and not any(isinstance(s, SqlSource) for s in sources):
        raise typer.BadParameter("--query and --table read a database: give its URL as LOG")
    chosen = load_mapping(mapping) if mapping is not None else None
    spec = load_spec(file)
    signer = None
    if sign is not None:
        if out is None:
            raise typer.BadParameter("--sign signs the report: give --out DIR too", param_hint="--sign")
        from trey.cli.trust import _ask_passphrase
        from trey.trust.signing import load_signer

        signer = load_signer(sign, _ask_passphrase, sign_cert)
    elif sign_cert is not None:
        raise typer.BadParameter("--sign-cert goes with --sign KEY")
    try:
        found = run_audit(spec, sources, alpha=level, mapping=chosen, scheduler=scheduler)
    except Interrupted as exc:  # SIGTERM or SIGHUP: the audit's temporary files are removed already
        raise SystemExit(128 + exc.signum) from None
    if found.ran:
        say_error(found.ran)
    if out is not None:
        from trey.core.files import display_name
        from trey.documents.make import audit_report
        from trey.trust.certificate import default_issue_date

        when = parse_date(effective) or default_issue_date()
        names = [display_name(s.name) if isinstance(s, Path) else s.name for s in sources]
        from trey.paytable.load import read_file

        paytable = (file.name, read_file(file)) if signer is not None else None
        files = made(
            lambda: audit_report(
                found, file.stem, logs=names, paper=paper.value, effective=when, signer=signer, paytable=paytable
            )
        )
        for path in write_files(out, files, force=force):
            say_error(f"wrote {path}")
    if output_format is OutputFormat.JSON:
        print(json.dumps(audit_json(found), indent=2))
    else:
        from trey.present.audit_view import print_audit

        print_audit(found)
    if not found.verdict.passed:
        raise typer.Exit(1)
