"""A trial played by the worker keeps every call, its fork included, to one server slot, and two
trials played at once hold different slots."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from autogen_core.models import LLMMessage

from cogarch.core.backend import TrialSpec
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.worker import RunSetup
from cogarch.models import CallInfo, FunctionModel, Model, as_pairs
from cogarch.models.slots import _current
from cogarch.seeds import trial_seed
from cogarch.tasks.fakes import task_fakes


async def test_concurrent_trials_each_keep_to_their_own_slot(tmp_path: Path) -> None:
    config = RunConfig.model_validate(
        {
            "name": "slots",
            "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 4},
            "trials": 2,
            "concurrency": 2,
            "cache": False,
            "results_dir": str(tmp_path),
            "providers": {"h": {"kind": "fake", "fake": "hangman.honest"}},
            "agents": [{"name": "workflow", "agent": "workflow", "provider": "h"}],
        }
    )
    setup = RunSetup(config)
    honest = task_fakes().get("hangman.honest")
    slots_of: dict[int, set[int]] = defaultdict(set)
    calls_of: dict[int, int] = defaultdict(int)

    async def host(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        trial = id(_current.get())
        slots_of[trial].add(info.args["extra_body"]["id_slot"])
        calls_of[trial] += 1
        await asyncio.sleep(0.001)
        return honest(as_pairs(messages), info.seed if info.seed is not None else 0, info)

    setup.providers.register(
        "h", Model(FunctionModel(host), provider="h", model="h", fake=True, slots=2)
    )
    specs = [
        TrialSpec(
            run_digest=setup.digest, agent="workflow", index=i, seed=trial_seed(config.seed, i)
        )
        for i in range(2)
    ]
    records = await asyncio.gather(*(setup.play(s) for s in specs))
    assert [r.status for r in records] == ["complete", "complete"], records[0].error
    assert len(slots_of) == 2 and all(n > 10 for n in calls_of.values())
    held = [next(iter(s)) for s in slots_of.values() if len(s) == 1]
    assert sorted(held) == [0, 1]  # one slot per trial, a different one each
