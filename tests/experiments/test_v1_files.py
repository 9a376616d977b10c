"""Trial files of schema version 1 (real ones, under data/v1) are read as current records:
migrated in memory, reported like new runs, and skipped when a run resumes over them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.records import TransitionCount
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import CorruptTrialError, read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.tables.tidy import tidy_run
from cogarch.tasks.revision.records import RevisionPayload
from cogarch.tasks.sct.records import SCTPayload

DATA = Path(__file__).parent / "data" / "v1"


def v1(*parts: str) -> dict[str, Any]:
    data = json.loads(DATA.joinpath(*parts).read_text(encoding="utf-8"))
    assert data["schema_version"] == 1
    return data


def test_an_sct_trial_keeps_every_block() -> None:
    old = v1("hangman", "honest_vanilla", "trial_0000.json")
    record = read_trial(DATA / "hangman" / "honest_vanilla" / "trial_0000.json")
    assert record.schema_version == 2
    assert record.evaluation.model_dump(mode="json") == old["evaluation"]
    assert isinstance(record.payload, SCTPayload)
    assert (
        record.payload.model_dump(
            exclude={"kind", "version", "leak_turns", "proposer", "proposer_is_agent", "warnings"}
        )
        == old["sct"]
    )
    log = old["interaction_log"]
    assert isinstance(log, list)
    assert [t.reply for t in record.turns] == [e["assistant"] for e in log]
    assert [b.model_dump() for b in record.branches] == old["branches"]
    assert record.scoring.classifies and record.succeeded is True
    assert record.usage.model_calls == len(record.usage.calls) > 0
    assert record.metadata.config_hash == old["metadata"]["config_hash"]


def test_leak_turns_move_into_the_sct_payload() -> None:
    record = read_trial(DATA / "hangman" / "leaky_vanilla" / "trial_0000.json")
    assert record.evaluation.outcome == "leakage"
    assert isinstance(record.payload, SCTPayload) and record.payload.leaked
    assert record.payload.leak_turns == record.evaluation.leak_turns


def test_transition_keys_become_pairs() -> None:
    record = read_trial(DATA / "many" / "gwt" / "trial_0000.json")
    assert record.transitions == [
        TransitionCount(source="conscious", target="responder", count=10),
        TransitionCount(source="perception", target="conscious", count=10),
        TransitionCount(source="responder", target="updater", count=10),
    ]


def test_a_revision_trial_gets_its_payload_and_footprints() -> None:
    old = v1("revision", "tme", "trial_0000.json")
    record = read_trial(DATA / "revision" / "tme" / "trial_0000.json")
    assert isinstance(record.payload, RevisionPayload)
    assert record.payload.revision == old["extra"]["revision"]
    assert record.payload.final_private_state == old["extra"]["final_private_state"]
    footprints = old["extra"]["revision"]["footprint"]
    assert [t.footprint.model_dump() for t in record.turns if t.footprint] == footprints
    assert record.scoring.success == "consistent" and record.succeeded is False


def test_an_unknown_schema_version_names_the_fix(tmp_path: Path) -> None:
    data = v1("hangman", "honest_vanilla", "trial_0000.json")
    path = tmp_path / "trial_0000.json"
    path.write_text(json.dumps({**data, "schema_version": 9}), encoding="utf-8")
    with pytest.raises(CorruptTrialError, match=r"schema_version 9.*upgrade cogarch"):
        read_trial(path)


@pytest.mark.parametrize("run", ["hangman", "diagnosis", "revision", "many"])
def test_a_report_reads_version_1_runs(tmp_path: Path, run: str) -> None:
    paths = build_report(DATA / run, tmp_path)
    md = paths[0].read_text(encoding="utf-8")
    table = tidy_run(DATA / run)
    assert table.status_counts["complete"] == len(table.rows) > 0
    assert all(row.outcome for row in table.rows)
    assert f"run: {table.rows[0].run}" in md


async def test_a_resumed_run_skips_complete_version_1_trials(tmp_path: Path) -> None:
    results = tmp_path / "hangman"
    shutil.copytree(DATA / "hangman", results)
    config = json.loads((results / "run.json").read_text(encoding="utf-8"))["config"]
    agents = [a for a in config["agents"] if a["name"] in ("honest_vanilla", "leaky_vanilla")]
    resumed = RunConfig.model_validate(
        {**config, "agents": agents, "trials": 2, "results_dir": str(results)}
    )
    before = (results / "honest_vanilla" / "trial_0000.json").read_text(encoding="utf-8")
    report = await Runner(resumed, progress=False).run()
    assert (report.skipped, report.ran, report.corrupt) == (3, 1, [])
    assert (results / "honest_vanilla" / "trial_0000.json").read_text(encoding="utf-8") == before
    fresh = read_trial(trial_path(results, "leaky_vanilla", 1))
    assert json.loads(trial_path(results, "leaky_vanilla", 1).read_text())["schema_version"] == 2
    assert fresh.status == "complete"
    assert "self_consistent" in report.table()
