"""The served pages, through HTTP: the run page, filters, trial pages, the live fragment,
hostile text escaped, and the static export."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from cogarch.experiments.cli.command import main
from cogarch.experiments.results.trial_files import read_trial, trial_path, write_trial
from cogarch.experiments.viewer.app import create_app
from cogarch.experiments.viewer.index import TrialIndex

from .conftest import trial_count


def client(run_dir: Path) -> TestClient:
    return TestClient(
        create_app(TrialIndex([run_dir], min_interval_s=0)), base_url="http://127.0.0.1"
    )


def rows(html: str) -> list[str]:
    return re.findall(r'data-key="([^"]+)"', html)


def test_run_page_filters(run_dir: Path) -> None:
    http = client(run_dir)
    assert len(rows(http.get("/").text)) == trial_count(run_dir)
    leaky = rows(http.get("/", params={"outcome": "leakage"}).text)
    assert leaky == ["0/leaky_vanilla/0", "0/leaky_vanilla/1"]
    assert rows(http.get("/", params={"agent": "honest_vanilla", "q": "range"}).text) != []


def test_trial_page_and_missing_trial(run_dir: Path) -> None:
    http = client(run_dir)
    page = http.get("/trial/0/honest_workflow/0")
    assert page.status_code == 200
    assert 'class="edge visited"' in page.text and "Fork after turn 4" in page.text
    assert http.get("/trial/0/nobody/3").status_code == 404


def test_trial_page_shows_prompt_cache_use(run_dir: Path) -> None:
    http = client(run_dir)
    page = http.get("/trial/0/honest_workflow/0").text
    assert page.count("served from prompt cache") == 2  # by caller and per call
    assert "<td>n/a</td>" in page  # the fakes report no prompt cache
    record = read_trial(trial_path(run_dir, "honest_workflow", 0))
    calls = [c.model_copy(update={"cached_prompt_tokens": 4321}) for c in record.usage.calls]
    callers = {k: {**v, "cached_prompt_tokens": 8642} for k, v in record.usage.by_caller.items()}
    usage = record.usage.model_copy(update={"calls": calls, "by_caller": callers})
    write_trial(run_dir, record.model_copy(update={"agent": "cached_agent", "usage": usage}))
    page = http.get("/trial/0/cached_agent/0").text
    assert "<td>4321</td>" in page and "<td>8642</td>" in page


def test_hostile_text_is_escaped(run_dir: Path) -> None:
    page = client(run_dir).get("/trial/0/hostile_agent/0").text
    assert "<script>window.PWNED" not in page
    assert "onerror=" not in page.replace("onerror=&#34;", "")
    assert "&lt;script&gt;window.PWNED = 1&lt;/script&gt;" in page
    listing = client(run_dir).get("/", params={"q": "pwned"}).text
    assert "<script>window" not in listing


def test_live_fragment_changes_only_when_files_do(run_dir: Path) -> None:
    http = client(run_dir)
    version = re.search(r'data-version="(\d+)"', http.get("/").text)
    assert version is not None
    assert http.get("/live", params={"since": version[1]}).status_code == 204
    record = read_trial(trial_path(run_dir, "honest_vanilla", 0))
    write_trial(run_dir, record.model_copy(update={"trial": 5}))
    fresh = http.get("/live", params={"since": version[1], "agent": "honest_vanilla"})
    assert fresh.status_code == 200
    assert "0/honest_vanilla/5" in rows(fresh.text)


def test_static_export_opens_without_a_server(run_dir: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "export"
    assert main(["view", str(run_dir), "--export", str(out)]) == 0
    index = (out / "index.html").read_text()
    assert 'data-mode="static"' in index and "http" not in index.split("<main>")[0]
    pages = sorted(p.name for p in (out / "trials").iterdir())
    assert len(pages) == trial_count(run_dir)
    assert (out / "static" / "viewer.css").exists() and (out / "trial_text.js").exists()
    hostile = (out / "trials" / "0__hostile_agent__0.html").read_text()
    assert "<script>window.PWNED" not in hostile
    assert 'href="../static/viewer.css"' in hostile


def test_view_of_a_missing_folder_is_one_error_line(tmp_path: Path, capsys) -> None:
    assert main(["view", str(tmp_path / "absent"), "--export", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not exist" in err[0]
