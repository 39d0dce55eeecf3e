from __future__ import annotations

import os
import sys

# The suite runs on both cores already (pytest -n 2): OpenBLAS's own threads in each worker would only contend for
# them (the protection tests' matrix products took twice the time and CPU). Set before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import ctypes
import functools
import gc
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import typer.testing
from typer.testing import CliRunner

from trey.cli import app

if TYPE_CHECKING:
    from trey.protect.protection import Protection

# This machine sets PYTHONDONTWRITEBYTECODE, so pytest would rewrite the asserts of every test module again, in each
# process of every run (2 s of CPU a process). Its rewritten modules are kept in tests/**/__pycache__ (ignored by git),
# checked against each file's modification time as Python checks any cached module.
sys.dont_write_bytecode = False

# The documents' layout (WeasyPrint) makes millions of short-lived objects, and a test process holds many more that
# live to its end (the hand tables, the modules): at Python's default thresholds the cyclic garbage collector ran
# every 700 allocations and walked them all again and again (a tenth of the suite's CPU). Collections are rarer
# here, and what the collection step made is frozen (never walked again): only memory use and timing change.
gc.set_threshold(10_000, 20, 20)


def _keep_freed_memory() -> None:
    """The counts over every deal make arrays of megabytes, batch after batch: glibc's malloc maps each afresh
    (and gives the top of its heap back), so that the kernel zeroes the same pages again and again (a second of
    system time in some tests). Here, arrays up to 32 MB come from the heap and freed memory is kept for the next
    batch. Only memory use and timing change; where the C library has no mallopt (not glibc), nothing does."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is not None:
        mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD: the largest the heap serves
        mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD: free memory at the top of the heap that is kept


_keep_freed_memory()

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
PAYTABLES = REPO / "paytables"
STANDARD = PAYTABLES / "standard.yaml"
ALL_PAYTABLES = sorted(PAYTABLES.rglob("*.yaml"))

# typer's CliRunner builds the click command from the app's functions at every invoke, inspecting the signature of
# every command (15 ms, some 600 times in the suite); the command built is the same each time and click makes a fresh
# context per run, so it is built once per process. (Should typer rename this, the tests only get slower again.)
typer.testing._get_command = functools.cache(typer.testing._get_command)


def _shared_ssl_contexts() -> None:
    """httpx.get and httpx.post make a client, and each client a fresh SSL context reading every CA certificate
    (25 ms of CPU, for some hundred requests to the workbench over plain HTTP): the default context is made once per
    process. (Should httpx rename this, the tests only get slower again.)"""
    from httpx._transports import default

    create = default.create_ssl_context

    @functools.cache
    def shared(verify: object = True, cert: object = None, trust_env: bool = True) -> object:
        return create(verify=verify, cert=cert, trust_env=trust_env)

    def create_ssl_context(verify: object = True, cert: object = None, trust_env: bool = True) -> object:
        if isinstance(verify, bool) and cert is None:
            return shared(verify, None, trust_env)
        return create(verify=verify, cert=cert, trust_env=trust_env)

    default.create_ssl_context = create_ssl_context


_shared_ssl_contexts()

pytest_plugins = ["workbench"]  # the workbench server fixture (tests/workbench.py)


@functools.cache
def standard_protection() -> Protection:
    """``trey protect`` of the standard game without the two-card scenarios (a second of work), worked out once per
    process when a test first asks: tests/protect compares the protection tables and documents with it."""
    from trey.paytable.load import load_spec
    from trey.protect.protection import protect

    return protect(load_spec(STANDARD), two=False)


_SCHEMA_VALIDATORS: dict[str, Any] = {}


def validate_json(instance: object, schema: dict[str, Any]) -> None:
    """``jsonschema.validate(instance, schema)``, with the schema checked against its metaschema once per process
    and content: ``jsonschema.validate`` checks it again at every call (0.7 s of CPU for the analysis schema, 30
    times for the shipped paytables). The same errors are raised, the best match first, as jsonschema does."""
    import jsonschema

    key = json.dumps(schema, sort_keys=True)
    checked = _SCHEMA_VALIDATORS.get(key)
    if checked is None:
        kind = jsonschema.validators.validator_for(schema)
        kind.check_schema(schema)
        checked = _SCHEMA_VALIDATORS[key] = kind(schema)
    error = jsonschema.exceptions.best_match(checked.iter_errors(instance))
    if error is not None:
        raise error


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


def run_cli(*args: str) -> Run:
    """Run the trey command in-process, stdout and stderr apart."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def embedded_fonts(pdf: Path) -> set[str]:
    """The fonts a PDF uses, without their subset tags (ABCDEF+Trey-Sans)."""
    from pypdf import PdfReader

    names = set()
    for page in PdfReader(pdf).pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+", 1)[-1])
    return names


