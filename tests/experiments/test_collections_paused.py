"""While a run's trials play, the objects that existed before are out of the garbage
collector's sight and young collections are rarer; afterwards the collector is as it was."""

from __future__ import annotations

import gc
from pathlib import Path

from cogarch.experiments.running.collections_paused import YOUNGEST_THRESHOLD, collections_paused
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner

DATA = Path(__file__).resolve().parents[1] / "tasks" / "longmemeval" / "data" / "small.json"


def test_within_set_up_objects_are_frozen_and_afterwards_nothing_is() -> None:
    before = gc.get_threshold(), gc.get_freeze_count()
    with collections_paused():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] >= YOUNGEST_THRESHOLD
        with collections_paused():  # a run inside a run: the outer one undoes it
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() > 0
    assert (gc.get_threshold(), gc.get_freeze_count()) == before


def test_overlapping_runs_share_the_pause_until_the_last_ends() -> None:
    before = gc.get_threshold(), gc.get_freeze_count()
    first, second = collections_paused(), collections_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the first run ends while the second still plays
    assert gc.get_freeze_count() > 0 and gc.get_threshold()[0] >= YOUNGEST_THRESHOLD
    second.__exit__(None, None, None)
    assert (gc.get_threshold(), gc.get_freeze_count()) == before


def test_the_collector_is_left_alone_when_switched_off() -> None:
    gc.disable()
    try:
        before = gc.get_threshold(), gc.get_freeze_count()
        with collections_paused():
            assert (gc.get_threshold(), gc.get_freeze_count()) == before
    finally:
        gc.enable()


async def test_a_run_restores_the_collector_whatever_happened(tmp_path: Path) -> None:
    config = RunConfig.model_validate(
        {
            "name": "gc",
            "task": {"kind": "longmemeval", "data": str(DATA)},
            "trials": 2,
            "concurrency": 2,
            "results_dir": str(tmp_path),
            "cache": False,
            "providers": {
                "reader": {"kind": "fake", "fake": "longmemeval.reader"},
                "judge": {"kind": "fake", "fake": "longmemeval.judge"},
            },
            "helper_provider": "judge",
            "agents": [{"name": "full", "agent": "longmemeval_full", "provider": "reader"}],
        }
    )
    before = gc.get_threshold(), gc.get_freeze_count()
    report = await Runner(config, progress=False).run()
    assert report.ran == 2
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
