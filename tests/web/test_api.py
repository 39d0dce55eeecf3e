"""The workbench's JSON API and its bounds, over HTTP to a real server (httpx): the analysis is
``trey analyze --format json``'s, problems are ``trey validate``'s, nothing outside the folder is read."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import httpx
import pytest

from conftest import STANDARD, run_cli
from trey.paytable.load import load_spec
from workbench import page_token

PAIR_PLUS = Path(__file__).resolve().parents[2] / "paytables" / "pair_plus" / "40-30-6-4-1.yaml"
YAML = {"Content-Type": "application/yaml"}


def test_post_analyze_returns_the_analyze_commands_json(server: str) -> None:
    answer = httpx.post(f"{server}/api/analyze", content=STANDARD.read_bytes(), headers=YAML, timeout=30)
    assert answer.status_code == 200
    assert answer.json() == json.loads(run_cli("analyze", STANDARD, "--format", "json").stdout)


def test_post_analyze_of_a_bad_paytable_is_422_with_validates_problems(server: str, tmp_path: Path) -> None:
    bad = STANDARD.read_text().replace("flush: 3", "flush: 3.5", 1)
    (tmp_path / "bad.yaml").write_text(bad)
    answer = httpx.post(f"{server}/api/analyze", content=bad.encode(), headers=YAML, timeout=30)
    assert answer.status_code == 422
    validated = json.loads(run_cli("validate", tmp_path / "bad.yaml", "--format", "json").stdout)
    expected = [{**p, "file": "the posted paytable"} for p in validated["files"][0]["problems"]]
    assert answer.json() == {"valid": False, "problems": expected}
    assert expected[0]["code"] == "odds.float" and expected[0]["json_path"] == "$.wagers.pair_plus.flush"


def test_bodies_are_bounded_and_nothing_outside_the_folder_is_opened(server: str) -> None:
    huge = httpx.post(f"{server}/api/analyze", content=b"#" * (1 << 20 + 1), headers=YAML, timeout=30)
    assert huge.status_code == 413 and huge.json()["error"] == "the request is larger than 1,048,576 bytes"
    for name in ("../README.md", "/etc/passwd", "pair_plus/../../README.md", "standard.yml"):
        page = httpx.get(f"{server}/edit", params={"file": name}, timeout=30)
        assert page.status_code == 404 and "is not one of the paytables of this folder" in page.text
    assert httpx.get(f"{server}/static/../app.py", timeout=30).status_code == 404
    duplicated = b'{"paytable": {"a": 1, "a": 2}}'
    not_json = httpx.post(f"{server}/api/figures", content=duplicated, headers={"Content-Type": "application/json"})
    assert not_json.status_code == 400 and "duplicate key 'a'" in not_json.json()["error"]


def test_concurrent_requests_are_each_answered_rightly(server: str) -> None:
    """Several tabs at once: a slow document does not hold up the analyses, and each gets its own answer."""
    text = PAIR_PLUS.read_text()
    answers: dict[int, str] = {}

    def analyse(flush: int) -> None:
        body = text.replace("\n    flush: 4\n", f"\n    flush: {flush}\n")
        document = httpx.post(f"{server}/api/analyze", content=body.encode(), headers=YAML, timeout=60).json()
        answers[flush] = document["wagers"]["pair_plus"]["house_edge"]

    request = {"paytable": load_spec(STANDARD).canonical(), "origin": "standard.yaml"}
    form = {"request": json.dumps(request), "token": page_token(server)}
    slow = threading.Thread(target=lambda: httpx.post(f"{server}/download/certificate", data=form, timeout=60))
    slow.start()
    threads = [threading.Thread(target=analyse, args=(flush,)) for flush in (2, 3, 4, 5, 6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    slow.join()
    assert "\n    flush: 4\n" in text
    # Pair Plus 40-30-6-N-1: each unit on the flush takes its probability, 274/5525, off the edge (published for
    # N = 3 and 4: 7.28% and 2.32%)
    assert answers == {2: "52/425", 3: "402/5525", 4: "128/5525", 5: "-146/5525", 6: "-84/1105"}


# Issue 29.12: a listed file named with U+2028 ended the YAML comment naming the origin and added keys; a certificate
# came out saying who the operator was.
FORGED_ORIGIN = "pair_plus/40-30-6-4-1.yaml\u2028operator: Evil Corp (approved by the regulator)\u2028#"


def test_the_downloads_are_the_libraries_documents_of_the_edited_table(server: str) -> None:
    import io

    from pypdf import PdfReader

    from trey.paytable.load import check_bytes

    data = load_spec(PAIR_PLUS).canonical()
    data["wagers"]["pair_plus"]["flush"] = 3
    request = {"request": json.dumps({"paytable": data, "origin": FORGED_ORIGIN}), "token": page_token(server)}
    made = {}
    for kind in ("certificate", "dealer-sheet", "drill"):
        answer = httpx.post(f"{server}/download/{kind}", data=request, timeout=60)
        assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
        assert answer.headers["content-disposition"] == f'attachment; filename="40-30-6-4-1-edited.{kind}.pdf"'
        made[kind] = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(answer.content)).pages)
    assert "7.2760%" in made["certificate"]  # the edited table's house edge, as trey analyze prints it
    assert "Evil Corp" not in made["certificate"]
    assert "Pair Plus" in made["dealer-sheet"] and "Answer key" in made["drill"]
    yaml = httpx.post(f"{server}/download/yaml", data=request, timeout=30)
    assert yaml.status_code == 200
    first, _, body = yaml.text.partition("\n")
    assert first == (
        "# Edited in the trey workbench (trey 0.4.0), starting from pair_plus/40-30-6-4-1.yaml\\u2028operator: "
        "Evil Corp (approved by the regulator)\\u2028#."
    )
    loaded = check_bytes(yaml.content, "downloaded.yaml")
    assert loaded.spec is not None and not loaded.problems and loaded.spec.operator is None
    plain = check_bytes(body.encode(), "body.yaml").spec  # the same paytable without the comment
    assert plain is not None and loaded.spec.canonical() == plain.canonical()
    broken = json.loads(request["request"])
    broken["paytable"]["wagers"]["pair_plus"]["flush"] = "4x"
    refused = httpx.post(f"{server}/download/yaml", data={**request, "request": json.dumps(broken)}, timeout=30)
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
    answer = httpx.post(f"{server}/api/solve", json={**request, "house_edge": "5%"}, timeout=30)
    printed = run_cli(
        "solve", PAIR_PLUS, "--wager", "pair_plus", "--row", "flush", "--house-edge", "5%", "--format", "json"
    )
    assert answer.status_code == 200 and answer.json() == json.loads(printed.stdout)
    bad = httpx.post(f"{server}/api/solve", json={**request, "house_edge": "five"}, timeout=30)
    assert bad.status_code == 400 and bad.json() == {
        "error": "'five' is not a percentage such as 5% or 4.5%",
        "hint": "give the house edge as 5%",
    }
    said = run_cli("solve", PAIR_PLUS, "--wager", "pair_plus", "--row", "flush", "--house-edge", "five")
    assert said.exit_code == 2 and "'five' is not a percentage such as 5% or 4.5%" in said.stderr
    # Issue 29.14: a target of many decimals asks for a pay no odds can write: a 400 in the words trey solve prints.
    precise = httpx.post(f"{server}/api/solve", json={**request, "house_edge": "7.123457%"}, timeout=30)
    words = {
        "error": "the exact pay of flush for a house edge of 7.123457% is 3321716003 to 1096000000, past what odds "
        "can say (each number at most 1,000,000,000)",
        "hint": "give the target with fewer decimals, e.g. 7.12%",
    }
    assert precise.status_code == 400 and precise.json() == words  # trey solve's (tests/choose/test_choosing.py)


def test_a_request_addressed_to_another_name_is_refused(server: str) -> None:
    """A site whose name was pointed at 127.0.0.1 (DNS rebinding) cannot read the workbench from the user's browser."""
    rebound = httpx.get(f"{server}/", headers={"Host": "evil.example:8000"}, timeout=30)
    assert rebound.status_code == 400 and rebound.json() == {
        "error": "the request is addressed to 'evil.example:8000', not to this workbench",
        "hint": "use the address trey serve printed (or start it with --allow-host NAME)",
    }
    assert httpx.get(f"{server}/", headers={"Host": "localhost"}, timeout=30).status_code == 200
