"""Hostile and careless input: nothing may make a certificate lie, fool verification, crash, hang or leave files.

Each test names the class of attack or accident it closes; the bad-input corpus (tests/bad_corpus.py) holds the
paytable files of the same classes.
"""

from __future__ import annotations

import html
import json
import os
import shlex
import signal
import threading
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from conftest import PAYTABLES, REPO, STANDARD, run_cli
from trey.core.errors import OutputError, TreyError
from trey.core.jsonread import JsonInputError, loads_strict
from trey.core.outputs import write_all
from trey.core.text import printable
from trey.documents.certificate_view import render_certificate_html
from trey.documents.pdf import FetchRefused, allowed_resource, html_to_pdf
from trey.paytable.load import load_spec
from trey.play.simulate import simulate, usable_workers
from trey.trust.certificate import SimulationOptions, build_certificate, content_id

DATE = "2026-01-01"
# A player-favourable Pair Plus: its certificate FAILS the generic profile (house edge -124.6154%).
GENEROUS = "wagers:\n  pair_plus: {straight: 20, flush: 10, pair: 5}\n"
# The issue's example without its form feed: control characters are refused when the file is read
# (tests/data/bad/control-character-name.yaml), everything else must be harmless text.
CSS_ATTACK = (
    "Evil;}} .verdict.fail{font-size:0} .verdict.fail::after{content:'PASS'} "
    "@page{@bottom-left{content:x url(http://127.0.0.1:9/x) url(file:///etc/passwd)"
)


def paytable(folder: Path, name: str, body: str = GENEROUS, file: str = "game.yaml") -> Path:
    path = folder / file
    path.write_text(f"trey: 1\nname: {json.dumps(name)}\n{body}", encoding="utf-8")
    return path


def squeezed(text: str) -> str:
    """PDF text without white space: pypdf spaces out glyphs around unusual characters such as a form feed."""
    return "".join(text.split())


# --- 1. Style injection and fetching in the PDF ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [CSS_ATTACK, "Q\"'\\;{}()<>&@/*!important*/ </style><style>.verdict{display:none}</style> \\A\\0 \n\t end"],
    ids=["issue-example", "every-css-character"],
)
def test_a_name_cannot_restyle_the_certificate(tmp_path: Path, name: str) -> None:
    result = run_cli("certify", paytable(tmp_path, name), "--out", tmp_path / "out", "--date", DATE)
    assert result.exit_code == 1  # the table FAILS: the PDF must say so
    cert_id = json.loads((tmp_path / "out" / "game.certificate.json").read_text())["certificate_id"]
    page = (tmp_path / "out" / "game.certificate.html").read_text()
    style = page.split("<style>")[1].split("</style>")[0]
    assert "Evil" not in style and "end" not in style.split("overflow-wrap")[-1]  # no user text in CSS
    pages = [squeezed(p.extract_text()) for p in PdfReader(tmp_path / "out" / "game.certificate.pdf").pages]
    assert pages[0].split("Overallresult:")[1].startswith("FAILCertifiedartefacts")
    for number, text in enumerate(pages, 1):
        assert f"Certificate{cert_id}rev1|" in text, number  # the footer, with the ID, on every page
        assert text.endswith(f"Page{number}of{len(pages)}")


def test_the_renderer_fetches_nothing_outside_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.documents.pdf as pdf

    asked: list[str] = []

    def recording(url: str) -> bytes | None:
        asked.append(url)
        return allowed_resource(url)

    monkeypatch.setattr(pdf, "allowed_resource", recording)
    page = (
        "<html><head><style>body { background: url(http://127.0.0.1:9/bg.png); }</style></head><body>"
        '<img src="http://127.0.0.1:9/x.png"><img src="file:///etc/passwd"><img src="../../../etc/hostname">'
        '<img src="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=">'
        "<p>text</p></body></html>"
    )
    assert html_to_pdf(page, date(2026, 1, 1)).startswith(b"%PDF")
    assert "http://127.0.0.1:9/x.png" in asked
    assert "file:///etc/passwd" in asked
    assert any(url.endswith("/etc/hostname") for url in asked)  # a relative URL, resolved against the package
    for url in asked:
        if not url.startswith("data:"):
            with pytest.raises(FetchRefused):
                allowed_resource(url)


