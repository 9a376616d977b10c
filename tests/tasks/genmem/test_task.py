"""The generated benchmark as a task, end to end with the scripted reader: the shipped fakes
config runs every agent on the same questions; the controls read nothing or only the
evidence; a memory is ingested once and reused; the retrieval metrics have LongMemEval's
keys; the report has accuracy per ability."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.genmem.records import GenmemPayload
from cogarch.tasks.genmem.task import GenmemTask
from cogarch.tasks.registry import build_task

REPO = Path(__file__).resolve().parents[3]
FAKES = REPO / "experiments" / "configs" / "genmem_fakes.yaml"


async def test_the_fakes_config_plays_memories_and_controls(tmp_path: Path) -> None:
    shipped = load_run_config(FAKES)
    config = RunConfig.model_validate({**shipped.model_dump(), "results_dir": tmp_path})
    report = await Runner(config, progress=False).run()
    assert report.failed == 0
    found: dict[str, list[GenmemPayload]] = {}
    for path, record in iter_trials(config.output_dir()):
        assert not isinstance(record, Exception), f"{path}: {record}"
        assert isinstance(record.payload, GenmemPayload)
        found.setdefault(record.agent, []).append(record.payload)
    assert {len(v) for v in found.values()} == {config.trials}
    questions = {p.question_id for p in found["oracle"]}
    assert all({p.question_id for p in v} == questions for v in found.values())

    assert all(p.reading == "none" and p.turns_ingested == 0 for p in found["no_memory"])
    assert not any(p.correct for p in found["no_memory"] if not p.abstention)
    for p in found["oracle"]:
        assert p.reading == "oracle" and p.turns_ingested == len(p.evidence_turns)
    oracle = [p.correct for p in found["oracle"] if p.ability == "extraction"]
    assert sum(oracle) > 0
    hybrid = sorted(found["hybrid_turns"], key=lambda p: p.question_id)
    assert sum(not p.memory_reused for p in hybrid) == 1  # ingested once, then reused
    assert all(p.history_tokens > 5000 for p in hybrid)
    scored = [p.retrieval for p in hybrid if not p.abstention]
    assert scored and all(r is not None and "recall_any@5" in r["turn"] for r in scored)
    assert all(p.retrieval is None for p in hybrid if p.abstention)
    assert all(p.prompt_tokens > 0 for v in found.values() for p in v)

    records = [r for _, r in iter_trials(config.output_dir()) if not isinstance(r, Exception)]
    tables = GenmemTask.report_tables(records)
    assert sorted(tables[0].header[1:]) == sorted(a.name for a in config.agents)
    assert [row[0] for row in tables[0].rows][:7] == [
        "overall",
        "answerable",
        "extraction",
        "multi_session",
        "update",
        "temporal",
        "abstention",
    ]


def test_a_control_must_be_a_known_reading() -> None:
    with pytest.raises(Exception, match="readings"):
        build_task("genmem", {"readings": {"x": "peek"}})
    task = build_task(
        "genmem", {"seed": 2, "questions": 10, "count": 4, "readings": {"o": "oracle"}}
    )
    assert isinstance(task, GenmemTask) and len(task.questions) == 4
    assert task.reading_of("o") == "oracle" and task.reading_of("other") == "memory"


def test_the_default_knobs_make_a_task() -> None:
    task = build_task("genmem", {})
    assert isinstance(task, GenmemTask) and len(task.questions) == 40
    assert {q.ability for q in task.questions} == {
        "extraction",
        "multi_session",
        "update",
        "temporal",
        "abstention",
    }
