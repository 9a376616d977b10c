"""Trial files written before names got one meaning each are read under today's names,
reported, viewed and skipped unchanged when a run resumes over them.

``data/old_names/gwt_hangman`` is a real one: a ``gwt`` agent's Hangman trial whose recorded
agent spec names the specialist kinds ``conscious`` and ``focus`` (now ``hub`` and
``reground``; its node names stay)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.migrate import current_names
from cogarch.experiments.results.trial_files import read_trial
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.viewer.app import create_app
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.workspace import load_agent_spec

DATA = Path(__file__).parent / "data" / "old_names" / "gwt_hangman"
TRIAL = DATA / "gwt" / "trial_0000.json"
REPO = Path(__file__).resolve().parents[2]


def kinds(spec: dict[str, Any]) -> dict[str, str]:
    return {node: part["kind"] for node, part in spec["specialists"].items()}


def old_file() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TRIAL.read_text(encoding="utf-8"))
    assert kinds(data["metadata"]["agent_spec"])["conscious"] == "conscious"  # the old form
    assert kinds(data["metadata"]["agent_spec"])["focus"] == "focus"
    return data


def test_an_old_file_reads_under_todays_kind_names_with_nothing_else_changed() -> None:
    old = old_file()
    record = read_trial(TRIAL)
    spec = record.metadata.agent_spec
    assert spec is not None
    assert kinds(spec) == {
        "perception": "reground",
        "conscious": "hub",
        "focus": "reground",
        "planner": "planner",
        "responder": "responder",
        "updater": "memory_updater",
    }
    assert spec == load_agent_spec("gwt").model_dump(mode="json")  # today's gwt agent
    written = json.loads(record.model_dump_json())
    assert {**written["metadata"], "agent_spec": None} == {**old["metadata"], "agent_spec": None}
    for part in ("turns", "branches", "evaluation", "payload", "usage", "walk", "transitions"):
        assert written[part] == old[part], part
    assert record.evaluation.outcome == "self_consistent"
    assert json.loads(TRIAL.read_text(encoding="utf-8")) == old  # the file is left as it was


def test_an_old_run_reports_and_its_trial_page_shows(tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(DATA, copy)
    md = build_report(copy)[0].read_text(encoding="utf-8")
    assert "trial files: 1 (1 complete" in md and "self_consistent" in md
    http = TestClient(create_app(TrialIndex([copy], min_interval_s=0)), base_url="http://127.0.0.1")
    page = http.get("/trial/0/gwt/0")
    assert page.status_code == 200
    assert 'class="edge visited"' in page.text and "Fork after turn 3" in page.text


async def test_a_run_resumes_over_an_old_file_without_touching_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    copy = tmp_path / "run"
    shutil.copytree(DATA, copy)
    before = TRIAL.read_bytes()
    recorded: dict[str, Any] = json.loads((copy / "run.json").read_text(encoding="utf-8"))
    config = RunConfig.model_validate({**recorded["config"], "results_dir": str(copy)})
    report = await Runner(config, progress=False).run()
    assert (report.ran, report.skipped, report.corrupt) == (0, 1, [])
    assert (copy / "gwt" / "trial_0000.json").read_bytes() == before


def test_only_renamed_kinds_change_and_odd_shapes_pass_through() -> None:
    old = old_file()
    now = current_names(old)
    assert now is not old and old_file() == old  # the data given is not changed
    assert now["metadata"]["agent_spec"]["specialists"]["planner"]["kind"] == "planner"
    assert current_names(now) is now  # nothing left to rename
    for odd in ({}, {"metadata": None}, {"metadata": {"agent_spec": []}}):
        assert current_names(odd) is odd
    spec = {"specialists": {"a": {"kind": 3}, "b": "focus", "c": {"kind": "focus"}}}
    renamed = current_names({"metadata": {"agent_spec": spec}})["metadata"]["agent_spec"]
    assert renamed["specialists"] == {"a": {"kind": 3}, "b": "focus", "c": {"kind": "reground"}}