def test_the_fetcher_serves_package_files_and_data_urls_only() -> None:
    import trey

    inside = Path(trey.__file__).resolve().parent / "documents" / "templates" / "_base.css.j2"
    assert allowed_resource(inside.as_uri()) == inside.read_bytes()
    assert allowed_resource("data:text/plain,hello") is None  # WeasyPrint decodes data: URLs itself
    for url in ("http://example.invalid/", "https://x/", "ftp://x/", "file:///etc/passwd", "file://host/x"):
        with pytest.raises(FetchRefused, match="trey does not fetch"):
            allowed_resource(url)
    with pytest.raises(FetchRefused):
        allowed_resource(inside.parent.as_uri() + "/../../../../../etc/passwd")


# --- 2. verify --paytable compares content, not the certificate's own hashes ---------------------------------


def _standard_certificate(tmp_path: Path, unsigned_standard: Path) -> Path:
    """The standard paytable's certificate JSON (``trey certify --date DATE``, conftest: made once per test process)
    copied into ``tmp_path``: each test forges its own copy."""
    assert DATE == "2026-01-01"
    target = tmp_path / "standard.certificate.json"
    tmp_path.mkdir(parents=True, exist_ok=True)
    target.write_bytes((unsigned_standard / target.name).read_bytes())
    return target


def test_verify_is_not_fooled_by_hash_fields_of_another_paytable(tmp_path: Path, unsigned_standard: Path) -> None:
    import hashlib

    cert = _standard_certificate(tmp_path / "cert", unsigned_standard)
    other = paytable(tmp_path, "Generous", file="generous.yaml")
    raw = other.read_bytes()
    data = json.loads(cert.read_text())
    data["paytable"].update(file="generous.yaml", size=len(raw), sha256=hashlib.sha256(raw).hexdigest())
    data["analysis"]["spec_sha256"] = hashlib.sha256(raw).hexdigest()
    data["certificate_id"] = content_id(data)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    result = run_cli("verify", forged, "--paytable", other)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: {forged}: the certificate does not verify; these fields differ from a fresh computation:",
        "  paytable.canonical (the file given with --paytable describes another game than the certificate)",
    ]
    # The genuine file passes; a file with the same game but other bytes is named by its hash and size.
    assert run_cli("verify", cert, "--paytable", STANDARD).exit_code == 0
    reformatted = tmp_path / "standard-copy.yaml"
    reformatted.write_bytes(STANDARD.read_bytes() + b"\n# a comment\n")
    lines = run_cli("verify", cert, "--paytable", reformatted).stderr.splitlines()
    assert lines[1:] == [
        "  paytable.sha256 (the file given with --paytable has another SHA-256)",
        "  paytable.size (the file given with --paytable has another size)",
    ]


# --- 3. Duplicate keys and other JSON that means two things ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1, "a": 2}', "$.a: duplicate key 'a'"),
        ('{"x": [{"b": {"c": 1, "c": 1}}]}', "$.x[0].b.c: duplicate key 'c'"),
        ('{"a": NaN}', "NaN is not a number JSON allows"),
        ('{"a": -Infinity}', "-Infinity is not a number JSON allows"),
        ('{"a": "\\ud800"}', "$.a: the text holds \\ud800, which is not a character"),
        ('{"\\udfff": 1}', "$.\udfff: the text holds \\udfff, which is not a character"),
        ("[" * 100 + "]" * 100, "$[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"),
        ("[" * 100_000 + "]" * 100_000, "the document is nested too deeply"),
        ('{"a": ' + "9" * 5000 + "}", "cannot read a value: Exceeds the limit (4300 digits)"),
    ],
    ids=["duplicate", "nested-duplicate", "nan", "infinity", "surrogate", "surrogate-key", "deep", "deeper", "huge"],
)
def test_strict_json_refuses(text: str, message: str) -> None:
    with pytest.raises(JsonInputError) as caught:
        loads_strict(text)
    assert str(caught.value).startswith(message)


def test_a_certificate_with_a_duplicate_key_is_refused_with_its_path(tmp_path: Path, unsigned_standard: Path) -> None:
    cert = _standard_certificate(tmp_path, unsigned_standard)
    text = cert.read_text()
    forged = tmp_path / "forged.json"
    forged.write_text(text.replace('"overall": "PASS"', '"overall": "FAIL", "overall": "PASS"'))
    result = run_cli("verify", forged)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {forged}: not a certificate: $.overall: duplicate key 'overall' "
        "(give the .certificate.json file that trey certify wrote)\n"
    )


