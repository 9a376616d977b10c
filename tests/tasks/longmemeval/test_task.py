"""The LongMemEval task end to end with the scripted reader and judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogarch.core.leaderboard import metric_items
from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.longmemeval.metrics import accuracy_summary
from cogarch.tasks.longmemeval.records import LongMemEvalPayload
from cogarch.tasks.longmemeval.synthetic import synthetic_longmemeval
from cogarch.tasks.longmemeval.task import LongMemEvalTask

REPO = Path(__file__).resolve().parents[3]
FAKES = REPO / "experiments" / "configs" / "longmemeval_fakes.yaml"


def write_synthetic(path: Path, **options: Any) -> Path:
    path.write_text(json.dumps(synthetic_longmemeval(**options)), encoding="utf-8")
    return path


def config(tmp_path: Path, data: Path, agents: list[dict[str, Any]], **task: Any) -> RunConfig:
    return RunConfig.model_validate(
        {
            "name": "lme",
            "task": {"kind": "longmemeval", "data": str(data), **task},
            "trials": 7,
            "seed": 3,
            "results_dir": str(tmp_path / "runs"),
            "cache": False,
            "providers": {
                "reader": {"kind": "fake", "fake": "longmemeval.reader"},
                "judge": {"kind": "fake", "fake": "longmemeval.judge"},
            },
            "helper_provider": "judge",
            "agents": agents,
        }
    )


async def payloads(cfg: RunConfig) -> dict[str, list[LongMemEvalPayload]]:
    report = await Runner(cfg, progress=False).run()
    assert report.failed == 0
    found: dict[str, list[LongMemEvalPayload]] = {}
    for path, record in iter_trials(cfg.output_dir()):
        assert not isinstance(record, Exception), f"{path}: {record}"
        assert isinstance(record.payload, LongMemEvalPayload)
        found.setdefault(record.agent, []).append(record.payload)
    return found


DEAF_AGENT = """name: deaf
params: {}
memory:
  turns: {kind: raw_turns, top_k: 5, tags: false, embedder: hash, store: memory,
          ingest_roles: [assistant]}
specialists:
  retrieval: {kind: retrieval, memory: turns}
  responder: {kind: responder, history: 0, prompt: "Parts of the chat history:\n{memories}"}
