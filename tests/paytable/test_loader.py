from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bad_corpus import EXPECTED
from conftest import ALL_PAYTABLES, DATA, REPO, STANDARD, run_cli, validate_json
from trey.core.errors import SpecError
from trey.paytable.load import check_bytes, check_data, load_spec
from trey.paytable.model import OnFold, QualifierKind, StrategyKind, Ties
from trey.paytable.odds import Odds, OddsWording

BAD = DATA / "bad"


def test_corpus_is_large_and_fully_described() -> None:
    files = {p.name for p in BAD.glob("*.yaml")}
    assert len(files) >= 40
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_file_gives_located_messages_and_exit_1(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    result = run_cli("validate", name)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == EXPECTED[name]
    assert "Traceback" not in result.stderr


def test_every_problem_in_a_file_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BAD)
    lines = run_cli("validate", "many-problems.yaml").stderr.splitlines()
    assert [line.split(": ")[0] for line in lines] == [
        "many-problems.yaml:4:9",
        "many-problems.yaml:7:11",
        "many-problems.yaml:8:12",
        "many-problems.yaml:10:5",
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty.yaml: file is empty (a paytable starts with 'trey: 1')"),
        (b"# only a comment\n\n", "empty.yaml: file is empty (a paytable starts with 'trey: 1')"),
        (b"   \n\t\n", "empty.yaml: file is empty (a paytable starts with 'trey: 1')"),
        (b"trey: 1\x00\x01\x02", "empty.yaml: binary file (it contains NUL bytes) (give a YAML text file)"),
        (b"name: caf\xe9\n", "empty.yaml: not UTF-8: byte 0xe9 at offset 9 (save the file as UTF-8)"),
        (
            b"x" * (1024 * 1024 + 1),
            "empty.yaml: file is too large (1,048,577 bytes) (a paytable file is at most 1 MiB)",
        ),
    ],
    ids=["empty", "comment-only", "whitespace", "binary", "latin-1", "oversize"],
)
def test_unreadable_content_is_refused(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "empty.yaml").write_bytes(content)
    result = run_cli("validate", tmp_path / "empty.yaml")
    assert result.exit_code == 1
    assert result.stderr == message.replace("empty.yaml", str(tmp_path / "empty.yaml")) + "\n"


def test_missing_file_and_directory(tmp_path: Path) -> None:
    result = run_cli("validate", tmp_path / "nope.yaml", tmp_path)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{tmp_path / 'nope.yaml'}: no such file (check the path)",
        f"{tmp_path}: is a directory (give the files in it, e.g. {tmp_path}/*.yaml)",
    ]


def test_one_bad_file_fails_the_batch_but_the_good_ones_are_reported() -> None:
    result = run_cli("validate", STANDARD, BAD / "float-odds.yaml")
    assert result.exit_code == 1
    assert result.stdout == f"{STANDARD}: valid (Ante & Play, Pair Plus, Prime, Six Card Bonus)\n"


@pytest.mark.parametrize("path", ALL_PAYTABLES, ids=lambda p: str(p.relative_to(REPO)))
def test_shipped_paytables_are_valid_cite_a_source_and_have_no_warning(path: Path) -> None:
    result = check_bytes(path.read_bytes(), str(path))
    assert result.problems == ()
    assert result.spec is not None and result.spec.source


def test_all_shipped_paytables_validate_on_the_command_line() -> None:
    result = run_cli("validate", *ALL_PAYTABLES)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert len(result.stdout.splitlines()) == len(ALL_PAYTABLES) >= 20