# --- 4. The certificate does not choose what verification costs ------------------------------------------------


def _simulated(rounds: int) -> dict[str, Any]:
    cert = build_certificate(
        load_spec(PAYTABLES / "prime" / "3-4.yaml"),
        file_name="3-4.yaml",
        file_size=1,
        issue_date=date(2026, 1, 1),
        simulation=SimulationOptions(rounds, 7),
    )
    return cert.data


def test_verification_bounds_the_simulation_it_re_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.trust.certificate

    data = _simulated(1000)
    data["simulation"]["rounds"] = 200_000_000
    data["certificate_id"] = content_id(data)
    big = tmp_path / "big.json"
    big.write_text(json.dumps(data))

    def never(*_: object, **__: object) -> None:
        raise AssertionError("the simulation must not be re-run")

    monkeypatch.setattr(trey.trust.certificate, "simulate", never)
    result = run_cli("verify", big)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {big}: the certificate's simulation has 200,000,000 rounds; verification re-runs at most "
        "100,000,000 (allow it with --allow-rounds 200000000 (up to 10,000,000,000))\n"
    )
    # Beyond the absolute bound, or with a workers field, the schema refuses it before anything else.
    for change, where in (
        (lambda d: d["simulation"].__setitem__("rounds", 10**15), "$.simulation"),
        (lambda d: d["simulation"].__setitem__("workers", 48), "$.simulation"),
        (lambda d: d["simulation"].__setitem__("rounds", 7.0), "$.simulation"),
    ):
        forged = json.loads(json.dumps(data))
        change(forged)
        forged["certificate_id"] = content_id(forged)
        big.write_text(json.dumps(forged))
        result = run_cli("verify", big)
        assert result.exit_code == 1
        assert result.stderr.startswith(f"error: {big}: not a valid certificate: {where}: ")


def test_an_altered_certificate_is_not_re_simulated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.trust.certificate

    data = _simulated(1000)
    data["simulation"]["rounds"] = 5_000_000_000  # within the schema's bound, but the ID no longer matches
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(data))
    monkeypatch.setattr(trey.trust.certificate, "simulate", lambda *_, **__: pytest.fail("re-ran the simulation"))
    lines = run_cli("verify", path).stderr.splitlines()
    assert lines[1:] == [
        "  certificate_id (it does not match the certificate's content)",
        "  simulation (not re-run: the certificate was altered after it was issued)",
    ]


def test_workers_are_capped_and_do_not_change_the_certificate() -> None:
    assert usable_workers(48) == (os.cpu_count() or 1)
    assert usable_workers(1) == 1
    spec = load_spec(PAYTABLES / "prime" / "3-4.yaml")
    made = [
        build_certificate(
            spec,
            file_name="3-4.yaml",
            file_size=1,
            issue_date=date(2026, 1, 1),
            simulation=SimulationOptions(3 * 2**20, 5, workers),
        ).data
        for workers in (1, 2)
    ]
    assert made[0] == made[1]
    assert "workers" not in made[0]["simulation"]


# --- 5. Commands printed in the certificate are quoted ---------------------------------------------------------


def test_printed_commands_quote_file_names(tmp_path: Path) -> None:
    name = "$(touch pwned).yaml"
    spec = load_spec(paytable(tmp_path, "Quoted", file=name))
    cert = build_certificate(spec, file_name=name, file_size=1, issue_date=date(2026, 1, 1))
    json_name = "$(touch pwned).certificate.json"
    page = html.unescape(render_certificate_html(cert, json_name=json_name, paytable_name=name))
    verify = f"trey verify '{json_name}' --paytable '{name}'"
    assert page.count(verify) == 2  # cover and appendix
    assert shlex.split(verify) == ["trey", "verify", json_name, "--paytable", name]
    assert f"trey analyze '{name}' --format json" in page
    assert f"trey certify '{name}' --out DIR --date 2026-01-01" in page
    assert "trey verify $(" not in page


# --- 6. Terminal output: no markup, no control characters ------------------------------------------------------


def test_names_are_printed_as_text_not_markup(tmp_path: Path) -> None:
    name = "Pair Plus [/NJ] [link=http://x]click[/link] [bold]x :smile:"
    result = run_cli("analyze", paytable(tmp_path, name, "wagers:\n  pair_plus: {pair: 1}\n"))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == f"{name}  (sha256 {load_spec(tmp_path / 'game.yaml').sha256[:12]})"