@pytest.fixture(scope="session", autouse=True)
def _matplotlib_before_forks() -> None:
    """Certifying forks a child that imports matplotlib, then draws the charts (trey.core.background): 0.4 s of CPU
    at each of the dozens of certificates a test process makes. Imported here once, each child has it already; the
    child still draws every chart, and the charts are the same."""
    from trey.documents.charts import import_matplotlib

    import_matplotlib()


@pytest.fixture(scope="session")
def unsigned_standard(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory of ``trey certify standard.yaml --date 2026-01-01``'s three files, rendered once per test
    process (4 s of CPU) for the modules that read them (tests/cli/test_hardening.py, tests/trust/test_pdf_forgery.py);
    a test that alters the certificate works on its own copy."""
    out = tmp_path_factory.mktemp("unsigned")
    result = run_cli("certify", STANDARD, "--out", out, "--date", "2026-01-01")
    assert result.exit_code == 0, result.stderr
    return out


@pytest.fixture(scope="session")
def lab_keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``trey keygen --name "Example Lab"``'s key and certificate, made once per test process for the signing tests
    (tests/documents/test_archival.py, tests/trust/test_pdf_forgery.py), which read them and never write them."""
    out = tmp_path_factory.mktemp("keys")
    result = run_cli("keygen", "--out", out, "--name", "Example Lab")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [str(out / "trey-signing-key.pem"), str(out / "trey-signing-cert.pem")]
    return out


@pytest.fixture(scope="session")
def signed_standard(tmp_path_factory: pytest.TempPathFactory, lab_keys: Path) -> Path:
    """The directory of the standard certificate (json, html, pdf) signed with :func:`lab_keys`: rendered once per
    test process (5 s of CPU) for the modules that read it; a test that alters it works on its own copy."""
    out = tmp_path_factory.mktemp("signed")
    args = ["certify", STANDARD, "--out", out, "--date", "2026-01-01", "--sign", lab_keys / "trey-signing-key.pem"]
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    return out


def two_dask_workers() -> Iterator[tuple[str, Any]]:
    """A LocalCluster of two worker processes and a client of it, for a module's ``cluster`` fixture (the runner's
    tests in tests/play/test_dask.py, the audit's in tests/audit/test_dask_audit.py): (its address, the client)."""
    import logging

    from dask import distributed

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        ) as local,
        distributed.Client(local) as client,
    ):
        yield local.scheduler_address, client


@pytest.fixture
def cli() -> type[Run]:
    return Run


@pytest.fixture(autouse=True)
def _piped_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' output as a pipe gets it (unlimited width), whatever COLUMNS the shell running the tests
    exports; a test that wants a width sets COLUMNS itself."""
    monkeypatch.delenv("COLUMNS", raising=False)


def pytest_collection_finish() -> None:
    """What collecting made (the test modules, their tables) lives to the end: frozen, the collector skips it."""
    gc.freeze()


# The PostgreSQL server of the SQL source's tests (tests/audit/test_table_rounds.py), started once when first asked.
from pg_server import postgres_url  # noqa: E402, F401
