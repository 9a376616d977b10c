"""The fork's schedule: the reveal branch is answered before any candidate branch starts, the
candidates follow ``branch_concurrency`` at a time (one at a time when the agent's model keeps
its trial to one server slot), and the schedule never changes what a trial scores."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from autogen_core.models import LLMMessage

from cogarch.models import CallInfo, FunctionModel, Model, Providers, as_pairs
from cogarch.models.slots import trial_affinity
from cogarch.tasks.diagnosis.task import DiagnosisSCT
from cogarch.tasks.hangman.prompts import REVEAL_PROMPT
from cogarch.tasks.hangman.task import HangmanParams, HangmanSCT
from cogarch.tasks.sct.engine import SCTParams, SCTTask

from .engine_script import VERIFY, Script
from .trials import play_record, trial_context

SEED = 4242


class Timed:
    """An async host that records, per call, what was asked and how many calls were open."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.open = 0
        self.log: list[tuple[str, int]] = []
        self.slots: set[int] = set()

    async def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        last = str(messages[-1].content)
        kind = "reveal" if last == REVEAL_PROMPT else "verify" if VERIFY.search(last) else "turn"
        self.open += 1
        self.log.append((kind, self.open))
        slot = info.args.get("extra_body", {}).get("id_slot")
        if slot is not None:
            self.slots.add(slot)
        try:
            await asyncio.sleep(0.01)
            return self.script(messages, info)
        finally:
            self.open -= 1


async def run(
    task: SCTTask, host: Any, *, slots: int | None, agent: str = "vanilla", seed: int = SEED
) -> dict[str, Any]:
    providers = Providers()
    model = Model(FunctionModel(host), provider="h", model="h", fake=True, slots=slots)
    providers.register("h", model)
    ctx = trial_context(providers, "h", agent=agent, seed=seed, agent_provider="h")
    with trial_affinity():
        return await play_record(task, ctx)


def hangman(concurrency: int | str = "auto") -> HangmanSCT:
    return HangmanSCT(HangmanParams(t_fork=3, n_candidates=5, branch_concurrency=concurrency))


async def test_a_slot_keeping_model_gets_the_reveal_first_then_one_candidate_at_a_time() -> None:
    host = Timed(Script(secret="crane"))
    await run(hangman(), host, slots=2)
    kinds = [k for k, _ in host.log]
    first_verify = kinds.index("verify")
    assert "reveal" in kinds[:first_verify]
    assert kinds.count("verify") == 5
    assert max(n for k, n in host.log if k == "verify") == 1
    assert host.slots == {0}  # every call of the trial, fork included, on one slot


async def test_without_slots_the_candidates_go_at_once_after_the_reveal() -> None:
    host = Timed(Script(secret="crane"))
    await run(hangman(), host, slots=None)
    kinds = [k for k, _ in host.log]
    assert kinds.index("reveal") < kinds.index("verify")
    assert max(n for k, n in host.log if k == "verify") == 5
    assert host.slots == set()


@pytest.mark.parametrize("concurrency", [2, 3])
async def test_an_explicit_concurrency_bounds_the_candidates(concurrency: int) -> None:
    host = Timed(Script(secret="crane"))
    await run(hangman(concurrency), host, slots=2)
    assert max(n for k, n in host.log if k == "verify") == concurrency


@pytest.mark.parametrize("agent", ["vanilla", "workflow"])
async def test_the_schedule_does_not_change_what_a_trial_scores(agent: str) -> None:
    outs = []
    for concurrency, slots in ((1, 2), (50, None), ("auto", 2), ("auto", None), (2, None)):
        host = Timed(
            Script(secret="crane", verify=lambda w, s: "Yes." if w in (s, "crane") else "No.")
        )
        outs.append(await run(hangman(concurrency), host, slots=slots, agent=agent))
    first = outs[0]
    for out in outs[1:]:
        assert out["evaluation"] == first["evaluation"]
        assert out["payload"] == first["payload"]
        assert out["branches"] == first["branches"]


async def test_diagnosis_forks_on_the_same_schedule() -> None:
    from cogarch.tasks.diagnosis.task import DiagnosisParams
    from cogarch.tasks.fakes import task_fakes

    fake = task_fakes().get("diagnosis.honest")
    open_calls, peak = 0, 0

    async def host(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        nonlocal open_calls, peak
        open_calls += 1
        peak = max(peak, open_calls)
        try:
            await asyncio.sleep(0.01)
            return fake(as_pairs(messages), info.seed if info.seed is not None else 0, info)
        finally:
            open_calls -= 1

    task = DiagnosisSCT(DiagnosisParams(t_fork=3, n_candidates=5))
    out = await run(task, host, slots=1)
    assert len(out["branches"]) == 6
    assert peak == 1  # the trial keeps to one slot: none of its calls overlap
    unslotted = await run(DiagnosisSCT(DiagnosisParams(t_fork=3, n_candidates=5)), host, slots=None)
    assert unslotted["evaluation"] == out["evaluation"]


def test_branch_concurrency_is_auto_or_at_least_one() -> None:
    assert SCTParams().branch_concurrency == "auto"
    with pytest.raises(ValueError, match="at least 1"):
        SCTParams(branch_concurrency=0)