def test_control_characters_never_reach_the_terminal(tmp_path: Path) -> None:
    # Control characters inside a paytable are refused when it is read (tests/data/bad/control-character-name.yaml);
    # a file name is the other way in, and is echoed escaped.
    name = tmp_path / "Red\x1b[2J\u202egame.yaml"
    name.write_text("trey: 1\nname: x\nwagers:\n  pair_plus: {pair: 1}\n")
    shown = f"{tmp_path}/Red\\x1b[2J\\u202egame.yaml"
    result = run_cli("validate", name)
    assert (result.exit_code, result.stdout) == (0, f"{shown}: valid (Pair Plus)\n")
    bad = tmp_path / "bad\x07.yaml"
    bad.write_text('trey: 1\nname: "x\\e[2J"\nwagers:\n  pair_plus: {pair: 1}\n')
    result = run_cli("validate", bad)
    assert result.stderr == (
        f"{tmp_path}/bad\\x07.yaml:2:7: $.name: the text holds the control character \\x1b, which a report cannot "
        "show (remove it; text on certificates and sheets is plain characters)\n"
    )
    assert "\x1b" not in result.stdout + result.stderr


def test_printable_escapes_what_a_terminal_would_act_on() -> None:
    assert printable("a\x1b[0m\r\n\t\x7f\x85\u2066b\udcff") == "a\\x1b[0m\\x0d\\x0a\\x09\\x7f\\x85\\u2066b\\udcff"
    assert printable("line\nnext", keep_line_breaks=True) == "line\nnext"
    assert printable("café ♠ 40 to 1") == "café ♠ 40 to 1"


# --- 8. Crashes and hangs -------------------------------------------------------------------------------------


def test_special_files_are_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    sparse = tmp_path / "huge.yaml"
    with sparse.open("wb") as stream:
        stream.truncate(4 * 1024**3)  # 4 GiB that take no disk: read whole, they would fill memory
    result = run_cli("validate", "/dev/zero", fifo, sparse)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "/dev/zero: is a character device, not a regular file (give a paytable file)",
        f"{fifo}: is a FIFO (named pipe), not a regular file (give a paytable file)",
        f"{sparse}: file is too large (4,294,967,296 bytes) (a paytable file is at most 1 MiB)",
    ]


def test_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    raw_name = os.fsencode(tmp_path) + b"/caf\xe9.yaml"
    with open(raw_name, "wb") as stream:
        stream.write(b"trey: 1\nname: x\nwagers:\n  pair_plus: {pair: 1}\n")
    result = run_cli("validate", os.fsdecode(raw_name))
    assert result.exit_code == 1
    assert result.stderr == f"{tmp_path}/caf\\udce9.yaml: the file name is not valid UTF-8 (rename the file)\n"


@pytest.mark.parametrize("command", ["analyze", "certify", "cheatsheet", "simulate"])
def test_a_lone_surrogate_in_a_name_is_a_located_error(tmp_path: Path, command: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text('trey: 1\nname: "A \\ud800 B"\nwagers:\n  pair_plus: {pair: 1}\n')
    extra = ["--out", str(tmp_path / "out")] if command in ("certify", "cheatsheet") else []
    result = run_cli(command, path, *extra)
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:2:7: $.name: the text holds \\ud800, half of a UTF-16 pair, which is not a character "
        "(remove the escape or write the character itself)\n"
    )
    assert not (tmp_path / "out").exists()