entry: retrieval
edges: ["retrieval -> responder"]
"""


async def test_memory_with_the_evidence_answers_and_memory_without_it_does_not(
    tmp_path: Path,
) -> None:
    data = write_synthetic(tmp_path / "lme.json", questions_per_type=1, abstention=0, seed=5)
    deaf = tmp_path / "deaf.yaml"
    deaf.write_text(DEAF_AGENT, encoding="utf-8")
    agents = [
        {
            "name": "turns",
            "agent": "raw_turns_hybrid",
            "provider": "reader",
            "params": {"embedder": "hash", "top_k": 5},
        },
        # the evidence is what the user said: a memory of the assistant's turns never holds it
        {"name": "deaf", "agent": str(deaf), "provider": "reader"},
        {
            "name": "rounds",
            "agent": "longmemeval_rounds",
            "provider": "reader",
            "params": {"embedder": "hash", "top_k": 3},
        },
    ]
    found = await payloads(config(tmp_path, data, agents, history_tokens=1))
    for name in ("turns", "rounds"):
        assert len(found[name]) == 7
        assert all(p.verdict for p in found[name]), name
        assert all(p.gold in p.hypothesis for p in found[name])
        assert all(
            p.retrieval and p.retrieval["session"]["recall_any@5"] == 1.0 for p in found[name]
        )
    assert not any(p.verdict for p in found["deaf"])
    assert all(
        p.retrieval and p.retrieval["session"]["recall_any@50"] == 0.0 for p in found["deaf"]
    )
    ranked = found["rounds"][0].ranked
    assert ranked is not None and all(len(entry) == 1 for entry in ranked)


async def test_the_same_memory_is_ingested_once_and_a_rerun_pays_nothing(tmp_path: Path) -> None:
    data = write_synthetic(tmp_path / "lme.json", questions_per_type=1, abstention=1, seed=2)
    agents = [
        {
            "name": "plain",
            "agent": "longmemeval_sessions",
            "provider": "reader",
            "params": {"embedder": "hash", "top_k": 2},
        },
        {
            "name": "noted",
            "agent": "longmemeval_sessions",
            "provider": "reader",
            "params": {"embedder": "hash", "top_k": 2, "chain_of_note": True},
        },
    ]
    cfg = config(tmp_path, data, agents)
    cfg = cfg.model_copy(update={"concurrency": 1})
    found = await payloads(cfg)
    reused = [p.memory_reused for name in ("plain", "noted") for p in found[name]]
    assert reused.count(False) == 7 and reused.count(True) == 7


async def test_the_shipped_fakes_config_runs_every_reader(tmp_path: Path) -> None:
    shipped = load_run_config(FAKES).model_dump()
    shipped["results_dir"] = tmp_path / "runs"
    shipped["task"]["data"] = str(REPO / shipped["task"]["data"])
    cfg = RunConfig.model_validate(shipped)
    found = await payloads(cfg)
    assert set(found) == {"full", "sessions", "rounds", "raw_turns"}
    for name, answers in found.items():
        assert len(answers) == 7
        assert sum(bool(p.verdict) for p in answers) >= 5, name
        assert all(p.judge_model for p in answers)
    records = [r for _, r in iter_trials(cfg.output_dir()) if not isinstance(r, Exception)]
    [metric] = LongMemEvalTask.leaderboard_metrics()
    assert metric.name == "accuracy"
    for record in records:
        assert metric_items(metric, record) == [
            (str(record.trial), float(bool(record.payload.verdict)))  # type: ignore[attr-defined]
        ]
    accuracy, retrieval = LongMemEvalTask.report_tables(records)
    assert accuracy.rows[0][0] == "overall"
    assert "gpt-4o-2024-08-06" in accuracy.title
    rows = {row[0]: row[1:] for row in retrieval.rows}
    agents = list(retrieval.header[1:])
    # the official reading of the same rankings: only the evidence turn makes its session a hit
    assert rows["session ndcg_any@3"][agents.index("rounds")] == "1.000"
    assert rows["session ndcg_any@3"][agents.index("raw_turns")] == "1.000"
    assert rows["questions scored"][agents.index("rounds")] == "6"
    assert rows["left out: abstention"][agents.index("rounds")] == "1"
    assert rows["ranking"][agents.index("rounds")] == "whole memory"
    assert rows["ranking"][agents.index("full")] == "none"
    for answer in found["raw_turns"]:
        # every message held is ranked, the assistant's too; the reader saw the top 5
        assert answer.ranking is not None and len(answer.ranking) == answer.turns_ingested
        assert answer.ranked is not None and len(answer.ranked) == 5
        assert answer.ranking_complete is True
    assert all(a.ranking is None and a.retrieval is None for a in found["full"])
    sections = LongMemEvalTask.trial_sections(records[0])
    assert sections[0].title == "Question"


def test_accuracy_is_summarised_by_type_in_the_official_order() -> None:
    def answer(qtype: str, verdict: bool, abstention: bool = False) -> LongMemEvalPayload:
        return LongMemEvalPayload(
            question_id="q_abs" if abstention else "q",
            question_type=qtype,
            abstention=abstention,
            question="?",
            question_date="2023/05/30 (Tue) 23:40",
            gold="x",
            hypothesis="x",
            verdict=verdict,
            sessions_ingested=1,
            turns_ingested=2,
        )

    answers = [
        answer("knowledge-update", True),
        answer("knowledge-update", False),
        answer("single-session-user", True),
        answer("single-session-user", True, abstention=True),
    ]
    summary = accuracy_summary(answers)
    assert list(summary) == [
        "overall",
        "single-session-user",
        "knowledge-update",
        "abstention",
        "task_averaged",
    ]
    assert summary["overall"]["accuracy"] == 0.75 and summary["overall"]["n"] == 4
    assert summary["abstention"]["accuracy"] == 1.0
    assert summary["task_averaged"]["accuracy"] == 0.75  # (1.0 + 0.5) / 2
    low, high = summary["overall"]["low"], summary["overall"]["high"]
    assert low is not None and high is not None and 0.3 < low < 0.75 < high < 1.0


def test_the_paper_config_reads_step_by_step_within_the_official_window() -> None:
    paper = load_run_config(REPO / "experiments" / "configs" / "longmemeval_paper.yaml")
    task = paper.model_dump()["task"]
    assert task["cot"] is True
    full = next(a for a in paper.agents if a.agent == "longmemeval_full")
    assert full.params["history_tokens"] == "official"
