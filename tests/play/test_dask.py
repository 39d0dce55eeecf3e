"""Chunks on a Dask cluster: the single-process result whatever the workers, a worker killed mid-run changes
nothing, an unreachable scheduler is one clear error within seconds, and a missing Dask is said plainly."""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import trey.play.simulate as simulate_module
from conftest import STANDARD, run_cli, two_dask_workers
from trey.paytable.load import load_spec
from trey.play.simulate import simulate, simulation_json

distributed = pytest.importorskip("dask.distributed", reason="the dev extras install Dask: make test has it")

SPEC = load_spec(STANDARD)


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, object]]:
    yield from two_dask_workers()


def test_two_dask_workers_give_the_single_process_result(
    cluster: tuple[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(simulate_module, "CHUNK_ROUNDS", 20_000)
    address, _ = cluster
    single = simulation_json(simulate(SPEC, 130_000, 8), SPEC)
    assert simulation_json(simulate(SPEC, 130_000, 8, scheduler=address), SPEC) == single


def test_a_worker_killed_mid_run_has_its_chunks_run_again(
    cluster: tuple[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(simulate_module, "CHUNK_ROUNDS", 20_000)
    address, client = cluster
    before = client.run(os.getpid)  # type: ignore[attr-defined]
    killed: list[int] = []

    def kill_one(_: int) -> None:  # the progress of the run: after the first chunk, a worker dies
        if not killed:
            pid = sorted(before.values())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    single = simulation_json(simulate(SPEC, 600_000, 12), SPEC)
    on_dask = simulation_json(simulate(SPEC, 600_000, 12, scheduler=address, progress=kill_one), SPEC)
    assert killed and on_dask == single
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(client.run(os.getpid)) < 2:  # type: ignore[attr-defined]
        time.sleep(0.2)  # the nanny starts a new worker
    assert killed[0] not in client.run(os.getpid).values()  # type: ignore[attr-defined]


def test_colluders_on_dask_are_the_local_figures(cluster: tuple[str, object]) -> None:
    from trey.protect.protection import protect

    address, _ = cluster
    local = protect(SPEC, two=False, colluders=1, samples=600, seed=5).sampled  # three chunks, the last one short
    remote = protect(SPEC, two=False, colluders=1, samples=600, seed=5, scheduler=address).sampled
    assert local == remote


def test_verify_reruns_a_certificates_simulation_on_dask(cluster: tuple[str, object], tmp_path: Path) -> None:
    address, _ = cluster
    import json
    from datetime import date

    from trey.trust.certificate import SimulationOptions, build_certificate

    made = build_certificate(
        SPEC,
        file_name="standard.yaml",
        file_size=len(STANDARD.read_bytes()),
        issue_date=date(2026, 1, 1),
        simulation=SimulationOptions(60_000, 3),
    )
    certificate = tmp_path / "standard.certificate.json"
    certificate.write_text(json.dumps(made.data))  # the certificate's JSON, without laying out its PDF
    here = run_cli("verify", certificate)
    on_dask = run_cli("verify", certificate, "--scheduler", address)
    assert here.exit_code == on_dask.exit_code == 0 and on_dask.stderr == ""
    assert on_dask.stdout == here.stdout.removesuffix("\n") + (
        f"; the simulation was dealt on the Dask cluster at {address}, and all its 1 chunk(s) dealt again here agree\n"
    )
    # The simulation is dealt again there: a certificate whose simulated total was changed (and its ID recomputed)
    # fails on the cluster as it fails here.
    from trey.trust.certificate import content_id

    data = json.loads(certificate.read_text())
    data["simulation"]["wagers"]["ante_play"]["total_returned"] = "98455"
    data["certificate_id"] = content_id(data)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    refused_here, refused_there = run_cli("verify", forged), run_cli("verify", forged, "--scheduler", address)
    assert refused_here.exit_code == refused_there.exit_code == 1
    assert refused_there.stderr == refused_here.stderr and "simulation" in refused_there.stderr


def test_local_cluster_from_the_command_line_prints_the_single_run() -> None:
    args = ("simulate", STANDARD, "--rounds", 50_000, "--seed", 2, "--format", "json")
    assert run_cli(*args, "--scheduler", "local:2").stdout == run_cli(*args).stdout


def test_an_unreachable_scheduler_is_one_clear_error_within_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.core.runner as runner

    assert runner.CONNECT_SECONDS == 5
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1)  # the same wait, shorter for the test
    start = time.monotonic()
    result = run_cli("simulate", STANDARD, "--rounds", 100, "--scheduler", "tcp://127.0.0.1:9")
    assert time.monotonic() - start < 10
    assert result.exit_code == 1 and result.stderr == (
        "error: cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s (Connection refused) (give "
        "tcp://HOST:PORT of a running dask scheduler, or local:K to start K workers here)\n"
    )
    wrong = run_cli("simulate", STANDARD, "--rounds", 100, "--scheduler", "127.0.0.1")
    assert wrong.exit_code == 1 and wrong.stderr == (
        "error: --scheduler '127.0.0.1' is not a Dask scheduler's address (give tcp://HOST:PORT of a running dask "
        "scheduler, or local:K to start K workers here)\n"
    )


def test_without_dask_the_option_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    result = run_cli("simulate", STANDARD, "--rounds", 100, "--scheduler", "local:2")
    assert result.exit_code == 1 and result.stderr == (
        "error: --scheduler runs on Dask, which is not installed (pip install 'trey[dask]')\n"
    )


# Issue 29, findings 2 and 16: a cluster is trusted with code and with the figures, so verify deals some of its chunks
# again here; a --scheduler that is not a usable Dask scheduler is one line within one deadline.

HINT = "(give tcp://HOST:PORT of a running dask scheduler, or local:K to start K workers here)"

# Run on each worker of the cluster, as a worker preload would: the cluster deals the chunks of seed 4242 from
# seed 4243's streams (a relabelled seed). chunk_seed is looked up when a chunk runs, so this takes hold at once.
RELABEL = """
import numpy as np
import trey.play.simulate as s
s.genuine_chunk_seed = getattr(s, "genuine_chunk_seed", s.chunk_seed)
s.chunk_seed = lambda seed, index: s.genuine_chunk_seed(4243 if seed == 4242 else seed, index)
"""
RESTORE = "import trey.play.simulate as s\ns.chunk_seed = getattr(s, 'genuine_chunk_seed', s.chunk_seed)\n"


def test_verify_on_a_cluster_that_chooses_the_figures_is_refused(
    cluster: tuple[str, object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json
    import re
    from datetime import date

    from trey.trust.certificate import SimulationOptions, build_certificate

    monkeypatch.setattr(simulate_module, "CHUNK_ROUNDS", 20_000)
    address, client = cluster
    client.run(exec, RELABEL, {})  # type: ignore[attr-defined]
    try:
        # The forger certifies on the cluster (certify trusts the cluster it is given): the figures are seed 4243's,
        # labelled 4242, and the certificate's ID is computed over them.
        forged = build_certificate(
            SPEC,
            file_name="standard.yaml",
            file_size=len(STANDARD.read_bytes()),
            issue_date=date(2026, 1, 1),
            simulation=SimulationOptions(120_000, 4242, scheduler=address),
        )
        certificate = tmp_path / "forged.certificate.json"
        certificate.write_text(json.dumps(forged.data))
        there = run_cli("verify", certificate, "--scheduler", address)
    finally:
        client.run(exec, RESTORE, {})  # type: ignore[attr-defined]
    # Each of the 6 chunks is seed 4243's: whichever 3 verify deals again here, the first differs.
    assert there.exit_code == 1 and there.stdout == ""
    assert re.fullmatch(
        f"error: the Dask cluster at {re.escape(address)} gave other results for chunk [0-5] than this machine "
        r"deals for it: the cluster's figures are refused \(the cluster is trusted with the figures: use a cluster "
        r"you control, or run here without --scheduler\)\n",
        there.stderr,
    ), there.stderr
    here = run_cli("verify", certificate)
    assert here.exit_code == 1 and "simulation.wagers.ante_play.total_returned" in here.stderr
    # The genuine certificate, on the honest cluster: verified, saying what was dealt again and what was not.
    genuine = build_certificate(
        SPEC,
        file_name="standard.yaml",
        file_size=len(STANDARD.read_bytes()),
        issue_date=date(2026, 1, 1),
        simulation=SimulationOptions(120_000, 4242),
    )
    certificate.write_text(json.dumps(genuine.data))
    verified = run_cli("verify", certificate, "--scheduler", address)
    assert verified.exit_code == 0 and verified.stdout.endswith(
        f"; not signed; the simulation was dealt on the Dask cluster at {address}: 3 of its 6 chunks, chosen at "
        "random, dealt again here agree, the other 3 are the cluster's figures\n"
    )


def test_a_listener_that_is_not_dask_is_one_error_within_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    import trey.core.runner as runner

    class Quiet(BaseHTTPRequestHandler):
        def log_message(self, *_: object) -> None:
            """Not on the test's stderr."""

    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1)
    with (
        socket.create_server(("127.0.0.1", 0)) as silent,
        ThreadingHTTPServer(("127.0.0.1", 0), Quiet) as web,
    ):  # a socket that accepts and says nothing; a web server (as the workbench's port is)
        threading.Thread(target=web.serve_forever, daemon=True).start()
        try:
            for port in (silent.getsockname()[1], web.server_address[1]):
                address = f"tcp://127.0.0.1:{port}"
                started = time.monotonic()
                result = run_cli("simulate", STANDARD, "--rounds", 100, "--scheduler", address)
                assert time.monotonic() - started < 10  # a bound, not a speed test: it once waited for ever
                assert (result.exit_code, result.stdout, result.stderr) == (
                    1,
                    "",
                    f"error: {address} accepts connections but does not answer as a Dask scheduler within 1 s {HINT}\n",
                )
        finally:
            web.shutdown()


def test_a_scheduler_without_workers_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    import trey.core.runner as runner

    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1)
    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", dashboard_address=":0", silence_logs=logging.ERROR
    ) as empty:
        address = empty.scheduler_address
        result = run_cli("simulate", STANDARD, "--rounds", 100, "--scheduler", address)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: the Dask scheduler at {address} has no worker: none joined within 1 s (start workers (dask worker "
        f"{address}), or give local:K to start K workers here)\n",
    )


@pytest.mark.parametrize(
    ("address", "said"),
    [
        (
            "inproc://scheduler",
            "'inproc://scheduler': an inproc:// scheduler lives inside one Python process, out of trey's reach",
        ),
        ("tcp://127.0.0.1:99999", "'tcp://127.0.0.1:99999' has the port '99999': a port is 1 to 65535"),
        ("tcp://127.0.0.1:87x6", "'tcp://127.0.0.1:87x6' has the port '87x6': a port is 1 to 65535"),
        ("tcp://127.0.0.1:0", "'tcp://127.0.0.1:0' has the port '0': a port is 1 to 65535"),
        ("tcp://127.0.0.1", "'tcp://127.0.0.1' has no port: a port is 1 to 65535"),
        ("ws://127.0.0.1:8786", "'ws://127.0.0.1:8786': trey reaches a scheduler by tcp:// or tls://"),
    ],
)
def test_addresses_trey_cannot_use_are_one_line_errors(address: str, said: str) -> None:
    for command in (("simulate", STANDARD, "--rounds", 100), ("verify", "anything.json")):
        result = run_cli(*command, "--scheduler", address)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"error: --scheduler {said} {HINT}\n")


def test_a_tcp_scheduler_off_this_machine_is_warned_of() -> None:
    from trey.core.runner import scheduler_warning

    warning = (
        "--scheduler tcp://192.0.2.7:8786 is not on this machine and tcp:// is not encrypted: whoever runs or reaches "
        "that scheduler runs code in trey and chooses the figures it gets back; use a cluster you control (tls:// "
        "with Dask's TLS configuration across a network)"
    )
    assert scheduler_warning("tcp://192.0.2.7:8786") == warning
    assert scheduler_warning("tcp://dask.example.org:8786") == warning.replace("192.0.2.7", "dask.example.org")
    for here in ("tcp://127.0.0.1:8786", "tcp://127.8.0.1:8786", "tcp://localhost:8786", "tcp://[::1]:8786"):
        assert scheduler_warning(here) is None, here
    assert scheduler_warning("tls://192.0.2.7:8786") is None and scheduler_warning("local:2") is None
    # on the command line, before anything is read (here a paytable that is not there: nothing is run)
    result = run_cli("simulate", "missing.yaml", "--scheduler", "tcp://192.0.2.7:8786")
    assert result.exit_code == 1 and result.stderr.startswith(f"warning: {warning}\nmissing.yaml: ")


def test_local_k_is_held_to_the_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class Started(Exception):
        pass

    def local_cluster(*, n_workers: int, **_: object) -> None:
        started.append(n_workers)
        raise Started

    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    monkeypatch.setattr(distributed, "LocalCluster", local_cluster)
    with pytest.raises(Started):
        simulate(SPEC, 100, 1, scheduler="local:64")
    assert started == [3]  # as --workers 64 gives 3 processes on 3 CPUs


def test_a_tls_scheduler_runs_with_dasks_tls_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    import dask
    from distributed.security import Security

    monkeypatch.setattr(simulate_module, "CHUNK_ROUNDS", 20_000)
    security = Security.temporary()  # a throwaway CA and certificate, for the scheduler, its workers and clients
    args = ("simulate", STANDARD, "--rounds", 50_000, "--seed", 2, "--format", "json")
    with distributed.LocalCluster(
        n_workers=1,
        processes=False,
        protocol="tls://",
        security=security,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as secured:
        address = secured.scheduler_address
        assert address.startswith("tls://127.0.0.1:")
        refused = run_cli(*args, "--scheduler", address)  # Dask's configuration names no CA: today's traceback
        configuration = {
            "distributed.comm.tls.ca-file": security.tls_ca_file,
            "distributed.comm.tls.client.cert": security.tls_client_cert,
            "distributed.comm.tls.client.key": security.tls_client_key,
        }
        with dask.config.set(configuration):
            on_tls = run_cli(*args, "--scheduler", address)
            wrong = Security.temporary()  # a CA that did not sign the scheduler's certificate
            with dask.config.set({"distributed.comm.tls.ca-file": wrong.tls_ca_file}):
                untrusted = run_cli(*args, "--scheduler", address)
    assert (refused.exit_code, refused.stderr) == (
        1,
        f"error: --scheduler {address}: Dask's TLS configuration names no CA (set Dask's TLS configuration: "
        "distributed.comm.tls.ca-file, and distributed.comm.tls.client.cert and .key when the scheduler asks for a "
        "client certificate (a ~/.config/dask/*.yaml file, or DASK_DISTRIBUTED__COMM__TLS__CA_FILE and the like))\n",
    )
    assert on_tls.exit_code == 0 and on_tls.stdout == run_cli(*args).stdout
    assert untrusted.exit_code == 1 and untrusted.stderr.startswith(
        f"error: the TLS handshake with {address} failed (certificate verify failed) (set Dask's TLS configuration"
    )


# A second red-team pass: a chunk's result came back by pickle, as whatever object the cluster chose, and was added
# up as it came; a chunk that never came back was waited for for ever.

HANDED_BACK = """
import trey.play.simulate as s
s.genuine_plain_chunk = getattr(s, "genuine_plain_chunk", s.plain_chunk)
s.plain_chunk = {}
"""
HANDED_RESTORE = "import trey.play.simulate as s\ns.plain_chunk = getattr(s, 'genuine_plain_chunk', s.plain_chunk)\n"


@pytest.mark.parametrize(
    "handed",
    [
        "lambda chunk: chunk",  # the Chunk itself: it travels by pickle, which trey does not read back
        "lambda chunk: __import__('numpy').arange(3)",  # an array: Dask's own serializer, refused as well
        "lambda chunk: {**s.genuine_plain_chunk(chunk), 'counts': {w: [c + 1 for c in v] for w, v in "
        "s.genuine_plain_chunk(chunk)['counts'].items()}}",  # plain data, but counts that are not the chunk's
    ],
    ids=["pickled-object", "array", "counts-beyond-the-rounds"],
)
def test_what_a_cluster_hands_back_is_plain_data_checked_here(
    cluster: tuple[str, object], monkeypatch: pytest.MonkeyPatch, handed: str
) -> None:
    monkeypatch.setattr(simulate_module, "CHUNK_ROUNDS", 20_000)
    address, client = cluster
    client.run(exec, HANDED_BACK.format(handed), {})  # type: ignore[attr-defined]
    try:
        result = run_cli("simulate", STANDARD, "--rounds", 40_000, "--seed", 2, "--scheduler", address)
    finally:
        client.run(exec, HANDED_RESTORE, {})  # type: ignore[attr-defined]
    assert result.exit_code == 1 and result.stdout == ""
    assert re.fullmatch(
        f"error: the Dask cluster at {re.escape(address)} handed back for chunk [01] what is not a chunk's result: "
        r"refused \(the cluster is trusted with the figures: use a cluster you control, with the same trey "
        r"installed\)\n",
        result.stderr,
    ), result.stderr


RELEASE = threading.Event()


def _stalled(_: object, index: int) -> int:
    """A chunk that does not come back until the test lets it go (a stalled or vanished worker)."""
    RELEASE.wait(60)
    return index


def test_a_chunk_that_never_comes_back_is_one_error_within_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    import trey.core.runner as runner
    from trey.core.errors import TreyError

    assert runner.RESULT_SECONDS == 300
    monkeypatch.setattr(runner, "RESULT_SECONDS", 1)  # the same wait, shorter for the test
    plain = runner.Plain(lambda result: result, lambda _shared, _args, data: data)
    RELEASE.clear()
    with distributed.LocalCluster(
        n_workers=1, processes=False, protocol="tcp://", dashboard_address=":0", silence_logs=logging.ERROR
    ) as stalled:
        address = stalled.scheduler_address
        try:
            with pytest.raises(TreyError) as refused:
                list(runner.run_chunks(_stalled, None, [(0,), (1,)], runner.Where(scheduler=address), plain))
        finally:
            RELEASE.set()
    assert str(refused.value) == (
        f"no chunk came back from the Dask cluster at {address} within 1 s (its workers are gone, stalled or busy: "
        "check them, or run here without --scheduler)"
    )


class _Cancelled(Exception):
    pass


_Cancelled.__name__ = "FutureCancelledError"  # as distributed names the future a scheduler forgot


class _FakeFuture:
    def __init__(self, key: str, outcome: object) -> None:
        self.key, self.outcome = key, outcome

    def add_done_callback(self, callback: object) -> None:
        callback(self)  # type: ignore[operator]

    def result(self, timeout: float) -> object:  # noqa: ARG002
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome


class _ForgetfulClient:
    """A cluster whose scheduler forgets the first ``forgotten`` chunks it is given (a worker lost with the shared
    work): each such future is cancelled; a chunk submitted again comes back."""

    def __init__(self, forgotten: int) -> None:
        self.forgotten, self.scattered, self.keys = forgotten, 0, []

    def scatter(self, data: list[object], **_: object) -> list[object]:
        self.scattered += 1
        return data

    def submit(self, _function: object, _encode: object, _handle: object, *args: object, key: str, **_: object):  # type: ignore[no-untyped-def]
        self.keys.append(key)
        if self.forgotten:
            self.forgotten -= 1
            return _FakeFuture(key, _Cancelled("cancelled for reason: already forgotten."))
        return _FakeFuture(key, args[-1])  # the chunk's own argument, handed back as its result


def test_a_chunk_the_scheduler_forgot_is_submitted_again_a_bounded_number_of_times() -> None:
    """Seen once on a busy machine: a worker killed with the shared work left a chunk "cancelled: already
    forgotten", and the run failed. The shared work is scattered again and the chunk submitted again, at most
    MAX_RESUBMITTED times a run; past that, one error."""
    from trey.core.errors import TreyError
    from trey.core.runner import MAX_RESUBMITTED, Plain, dask_chunks

    plain = Plain(lambda r: r, lambda _shared, _args, data: data)
    client = _ForgetfulClient(forgotten=2)
    got = sorted(dask_chunks(client, print, None, [(10,), (20,), (30,)], plain, "tcp://here:1"))
    assert got == [(0, 10), (1, 20), (2, 30)]
    assert client.scattered == 3 and len(client.keys) == 5 and client.keys[-1].endswith("-again-2")
    stubborn = _ForgetfulClient(forgotten=MAX_RESUBMITTED + 1)
    with pytest.raises(TreyError, match=r"^chunk 0 failed on the Dask cluster at tcp://here:1 \(FutureCancelledError"):
        list(dask_chunks(stubborn, print, None, [(10,)], plain, "tcp://here:1"))
