"""The workbench's JSON API and its bounds, over HTTP to a real server (httpx): the analysis is
``trey analyze --format json``'s, problems are ``trey validate``'s, nothing outside the folder is read."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import httpx
import pytest

from conftest import STANDARD, run_cli
from trey import __version__
from trey.paytable.load import load_spec
from workbench import PATIENCE, InProcess, page_token

PAIR_PLUS = Path(__file__).resolve().parents[2] / "paytables" / "pair_plus" / "40-30-6-4-1.yaml"
YAML = {"Content-Type": "application/yaml"}
FLUSH_FIELD = "data-path='[&#34;wagers&#34;, &#34;pair_plus&#34;, &#34;flush&#34;]'"  # a field, as the form writes it


def test_post_analyze_returns_the_analyze_commands_json(server: str) -> None:
    answer = httpx.post(f"{server}/api/analyze", content=STANDARD.read_bytes(), headers=YAML, timeout=PATIENCE)
    assert answer.status_code == 200
    assert answer.json() == json.loads(run_cli("analyze", STANDARD, "--format", "json").stdout)


def test_post_analyze_of_a_bad_paytable_is_422_with_validates_problems(server: str, tmp_path: Path) -> None:
    bad = STANDARD.read_text().replace("flush: 3", "flush: 3.5", 1)
    (tmp_path / "bad.yaml").write_text(bad)
    answer = httpx.post(f"{server}/api/analyze", content=bad.encode(), headers=YAML, timeout=PATIENCE)
    assert answer.status_code == 422
    validated = json.loads(run_cli("validate", tmp_path / "bad.yaml", "--format", "json").stdout)
    expected = [{**p, "file": "the posted paytable"} for p in validated["files"][0]["problems"]]
    assert answer.json() == {"valid": False, "problems": expected}
    assert expected[0]["code"] == "odds.float" and expected[0]["json_path"] == "$.wagers.pair_plus.flush"


def test_bodies_are_bounded_and_nothing_outside_the_folder_is_opened(server: str) -> None:
    huge = httpx.post(f"{server}/api/analyze", content=b"#" * (1 << 20 + 1), headers=YAML, timeout=PATIENCE)
    assert huge.status_code == 413 and huge.json()["error"] == "the request is larger than 1,048,576 bytes"
    for name in ("../README.md", "/etc/passwd", "pair_plus/../../README.md", "standard.yml"):
        page = httpx.get(f"{server}/edit", params={"file": name}, timeout=PATIENCE)
        assert page.status_code == 404 and "is not one of the paytables of this folder" in page.text
    assert httpx.get(f"{server}/static/../app.py", timeout=PATIENCE).status_code == 404
    duplicated = b'{"paytable": {"a": 1, "a": 2}}'
    not_json = httpx.post(
        f"{server}/api/figures", content=duplicated, headers={"Content-Type": "application/json"}, timeout=PATIENCE
    )
    assert not_json.status_code == 400 and "duplicate key 'a'" in not_json.json()["error"]


def test_concurrent_requests_are_each_answered_rightly(server: str) -> None:
    """Several tabs at once: a slow document does not hold up the analyses, and each gets its own answer."""
    text = PAIR_PLUS.read_text()
    answers: dict[int, str] = {}

    def analyse(flush: int) -> None:
        body = text.replace("\n    flush: 4\n", f"\n    flush: {flush}\n")
        document = httpx.post(f"{server}/api/analyze", content=body.encode(), headers=YAML, timeout=PATIENCE).json()
        answers[flush] = document["wagers"]["pair_plus"]["house_edge"]

    request = {"paytable": load_spec(STANDARD).canonical(), "origin": "standard.yaml"}
    form = {"request": json.dumps(request), "token": page_token(server)}
    drills: list[httpx.Response] = []
    slow = threading.Thread(
        target=lambda: drills.append(httpx.post(f"{server}/download/drill", data=form, timeout=PATIENCE))
    )
    slow.start()
    threads = [threading.Thread(target=analyse, args=(flush,)) for flush in (2, 3, 4, 5, 6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    slow.join()
    assert [d.headers["content-disposition"] for d in drills] == ['attachment; filename="standard.drill.pdf"']
    assert "\n    flush: 4\n" in text
    # Pair Plus 40-30-6-N-1: each unit on the flush takes its probability, 274/5525, off the edge (published for
    # N = 3 and 4: 7.28% and 2.32%)
    assert answers == {2: "52/425", 3: "402/5525", 4: "128/5525", 5: "-146/5525", 6: "-84/1105"}


def _pdf(content: bytes) -> tuple[str, str, dict[str, bytes]]:
    """A PDF's title (its metadata), its text without spaces (a line may break anywhere in a long name or a hash)
    and its attachments."""
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(content))
    text = "".join("".join(page.extract_text() for page in reader.pages).split())
    return str(reader.metadata.title), text, {name: data[0] for name, data in reader.attachments.items()}


def _squeezed(text: str) -> str:
    return "".join(text.split())


def test_an_edits_answer_carries_the_form_only_when_the_page_asks(server: str) -> None:
    """A value typed into the form leaves the form as it is: its HTML (half an answer's weight) is sent only for a
    row added or removed or the YAML edited (``"form": true``), whether the table is valid or not; the figures and
    the YAML pane's text come with every valid answer."""
    data = load_spec(PAIR_PLUS).canonical()
    data["wagers"]["pair_plus"]["flush"] = 3
    typed = httpx.post(f"{server}/api/figures", json={"paytable": data}, timeout=PATIENCE).json()
    assert typed["valid"] and "fields" not in typed
    assert "7.2760%" in typed["figures"] and typed["yaml"].count("flush: 3") == 1
    rebuilt = httpx.post(f"{server}/api/figures", json={"paytable": data, "form": True}, timeout=PATIENCE).json()
    assert rebuilt["figures"] == typed["figures"] and FLUSH_FIELD in rebuilt["fields"]
    data["wagers"]["pair_plus"]["flush"] = "three"
    for asked in (False, True):
        answer = httpx.post(f"{server}/api/figures", json={"paytable": data, "form": asked}, timeout=PATIENCE).json()
        assert not answer["valid"] and (FLUSH_FIELD in answer.get("fields", "")) is asked


def test_an_edited_tables_documents_say_it_is_edited(server: str) -> None:
    """Issue 30.5: after the Pair Plus flush was changed in the workbench, the certificate still carried the file's
    description and the dealer sheet its title: nothing but a hash told them from the real table's. Here a page
    sends the file's table with its flush changed from 4 to 3, and reads back every document: each is titled
    "NAME (edited from FILE)", none carries the file's description or source, the source names the file and its
    SHA-256, and every PDF is made of the downloaded YAML's bytes."""
    import hashlib

    from trey.paytable.load import check_bytes

    digest = hashlib.sha256(PAIR_PLUS.read_bytes()).hexdigest()
    data = load_spec(PAIR_PLUS).canonical()
    assert data["description"] == "Pair Plus alone; published house edge 2.32%."
    data["wagers"]["pair_plus"]["flush"] = 3
    sent = {"paytable": data, "origin": "pair_plus/40-30-6-4-1.yaml", "origin_sha256": digest}
    request = {"request": json.dumps(sent), "token": page_token(server)}
    title = "Pair Plus 40-30-6-4-1 (edited from pair_plus/40-30-6-4-1.yaml)"
    source = f"pair_plus/40-30-6-4-1.yaml (SHA-256 {digest}), edited in the trey workbench"
    figures = httpx.post(f"{server}/api/figures", json=sent, timeout=PATIENCE).json()
    assert figures["documents"] == {"differs": True, "named": False, "title": title}  # what the page shows
    yaml = httpx.post(f"{server}/download/yaml", data=request, timeout=PATIENCE)
    assert yaml.headers["content-disposition"] == 'attachment; filename="40-30-6-4-1-edited.yaml"'
    assert yaml.text.startswith(
        f"# Edited in the trey workbench (trey {__version__}), starting from pair_plus/40-30-6-4-1.yaml "
        f"(SHA-256 {digest}).\n"
    )
    loaded = check_bytes(yaml.content, "downloaded.yaml").spec
    assert loaded is not None and (loaded.name, loaded.description, loaded.source) == (title, None, source)
    said = {}
    for kind, heading in (
        ("certificate", "Certificate "),
        ("dealer-sheet", "Dealer payout sheet: "),
        ("drill", "Payout drill: "),
    ):
        answer = httpx.post(f"{server}/download/{kind}", data=request, timeout=PATIENCE)
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
        assert answer.headers["content-disposition"] == f'attachment; filename="40-30-6-4-1-edited.{kind}.pdf"'
        said[kind] = meta, text, _ = _pdf(answer.content)
        assert meta.startswith(heading) and meta.endswith(title) and _squeezed(title) in text, kind
        assert "publishedhouseedge" not in text and "wizardofodds" not in text, kind  # the file's words
    certificate = said["certificate"][1]
    assert "7.2760%" in certificate  # the edited table's house edge, as trey analyze prints it
    assert _squeezed(f"Paytable source {source}") in certificate and "Descriptionsupplied" not in certificate
    assert said["certificate"][2]["40-30-6-4-1-edited.yaml"] == yaml.content  # the very bytes downloaded
    assert f"PaytableSHA-256{hashlib.sha256(yaml.content).hexdigest()}" in said["dealer-sheet"][1]
    named = json.dumps({**sent, "paytable": {**data, "name": "Pair Plus 40-30-6-3-1 (ours)"}})
    renamed = httpx.post(f"{server}/download/yaml", data={**request, "request": named}, timeout=PATIENCE)
    given = check_bytes(renamed.content, "renamed.yaml").spec
    assert given is not None and (given.name, given.description, given.source) == (
        "Pair Plus 40-30-6-3-1 (ours)",
        None,
        source,
    )


def test_an_unedited_tables_documents_are_its_files(server: str) -> None:
    """A table equal to its file is that file: what is downloaded is the file's bytes, named as it is."""
    sent = json.dumps({"paytable": load_spec(PAIR_PLUS).canonical(), "origin": "pair_plus/40-30-6-4-1.yaml"})
    answer = httpx.post(
        f"{server}/download/yaml", data={"request": sent, "token": page_token(server)}, timeout=PATIENCE
    )
    assert answer.headers["content-disposition"] == 'attachment; filename="40-30-6-4-1.yaml"'
    assert answer.content == PAIR_PLUS.read_bytes()


def test_a_download_names_the_file_it_was_edited_from_as_it_is(server: str) -> None:
    """The page says which of the folder's files it opened, and the SHA-256 that file had: a request naming none,
    one that is not the folder's, or a version the file no longer is, makes no document (and analyses nothing)."""
    data = load_spec(PAIR_PLUS).canonical()
    token = page_token(server)
    refusals = [
        ({}, 400, "the request does not say which paytable of the folder it was opened from"),
        ({"origin": "../README.md"}, 400, "../README.md is not one of the paytables of this folder"),
        (
            {"origin": "standard.yaml", "origin_sha256": "0" * 64},
            409,
            "standard.yaml has changed since this page opened it",
        ),
    ]
    for origin, status, error in refusals:
        sent = json.dumps({"paytable": data, **origin})
        answer = httpx.post(f"{server}/download/certificate", data={"request": sent, "token": token}, timeout=PATIENCE)
        assert (answer.status_code, answer.json()["error"]) == (status, error)
    stale = httpx.post(f"{server}/api/figures", json={"paytable": data, **refusals[2][0]}, timeout=PATIENCE).json()
    assert stale["documents"] == {
        "problem": "standard.yaml has changed since this page opened it",
        "hint": "open it again from the list (download the YAML first to keep these edits)",
    }


def test_a_file_named_to_add_keys_to_the_yaml_adds_none(tmp_path: Path) -> None:
    """Issue 29.12: a listed file named with U+2028 ended the YAML comment naming the origin and added keys; a
    certificate came out saying who the operator was. Its name is now in the title too: written as escapes."""
    import re

    from trey.paytable.load import check_bytes
    from trey.web.app import workbench

    forged = "pp\u2028operator: Evil Corp (approved by the regulator)\u2028#.yaml"
    (tmp_path / forged).write_bytes(PAIR_PLUS.read_bytes())
    client = InProcess(workbench(tmp_path), "http://127.0.0.1:8000")
    page = client.get("/edit", params={"file": forged}).text
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token is not None
    data = load_spec(PAIR_PLUS).canonical()
    data["wagers"]["pair_plus"]["flush"] = 3
    sent = json.dumps({"paytable": data, "origin": forged})
    yaml = client.post("/download/yaml", data={"request": sent, "token": token.group(1)})
    first, _, body = yaml.text.partition("\n")
    escaped = "pp\\u2028operator: Evil Corp (approved by the regulator)\\u2028#.yaml"
    assert first.startswith(f"# Edited in the trey workbench (trey {__version__}), starting from {escaped} (SHA-256 ")
    loaded = check_bytes(yaml.content, "downloaded.yaml")
    assert loaded.spec is not None and not loaded.problems and loaded.spec.operator is None
    assert loaded.spec.name == f"Pair Plus 40-30-6-4-1 (edited from {escaped})"
    plain = check_bytes(body.encode(), "body.yaml").spec  # the same paytable without the comment
    assert plain is not None and loaded.spec.canonical() == plain.canonical()
    broken = {
        "paytable": {**data, "wagers": {"pair_plus": {**data["wagers"]["pair_plus"], "flush": "4x"}}},
        "origin": forged,
    }
    refused = client.post("/download/yaml", data={"request": json.dumps(broken), "token": token.group(1)})
    assert refused.status_code == 400 and refused.json()["error"] == "fix the paytable's problems first"


def test_serve_refuses_a_missing_folder_and_warns_off_this_machine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    from trey.web.server import BoundedH11Protocol

    started: list[tuple[str, int, dict[str, object]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda _app, host, port, **options: started.append((host, port, options)))
    missing = run_cli("serve", tmp_path / "nowhere")
    assert missing.exit_code == 1 and missing.stderr == (
        f"error: {tmp_path / 'nowhere'}: not a folder of paytables (give a folder holding *.yaml paytables)\n"
    )
    local = run_cli("serve", tmp_path, "--port", 8123)
    assert local.exit_code == 0 and local.stderr == "trey workbench: http://127.0.0.1:8123/ (Ctrl-C stops it)\n"
    wide = run_cli("serve", tmp_path, "--host", "0.0.0.0")
    assert wide.stderr.startswith("warning: listening on 0.0.0.0: anyone who can reach this machine and has the")
    assert [(host, port) for host, port, _ in started] == [("127.0.0.1", 8123), ("0.0.0.0", 8000)]
    # Issue 29.14: stalled connections are timed out (a head a byte at a time too) and their number bounded.
    assert started[0][2] == {
        "http": BoundedH11Protocol,
        "timeout_keep_alive": 5,
        "limit_concurrency": 64,
        "log_level": "warning",
        "access_log": False,
    }


def test_the_listing_is_bounded_and_stays_inside_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trey.web.app as web

    (tmp_path / "a.yaml").write_text(PAIR_PLUS.read_text())
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "b.yaml").write_text("x")
    deep = tmp_path / "1" / "2" / "3" / "4" / "5"
    deep.mkdir(parents=True)
    (deep / "too-deep.yaml").write_text("x")
    (tmp_path / "1" / "ok.yaml").write_text("x")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.yaml"
    outside.write_text("x")
    (tmp_path / "link.yaml").symlink_to(outside)
    assert list(web.listed(tmp_path)) == ["1/ok.yaml", "a.yaml"]
    monkeypatch.setattr(web, "MAX_ENTRIES", 2)
    assert web.listed(tmp_path) == {}  # two entries looked at (.hidden and 1), then it stops
    outside.unlink()


def test_solve_answers_as_trey_solve_and_refuses_in_its_words(server: str) -> None:
    request = {"paytable": load_spec(PAIR_PLUS).canonical(), "wager": "pair_plus", "row": "flush"}
    answer = httpx.post(f"{server}/api/solve", json={**request, "house_edge": "5%"}, timeout=PATIENCE)
    printed = run_cli(
        "solve", PAIR_PLUS, "--wager", "pair_plus", "--row", "flush", "--house-edge", "5%", "--format", "json"
    )
    said_json = answer.json()
    # Issue 33: the page shows the exact pay as a decimal too (3791/1096 = 3.45894...) and the target it solved for.
    assert (said_json.pop("exact_pay_decimal"), said_json.pop("target_percent")) == ("3.4589", "5.0000%")
    assert answer.status_code == 200 and said_json == json.loads(printed.stdout)
    assert json.loads(printed.stdout)["exact_pay"] == "3791/1096" and 3.45885 < 3791 / 1096 < 3.45895
    bad = httpx.post(f"{server}/api/solve", json={**request, "house_edge": "five"}, timeout=PATIENCE)
    assert bad.status_code == 400 and bad.json() == {
        "error": "'five' is not a percentage such as 5% or 4.5%",
        "hint": "give the house edge as 5%",
    }
    said = run_cli("solve", PAIR_PLUS, "--wager", "pair_plus", "--row", "flush", "--house-edge", "five")
    assert said.exit_code == 2 and "'five' is not a percentage such as 5% or 4.5%" in said.stderr
    # Issue 29.14: a target of many decimals asks for a pay no odds can write: a 400 in the words trey solve prints.
    precise = httpx.post(f"{server}/api/solve", json={**request, "house_edge": "7.123457%"}, timeout=PATIENCE)
    words = {
        "error": "the exact pay of flush for a house edge of 7.123457% is 3321716003 to 1096000000, past what odds "
        "can say (each number at most 1,000,000,000)",
        "hint": "give the target with fewer decimals, e.g. 7.12%",
    }
    assert precise.status_code == 400 and precise.json() == words  # trey solve's (tests/choose/test_choosing.py)


def test_a_request_addressed_to_another_name_is_refused(server: str) -> None:
    """A site whose name was pointed at 127.0.0.1 (DNS rebinding) cannot read the workbench from the user's browser."""
    rebound = httpx.get(f"{server}/", headers={"Host": "evil.example:8000"}, timeout=PATIENCE)
    assert rebound.status_code == 400 and rebound.json() == {
        "error": "the request is addressed to 'evil.example:8000', not to this workbench",
        "hint": "use the address trey serve printed (or start it with --allow-host NAME)",
    }
    assert httpx.get(f"{server}/", headers={"Host": "localhost"}, timeout=PATIENCE).status_code == 200


def test_the_longest_name_and_file_still_make_a_title_that_loads() -> None:
    """A name may be 200 characters and a folder's file name long: the title is cut to what a name may be."""
    from trey.paytable.load import check_bytes
    from trey.web.edited import Original, documented

    data = load_spec(PAIR_PLUS).canonical() | {"name": "N" * 200}
    original = Original("table\u202e/" + "deep/" * 40 + "x.yaml", b"", "0" * 64, data)  # a bidi control in it
    made = documented({**data, "wagers": {"pair_plus": {**data["wagers"]["pair_plus"], "flush": 3}}}, original)
    loaded = check_bytes(made.raw, "made.yaml").spec
    assert loaded is not None and len(loaded.name) == 200
    assert loaded.name == "N" * 84 + "… (edited from " + ("table\\u202e/" + "deep/" * 40)[:99] + "…)"
