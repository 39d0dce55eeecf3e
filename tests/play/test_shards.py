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
        merged = merge_parts(_parts(tmp_path, paytable, shards))
        assert json.dumps(simulation_json(merged.result, merged.spec), indent=2) == single, shards


def test_the_commands_shard_and_merge_as_one_run_prints(tmp_path: Path) -> None:
    for index in (1, 2, 3):
        out = tmp_path / f"p{index}.json"
        result = run_cli("simulate", STANDARD, "--rounds", ROUNDS, "--seed", 4, "--shard", f"{index}/3", "--out", out)
        assert result.exit_code == 0 and result.stderr == f"wrote {out}\n"
    parts = [tmp_path / f"p{i}.json" for i in (1, 2, 3)]
    merged = run_cli("merge", *parts, "--format", "json")
    single = run_cli("simulate", STANDARD, "--rounds", ROUNDS, "--seed", 4, "--format", "json")
    assert merged.exit_code == single.exit_code == 0
    # the run's JSON, and what of it was dealt again: nothing, without --check
    claimed = (
        "PASS as the parts claim: the simulation agrees with the exact figures; not checked: 0 chunk(s) re-dealt of "
        "8, the other 8 are the parts' unsigned claims (trey merge --check N deals N again)"
    )
    assert json.loads(merged.stdout) == {
        **json.loads(single.stdout),
        "merge": {"parts": 3, "chunks": 8, "checked": 0, "verdict": claimed},  # the JSON says what the table says
    }
    alone = run_cli("simulate", STANDARD, "--rounds", ROUNDS, "--seed", 4).stdout
    tables, verdict = alone.removesuffix("PASS: the simulation agrees with the exact figures\n"), alone.splitlines()[-1]
    assert verdict == "PASS: the simulation agrees with the exact figures"
    # a merge that dealt nothing again does not say PASS as a run does: its chunks are the parts' claims
    assert run_cli("merge", *parts).stdout == tables + claimed + "\n"
    some = run_cli("merge", *parts, "--check", 3)
    assert some.exit_code == 0 and some.stdout.endswith(
        "; not checked: 3 chunk(s) re-dealt of 8, the other 5 are the parts' unsigned claims (trey merge --check N "
        "deals N again)\n"
    )
    every = run_cli("merge", *parts, "--check", 100, "--workers", 2, "--format", "json")
    assert json.loads(every.stdout)["merge"] == {
        "parts": 3,
        "chunks": 8,
        "checked": 8,
        "verdict": "PASS: the simulation agrees with the exact figures; checked: all 8 chunk(s) of the parts dealt "
        "again here agree",
    }
    assert run_cli("merge", *parts, "--check", 8).stdout == tables + (
        "PASS: the simulation agrees with the exact figures; checked: all 8 chunk(s) of the parts dealt again here "
        "agree\n"
    )
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
    first, *others = data["counts"]["pair_plus"]
    forged = dict(data, counts={**data["counts"], "pair_plus": [[c + 1 for c in first], *others]})
    prime = data["counts"]["prime"]
    cases = {
        "forged.json": json.dumps(forged),
        "twice.json": whole.read_text().replace('"seed": 3,', '"seed": 3, "seed": 3,', 1),
        "extra.json": json.dumps({**data, "note": "x"}),
        "bad.json": "{",
        "nan.json": whole.read_text().replace('"seed": 3', '"seed": NaN', 1),
        "format-1.json": json.dumps({**data, "part_format": 1}),
        "float.json": json.dumps({**data, "counts": {**data["counts"], "prime": [[7.0, *prime[0][1:]], *prime[1:]]}}),
    }
    said = {}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        result = run_cli("merge", tmp_path / name)
        assert result.exit_code == 1 and "Traceback" not in result.stderr, name
        said[name] = result.stderr
    assert said["forged.json"] == (
        f"error: {tmp_path / 'forged.json'}: its pair_plus counts of chunk 0 do not add up to the chunk's 20,000 "
        "rounds\n"
    )
    assert "duplicate key 'seed'" in said["twice.json"]
    assert "Additional properties are not allowed ('note' was unexpected)" in said["extra.json"]
    assert "not JSON" in said["bad.json"] and "NaN is not a number JSON allows" in said["nan.json"]
    assert said["format-1.json"] == (
        f"error: {tmp_path / 'format-1.json'}: a part of format 1 sums its counts over its chunks, which no chunk "
        "dealt again can check (run the shard again with this trey)\n"
    )
    assert said["float.json"] == (  # the bulky arrays are held to the schema's bounds, 7.0 is not a count
        f"error: {tmp_path / 'float.json'}: $.counts.prime[0] holds '7.0', not a whole number from 0 to 20,000 (give "
        "a part written by trey simulate --shard)\n"
    )
    huge = tmp_path / "huge.json"
    with huge.open("wb") as sparse:  # a sparse file: its size is what is refused, before any byte is read
        sparse.truncate(64 * 1024 * 1024 + 1)
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


# Issue 29, findings 3 and 18: a part is an unsigned claim. Its meter hits must be its counts' rounds; what no
# consistency check sees (another seed's counts) --check N finds by dealing chunks again; the bulky arrays are
# checked cheaply, their number first, one part at a time.


def _progressive_part(tmp_path: Path, seed: int = 3) -> tuple[Path, dict[str, object]]:
    (path,) = _parts(tmp_path, PROGRESSIVE, 1, seed=seed)
    return path, json.loads(path.read_text())


def _write(path: Path, data: dict[str, object]) -> Path:
    path.write_text(json.dumps(data))
    return path