@pytest.mark.parametrize(
    ("name", "warning"),
    [
        (
            "for-wording.yaml",
            "for-wording.yaml:5:18: warning: $.wagers.six_card_bonus.royal_flush: '1001 for 1' uses 'for' wording"
            " (New Jersey requires 'to' or 'win': write '1000 to 1')",
        ),
        (
            "rarer-pays-less.yaml",
            "rarer-pays-less.yaml:7:15: warning: $.wagers.pair_plus.straight: straight (6 to 1) pays less than the"
            " commoner flush (8 to 1) (a rarer hand usually pays more; check the table)",
        ),
    ],
)
def test_warnings_pass_unless_strict(name: str, warning: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA / "warn")
    relaxed = run_cli("validate", name)
    assert (relaxed.exit_code, relaxed.stderr) == (0, warning + "\n")
    assert relaxed.stdout.startswith(f"{name}: valid (")
    assert relaxed.stdout.endswith(", 1 warning(s))\n")
    strict = run_cli("validate", "--strict", name)
    assert (strict.exit_code, strict.stdout, strict.stderr) == (1, "", warning + "\n")


def test_standard_model() -> None:
    spec = load_spec(STANDARD)
    assert spec.rules.dealer_qualifier.kind is QualifierKind.HIGH_CARD
    assert spec.rules.dealer_qualifier.weakest_hand == "Q-3-2"
    assert spec.rules.ties is Ties.PUSH
    assert spec.wagers.ids == ("ante_play", "pair_plus", "prime", "six_card_bonus")
    assert spec.wagers.titles == ("Ante & Play", "Pair Plus", "Prime", "Six Card Bonus")
    assert [b.on_fold for b in spec.wagers.side_bets] == [OnFold.LOST, OnFold.STANDS, OnFold.STANDS]
    assert spec.wagers.ante_play is not None
    assert spec.wagers.ante_play.strategy.kind is StrategyKind.OPTIMAL
    assert [(o, odds.net) for o, odds in spec.wagers.ante_play.ante_bonus] == [
        ("straight_flush", 5),
        ("three_of_a_kind", 4),
        ("straight", 1),
    ]
    assert spec.table is not None and spec.table.chips == (1, 5, 25, 100, 500)
    import hashlib

    assert spec.sha256 == hashlib.sha256(STANDARD.read_bytes()).hexdigest()


def test_defaults_and_variants() -> None:
    text = b"""trey: 1
name: Variants
rules: {dealer_qualifier: Q-6-4, ties: player_wins, ante_bonus_requires_play: false, pair_plus_on_fold: stands}
wagers:
  ante_play: {strategy: {play_at_least: 10-8-2}}
  prime: {three_same_colour: "3 to 2"}
  six_card_bonus: {royal_flush: "1001 for 1"}
"""
    result = check_bytes(text, "v.yaml")
    spec = result.spec
    assert spec is not None
    assert spec.rules.dealer_qualifier.label == "Q-6-4"
    assert spec.wagers.ante_play is not None
    assert spec.wagers.ante_play.strategy.label == "play 10-8-2 or better"
    assert len(spec.wagers.ante_play.ante_bonus) == 0
    assert spec.wagers.paytable("prime").get("three_same_colour") == Odds(3, 2)
    royal = spec.wagers.paytable("six_card_bonus").get("royal_flush")
    assert royal == Odds(1001, 1, OddsWording.FOR) and royal.net == 1000
    assert [p.message for p in result.warnings] == ["'1001 for 1' uses 'for' wording"]


@pytest.mark.parametrize("path", ALL_PAYTABLES, ids=lambda p: p.name)
def test_canonical_form_round_trips_and_matches_its_schema(path: Path) -> None:
    spec = load_spec(path)
    canonical = spec.canonical()
    schema = json.loads((REPO / "schemas" / "paytable.schema.json").read_text())
    validate_json(canonical, schema)
    again = check_data(json.loads(json.dumps(canonical)), "canonical").spec
    assert again is not None
    assert again.canonical() == canonical
    assert again.wagers == spec.wagers and again.rules == spec.rules


def test_odds_parsing() -> None:
    assert Odds.parse(40).net == 40
    assert Odds.parse("3 to 2").net == Fraction(3, 2)
    assert Odds.parse("1001 for 1").net == 1000
    assert Odds.parse(" 7  to 1 ").to_one_text == "7 to 1"
    assert Odds.parse("5 for 2").to_one_text == "3 to 2"
    for bad in (-1, "1 to 0", "1 for 2", "1.5 to 1", 1.5, True, None):
        with pytest.raises(ValueError):
            Odds.parse(bad)  # type: ignore[arg-type]


