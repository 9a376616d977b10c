"""The runner schedules every trial through its execution backend, as plain-data specs that
name their run by digest (never the whole config), and is the only writer of trial files; a
worker given a run's shipment rebuilds a trial from its spec."""

from __future__ import annotations

from pathlib import Path

from cogarch.core.backend import TrialFn, TrialSpec
from cogarch.core.records import TrialRecord
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.backends.gated import LocalHandle
from cogarch.experiments.running.backends.local import LocalBackend
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.running.worker import RunSetup, TrialWorker
from cogarch.seeds import trial_seed
from tests.experiments.test_runner import SEED, TRIALS, make_config


class Recording(LocalBackend):
    """The local backend, remembering what was submitted; its worker must not write files."""

    def __init__(self, play: TrialFn, concurrency: int, results: Path) -> None:
        self.specs: list[TrialSpec] = []
        self.results = results

        async def checked(spec: TrialSpec) -> TrialRecord:
            record = await play(spec)
            assert not trial_path(self.results, spec.agent, spec.index).exists()
            return record

        super().__init__(checked, concurrency)

    def submit(self, spec: TrialSpec) -> LocalHandle:
        self.specs.append(spec)
        return super().submit(spec)


async def test_every_trial_goes_through_the_backend_as_plain_data(tmp_path: Path) -> None:
    config = make_config(tmp_path, agents=make_config(tmp_path).agents[:1])
    made: list[Recording] = []

    def backend(play: TrialFn, concurrency: int) -> Recording:
        made.append(Recording(play, concurrency, tmp_path))
        return made[-1]

    report = await Runner(config, progress=False, backend=backend).run()
    assert report.ran == TRIALS
    [used] = made
    assert [(s.agent, s.index, s.seed) for s in used.specs] == [
        ("plain host", i, trial_seed(SEED, i)) for i in range(TRIALS)
    ]
    assert all(s.run_digest == config.digest() for s in used.specs)
    assert set(used.specs[0].model_dump()) == {
        "run_digest",
        "agent",
        "index",
        "seed",
        "run_name",
        "task",
    }
    assert used.specs[0].task == config.task.kind and used.specs[0].run_name == config.name

    again = await Runner(config, progress=False, backend=backend).run()
    assert again.skipped == TRIALS and made[-1].specs == []


async def test_a_fresh_worker_plays_a_spec_like_the_run_did(tmp_path: Path) -> None:
    config = make_config(tmp_path, agents=make_config(tmp_path).agents[:1], trials=1)
    await Runner(config, progress=False).run()
    written = read_trial(trial_path(tmp_path, "plain host", 0))
    shipment = RunSetup(config).shipment()  # what a backend sends a worker, once per run
    worker = TrialWorker()
    worker.add(RunSetup(RunConfig.model_validate(shipment["config"])))
    spec = TrialSpec(run_digest=config.digest(), agent="plain host", index=0, seed=written.seed)
    try:
        replayed = await worker(spec)
    finally:
        await worker.aclose()
    assert replayed.evaluation == written.evaluation
    assert replayed.turns == written.turns and replayed.payload == written.payload