def test_meter_hits_that_contradict_the_parts_counts_are_refused(tmp_path: Path) -> None:
    path, data = _progressive_part(tmp_path)
    hits: list[list[int]] = data["meter_hits"]["progressive"]  # type: ignore[index]
    counts: list[list[int]] = data["counts"]["progressive"]  # type: ignore[index]
    assert len(hits) == sum(chunk[0] for chunk in counts) == 7  # mini-royal of spades: row 0 of the meter
    genuine = run_cli("merge", path)
    assert genuine.exit_code == 0 and "7 jackpots paid" in genuine.stdout
    # hits removed (fewer jackpots: a lower RTP paid), hits added (more), the counts as they were
    removed = _write(tmp_path / "removed.json", {**data, "meter_hits": {"progressive": hits[:2]}})
    added_hits = sorted([*hits, [0, 1, 0], [0, 2, 0], [5, 3, 0]])
    added = _write(tmp_path / "added.json", {**data, "meter_hits": {"progressive": added_hits}})
    for forged, found in ((removed, 2), (added, 10)):
        result = run_cli("merge", forged)
        assert (result.exit_code, result.stdout, result.stderr) == (
            1,
            "",
            f"error: {forged}: its {found} progressive meter hits are not the 7 rounds its counts give the meter's "
            "rows: a part's hits are its counts' rounds (give a part written by trey simulate --shard)\n",
        )
    # as many hits, but chunk 0's moved to a chunk whose counts have none
    empty = next(i for i, chunk in enumerate(counts) if chunk[0] == 0)
    moved = sorted([*hits[1:], [empty, 7, 0]])
    shifted = _write(tmp_path / "moved.json", {**data, "meter_hits": {"progressive": moved}})
    result = run_cli("merge", shifted)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {shifted}: chunk 0 has 0 meter hits of mini_royal_spades where its counts say 1: a part's hits "
        "are its counts' rounds (give a part written by trey simulate --shard)\n",
    )
    # counts and hits forged together (a jackpot's round counted as a loss): consistent, so only a re-deal sees it
    lost = [[0, *chunk[1:-1], chunk[-1] + chunk[0]] for chunk in counts]
    hidden = _write(
        tmp_path / "hidden.json",
        {
            **data,
            "counts": {**data["counts"], "progressive": lost},  # type: ignore[dict-item]
            "meter_hits": {"progressive": []},
        },
    )
    unchecked = run_cli("merge", hidden)
    assert unchecked.exit_code == 0 and "0 jackpots paid" in unchecked.stdout
    assert "not checked: 0 chunk(s)" in unchecked.stdout
    result = run_cli("merge", hidden, "--check", 8)  # chunks dealt again in order: chunk 0 had a jackpot
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"error: {hidden}: chunk 0 is not what seed 3 deals: dealt again here, its counts differ from the part's (the "
        "part is not of the run it names (another seed, other counts): rerun that shard)\n",
    )


def test_a_part_relabelled_to_another_seed_is_caught_by_dealing_chunks_again(tmp_path: Path) -> None:
    import re

    parts = _parts(tmp_path, STANDARD, 2, seed=11)
    relabelled = []
    for path in parts:
        data = json.loads(path.read_text())
        relabelled.append(_write(path.with_name(f"seed-12-{path.name}"), {**data, "seed": 12}))
    claimed = run_cli("merge", *relabelled)  # every check of consistency holds: the parts say seed 12
    assert claimed.exit_code == 0 and claimed.stdout.startswith("150,000 rounds, seed 12, ")
    assert claimed.stdout.endswith(
        "; not checked: 0 chunk(s) re-dealt of 8, the other 8 are the parts' unsigned claims (trey merge --check N "
        "deals N again)\n"
    )
    # every chunk is seed 11's: whichever chunk is dealt again, it is refused
    result = run_cli("merge", *relabelled, "--check", 1)
    assert result.exit_code == 1 and result.stdout == ""
    assert re.fullmatch(
        rf"error: {re.escape(str(tmp_path))}/seed-12-part-[12]-of-2\.json: chunk [0-7] is not what seed 12 deals: "
        r"dealt again here, its counts differ from the part's \(the part is not of the run it names \(another seed, "
        r"other counts\): rerun that shard\)\n",
        result.stderr,
    ), result.stderr
    assert run_cli("merge", *parts, "--check", 1).exit_code == 0  # the genuine parts of seed 11 pass the same check


def test_a_part_of_many_hits_is_refused_by_their_number_before_they_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import trey.play.shards as shards

    path, data = _progressive_part(tmp_path)
    many = [[0, p, 0] for p in range(50_000)]  # (a forged part of a million hits once cost 24-57 s and 367 MB)
    forged = _write(tmp_path / "many.json", {**data, "meter_hits": {"progressive": many}})
    validated: list[int] = []
    whole = shards._whole_numbers
    read: list[str] = []

    def counting_validator(name: str) -> object:
        checker = validator(name)

        class Counting:
            def iter_errors(self, instance: dict[str, dict[str, list[object]]]) -> object:
                validated.append(len(instance["meter_hits"]["progressive"]))
                return checker.iter_errors(instance)

        return Counting()

    def numbers(name: str, where: str, *args: object) -> object:
        read.append(where)
        return whole(name, where, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(shards, "validator", counting_validator)
    monkeypatch.setattr(shards, "_whole_numbers", numbers)
    result = run_cli("merge", forged, path)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {forged}: its 50,000 progressive meter hits are not the 7 rounds its counts give the meter's rows: "
        "a part's hits are its counts' rounds (give a part written by trey simulate --shard)\n",
    )
    assert validated == [0]  # the schema validator never saw a hit, and the second part was never read
    assert read == ["$.counts.ante_play", "$.counts.progressive"]  # nor were the hits looked at one by one