def test_a_wager_with_zero_variance_simulates_and_certifies(tmp_path: Path) -> None:
    path = paytable(tmp_path, "Never pays", "wagers:\n  pair_plus: {}\n")
    result = run_cli("simulate", path, "--rounds", "5000", "--format", "json")
    assert result.exit_code == 0, result.stderr
    wager = json.loads(result.stdout)["wagers"]["pair_plus"]
    assert (wager["observed_rtp"], wager["exact_rtp"], wager["z_score"], wager["passed"]) == ("0", "0", 0.0, True)
    result = run_cli("certify", path, "--out", tmp_path / "out", "--date", DATE, "--simulate", "5000")
    assert result.exit_code == 0, result.stderr
    assert run_cli("verify", tmp_path / "out" / "game.certificate.json").exit_code == 0
    # Its one outcome is tested once it is expected 5 times (any other outcome would then disagree); fewer is not.
    few = run_cli("simulate", path, "--rounds", "4")
    assert few.exit_code == 1
    assert few.stdout.splitlines()[-1] == (
        "NOT TESTED: 4 rounds are too few to test Pair Plus (a wager is tested when two of its outcomes are expected "
        "5 times or more: deal more rounds)"
    )
    assert run_cli("simulate", path, "--rounds", "5").stdout.splitlines()[-1] == (
        "PASS: the simulation agrees with the exact figures"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--date", "1979-12-31"],
            "error: the issue date 1979-12-31 is outside the years trey dates documents "
            "(give a date from 1980-01-01 to 2099-12-31)",
        ),
        (
            ["--date", "2100-01-01"],
            "error: the issue date 2100-01-01 is outside the years trey dates documents "
            "(give a date from 1980-01-01 to 2099-12-31)",
        ),
        (
            ["--simulate", "10000000001"],
            "error: 10,000,000,001 rounds are more than one simulation deals (give at most 10,000,000,000)",
        ),
        (
            ["--out", "x" * 300],
            "error: would-be output folder",
        ),
    ],
    ids=["before-1980", "after-2099", "too-many-rounds", "name-too-long"],
)
def test_out_of_range_options_are_user_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    full = ["certify", str(STANDARD), *args] + ([] if "--out" in args else ["--out", "out"])
    result = run_cli(*full)
    assert result.exit_code == 1
    if message.startswith("error: would-be"):
        assert result.stderr == (
            f"error: cannot write {'x' * 300}: a name is too long for the file system (use shorter names)\n"
        )
    else:
        assert result.stderr == message + "\n"
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    ("epoch", "message"),
    [
        ("yesterday", "error: SOURCE_DATE_EPOCH is not a number of seconds: 'yesterday'"),
        ("9" * 30, "error: SOURCE_DATE_EPOCH is not a number of seconds: '" + "9" * 30 + "'"),
        (
            "0",
            "error: SOURCE_DATE_EPOCH gives the date 1970-01-01 is outside the years trey dates documents "
            "(give a date from 1980-01-01 to 2099-12-31)",
        ),
    ],
)
def test_a_bad_source_date_epoch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, epoch: str, message: str) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    result = run_cli("cheatsheet", STANDARD, "--out", tmp_path / "out")
    assert result.exit_code == 1
    hint = " (set it to whole seconds since 1970-01-01 UTC, or unset it)" if "number" in message else ""
    assert result.stderr == message + hint + "\n"


def test_simulate_rounds_beyond_the_bound() -> None:
    """A usage error, exit 2, as docs/commands/index.md says (N <= 10^10); the library refuses it too."""
    result = run_cli("simulate", STANDARD, "--rounds", str(10**10 + 1))
    assert result.exit_code == 2
    assert "Invalid value for '--rounds': 10000000001 is not in the range 1<=x<=10000000000." in result.stderr
    with pytest.raises(TreyError, match="10,000,000,001 rounds are more than one simulation deals"):
        simulate(load_spec(STANDARD), 10**10 + 1, 1)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "{p}: is a directory (give a certificate's .json file)"),
        ("[" * 50_000, "error: {p}: not a certificate: the document is nested too deeply"),
        ('{"revision": ' + "1" * 6000 + "}", "error: {p}: not a certificate: cannot read a value: Exceeds the limit"),
        ('{"a": 1, "a": 1}', "error: {p}: not a certificate: $.a: duplicate key 'a'"),
        (b"\xff\xfe{}", "error: {p}: not a certificate: not UTF-8 at byte 0"),
    ],
    ids=["directory", "deep", "huge-integer", "duplicate", "not-utf8"],
)
def test_verify_refuses_what_cannot_be_a_certificate(tmp_path: Path, content: str | bytes | None, message: str) -> None:
    path = tmp_path / "cert.json"
    if content is None:
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    result = run_cli("verify", path)
    assert result.exit_code == 1
    assert result.stderr.startswith(message.format(p=path))
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.__setitem__("issue_date", "2026-02-30"), "$.issue_date: '2026-02-30' is not a date"),
        (
            lambda d: d.__setitem__("issue_date", "1900-01-01"),
            "$.issue_date: the issue date 1900-01-01 is outside the years trey dates documents",
        ),
        (lambda d: d.__setitem__("revision", 7.0), "$.revision: 7.0 is not of type 'integer'"),
        (lambda d: d["paytable"].__setitem__("size", 10**30), "$.paytable.size: "),
    ],
    ids=["impossible-date", "date-out-of-range", "float-integer", "huge-size"],
)
def test_verify_checks_dates_and_integers_first(
    tmp_path: Path, unsigned_standard: Path, change: Any, message: str
) -> None:
    cert = _standard_certificate(tmp_path / "cert", unsigned_standard)
    data = json.loads(cert.read_text())
    change(data)
    data["certificate_id"] = content_id(data)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    result = run_cli("verify", forged)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {forged}: not a valid certificate: {message}")


