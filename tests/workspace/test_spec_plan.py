"""An agent spec is checked once per run; every trial builds its agent from that plan."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.backend import TrialSpec
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.worker import RunSetup
from cogarch.workspace import spec as spec_module
from cogarch.workspace.registry import SPECIALISTS
from cogarch.workspace.spec import AgentPlan, build_agent, check_agent_spec, load_agent_spec


def _no_models(name: str) -> Any:
    raise AssertionError("no model is asked for while building")


def test_a_plan_builds_fresh_agents_from_one_check() -> None:
    plan = check_agent_spec(load_agent_spec("vanilla"), provider="p")
    assert isinstance(plan, AgentPlan) and plan.provider == "p"
    one = build_agent(plan, _no_models, name="a", seed=1)
    two = build_agent(plan, _no_models, name="b", seed=2)
    assert one is not two and one.graph is two.graph is plan.graph
    assert one.specialists.keys() == two.specialists.keys()
    assert all(one.specialists[k] is not two.specialists[k] for k in one.specialists)
    assert all(s.provider == "p" for s in one.specialists.values())


def test_a_run_checks_each_agent_spec_once_whatever_its_trials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = RunConfig.model_validate(
        {
            "name": "plan",
            "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
            "trials": 3,
            "cache": False,
            "results_dir": str(tmp_path),
            "providers": {"p": {"kind": "fake", "fake": "hangman.honest"}},
            "agents": [{"name": "v", "agent": "vanilla", "provider": "p"}],
        }
    )
    lookups: list[str] = []
    real_get = SPECIALISTS.get
    monkeypatch.setattr(SPECIALISTS, "get", lambda kind: lookups.append(kind) or real_get(kind))
    checks: list[str] = []
    real_check = spec_module.check_agent_spec
    monkeypatch.setattr(
        spec_module, "check_agent_spec", lambda s, **k: checks.append(s.name) or real_check(s, **k)
    )
    setup = RunSetup(config)
    per_check = len(lookups)
    assert per_check == len(setup.plans["v"].specialists) > 0
    records = [
        asyncio.run(setup.play(TrialSpec(run_digest=setup.digest, agent="v", index=i, seed=i)))
        for i in range(3)
    ]
    assert all(r.error is None for r in records)
    assert len(lookups) == per_check  # no trial looked a specialist up, or checked, again
    assert checks == []
