"""Constraint retention: canonical memory, the paper's rates, and a scripted judge end to end."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from autogen_core.models import LLMMessage
from pydantic import ValidationError

from cogarch.core.host import ReplyReport
from cogarch.core.records import TurnFootprint
from cogarch.core.task import TrialContext
from cogarch.errors import ConfigError
from cogarch.models import FunctionModel, Model, as_pairs
from cogarch.models.fakes import CallInfo
from cogarch.models.response_format import response_format_for
from cogarch.tasks.constraints.catalogue import CONSTRAINT_SCENARIOS, get_constraint_scenario
from cogarch.tasks.constraints.judge import OUTCOME_METRICS, JudgeVerdict, verdict_json
from cogarch.tasks.constraints.metrics import (
    drift_rate,
    footprint_summary,
    hallucination_rate,
    mean_drift,
    mean_hallucination,
)
from cogarch.tasks.constraints.scenarios import ConstraintScenario, ConstraintTurn
from cogarch.tasks.constraints.task import ConstraintTask, run_constraints
from cogarch.workspace.spec import build_agent, load_agent_spec

_TURN = re.compile(r'<canonical_memory turn="(\d+)">')


class ScriptedAgent:
    """A host that says only how large its private state is after each reply."""

    def __init__(self) -> None:
        self.state_sizes: list[int] = []

    async def respond(self, text: str) -> str:
        self.state_sizes.append(40)
        return "Understood; keeping the constraints."

    def last_reply(self) -> ReplyReport:
        return ReplyReport(state_tokens=self.state_sizes[-1] if self.state_sizes else None)

    def private_state(self) -> str:
        return ""

    def task_state(self) -> dict[str, str] | None:
        return None


def judge(verdicts: Callable[[int], str], seen: list[str] | None = None) -> Model:
    def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        prompt = as_pairs(messages)[1][1]  # retries append to the conversation
        if seen is not None:
            seen.append(prompt)
        match = _TURN.search(prompt)
        assert match is not None
        return verdicts(int(match.group(1)))

    return Model(FunctionModel(reply), provider="judge", model="fake", fake=True)


def test_the_rates_follow_the_paper() -> None:
    assert hallucination_rate(3, 1) == 0.25
    assert hallucination_rate(0, 0) == 0.0
    assert drift_rate(1, 1, 4) == 0.5
    assert drift_rate(0, 2, 0) == 2.0  # normalised by max(1, |K_t|)
    assert mean_hallucination([0.0, 0.5, 1.0]) == 0.5
    assert mean_drift([1.0, 0.0, 0.5]) == 0.25  # the first turn is excluded
    assert mean_drift([0.3]) is None
    with pytest.raises(ValueError, match="negative"):
        drift_rate(-1, 0, 1)
    rows = [TurnFootprint(turn=i, memory_tokens=m) for i, m in enumerate((10, None, 30), 1)]
    assert footprint_summary(rows) == {"mean": 20.0, "final": 30, "max": 30}


def test_canonical_memory_tracks_constraints_facts_and_requirements() -> None:
    s = get_constraint_scenario("itops_502")
    short = [x for x in CONSTRAINT_SCENARIOS.values() if x.name != "payments_batch"]
    assert all(25 <= len(x.turns) <= 40 for x in short)
    early, late = s.canonical(3), s.canonical(22)
    assert [c.id for c in early.constraints] == ["C1", "C2", "C3"]
    assert [c.id for c in late.constraints] == ["C1", "C3", "C4"]  # C2 revoked at turn 22
    assert "restarts are pre-approved" in late.unverified
    assert [r.id for r in s.canonical(30).required] == ["r30.1", "r30.2"]
    text = s.canonical(13).render()
    assert "[C4] Never include customer IP addresses" in text
    assert "Required in this reply:\n- (none)" in text
    with pytest.raises(ValueError, match=r"outside 1\.\.32"):
        s.canonical(33)
    with pytest.raises(ValidationError, match="drops unknown constraints"):
        ConstraintScenario(
            name="x", domain="d", turns=[ConstraintTurn(kind="task", user="a", drops=["Z"])] * 2
        )


def scripted_verdict(turn: int) -> str:
    claims: list[dict[str, Any]] = [{"claim": "502s are intermittent", "supported": True}]
    fields: dict[str, Any] = {}
    if turn % 2 == 0:
        claims.append({"claim": "the load balancer is the cause", "supported": False})
    if turn == 1:
        fields["violated"] = ["C1"]
    if turn == 14:
        fields["violated"] = ["C1", "C9"]
        fields["relevance"] = 2
    if turn == 30:
        fields["omitted"] = ["r30.1", "r30.2", "r1.1"]
    return verdict_json(claims=claims, **fields)


async def test_rates_from_a_scripted_judge_are_computed_exactly() -> None:
    scenario = get_constraint_scenario("itops_502")
    seen: list[str] = []
    result = await run_constraints(
        ScriptedAgent(), scenario, judge(scripted_verdict, seen), seed=100
    )
    assert result.judged_turns == 32 and result.judge_failures == 0
    turns = result.turns
    assert turns[0].drift is None and turns[0].judgement is not None
    assert turns[0].judgement.violated == ["C1"]  # audited, but drift is undefined at t = 1
    assert [t.hallucination for t in turns[:4]] == [0.0, 0.5, 0.0, 0.5]
    assert turns[13].drift == 0.25 and turns[13].judgement is not None
    assert turns[13].judgement.ignored_ids == ["C9"]
    assert turns[29].drift == pytest.approx(2 / 3)
    assert result.hallucination_rate == 0.25
    assert result.claims_audited == 32 + 16  # one claim per turn, two on even turns
    assert result.drift_rate == pytest.approx((0.25 + 2 / 3) / 31)
    assert result.drift_by_kind["conflict"] == 0.25
    assert result.outcome_means["relevance"] == pytest.approx((31 * 10 + 2) / 32, abs=1e-3)
    assert result.footprint == {"mean": 40.0, "final": 40, "max": 40}
    assert "[C1] No restart of nginx" in seen[0] and "Understood" in seen[0]
    assert "agent" not in seen[0].lower().split("<reply>")[0]  # the judge is blind to who answered


async def test_a_judge_that_never_answers_validly_leaves_the_turn_unscored() -> None:
    def verdicts(turn: int) -> str:
        return "no idea" if turn == 2 else verdict_json(claims=[{"claim": "x", "supported": False}])

    scenario = get_constraint_scenario("phishing_response")
    result = await run_constraints(ScriptedAgent(), scenario, judge(verdicts))
    assert result.judge_failures == 1 and result.turns[1].judgement is None
    assert "no valid JudgeVerdict" in (result.turns[1].error or "")
    assert result.hallucination_rate == 1.0 and result.drift_rate == 0.0


async def test_a_verdict_without_the_audits_is_a_judge_failure_not_a_clean_reply() -> None:
    scores_only = json.dumps(dict.fromkeys(OUTCOME_METRICS, 0))
    seen: list[str] = []

    def verdicts(turn: int) -> str:
        return scores_only if turn == 3 else verdict_json()

    scenario = get_constraint_scenario("phishing_response")
    result = await run_constraints(ScriptedAgent(), scenario, judge(verdicts, seen))
    assert result.turns[2].judgement is None and result.turns[2].hallucination is None
    assert "claims" in (result.turns[2].error or "")
    assert result.judge_failures == 1 and result.judged_turns == len(scenario.turns) - 1
    schema = response_format_for(JudgeVerdict)["json_schema"]["schema"]
    assert {"claims", "violated", "omitted"} <= set(schema["required"])


def replay_models(reply_words: int = 25) -> Callable[[str], Model]:
    def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        pairs = as_pairs(messages)
        if pairs[0][1].startswith("You are the cognitive compressor"):
            latest = pairs[-1][1].rsplit("User: ", 1)[1].split("\n")[0][:150]
            return json.dumps(
                {
                    "episodic_trace": [latest],
                    "semantic_gist": "incident response",
                    "focal_entities": [{"name": "nginx", "type": "service"}],
                    "relational_map": [],
                    "goal_orientation": "stop the 502s safely",
                    "constraints": ["no nginx restart in business hours", "read-only until 22:00"],
                    "predictive_cue": ["check keepalive"],
                    "uncertainty_signal": {"level": "medium", "gaps": ["root cause"]},
                    "retrieved_artifacts": [],
                }
            )
        return " ".join(["checking"] * reply_words)

    model = Model(FunctionModel(reply), provider="fake", model="fake", fake=True)
    return lambda name: model


async def test_replay_grows_with_turns_while_the_ccs_stays_bounded() -> None:
    scenario = get_constraint_scenario("itops_502")
    ok = judge(lambda t: verdict_json())
    replay = build_agent(load_agent_spec("transcript"), replay_models(), provider="fake")
    acc = build_agent(load_agent_spec("acc"), replay_models(), provider="fake")
    flat = await run_constraints(replay, scenario, ok)
    ccs = await run_constraints(acc, scenario, ok)
    flat_m = [t.footprint.memory_tokens or 0 for t in flat.turns]
    acc_m = [t.footprint.memory_tokens or 0 for t in ccs.turns]
    assert flat_m == sorted(flat_m) and flat_m[-1] > 10 * flat_m[0]
    assert max(acc_m) - min(acc_m) < 60 and acc_m[-1] < flat_m[-1] / 3
    assert all(t.footprint.model_calls == 2 for t in ccs.turns)


async def test_the_task_runs_a_trial_with_the_helper_model_as_judge() -> None:
    ok = judge(lambda t: verdict_json())

    def context(helper: str | None, trial: int = 0) -> TrialContext:
        return TrialContext(
            agent_name="transcript",
            trial=trial,
            seed=3,
            agent_factory=lambda: build_agent(
                load_agent_spec("transcript"), replay_models(), provider="fake"
            ),
            models=lambda name: ok,
            helper_provider=helper,
        )

    task = ConstraintTask(ConstraintTask.Params(scenario=["clinic_pipeline", "phishing_response"]))
    out = await task.run_trial(context("judge"))
    assert out.evaluation.hallucination_rate == 0.0
    assert out.evaluation.scenario == "clinic_pipeline"
    assert out.evaluation.claims_audited == 0
    assert len(out.turns) == 28
    assert out.payload.final_private_state == ""  # transcript replay keeps nothing private
    second = await task.run_trial(context("judge", trial=1))
    assert second.evaluation.scenario == "phishing_response"
    assert len(second.turns) == 26
    with pytest.raises(ConfigError, match="needs a judge model"):
        await task.run_trial(context(None))
    with pytest.raises(ValidationError, match="unknown scenario"):
        ConstraintTask.Params(scenario="nope")