# --- 9 and 10. Writing outputs: exclusive, and nothing left behind ---------------------------------------------


def test_two_runs_writing_the_same_output_cannot_both_succeed(tmp_path: Path) -> None:
    both_rendered = threading.Barrier(2)
    outcomes: list[str] = []

    def run(label: str) -> None:
        def render() -> bytes:
            both_rendered.wait(timeout=10)  # both runs have passed the "does it exist?" check
            return label.encode()

        try:
            write_all(tmp_path / "out", {"a.txt": render, "b.txt": render}, force=False, option="--out")
            outcomes.append(f"{label} wrote")
        except OutputError as exc:
            outcomes.append(f"{label} refused: {exc.message}")

    threads = [threading.Thread(target=run, args=(label,)) for label in ("first", "second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wrote = [o for o in outcomes if o.endswith("wrote")]
    assert len(wrote) == 1, outcomes
    winner = wrote[0].split()[0]
    assert {p.name: p.read_text() for p in (tmp_path / "out").iterdir()} == {"a.txt": winner, "b.txt": winner}


def test_a_dangling_symlink_counts_as_an_existing_output(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    link = tmp_path / "out" / "a.txt"
    link.symlink_to(tmp_path / "target-that-does-not-exist")
    with pytest.raises(OutputError, match="would overwrite"):
        write_all(tmp_path / "out", {"a.txt": lambda: b"new"}, force=False, option="--out")
    assert link.is_symlink()
    write_all(tmp_path / "out", {"a.txt": lambda: b"new"}, force=True, option="--out")
    assert not link.is_symlink() and link.read_bytes() == b"new"
    assert not (tmp_path / "target-that-does-not-exist").exists()  # replaced, never written through


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_writing_leaves_nothing_behind(tmp_path: Path, signum: int) -> None:
    def first() -> bytes:
        return b"first"

    def killed() -> bytes:
        os.kill(os.getpid(), signum)
        return b"never"

    # The signal's default disposition, whatever the runner was started with (under nohup, SIGHUP is ignored).
    started_with = signal.signal(signum, signal.SIG_DFL)
    try:
        with pytest.raises(SystemExit) as stopped:
            write_all(tmp_path / "new" / "deeper", {"a.txt": first, "b.txt": killed}, force=False, option="--out")
        assert stopped.value.code == 128 + signum
        assert os.listdir(tmp_path) == []
        assert signal.getsignal(signum) is signal.SIG_DFL  # the previous handler is back
    finally:
        signal.signal(signum, started_with)


def test_a_signal_the_run_was_started_to_ignore_stays_ignored_while_writing(tmp_path: Path) -> None:
    # Under nohup SIGHUP is ignored: the run was asked to outlive the terminal, so writing must not catch it.
    seen_while_writing = []

    def looks() -> bytes:
        seen_while_writing.append(signal.getsignal(signal.SIGHUP))
        os.kill(os.getpid(), signal.SIGHUP)  # ignored: the write goes on
        return b"written"

    started_with = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        write_all(tmp_path / "out", {"a.txt": looks}, force=False, option="--out")
        assert seen_while_writing == [signal.SIG_IGN]
        assert (tmp_path / "out" / "a.txt").read_bytes() == b"written"
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, started_with)


def test_a_failure_while_placing_files_removes_what_this_run_placed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import trey.core.outputs

    real = os.link
    calls = []

    def link_then_fail(source: Any, target: Any, **kwargs: Any) -> None:
        calls.append(target)
        if len(calls) == 2:
            raise OSError(28, "No space left on device", str(target))
        real(source, target, **kwargs)

    monkeypatch.setattr(trey.core.outputs.os, "link", link_then_fail)
    with pytest.raises(OSError):
        write_all(tmp_path / "out", {"a.txt": lambda: b"a", "b.txt": lambda: b"b"}, force=False, option="--out")
    assert not (tmp_path / "out").exists()


# --- 11. Smaller ------------------------------------------------------------------------------------------------


def _text_positions(pdf: Path) -> list[tuple[float, float, str]]:
    """(x, page width, text) of every text run on every page."""
    found: list[tuple[float, float, str]] = []
    for page in PdfReader(pdf).pages:
        width = float(page.mediabox.width)

        def visit(text: str, cm: Any, tm: Any, _font: Any, _size: Any, width: float = width) -> None:
            if text.strip():  # the text matrix's origin in page space: through the current transformation
                found.append((float(tm[4] * cm[0] + tm[5] * cm[2] + cm[4]), width, text))

        page.extract_text(visitor_text=visit)
    return found


def test_long_unbroken_names_wrap_on_the_page(tmp_path: Path) -> None:
    long = "W" * 160
    path = tmp_path / "long.yaml"
    path.write_text(
        f"trey: 1\nname: {long}\noperator: {'O' * 150}\nsource: {'S' * 300}\nwagers:\n  pair_plus: {{pair: 1}}\n"
    )
    assert run_cli("certify", path, "--out", tmp_path / "out", "--date", DATE).exit_code == 0
    runs = _text_positions(tmp_path / "out" / "long.certificate.pdf")
    assert sum(text.count("W") for _, _, text in runs) >= 160 * 2  # the title and the footer, all of it
    for x, width, text in runs:
        assert 0 <= x < width, text
        assert len(text) < 120 or " " in text, text  # broken into lines that fit


def test_bets_are_sorted_and_deduplicated(tmp_path: Path) -> None:
    result = run_cli("cheatsheet", STANDARD, "--out", tmp_path, "--bets", "10,5,5,100", "--date", DATE)
    assert result.exit_code == 0
    page = (tmp_path / "standard.dealer-sheet.html").read_text()
    assert page.count('<th class="bet">') > 0
    heads = page.split('<th class="bet">')[1:5]
    assert [h.split("<")[0] for h in heads[:3]] == ["$5", "$10", "$100"]


@pytest.mark.parametrize(
    ("bets", "message"),
    [
        ("1,2,3,4,5,6,7", "'1,2,3,4,5,6,7': give 1 to 6 different positive amounts"),
        ("5,100001", "'5,100001': a bet of 100,001 is more than a payout cell can show; give bets up to 100,000"),
        ("\u0665,10", "'\u0665,10' is not a list of whole amounts such as 5,10,25"),
    ],
)
def test_bets_that_cannot_fit_are_refused(tmp_path: Path, bets: str, message: str) -> None:
    result = run_cli("cheatsheet", STANDARD, "--out", tmp_path / "out", "--bets", bets)
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())
    assert not (tmp_path / "out").exists()


SIX_CARD = PAYTABLES / "six_card_bonus" / "1000-200-100-20-15-10-7.yaml"


@pytest.mark.parametrize(
    ("table", "bets", "size"),
    [
        (STANDARD, None, 12),
        (SIX_CARD, None, 11),  # 1000 to 1 on $100 is "100,000": a smaller size keeps the last column on the page
        (SIX_CARD, (25_000, 50_000, 100_000), 12),
        (SIX_CARD, (5, 10, 25, 50, 100, 500), 11),
    ],
    ids=["standard", "six-card-default", "three-large-bets", "six-card-500"],
)
def test_every_payout_column_stays_on_the_page(table: Path, bets: tuple[int, ...] | None, size: int) -> None:
    from trey.documents.dealer_view import fit_dealer_sheet, pay_tables_fit, render_dealer_sheet_html
    from trey.documents.pdf import render_document
    from trey.engine import analyze

    spec = load_spec(table)
    analysis = analyze(spec)
    sheet = fit_dealer_sheet(spec, analysis, paper="letter", effective=date(2026, 1, 1), bets=bets)
    assert sheet.amount_pt == size
    assert pay_tables_fit(sheet.document)
    if size < 12:  # the measurement is what shrank it: at one size larger the columns overrun
        larger = render_dealer_sheet_html(
            spec, analysis, paper="letter", effective=date(2026, 1, 1), bets=bets, amount_pt=size + 1
        )
        assert not pay_tables_fit(render_document(larger))


def test_bets_too_wide_for_the_sheet_are_refused(tmp_path: Path) -> None:
    result = run_cli(
        "cheatsheet", SIX_CARD, "--out", tmp_path / "out", "--bets", "50000,60000,70000,80000,90000,100000"
    )
    assert result.exit_code == 1
    assert result.stderr == (
        "error: the payouts of the bets 50,000, 60,000, 70,000, 80,000, 90,000, 100,000 do not fit the sheet, even "
        "at 8 pt (give fewer or smaller bets with --bets)\n"
    )
    assert not (tmp_path / "out").exists()


def test_zero_odds_get_a_warning(tmp_path: Path) -> None:
    path = paytable(tmp_path, "Zero", "wagers:\n  pair_plus: {flush: 0, pair: 1}\n")
    result = run_cli("validate", path)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"{path}:4:22: warning: $.wagers.pair_plus.flush: '0 to 1' pays nothing: the bet is returned and nothing "
        "more (leave the row out if the hand loses, or give the pay)",
        f"{path}:4:22: warning: $.wagers.pair_plus.flush: flush (0 to 1) pays less than the commoner pair (1 to 1) "
        "(a rarer hand usually pays more; check the table)",
    ]
    assert run_cli("validate", "--strict", path).exit_code == 1


