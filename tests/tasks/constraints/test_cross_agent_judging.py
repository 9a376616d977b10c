"""Cross-agent judging through the runner: every agent's reply to a turn judged together,
unlabelled and shuffled by the trial seed, written back into independent trial files."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.constraints.catalogue import get_constraint_scenario
from cogarch.tasks.constraints.joint import JOINT_PROMPT, presentation_order
from cogarch.tasks.constraints.task import ConstraintTask
from tests.tasks.constraints import joint_fakes

AGENTS = ("kestrel", "osprey", "heron")
FAKES = "tests.tasks.constraints.joint_fakes"


def config(results: Path, judging: str = "auto", agents: tuple[str, ...] = AGENTS) -> RunConfig:
    providers: dict[str, Any] = {
        name: {"kind": "fake", "fake": f"{FAKES}:{name}"} for name in (*AGENTS, "judge")
    }
    return RunConfig.model_validate(
        {
            "name": "joint",
            "task": {"kind": "constraints", "scenario": "phishing_response", "judging": judging},
            "trials": 1,
            "seed": 11,
            "results_dir": str(results),
            "cache": False,
            "helper_provider": "judge",
            "providers": providers,
            "agents": [{"name": a, "agent": "transcript", "provider": a} for a in agents],
        }
    )


@pytest.fixture(autouse=True)
def fresh_judge() -> None:
    joint_fakes.SEEN.clear()
    joint_fakes.FAIL[0] = False


async def test_the_judge_sees_each_turn_shuffled_and_unlabelled(tmp_path: Path) -> None:
    report = await Runner(config(tmp_path), progress=False).run()
    turns = len(get_constraint_scenario("phishing_response").turns)
    assert report.ran == 3 and report.failed == 0
    assert len(joint_fakes.SEEN) == turns  # one joint call per turn, all three replies in it
    orders = [tuple(kinds) for _, kinds in joint_fakes.SEEN]
    assert all(sorted(o) == sorted(AGENTS) for o in orders)
    assert len(set(orders)) > 1  # shuffled, not one fixed order
    seed = read_trial(trial_path(tmp_path, "kestrel", 0)).seed
    for turn, order in enumerate(orders, start=1):  # the seeded order, agents as configured
        assert order == tuple(AGENTS[i] for i in presentation_order(3, seed, turn))
    for prompt, _ in joint_fakes.SEEN:
        assert not any(name in prompt for name in AGENTS)  # blind to who answered
        assert "transcript" not in prompt and "agent" not in prompt.lower()
    rates = {}
    for name in AGENTS:
        record = read_trial(trial_path(tmp_path, name, 0))
        rates[name] = record.evaluation.hallucination_rate
        assert record.evaluation.judging == "cross_agent"
        assert record.evaluation.judged_turns == turns
        assert record.payload.constraints["pending"] is False  # type: ignore[union-attr]
    assert rates == {"kestrel": 0.0, "osprey": 1.0, "heron": 0.0}  # mapped back to the author
    assert report.metrics[0].title == "scenario phishing_response, judged cross-agent"
    assert '"verdicts"' in JOINT_PROMPT


async def test_a_run_stopped_before_the_pass_leaves_pending_trials_that_a_rerun_judges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def killed(self: Runner) -> int:
        raise KeyboardInterrupt  # the run is stopped once the trials are written

    with monkeypatch.context() as patch:
        patch.setattr(Runner, "judge_jointly", killed)
        with pytest.raises(KeyboardInterrupt):
            await Runner(config(tmp_path), progress=False).run()
    before = {a: read_trial(trial_path(tmp_path, a, 0)) for a in AGENTS}
    assert all(r.status == "complete" for r in before.values())
    assert all(r.payload.constraints["pending"] for r in before.values())  # type: ignore[union-attr]
    assert all(r.evaluation.hallucination_rate is None for r in before.values())
    report = await Runner(config(tmp_path), progress=False).run()
    assert report.skipped == 3 and report.ran == 0  # nothing replayed, only judged
    after = {a: read_trial(trial_path(tmp_path, a, 0)) for a in AGENTS}
    for name in AGENTS:
        assert after[name].turns == before[name].turns
        assert after[name].evaluation.judged_turns == 26
    again = await Runner(config(tmp_path), progress=False).run()
    assert again.ran == 0 and len(joint_fakes.SEEN) == 26  # judged once, not again
    files = sorted(p.name for p in (tmp_path / "kestrel").iterdir())
    assert files == ["trial_0000.json"]


async def test_a_judge_that_keeps_failing_leaves_every_turn_unscored(tmp_path: Path) -> None:
    joint_fakes.FAIL[0] = True
    await Runner(config(tmp_path), progress=False).run()
    record = read_trial(trial_path(tmp_path, "osprey", 0))
    assert record.evaluation.judge_failures == 26
    assert record.payload.constraints["pending"] is False  # type: ignore[union-attr]
    assert "judge crashed" in record.payload.constraints["turns"][0]["error"]  # type: ignore[union-attr]


async def test_per_reply_judging_stays_available_and_is_labelled(tmp_path: Path) -> None:
    report = await Runner(config(tmp_path, judging="per_reply"), progress=False).run()
    assert report.failed == 0
    assert Counter(len(kinds) for _, kinds in joint_fakes.SEEN) == {1: 3 * 26}
    record = read_trial(trial_path(tmp_path, "osprey", 0))
    assert record.evaluation.judging == "per_reply"
    assert report.metrics[0].title == "scenario phishing_response, judged per-reply"
    one = await Runner(config(tmp_path / "one", agents=("heron",)), progress=False).run()
    assert one.metrics[0].title.endswith("judged per-reply")  # auto with a single agent
    assert ConstraintTask.Params().judging == "auto"
    data = json.loads(trial_path(tmp_path, "osprey", 0).read_text(encoding="utf-8"))
    assert data["payload"]["constraints"]["judging"] == "per_reply"


async def test_the_pass_judges_turns_concurrently_and_files_each_verdict_under_its_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cogarch.tasks.constraints import task as task_module
    from cogarch.tasks.constraints.judge import OUTCOME_METRICS, Judgement

    flight = {"now": 0, "max": 0}

    async def slow_judge(judge: Any, memory: Any, query: str, replies: Any, **_: Any) -> list[Any]:
        flight["now"] += 1
        flight["max"] = max(flight["max"], flight["now"])
        await asyncio.sleep(0.01 * (memory.turn % 3))  # later turns may finish first
        flight["now"] -= 1
        unsupported = memory.turn % 2
        return [
            Judgement(
                supported=1 - unsupported,
                unsupported=unsupported,
                violated=[],
                omitted=[],
                active_constraints=0,
                hallucination=float(unsupported),
                drift=0.0,
                scores=dict.fromkeys(OUTCOME_METRICS, 5),
            )
            for _ in replies
        ]

    monkeypatch.setattr(task_module, "judge_together", slow_judge)
    await Runner(config(tmp_path), progress=False).run()
    assert flight["max"] == task_module.JUDGE_CONCURRENCY
    turns = read_trial(trial_path(tmp_path, "heron", 0)).payload.constraints["turns"]  # type: ignore[union-attr]
    assert [t["hallucination"] for t in turns] == [float(t["turn"] % 2) for t in turns]
