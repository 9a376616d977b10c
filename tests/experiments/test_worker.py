"""A run's setup is checked as data, once; a trial comes back as one value; the runner keeps
the records it holds; a worker elsewhere fetches a run's config once."""

from __future__ import annotations

import sys
import types
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from cogarch.core.backend import TrialSpec
from cogarch.core.records import TrialOutput
from cogarch.core.task import Task, TrialContext
from cogarch.errors import ConfigError
from cogarch.experiments.running import runner as runner_module
from cogarch.experiments.running import worker as worker_module
from cogarch.experiments.running.backends import ray_worker
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.running.worker import RunSetup, TrialWorker
from cogarch.models import FunctionModel, Model
from cogarch.models.metering import Meter
from cogarch.seeds import trial_seed
from cogarch.workspace import build_agent, load_agent_spec
from tests.experiments.test_runner import TRIALS, make_config


def test_checking_a_run_builds_no_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("an agent was built to check a spec")

    monkeypatch.setattr(worker_module, "build_agent", refuse)
    setup = RunSetup(make_config(tmp_path))
    assert set(setup.specs) == {"plain host", "flaky"}
    bad = make_config(
        tmp_path, agents=[{"agent": "workflow", "provider": "honest", "params": {"strategy": "x"}}]
    )
    with pytest.raises(ConfigError, match="strategy"):
        RunSetup(bad)  # a bad spec still stops the run before any trial


def test_a_run_is_hashed_once_and_its_metadata_made_once(tmp_path: Path) -> None:
    setup = RunSetup(make_config(tmp_path))
    assert setup.digest == setup.config.digest()
    first = setup.trial_metadata("plain host", started=datetime.now(UTC))
    assert first.config_hash == setup.digest and first.config == setup.config_json
    assert setup.shipment() == {"config": setup.config_json, "task_source": None}


class NoParams(BaseModel):
    pass


class Stumbles(Task):
    """Answers twice, then fails: its record still holds the walk and the usage so far."""

    kind: ClassVar[str] = "stumbles"
    Params: ClassVar[type[BaseModel]] = NoParams

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        agent = ctx.make_agent()
        await agent.respond("one")
        await agent.respond("two")
        raise RuntimeError("the task broke after two turns")


async def test_a_trial_comes_back_as_one_value_even_when_it_fails() -> None:
    model = Model(FunctionModel(lambda m, i: "ok"), provider="p", model="m", fake=True)
    spec = load_agent_spec("vanilla")
    ctx = TrialContext(
        agent_name="a",
        trial=0,
        seed=1,
        agent_factory=lambda: build_agent(spec, lambda name: model, provider="p"),
        models=lambda name: model,
        helper_provider=None,
        meter=Meter(),
    )
    out = await Stumbles(NoParams()).play(ctx)
    assert out.error is not None and out.error.type == "RuntimeError"
    assert "after two turns" in out.error.message and "Traceback" in out.error.traceback
    assert [(s.turn, s.node) for s in out.walk] == [(1, "responder"), (2, "responder")]
    assert out.usage.model_calls == 2 and len(out.usage.calls) == 2


async def test_the_runner_reads_each_trial_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[Path] = []
    real = runner_module.read_trial

    def counted(path: Any, **kwargs: Any) -> Any:
        reads.append(Path(path))
        return real(path, **kwargs)

    monkeypatch.setattr(runner_module, "read_trial", counted)
    config = make_config(tmp_path)
    first = await Runner(config, progress=False).run()
    assert first.ran == 2 * TRIALS and reads == []  # what it wrote, it holds
    again = await Runner(config, progress=False).run()
    assert again.skipped + again.ran == 2 * TRIALS
    assert len(reads) == len(set(reads)) == 2 * TRIALS  # found once each, for resuming
    assert [r.agent for r in again.rows] == ["plain host", "flaky"]


async def test_a_worker_refuses_a_spec_of_a_run_it_was_not_given(tmp_path: Path) -> None:
    worker = TrialWorker(RunSetup(make_config(tmp_path)))
    other = TrialSpec(run_digest="f" * 64, agent="plain host", index=0, seed=1)
    with pytest.raises(ConfigError, match="was not given"):
        await worker(other)


def test_a_ray_worker_fetches_a_runs_config_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = RunSetup(make_config(tmp_path, agents=make_config(tmp_path).agents[:1]))
    fetched: list[object] = []

    def get(ref: object) -> Any:
        fetched.append(ref)
        return setup.shipment()

    monkeypatch.setitem(sys.modules, "ray", types.SimpleNamespace(get=get))
    monkeypatch.setattr(ray_worker, "_worker", None)
    monkeypatch.setattr(ray_worker, "_loop", None)
    monkeypatch.setattr(ray_worker, "node_cache_dir", lambda config: tmp_path / "cache")
    specs = [
        TrialSpec(run_digest=setup.digest, agent="plain host", index=i, seed=trial_seed(11, i))
        for i in range(2)
    ]
    try:
        records = [ray_worker.play_trial(s.model_dump(mode="json"), ["ref"]) for s in specs]
    finally:
        if ray_worker._loop is not None:
            ray_worker._loop.close()
    assert [r["record"]["status"] for r in records] == ["complete", "complete"]
    assert [r["spans"] for r in records] == [[], []]  # nothing traced without a trace context
    assert fetched == ["ref"]  # the second trial of the run used the setup already built