# --- 12. Errors as data -----------------------------------------------------------------------------------------


def test_validate_json_gives_codes_and_paths(tmp_path: Path) -> None:
    from trey.core.jsonschemas import validator

    bad = tmp_path / "bad.yaml"
    bad.write_text("trey: 1\nname: x\nwagers:\n  pair_plus: {pair: 1.5, flush: 040}\n  pair_plsu: {}\n")
    result = run_cli("validate", "--format", "json", bad, STANDARD)
    assert result.exit_code == 1
    assert result.stderr == ""
    report = json.loads(result.stdout)
    assert list(validator("validation").iter_errors(report)) == []
    assert report["valid"] is False
    first, second = report["files"]
    assert (second["file"], second["valid"], second["problems"]) == (str(STANDARD), True, [])
    assert [(p["code"], p["path"], p["line"], p["column"]) for p in first["problems"]] == [
        ("odds.float", ["wagers", "pair_plus", "pair"], 4, 21),
        ("yaml.number-form", ["wagers", "pair_plus", "flush"], 4, 33),
        ("schema.unknown-key", ["wagers", "pair_plsu"], 5, 3),
    ]
    assert first["problems"][0]["json_path"] == "$.wagers.pair_plus.pair"
    assert run_cli("validate", "--format", "json", STANDARD).exit_code == 0


