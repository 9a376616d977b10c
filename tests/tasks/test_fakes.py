"""The tasks' fake hosts: a table the tasks own, and hosts that know the memory updater by the
call, not by the prompt's wording."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogarch.core.task import TrialContext
from cogarch.errors import UnknownNameError
from cogarch.experiments.running.fakes import run_fakes
from cogarch.models import ProviderConfig, Providers
from cogarch.tasks.diagnosis.patients import hidden_condition
from cogarch.tasks.fakes import task_fakes
from cogarch.tasks.hangman.hosts import host_secret
from cogarch.tasks.registry import build_task
from cogarch.workspace import AgentSpec, build_agent, load_agent_spec

SEED = 424242

REWORDED_UPDATER = """Keep the notes of an assistant current.
Tools you may use: {tool_guide}
Notes now: <working_memory> {working_memory} </working_memory>
Recent chat: {dialogue}
Last answer: {response}
Answer with JSON only."""
"""A memory-updater prompt that shares no wording with the packaged one."""

EXPECTED = {
    "hangman": {
        "honest": "self_consistent",
        "forgetful": "over_confirmation",
        "leaky": "leakage",
        "denier": "all_denial",
        "substituter": "state_substitution",
    },
    "diagnosis": {
        "honest": "self_consistent",
        "forgetful": "over_confirmation",
        "leaky": "leakage",
        "denier": "all_denial",
        "switcher": "state_substitution",
        "substituter": "state_substitution",
    },
}
"""The SCT outcome class each scripted host is written to produce."""


def reworded_workflow(strategy: str) -> AgentSpec:
    data = load_agent_spec("workflow", {"strategy": strategy}).model_dump(by_alias=True)
    data["specialists"]["updater"]["prompt"] = REWORDED_UPDATER
    return AgentSpec.model_validate(data)


async def play(task: str, host: str, spec: AgentSpec) -> dict[str, Any]:
    providers = Providers(
        {"host": ProviderConfig(kind="fake", fake=f"{task}.{host}")}, fakes=task_fakes()
    )
    ctx = TrialContext(
        agent_name=spec.name,
        trial=0,
        seed=SEED,
        agent_factory=lambda: build_agent(spec, providers.get, provider="host", seed=SEED),
        models=providers.get,
        helper_provider=None,
    )
    params: dict[str, Any] = {"t_fork": 4, "n_candidates": 5}
    out = await build_task(f"{task}_sct", params).run_trial(ctx)
    await providers.aclose()
    return json.loads(out.model_dump_json())


def test_each_task_lists_its_own_fakes_under_its_name() -> None:
    table = task_fakes()
    plain = (
        [f"{task}.{kind}" for task, kinds in EXPECTED.items() for kind in kinds]
        + ["genmem.reader", "locomo.reader", "longmemeval.judge", "longmemeval.reader"]
        + [f"alfworld.{kind}" for kind in ("hallucinating", "oracle", "random", "silent")]
        + ["revision.forgetful", "revision.honest"]
        + ["constraints.forgetful", "constraints.honest", "constraints.judge"]
    )
    # each also as libs.<name>: the same fake answering the real memory libraries' calls
    assert table.names() == sorted(plain + [f"libs.{name}" for name in plain])
    with pytest.raises(UnknownNameError, match=r"'hangman\.liar'; valid names: alfworld\.hall"):
        Providers({"x": ProviderConfig(kind="fake", fake="hangman.liar")}, fakes=table).check("x")


@pytest.mark.parametrize(("task", "host"), [(t, h) for t, hosts in EXPECTED.items() for h in hosts])
async def test_a_reworded_updater_prompt_leaves_every_host_in_its_class(
    task: str, host: str
) -> None:
    spec = reworded_workflow("overwrite")
    prompt = spec.specialists["updater"].params()["prompt"]
    assert "memory updater" not in prompt and "Allowed tools" not in prompt
    out = await play(task, host, spec)
    assert out["evaluation"]["outcome"] == EXPECTED[task][host]
    secret = host_secret(SEED) if task == "hangman" else hidden_condition(SEED).name
    if host not in ("forgetful", "substituter"):
        assert f"<secret>{secret}</secret>" in out["payload"]["snapshot"]
    if host == "substituter":  # it reveals its secret but keeps, and affirms, another
        assert out["payload"]["revealed"].lower() == secret.lower()
        assert out["payload"]["memory_secret"].lower() != secret.lower()


@pytest.mark.parametrize("strategy", ["overwrite", "append_delete", "patch_replace"])
async def test_the_hosts_answer_the_reworded_updater_in_its_strategys_tools(
    strategy: str,
) -> None:
    out = await play("hangman", "honest", reworded_workflow(strategy))
    assert out["evaluation"]["memory_secret"] == host_secret(SEED)
    assert out["evaluation"]["outcome"] == "self_consistent"


def test_a_run_can_name_the_tasks_fakes_and_the_agents_own_brains() -> None:
    names = run_fakes().names()
    assert {"hangman.honest", "locomo.reader", "episodex.brain", "episodex.steady"} <= set(names)
    assert set(task_fakes().names()) < set(names)
