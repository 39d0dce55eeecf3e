"""Shards merge to the unsharded run, byte for byte; parts that are not the shards of one run are refused, naming
what is wrong, before anything is counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import trey.play.simulate as simulate_module
from conftest import STANDARD, run_cli
from trey.core.jsonschemas import validator
from trey.paytable.load import load_spec
from trey.play.shards import Shard, merge_parts, simulate_part
from trey.play.simulate import simulate, simulation_json

PROGRESSIVE = Path(__file__).resolve().parents[2] / "paytables" / "progressive" / "three-card-progressive.yaml"
ROUNDS = 150_000  # 8 chunks of 20,000 (the last of 10,000)


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "CHUNK_ROUNDS", 20_000)


def _parts(tmp_path: Path, paytable: Path, shards: int, seed: int = 3) -> list[Path]:
    spec = load_spec(paytable)
    paths = []
    for index in range(1, shards + 1):
        part = simulate_part(spec, paytable.read_bytes(), ROUNDS, seed, Shard(index, shards))
        assert list(validator("simulation-part").iter_errors(part)) == []
        path = tmp_path / f"part-{index}-of-{shards}.json"
        path.write_text(json.dumps(part))
        paths.append(path)
    return paths


@pytest.mark.parametrize("paytable", [STANDARD, PROGRESSIVE], ids=["standard", "progressive"])
def test_merging_1_2_3_and_7_shards_gives_the_single_run_byte_for_byte(tmp_path: Path, paytable: Path) -> None:
    spec = load_spec(paytable)
    single = json.dumps(simulation_json(simulate(spec, ROUNDS, 3), spec), indent=2)
    if paytable == PROGRESSIVE:
        assert json.loads(single)["wagers"]["progressive"]["meter"]["jackpots"] > 0  # the meter is carried
    for shards in (1, 2, 3, 7):
        merged_spec, merged = merge_parts(_parts(tmp_path, paytable, shards))
        assert json.dumps(simulation_json(merged, merged_spec), indent=2) == single, shards


def test_the_commands_shard_and_merge_as_one_run_prints(tmp_path: Path) -> None:
    for index in (1, 2, 3):
        out = tmp_path / f"p{index}.json"
        result = run_cli("simulate", STANDARD, "--rounds", ROUNDS, "--seed", 4, "--shard", f"{index}/3", "--out", out)
        assert result.exit_code == 0 and result.stderr == f"wrote {out}\n"
    parts = [tmp_path / f"p{i}.json" for i in (1, 2, 3)]
    merged = run_cli("merge", *parts, "--format", "json")
    single = run_cli("simulate", STANDARD, "--rounds", ROUNDS, "--seed", 4, "--format", "json")
    assert merged.exit_code == single.exit_code == 0 and merged.stdout == single.stdout
    table = run_cli("merge", *parts)
    assert table.stdout == run_cli("simulate", STANDARD, "--rounds", ROUNDS, "--seed", 4).stdout
    again = run_cli("simulate", STANDARD, "--rounds", ROUNDS, "--shard", "1/3", "--out", parts[0])
    assert again.exit_code == 1 and "--force" in again.stderr and "Traceback" not in again.stderr


def test_a_missing_or_doubled_shard_is_refused_naming_the_chunks(tmp_path: Path) -> None:
    one, two, three = _parts(tmp_path, STANDARD, 3)
    missing = run_cli("merge", one, three)
    assert missing.exit_code == 1 and missing.stderr == (
        "error: chunks 1, 4, 7 are in no part, of the run's 8 chunks: a shard is missing "
        "(give every shard of the run: --shard 1/K to K/K)\n"
    )
    doubled = run_cli("merge", one, two, three, one)
    assert doubled.exit_code == 1 and doubled.stderr == (
        f"error: chunks 0, 3, 6 are in more than one part (chunk 0 in {one} and in {one}) (give each shard once)\n"
    )
    (tmp_path / "other").mkdir()
    (other,) = _parts(tmp_path / "other", STANDARD, 1, seed=9)
    mixed = run_cli("merge", one, other)
    assert mixed.exit_code == 1 and mixed.stderr == (
        f"error: {other} is not a shard of the run {one} is: its seed is 9, not 3 "
        "(merge the parts of one run: the same paytable, trey version, seed and rounds)\n"
    )


def test_a_forged_or_hostile_part_is_refused_before_anything_is_counted(tmp_path: Path) -> None:
    (whole,) = _parts(tmp_path, STANDARD, 1)
    data = json.loads(whole.read_text())
    forged = dict(data, counts={**data["counts"], "pair_plus": [c + 1 for c in data["counts"]["pair_plus"]]})
    cases = {
        "forged.json": json.dumps(forged),
        "twice.json": whole.read_text().replace('"seed": 3,', '"seed": 3, "seed": 3,', 1),
        "extra.json": json.dumps({**data, "note": "x"}),
        "bad.json": "{",
        "nan.json": whole.read_text().replace('"seed": 3', '"seed": NaN', 1),
    }
    said = {}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        result = run_cli("merge", tmp_path / name)
        assert result.exit_code == 1 and "Traceback" not in result.stderr, name
        said[name] = result.stderr
    assert said["forged.json"] == (
        f"error: {tmp_path / 'forged.json'}: its counts do not add up to the 150,000 rounds of its chunks\n"
    )
    assert "duplicate key 'seed'" in said["twice.json"]
    assert "Additional properties are not allowed ('note' was unexpected)" in said["extra.json"]
    assert "not JSON" in said["bad.json"] and "NaN is not a number JSON allows" in said["nan.json"]
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (64 * 1024 * 1024 + 1))
    assert run_cli("merge", huge).stderr == (
        f"{huge}: file is too large (67,108,865 bytes) (a simulation part is at most 64 MiB)\n"
    )
    assert run_cli("merge", "/dev/zero").stderr == (
        "/dev/zero: is a character device, not a regular file (give a simulation part)\n"
    )


def test_shard_options_are_checked() -> None:
    assert run_cli("simulate", STANDARD, "--shard", "4/3", "--out", "x.json").stderr == (
        "error: --shard '4/3' is not I/K with 1 <= I <= K (write --shard 1/3)\n"
    )
    lonely = run_cli("simulate", STANDARD, "--shard", "1/3")
    assert lonely.exit_code == 2 and "--shard and --out go together" in lonely.stderr
    empty = run_cli("simulate", STANDARD, "--rounds", 10, "--shard", "2/2", "--out", "x.json")
    assert empty.exit_code == 1 and "shard 2/2 has no chunk" in empty.stderr
    assert not Path("x.json").exists()