def test_every_code_the_corpus_produces_is_listed_in_the_docs() -> None:
    from bad_corpus import EXPECTED
    from conftest import DATA, REPO
    from trey.paytable.load import check_file

    listed = (REPO / "docs" / "commands" / "validate.md").read_text()
    codes = {p.code for name in EXPECTED for p in check_file(DATA / "bad" / name).problems}
    codes |= {p.code for path in (DATA / "warn").glob("*.yaml") for p in check_file(path).problems}
    assert len(codes) >= 25
    missing = sorted(code for code in codes if f"`{code}`" not in listed)
    assert missing == []


def test_a_certificate_with_more_side_bets_than_a_game_has_is_refused_before_any_work(tmp_path: Path) -> None:
    """Issue 18.12: a certificate with hundreds of side bets took 38 s to verify even with a wrong ID; the
    schema bounds them (16 side bets, 20 wagers), so it is refused before anything is recomputed."""
    data = json.loads((REPO / "reports" / "standard.certificate.json").read_text())
    canonical = data["paytable"]["canonical"]
    canonical["trey"] = 2
    canonical["side_bets"] = {
        f"bet_{i:02d}": {"title": f"Bet {i}", "reads": "six_cards", "pays": {"royal_flush": 1000}, "on_fold": "lost"}
        for i in range(40)
    }
    path = tmp_path / "many.certificate.json"
    path.write_text(json.dumps(data))
    result = run_cli("verify", path)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {path}: not a valid certificate: $.paytable.canonical.side_bets: 40 entries, more than the 16 "
        "allowed (the file does not follow schemas/certificate.schema.json)\n",
    )