def test_load_spec_raises_with_every_error() -> None:
    with pytest.raises(SpecError) as info:
        load_spec(BAD / "many-problems.yaml")
    assert len(info.value.problems) == 4


# Hypothesis: whatever the input, the loader returns a model or located problems; it never crashes.

yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)


def _assert_clean(raw: bytes) -> None:
    result = check_bytes(raw, "fuzz.yaml")
    if result.spec is None:
        assert result.errors
        for problem in result.errors:
            assert str(problem).startswith("fuzz.yaml")
            assert problem.message


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(yaml_values)
def test_arbitrary_yaml_documents_never_crash_the_loader(value: object) -> None:
    _assert_clean(yaml.safe_dump(value).encode())


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(["trey", "name", "wagers", "rules", "table"]), yaml_values, max_size=5))
def test_arbitrary_top_level_mappings_never_crash_the_loader(value: dict[str, object]) -> None:
    _assert_clean(yaml.safe_dump(value).encode())


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash_the_loader(raw: bytes) -> None:
    _assert_clean(raw)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="trey:1name wagrspPu_l{}[]-&*!|>'\"#\n\t0123456789", max_size=120))
def test_yaml_like_text_never_crashes_the_loader(text: str) -> None:
    _assert_clean(text.encode())


def test_the_format_pages_example_is_a_valid_paytable_equal_to_the_default_game() -> None:
    page = (REPO / "docs" / "paytable-format.md").read_text()
    example = page.split("```yaml\n", 1)[1].split("```", 1)[0]
    result = check_bytes(example.encode(), "paytable-format.md")
    assert result.problems == ()
    assert result.spec is not None
    standard = load_spec(STANDARD)
    assert (result.spec.rules, result.spec.table, result.spec.wagers) == (
        standard.rules,
        standard.table,
        standard.wagers,
    )


def _walk(schema: object, path: str = "$") -> list[str]:
    """Every property of the schema that lacks a title or a description."""
    missing = []
    if isinstance(schema, dict):
        for name, sub in schema.get("properties", {}).items():
            if not (isinstance(sub, dict) and sub.get("title") and sub.get("description")):
                missing.append(f"{path}.{name}")
            missing += _walk(sub, f"{path}.{name}")
        for key in ("anyOf", "oneOf", "allOf"):
            for i, sub in enumerate(schema.get(key, [])):
                missing += _walk(sub, f"{path}/{key}[{i}]")
        for name, sub in schema.get("$defs", {}).items():
            missing += _walk(sub, f"{path}/$defs/{name}")
        if isinstance(schema.get("items"), dict):
            missing += _walk(schema["items"], f"{path}[]")
    return missing


def test_the_schema_checked_against_is_made_once_and_follows_the_registries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loader's schema is made once (not copied for each check), and again when a reading is registered at run
    time: it is always paytable_schema() as the registries state it now."""
    from trey.cards.readings import READINGS
    from trey.paytable.schema import checking_schema, paytable_schema

    first = checking_schema()
    assert first == paytable_schema() and checking_schema() is first
    monkeypatch.setitem(READINGS, "colours_again", READINGS["colours"])
    again = checking_schema()
    assert again != first and again == paytable_schema()
    monkeypatch.undo()
    assert checking_schema() == first


def test_the_paytable_schema_documents_every_field() -> None:
    schema = json.loads((REPO / "schemas" / "paytable.schema.json").read_text())
    assert schema["title"] and schema["description"]
    assert _walk(schema) == []


def test_shipped_profiles_follow_their_schema() -> None:
    from trey.core.jsonschemas import validator
    from trey.trust.compliance import load_profile, shipped_profiles

    assert shipped_profiles() == ["example-approved", "generic", "rng-85"]
    for name in shipped_profiles():
        assert list(validator("profile").iter_errors(load_profile(name).canonical())) == []
