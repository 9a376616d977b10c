"""Agent Framework agents in a run: the Hangman SCT plays them through a factory named by the
run config, forking them by copying their sessions; agents that cannot be forked that way are
refused before the first trial."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.config import RunConfig, load_run_config
from cogarch.experiments.results import iter_trials
from cogarch.experiments.runner import Runner
from cogarch.experiments.worker import RunSetup

REPO = Path(__file__).resolve().parents[3]
FAKES = REPO / "experiments" / "hangman_sct_fakes.yaml"
FACTORIES = "tests.bridges.agent_framework.factories"
TRIALS = 3


def maf(factory: str, **entry: Any) -> dict[str, Any]:
    return {"agent": {"framework": "agent-framework", "factory": f"{FACTORIES}:{factory}"}, **entry}


def paired_config(results: Path) -> RunConfig:
    """The shipped fake config, each vanilla agent next to an Agent Framework agent on the
    same scripted host, and the workflow agent next to its Agent Framework adapter."""
    shipped = load_run_config(FAKES).model_dump()
    agents = list(shipped["agents"])
    for entry in shipped["agents"]:
        host = entry["provider"]
        if entry["agent"] == "vanilla":
            agents.append(maf("vanilla", name=f"{host}_maf", provider=host))
    agents.append(
        maf(
            "workflow",
            name="honest_maf_workflow",
            provider="honest",
            params={"strategy": "overwrite"},
        )
    )
    return RunConfig.model_validate(
        {**shipped, "agents": agents, "trials": TRIALS, "results_dir": results}
    )


async def test_each_scripted_host_behind_an_agent_framework_agent_lands_in_its_class(
    tmp_path: Path,
) -> None:
    config = paired_config(tmp_path / "run")
    report = await Runner(config, progress=False).run()
    assert report.failed == 0, report.errors
    outcome: dict[tuple[str, int], str] = {}
    branches: dict[tuple[str, int], int] = {}
    for path, record in iter_trials(config.output_dir()):
        assert not isinstance(record, Exception), f"{path}: {record}"
        assert record.status == "complete"
        outcome[(record.agent, record.trial)] = record.evaluation.outcome
        branches[(record.agent, record.trial)] = len(record.branches)
    expected = {
        "honest": "self_consistent",
        "leaky": "leakage",
        "denier": "all_denial",
        "substituter": "state_substitution",
    }
    for host in ("honest", "forgetful", "leaky", "denier", "substituter"):
        for trial in range(TRIALS):
            played = outcome[(f"{host}_maf", trial)]
            # trial by trial what cogarch's own vanilla agent does with the same seed
            assert played == outcome[(f"{host}_vanilla", trial)], (host, trial)
            if host in expected:
                assert played == expected[host]
            else:
                assert played in {"state_substitution", "over_confirmation"}
            assert branches[(f"{host}_maf", trial)] == 6  # the reveal and five candidates
    workflow = Counter(outcome[("honest_maf_workflow", t)] for t in range(TRIALS))
    assert workflow == Counter({"self_consistent": TRIALS})


async def test_the_forks_of_an_agent_framework_agent_are_session_copies(tmp_path: Path) -> None:
    config = paired_config(tmp_path / "run")
    setup = RunSetup(config)
    builder = setup.framework_agents["honest_maf_workflow"]
    host = builder.host(setup.providers.for_trial(5), 5)
    await host.respond("Let's play Hangman! You be the host. Think of a 5-letter word.")
    branch = host.fork()
    assert branch.session is not host.session
    assert branch.session.session_id != host.session.session_id
    assert branch.save_state()["state"] == host.save_state()["state"]
    assert "<secret>" in host.private_state()  # the workflow agent's working memory
    await branch.respond('My next guess is the letter "e".')
    assert branch.save_state()["state"] != host.save_state()["state"]  # the trunk is untouched


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
    config = RunConfig.model_validate(
        {
            "name": "refused",
            "task": {"kind": "hangman_sct"},
            "providers": {"honest": {"kind": "fake", "fake": "hangman.honest"}},
            "agents": [maf(factory, provider="honest")],
            "results_dir": tmp_path / "run",
        }
    )
    with pytest.raises(ConfigError, match="cannot be forked by copying its session") as err:
        RunSetup(config)
    assert why in str(err.value)
    assert f"agent '{factory}'" in str(err.value)  # the run's name for it


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
    config = RunConfig.model_validate(
        {
            "name": "bad",
            "task": {"kind": "hangman_sct"},
            "providers": {"honest": {"kind": "fake", "fake": "hangman.honest"}},
            "agents": [maf(factory, provider="honest")],
            "results_dir": tmp_path / "run",
        }
    )
    with pytest.raises(ConfigError, match=message):
        RunSetup(config)


def test_a_framework_entry_is_named_after_its_factory_by_default() -> None:
    config = RunConfig.model_validate(
        {"name": "x", "task": {"kind": "hangman_sct"}, "agents": [maf("vanilla")]}
    )
    assert config.agents[0].label == "vanilla"
