"""Chunks on a Dask cluster: the single-process result whatever the workers, a worker killed mid-run changes
nothing, an unreachable scheduler is one clear error within seconds, and a missing Dask is said plainly."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import trey.play.simulate as simulate_module
from conftest import STANDARD, run_cli
from trey.paytable.load import load_spec
from trey.play.simulate import simulate, simulation_json

distributed = pytest.importorskip("dask.distributed", reason="the dev extras install Dask: make test has it")

SPEC = load_spec(STANDARD)


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, object]]:
    import logging

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        ) as local,
        distributed.Client(local) as client,
    ):
        yield local.scheduler_address, client


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
    local = protect(SPEC, two=False, colluders=1, samples=2_000, seed=5).sampled
    remote = protect(SPEC, two=False, colluders=1, samples=2_000, seed=5, scheduler=address).sampled
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
    assert here.exit_code == on_dask.exit_code == 0 and on_dask.stdout == here.stdout
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
        "error: cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s (OSError) (give tcp://HOST:PORT of "
        "a running dask scheduler, or local:K to start K workers here)\n"
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
