"""Trial files of schema version 2 written before tasks owned their records (real ones, under
data/v2: an SCT, a constraint, a revision and a LoCoMo run) are read into their tasks'
classes with nothing lost, reported, and skipped unchanged when a run resumes over them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import TaskPayload
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import read_trial
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.constraints.records import ConstraintsEvaluation, ConstraintsPayload
from cogarch.tasks.locomo.records import LocomoEvaluation, LocomoPayload
from cogarch.tasks.revision.records import RevisionEvaluation, RevisionPayload
from cogarch.tasks.sct.records import SCTEvaluation, SCTPayload

DATA = Path(__file__).parent / "data" / "v2"
REPO = Path(__file__).resolve().parents[2]
CLASSES: dict[str, tuple[type[Evaluation], type[TaskPayload]]] = {
    "hangman": (SCTEvaluation, SCTPayload),
    "constraints": (ConstraintsEvaluation, ConstraintsPayload),
    "revision": (RevisionEvaluation, RevisionPayload),
    "locomo": (LocomoEvaluation, LocomoPayload),
}


def files(run: str) -> list[Path]:
    return sorted((DATA / run).glob("*/trial_*.json"))


@pytest.mark.parametrize("run", sorted(CLASSES))
def test_an_old_file_reads_into_its_tasks_classes_with_nothing_lost(run: str) -> None:
    evaluation_class, payload_class = CLASSES[run]
    for path in files(run):
        old = json.loads(path.read_text(encoding="utf-8"))
        assert old["schema_version"] == 2 and "version" not in old["payload"]
        record = read_trial(path)
        assert type(record.evaluation) is evaluation_class
        assert type(record.payload) is payload_class and record.payload.version == 1
        written = json.loads(record.model_dump_json())
        assert written["evaluation"] == old["evaluation"]
        assert written["payload"] == {**old["payload"], "version": 1}
        assert written["branches"] == old["branches"] and written["turns"] == old["turns"]
        assert written["usage"] == old["usage"] and written["walk"] == old["walk"]


@pytest.mark.parametrize("run", sorted(CLASSES))
def test_an_old_run_reports(run: str, tmp_path: Path) -> None:
    copy = tmp_path / run
    shutil.copytree(DATA / run, copy)
    paths = build_report(copy)
    md = paths[0].read_text(encoding="utf-8")
    assert f"trial files: {len(files(run))} ({len(files(run))} complete" in md
    csv_header = (copy / "report" / "trials.csv").read_text().splitlines()[0]
    if run == "hangman":
        assert "outcome_strict" in csv_header and "revealed" in csv_header
        assert "the fork per agent" in md and "leakage" in md


def _resumed_config(copy: Path, played_by_files: bool) -> RunConfig:
    """The run's recorded config over ``copy``, with its agents that have files; with
    ``played_by_files`` each agent is the spec its trial file records (a ready-made spec may
    have changed since: the files' own is the one they resume under)."""
    recorded: dict[str, Any] = json.loads((copy / "run.json").read_text())["config"]
    agents = []
    for entry in recorded["agents"]:
        name = entry.get("name") or entry["agent"]
        played = sorted((copy / name).glob("trial_*.json"))
        if not played:
            continue
        spec = json.loads(played[0].read_text(encoding="utf-8"))["metadata"]["agent_spec"]
        if played_by_files and spec is not None:
            path = copy / f"{name}.spec.yaml"
            path.write_text(yaml.safe_dump(spec), encoding="utf-8")
            entry = {**entry, "name": name, "agent": str(path), "params": {}}
        agents.append(entry)
    recorded.update(results_dir=str(copy), trials=1, agents=agents)
    return RunConfig.model_validate(recorded)


@pytest.mark.parametrize("run", sorted(CLASSES))
async def test_a_run_resumes_over_old_files_without_touching_them(
    run: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)  # the runs name their data by paths relative to the repository
    copy = tmp_path / run
    shutil.copytree(DATA / run, copy)
    before = {p: p.read_bytes() for p in copy.glob("*/trial_*.json")}
    report = await Runner(_resumed_config(copy, played_by_files=True), progress=False).run()
    assert (report.ran, report.skipped, report.corrupt) == (0, len(before), [])
    assert {p: p.read_bytes() for p in copy.glob("*/trial_*.json")} == before


async def test_an_old_file_of_a_ready_made_agent_changed_since_is_kept_aside_and_played_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # raw_turns has searched for the question a prompt asks, with static embeddings, since
    # the LoCoMo file was written: the old answers are not this agent's, but they are kept.
    monkeypatch.chdir(REPO)
    copy = tmp_path / "locomo"
    shutil.copytree(DATA / "locomo", copy)
    [old] = copy.glob("raw_turns/trial_*.json")
    written = old.read_bytes()
    report = await Runner(_resumed_config(copy, played_by_files=False), progress=False).run()
    assert (report.ran, report.skipped) == (1, 0)
    assert len(report.corrupt) == 1 and "another version of agent 'raw_turns'" in report.corrupt[0]
    assert old.with_name(f"{old.stem}.corrupt").read_bytes() == written
    assert (
        read_trial(old).metadata.agent_spec
        != read_trial(old.with_name(f"{old.stem}.corrupt")).metadata.agent_spec
    )
