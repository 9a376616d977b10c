"""Agent Framework agents in a run: the Hangman SCT plays them through a factory named by the
run config, forking them by copying their sessions; agents that cannot be forked that way are
refused before the first trial."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.running.worker import RunSetup

REPO = Path(__file__).resolve().parents[3]
HANGMAN = REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml"
DIAGNOSIS = REPO / "experiments" / "configs" / "diagnosis_sct_fakes.yaml"
FACTORIES = "tests.bridges.agent_framework.factories"
TRIALS = 3
HANGMAN_CLASSES = {
    "honest": {"self_consistent"},
    "forgetful": {"state_substitution", "over_confirmation"},
    "leaky": {"leakage"},
    "denier": {"all_denial"},
    "substituter": {"state_substitution"},
}
"""The outcome class each scripted Hangman host was written to produce."""


def maf(factory: str, **entry: Any) -> dict[str, Any]:
    return {"agent": {"framework": "agent-framework", "factory": f"{FACTORIES}:{factory}"}, **entry}


def paired_config(shipped_path: Path, results: Path) -> tuple[RunConfig, dict[str, str]]:
    """The shipped fake config with, next to each of its agents, an Agent Framework agent on
    the same scripted host: a plain one for a vanilla agent, the workflow agent's adapter for
    a workflow agent. Also returns each new agent's cogarch counterpart."""
    shipped = load_run_config(shipped_path).model_dump()
    agents, pairs = list(shipped["agents"]), {}
    for entry in shipped["agents"]:
        name, host = f"{entry['name']}_maf", entry["provider"]
        factory = {"vanilla": "vanilla", "workflow": "workflow"}[entry["agent"]]
        agents.append(maf(factory, name=name, provider=host, params=entry["params"]))
        pairs[name] = entry["name"]
    config = RunConfig.model_validate(
        {**shipped, "agents": agents, "trials": TRIALS, "results_dir": results}
    )
    return config, pairs


async def outcomes(config: RunConfig) -> dict[tuple[str, int], str]:
    report = await Runner(config, progress=False).run()
    assert report.failed == 0, report.errors
    found: dict[tuple[str, int], str] = {}
    for path, record in iter_trials(config.output_dir()):
        assert not isinstance(record, Exception), f"{path}: {record}"
        assert record.status == "complete"
        assert len(record.branches) == 6  # the reveal and five candidates
        found[(record.agent, record.trial)] = record.evaluation.outcome
    return found


@pytest.mark.parametrize("shipped", [HANGMAN, DIAGNOSIS], ids=["hangman", "diagnosis"])
async def test_an_agent_framework_agent_lands_where_cogarchs_own_does(
    shipped: Path, tmp_path: Path
) -> None:
    config, pairs = paired_config(shipped, tmp_path / "run")
    found = await outcomes(config)
    for maf_agent, own in pairs.items():
        for trial in range(TRIALS):  # trial by trial, with the same seeds
            assert found[(maf_agent, trial)] == found[(own, trial)], (maf_agent, trial)
    if shipped != HANGMAN:
        return
    # each scripted Hangman host behind an Agent Framework agent lands in its class
    for host, allowed in HANGMAN_CLASSES.items():
        played = Counter(found[(f"{host}_vanilla_maf", t)] for t in range(TRIALS))
        assert set(played) <= allowed, (host, played)
    workflow = Counter(found[("honest_workflow_maf", t)] for t in range(TRIALS))
    assert workflow == Counter({"self_consistent": TRIALS})


async def test_the_forks_of_an_agent_framework_agent_are_session_copies(tmp_path: Path) -> None:
    config, _ = paired_config(HANGMAN, tmp_path / "run")
    setup = RunSetup(config)
    builder = setup.framework_agents["honest_workflow_maf"]
    host = builder.host(setup.providers.for_trial(5), 5)
    await host.respond("Let's play Hangman! You be the host. Think of a 5-letter word.")
    branch = host.fork()
    assert branch.session is not host.session
    assert branch.session.session_id != host.session.session_id
    assert branch.save_state()["state"] == host.save_state()["state"]
    private = host.private_state()  # the workflow agent's working memory, as text
    assert private.startswith("[cogarch_agent]\n") and "<secret>" in private
    assert "\\n" not in private  # not a JSON dump
    await branch.respond('My next guess is the letter "e".')
    assert branch.save_state()["state"] != host.save_state()["state"]  # the trunk is untouched


def refusal(tmp_path: Path, factory: str) -> str:
    """Why a run of the factory's agent is refused as it is set up, before any trial."""
    config = RunConfig.model_validate(
        {
            "name": "refused",
            "task": {"kind": "hangman_sct"},
            "providers": {"honest": {"kind": "fake", "fake": "hangman.honest"}},
            "agents": [maf(factory, provider="honest")],
            "results_dir": tmp_path / "run",
        }
    )
    with pytest.raises(ConfigError) as err:
        RunSetup(config)
    return str(err.value)


@pytest.mark.parametrize(
    ("factory", "why"),
    [
        ("service_thread", "service-side conversation"),
        ("remote_memory", "RemoteNotes"),
    ],
)
def test_an_agent_whose_state_is_not_in_its_session_is_refused_before_any_trial(
    tmp_path: Path, factory: str, why: str
) -> None:
    refused = refusal(tmp_path, factory)
    assert "cannot be forked by copying its session" in refused and why in refused
    assert f"agent '{factory}'" in refused  # the run's name for it


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ({"framework": "agent-framework", "factory": "no_colon"}, "not an import path"),
        ({"framework": "langgraph", "factory": "a:b"}, "agent-framework"),
        ({"framework": "agent-framework", "factory": "a:b", "extra": 1}, "extra"),
        ({"factory": "a:b"}, "framework"),
    ],
)
def test_a_framework_entry_is_validated_with_clear_errors(
    agent: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message) as err:
        RunConfig.model_validate(
            {"name": "x", "task": {"kind": "hangman_sct"}, "agents": [{"agent": agent}]}
        )
    assert "valid string" not in str(err.value)  # only the framework form is explained


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        ("missing_function", "has no attribute"),
        ("not_an_agent", "not an Agent Framework agent"),
    ],
)
def test_a_factory_that_cannot_build_an_agent_is_refused(
    tmp_path: Path, factory: str, message: str
) -> None:
    assert message in refusal(tmp_path, factory)


def test_a_framework_entry_is_named_after_its_factory_by_default() -> None:
    config = RunConfig.model_validate(
        {"name": "x", "task": {"kind": "hangman_sct"}, "agents": [maf("vanilla")]}
    )
    assert config.agents[0].label == "vanilla"
