"""The LoCoMo task with the fake reader: data errors, question isolation, resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.task import TrialContext
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.worker import RunSetup
from cogarch.models.metering import Meter, replay
from cogarch.tasks.locomo import ingest
from cogarch.tasks.locomo import task as task_mod
from cogarch.tasks.locomo.data import LocomoDataError, load_locomo
from cogarch.tasks.locomo.scoring import score
from cogarch.tasks.memory_bench.ingest import IngestCost
from cogarch.tasks.registry import build_task

DATA = Path(__file__).parent / "data" / "synthetic.json"


def setup(
    tmp_path: Path, agent: str = "raw_turns", params: dict[str, Any] | None = None, **task: Any
) -> RunSetup:
    """A one-trial LoCoMo run of ``agent`` (named ``raw``) on the synthetic data with the fake
    reader; its params by default hash embeddings for ``raw_turns``, none for another."""
    if params is None:
        params = {"embedder": "hash"} if agent == "raw_turns" else {}
    return RunSetup(
        RunConfig.model_validate(
            {
                "name": "t",
                "task": {"kind": "locomo", "data": str(DATA), **task},
                "trials": 1,
                "results_dir": str(tmp_path),
                "cache": False,
                "providers": {"reader": {"kind": "fake", "fake": "locomo.reader"}},
                "agents": [
                    {
                        "name": "raw",
                        "agent": agent,
                        "provider": "reader",
                        "params": params,
                    }
                ],
            }
        )
    )


def context(s: RunSetup, tmp_path: Path) -> TrialContext:
    spec = s.specs["raw"]
    from cogarch.workspace.spec import build_agent

    return TrialContext(
        "raw",
        0,
        5,
        lambda: build_agent(spec, s.providers.get, name="raw", provider="reader", seed=5),
        s.providers.get,
        None,
        tmp_path / "state",
    )


def test_bad_files_and_selections_get_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LocomoDataError, match="does not exist"):
        load_locomo(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"sample_id": "x", "conversation": {"speaker_a": "A"}}]))
    with pytest.raises(LocomoDataError, match="has no 'speaker_b'"):
        load_locomo(bad)
    with pytest.raises(LocomoDataError, match="no conversation nope"):
        build_task("locomo", {"data": str(DATA), "conversations": ["nope"]})
    with pytest.raises(LocomoDataError, match="'syn-2' has no session 2"):
        build_task("locomo", {"data": str(DATA), "sessions": [2]})
    cut = build_task("locomo", {"data": str(DATA), "conversations": ["syn-1"], "sessions": [2]})
    # the cat question has evidence in sessions 1 and 2, so only the Lisbon one stays
    assert [q["question"] for q in cut.conversation(0).qa] == ["When did Bo's band play in Lisbon?"]
    one = build_task("locomo", {"data": str(DATA), "conversations": ["syn-1"], "sessions": [1]})
    assert len(one.conversation(0).qa) == 3


async def test_questions_are_isolated_and_scored(tmp_path: Path) -> None:
    s = setup(tmp_path)
    out = await s.task.run_trial(context(s, tmp_path))
    answers = out.payload.answers
    assert len(answers) == 5 and answers[3].prediction.startswith("I adopted a grey cat")
    # every fork saw the same five ingested turns and nothing of earlier questions
    assert all(a.recall is not None for a in answers)
    assert answers[3].recall is not None and answers[3].recall["10"] == 1.0
    assert answers[4].f1 == 1.0  # the reader abstains on the dog question
    assert out.evaluation.questions == 5
    assert score(answers[0].prediction, {"category": 1, "answer": "violin, piano"}) == answers[0].f1


async def test_each_answer_records_the_memory_its_prompt_carried(tmp_path: Path) -> None:
    full = setup(tmp_path / "full", "transcript", history_tokens=40)
    out = await full.task.run_trial(context(full, tmp_path / "full"))
    carried = [a.memory_tokens for a in out.payload.answers]
    assert out.payload.memory_tokens == 0  # nothing private: its memory is the transcript
    assert all(c is not None and 0 < c <= 40 for c in carried)
    assert out.evaluation.memory_tokens_per_question > 0
    raw = setup(tmp_path / "raw")
    out = await raw.task.run_trial(context(raw, tmp_path / "raw"))
    assert all(a.memory_tokens for a in out.payload.answers)  # the retrieved block


async def test_resume_after_kill_mid_ingestion_and_mid_questions(
    tmp_path: Path, monkeypatch: Any
) -> None:
    s = setup(tmp_path)
    real_ingest, real_ask = ingest.ingest_turns, task_mod.ask
    calls = {"ingest": 0, "ask": 0}

    async def dying_ingest(agent: Any, turns: Any) -> None:
        calls["ingest"] += 1
        if calls["ingest"] == 2:
            raise KeyboardInterrupt
        await real_ingest(agent, turns)

    monkeypatch.setattr(task_mod, "ingest_turns", dying_ingest)
    with pytest.raises(KeyboardInterrupt):
        await s.task.run_trial(context(s, tmp_path))

    async def dying_ask(*args: Any) -> Any:
        calls["ask"] += 1
        if calls["ask"] == 3:
            raise KeyboardInterrupt
        return await real_ask(*args)

    monkeypatch.setattr(task_mod, "ingest_turns", real_ingest)
    monkeypatch.setattr(task_mod, "ask", dying_ask)
    with pytest.raises(KeyboardInterrupt):
        await s.task.run_trial(context(s, tmp_path))
    monkeypatch.setattr(task_mod, "ask", real_ask)
    resumed = await s.task.run_trial(context(s, tmp_path))
    fresh = await setup(tmp_path / "fresh").task.run_trial(context(s, tmp_path / "fresh"))
    assert resumed.payload.resumed and not fresh.payload.resumed
    assert [a.prediction for a in resumed.payload.answers] == [
        a.prediction for a in fresh.payload.answers
    ]
    assert calls == {"ingest": 2, "ask": 3}


@pytest.mark.parametrize(
    ("agent", "stage", "kill_at"), [("mem0", "ingest_turns", 2), ("raw_turns", "ask", 3)]
)
async def test_a_resumed_trial_reports_the_calls_of_the_work_it_kept(
    tmp_path: Path, monkeypatch: Any, agent: str, stage: str, kill_at: int
) -> None:
    s = setup(tmp_path, agent=agent)
    real = getattr(task_mod, stage)
    entered = [0]

    async def dying(*args: Any) -> Any:
        entered[0] += 1
        if entered[0] == kill_at:
            raise KeyboardInterrupt
        return await real(*args)

    killed = Meter()
    monkeypatch.setattr(task_mod, stage, dying)
    with killed.active(), pytest.raises(KeyboardInterrupt):
        await s.task.run_trial(context(s, tmp_path))
    monkeypatch.setattr(task_mod, stage, real)

    resumed_meter, fresh_meter = Meter(), Meter()
    with resumed_meter.active():
        resumed = await s.task.run_trial(context(s, tmp_path))
    with fresh_meter.active():
        await setup(tmp_path / "fresh", agent=agent).task.run_trial(context(s, tmp_path / "fresh"))
    kept, fresh = resumed_meter.summary(), fresh_meter.summary()
    assert resumed.payload.resumed
    for key in ("model_calls", "prompt_tokens", "completion_tokens"):
        assert kept[key] == fresh[key] > 0, key
    # the kill comes as a session or question starts: every call before it is replayed from
    # the saved state, none made again
    assert kept["cache_hits"] == killed.model_calls > 0
    assert all(r.attempts == 0 for r in resumed_meter.records[: kept["cache_hits"]])


def test_ingestion_seconds_count_the_original_latency_of_replayed_calls() -> None:
    """A trial rebuilt from the response cache reports the time its calls took, not the
    replay's."""
    meter = Meter()
    with meter.active():
        call = {"caller": "memory:lightmem", "provider": "local", "model": "m", "latency_s": 4.5}
        replay([{**call, "prompt_tokens": 400}] * 2)
    cost = IngestCost()
    cost.add(meter, 0.01)
    assert cost.data["model_calls"] == 2 and cost.data["prompt_tokens"] == 800
    assert cost.data["seconds"] == 9.01
