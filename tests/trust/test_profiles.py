"""Issue 29, finding 1: a profile file may not pass for a shipped profile. A file named ``generic`` that is not
generic is refused by certify; a certificate whose profile calls itself ``generic`` without being it, or a custom
profile not named as such, is refused by verify; a custom profile is named, with its SHA-256, in the certificate,
on the cover and in verify's summary. A shipped profile's certificate is unchanged (reports/ is compared elsewhere)."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from trey.paytable.load import load_spec
from trey.trust.certificate import build_certificate, content_id
from trey.trust.compliance import load_profile

# A game returning 758.39%: Pair Plus paying 40 to 1 on a pair (3,744 of 22,100 hands): (40 x 48 + 30 x 52 +
# 6 x 720 + 4 x 1,096 + 40 x 3,744 - 16,440) / 22,100 = 6.5839 won per unit staked.
GENEROUS = (
    "trey: 1\nname: Generous\nwagers:\n"
    "  pair_plus: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 4, pair: 40}\n"
)
ONE_CHECK = "title: Generic table-game evaluation\ndescription: Odds worded 'to'.\nchecks:\n  odds_wording: to\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("profiles")
    (folder / "generous.yaml").write_text(GENEROUS)
    (folder / "fake-generic.yaml").write_text("name: generic\n" + ONE_CHECK)
    (folder / "my-lab.yaml").write_text("name: my-lab\n" + ONE_CHECK)
    return folder


@pytest.fixture(scope="module")
def custom(files: Path) -> dict[str, Any]:
    """The certificate, as certify issues it, of the 697% game against the one-check profile named my-lab."""
    paytable = files / "generous.yaml"
    made = build_certificate(
        load_spec(paytable),
        file_name=paytable.name,
        file_size=paytable.stat().st_size,
        issue_date=date(2026, 1, 1),
        profile_name=str(files / "my-lab.yaml"),
    )
    return made.data


def _sha256_of_profile(profile: dict[str, Any]) -> str:
    canonical = json.dumps(profile, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return hashlib.sha256(canonical).hexdigest()


def test_a_profile_file_calling_itself_generic_is_refused_by_certify(files: Path, tmp_path: Path) -> None:
    result = run_cli(
        "certify", files / "generous.yaml", "--out", tmp_path / "out", "--profile", files / "fake-generic.yaml"
    )
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"{files / 'fake-generic.yaml'}:1:7: $.name: the profile calls itself 'generic', the name of a profile trey "
        "ships, but it is not that profile (give it a name of its own: a certificate names a custom profile as such, "
        "with its SHA-256)\n",
    )
    assert not (tmp_path / "out").exists()
    # validate --profile reads the same file the same way
    validated = run_cli("validate", files / "generous.yaml", "--profile", files / "fake-generic.yaml")
    assert validated.exit_code == 1 and "the profile calls itself 'generic'" in validated.stderr


def test_a_copy_of_a_shipped_profile_is_that_profile(tmp_path: Path) -> None:
    from importlib import resources

    copy = tmp_path / "copy.yaml"
    copy.write_bytes(resources.files("trey.trust").joinpath("profiles", "generic.yaml").read_bytes())
    assert load_profile(str(copy)) == load_profile("generic")


def test_a_custom_profile_is_named_with_its_sha256_in_the_certificate_on_the_cover_and_by_verify(
    custom: dict[str, Any], tmp_path: Path
) -> None:
    from trey.documents.certificate_view import CertificateCharts, render_certificate_html
    from trey.trust.certificate import verify_certificate

    digest = _sha256_of_profile(custom["profile"])
    assert custom["profile_sha256"] == digest and custom["profile"]["name"] == "my-lab"
    assert custom["overall"] == "PASS"  # the one check it names passes: the profile is the lab's choice, and named
    assert Fraction(custom["analysis"]["wagers"]["pair_plus"]["rtp"]) == 1 + Fraction(145504, 22100)
    path = tmp_path / "generous.certificate.json"
    path.write_text(json.dumps(custom))
    result = run_cli("verify", path)
    assert (result.exit_code, result.stdout) == (
        0,
        f"{path}: verified; certificate {custom['certificate_id']}, overall PASS (custom profile my-lab, SHA-256 "
        f"{digest}), issued by trey {custom['trey_version']}; not signed\n",
    )
    cert = verify_certificate(path)
    html = render_certificate_html(
        cert, json_name=path.name, paytable_name="generous.yaml", charts=CertificateCharts((), {})
    )
    assert (
        f"<tr><th>Profile</th><td>Generic table-game evaluation (custom profile my-lab, SHA-256 {digest})</td></tr>"
        in html
    )
    assert "--profile PROFILE.yaml" in html  # the reproduce command cannot name a file it does not know


def _forged(data: dict[str, Any], tmp_path: Path, name: str) -> Path:
    data = dict(data)
    data["certificate_id"] = content_id(data)  # as a forger would: the ID is anyone's to recompute
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_a_certificate_whose_profile_only_calls_itself_generic_is_refused(
    custom: dict[str, Any], tmp_path: Path
) -> None:
    generic = dict(custom, profile={**custom["profile"], "name": "generic"})
    del generic["profile_sha256"]
    path = _forged(generic, tmp_path, "generic.json")
    result = run_cli("verify", path)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"error: {path}: the certificate's profile calls itself 'generic', the name of a profile trey ships, but it "
        "is not that profile (a profile of a shipped profile's name must be that profile; a custom profile is named "
        "as such)\n",
    )
    # kept its hash, it is refused all the same: a custom profile cannot take a shipped profile's name
    kept = _forged(dict(generic, profile_sha256=_sha256_of_profile(generic["profile"])), tmp_path, "kept.json")
    assert run_cli("verify", kept).stderr == result.stderr.replace(str(path), str(kept))


def test_a_custom_profile_not_named_as_such_is_refused(custom: dict[str, Any], tmp_path: Path) -> None:
    unnamed = dict(custom)
    del unnamed["profile_sha256"]
    path = _forged(unnamed, tmp_path, "unnamed.json")
    result = run_cli("verify", path)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {path}: the certificate's profile 'my-lab' is not one trey ships, and the certificate does not name "
        "it as a custom profile with its SHA-256 (trey ships example-approved, generic, rng-85; certify the paytable "
        "again to name a custom profile)\n",
    )
    wrong = _forged(dict(custom, profile_sha256="0" * 64), tmp_path, "wrong.json")
    result = run_cli("verify", wrong)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {wrong}: the certificate's profile_sha256 is not the SHA-256 of a custom profile it carries (a "
        "custom profile's SHA-256 is that of its canonical JSON; a shipped profile has none)\n",
    )


# A second red-team pass: a profile whose one check is switched off checked nothing and certified the 758% game
# "overall PASS"; validate --profile ran only the approved tables and minimum RTPs, so a profile's checks passed a
# player-favourable table there.
NOTHING = "name: my-lab\ntitle: My lab\ndescription: Checks nothing.\nchecks:\n  house_edge_positive: false\n"
UNCHECKED = "the profile checks nothing of this wager: nothing checked is not a PASS"


def test_a_profile_that_checks_nothing_of_a_wager_does_not_pass_it(files: Path, tmp_path: Path) -> None:
    from trey.engine import analyze
    from trey.trust.compliance import Profile, run_checks

    profile = tmp_path / "nothing.yaml"
    profile.write_text(NOTHING)
    paytable = files / "generous.yaml"
    made = build_certificate(
        load_spec(paytable),
        file_name=paytable.name,
        file_size=paytable.stat().st_size,
        issue_date=date(2026, 1, 1),
        profile_name=str(profile),
    ).data
    assert made["overall"] == "FAIL"
    assert made["checks"] == [
        {
            "check": "checked",
            "requirement": "at least one of the profile's checks",
            "wager": "pair_plus",
            "result": "FAIL",
            "detail": UNCHECKED,
        }
    ]
    # A certificate that says PASS over nothing checked (as trey said before), its ID recomputed, does not verify.
    path = _forged(dict(made, checks=[], overall="PASS"), tmp_path, "nothing.certificate.json")
    result = run_cli("verify", path)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"error: {path}: the certificate does not verify; these fields differ from a fresh computation:\n"
        "  checks\n  overall\n",
    )
    # A profile that checks one wager of a game leaves the others unchecked, and FAILS them.
    partial = Profile("my-lab", "My lab", "Pair Plus only.", {"house_edge_positive": False}, {}, {"pair_plus": "85%"})
    standard = analyze(load_spec(Path(__file__).resolve().parents[2] / "paytables" / "standard.yaml"))
    assert [(f.wager, f.check, str(f.verdict)) for f in run_checks(partial, standard)] == [
        ("ante_play", "checked", "FAIL"),
        ("pair_plus", "minimum_rtp", "PASS"),
        ("prime", "checked", "FAIL"),
        ("six_card_bonus", "checked", "FAIL"),
    ]


def test_validate_with_a_profile_runs_every_check_of_it(files: Path, tmp_path: Path) -> None:
    paytable = files / "generous.yaml"
    result = run_cli("validate", paytable, "--profile", "rng-85")
    assert (result.exit_code, result.stdout) == (
        1,
        f"{paytable}: valid (Pair Plus, 3 warning(s))\n"
        f"{paytable}: pair_plus: PASS: every row worded 'to'\n"
        f"{paytable}: pair_plus: PASS: rarest award straight flush: 1 in 460.42\n"
        f"{paytable}: pair_plus: FAIL: house edge -658.3891% (player-favourable)\n"
        f"{paytable}: pair_plus: PASS: RTP 758.3891%\n",
    )
    profile = tmp_path / "nothing.yaml"
    profile.write_text(NOTHING)
    result = run_cli("validate", paytable, "--profile", profile, "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["valid"] is False and data["files"][0]["profile_checks"] == [
        {"wager": "pair_plus", "check": "checked", "result": "FAIL", "detail": UNCHECKED}
    ]
    from trey.core.jsonschemas import validator

    validator("validation").validate(data)


APPROVED = (
    "name: lab-approved\ntitle: Lab approved\ndescription: One approved Dealer Bonus.\nchecks:\n  odds_wording: to\n"
    "approved:\n  dealer_bonus:\n    - {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}\n"
)
DEALER_BONUS = (
    "trey: 2\nname: Dealer Bonus\ntable: {currency: USD}\nside_bets:\n  dealer_bonus:\n    title: Dealer Bonus\n"
    "    reads: dealer_hand\n    stake: 5\n"
    "    pays: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}\n"
)


@pytest.mark.parametrize(
    ("text", "differences"),
    [
        (DEALER_BONUS, None),
        (
            DEALER_BONUS + "    envy: {straight_flush: 1000}\n",
            "envy bonus: pays $1,000 on another bettor's straight_flush here, none approved",
        ),
        (
            DEALER_BONUS.replace("pays: {", "pays: {mini_royal: {amount: 1000000}, "),
            "mini_royal: $1,000,000 for the bet here, no pay approved",
        ),
    ],
    ids=["approved", "envy", "amount-row"],
)
def test_an_approved_table_is_matched_on_every_term_of_the_wager(
    tmp_path: Path, text: str, differences: str | None
) -> None:
    """The approved list compared odds rows only: a row paying $1,000,000 and an envy bonus added to an approved
    Dealer Bonus "matched approved table 1"."""
    profile = tmp_path / "approved.yaml"
    profile.write_text(APPROVED)
    paytable = tmp_path / "bonus.yaml"
    paytable.write_text(text)
    result = run_cli("validate", paytable, "--profile", profile)
    said = (
        "matches approved table 1"
        if differences is None
        else f"matches no approved table; the closest is table 1 ({differences})"
    )
    assert (result.exit_code, result.stdout, result.stderr) == (
        0 if differences is None else 1,
        f"{paytable}: valid (Dealer Bonus)\n{paytable}: dealer_bonus: PASS: every row worded 'to'\n"
        f"{paytable}: dealer_bonus: {'PASS' if differences is None else 'FAIL'}: {said}\n",
        "",
    )
