"""A run keeps as many calls in flight at a served endpoint as its concurrency allows.

A LongMemEval run (reader and judge both on a scripted OpenAI-compatible server that holds
every call a while) at concurrency ``C`` must have ``C`` calls open at the server at once: the
count, not the timing. The backend lends the run's trials an executor sized by the run.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from cogarch.core.backend import TrialSpec
from cogarch.core.records import TrialRecord
from cogarch.experiments.running.backends.local import SPARE_THREADS, LocalBackend
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.longmemeval.synthetic import synthetic_longmemeval
from cogarch.testing import ScriptedServer, allowing_model_requests

CONCURRENCY = 12


def _answer(body: dict[str, Any]) -> str:
    last = str(body.get("messages", [{}])[-1].get("content", ""))
    return "Yes." if "Model Response:" in last else "I do not know."


def _config(data: Path, results: Path, base_url: str, trials: int) -> RunConfig:
    endpoint = {"kind": "openai", "model": "m", "base_url": base_url, "timeout": 30}
    return RunConfig.model_validate(
        {
            "name": "in_flight",
            "task": {"kind": "longmemeval", "data": str(data), "cache_memory": False},
            "trials": trials,
            "concurrency": CONCURRENCY,
            "results_dir": str(results),
            "cache": False,
            "helper_provider": "judge",
            "providers": {"reader": endpoint, "judge": endpoint},
            "agents": [
                {
                    "name": "raw",
                    "agent": "raw_turns_hybrid",
                    "provider": "reader",
                    "params": {"embedder": "hash"},
                }
            ],
        }
    )


def test_a_longmemeval_run_holds_its_concurrency_in_calls_at_the_endpoint(
    tmp_path: Path,
) -> None:
    trials = 3 * CONCURRENCY
    data = tmp_path / "data.json"
    sample = synthetic_longmemeval(7, sessions=3, turns_per_session=2, abstention=0, seed=3)
    data.write_text(json.dumps(sample[:trials]), encoding="utf-8")
    with ScriptedServer(_answer, default="delay:0.4") as server, allowing_model_requests():
        config = _config(data, tmp_path / "runs", server.base_url, trials)
        report = asyncio.run(Runner(config, progress=False).run())
    assert report.failed == 0
    assert server.hits == 2 * trials  # a reader's answer and a judge's verdict per question
    assert server.peak_in_flight == CONCURRENCY
    assert server.in_flight == 0


def test_the_backend_lends_its_trials_a_thread_each_and_gives_the_loop_back(
    tmp_path: Path,
) -> None:
    seen: list[int] = []

    async def play(spec: TrialSpec) -> TrialRecord:
        executor = asyncio.get_running_loop()._default_executor  # type: ignore[attr-defined]
        seen.append(executor._max_workers)
        await asyncio.to_thread(lambda: None)
        return TrialRecord(
            status="complete", run="r", agent="a", task="t", trial=spec.index, seed=spec.seed
        )

    async def main() -> Any:
        loop = asyncio.get_running_loop()
        before = ThreadPoolExecutor(2)
        loop.set_default_executor(before)
        backend = LocalBackend(play, 40)
        spec = TrialSpec(run_digest="d", agent="a", index=0, seed=1, run_name="r", task="t")
        await backend.submit(spec).record()
        await backend.aclose()
        return loop._default_executor is before  # type: ignore[attr-defined]

    assert asyncio.run(main())
    assert seen == [40 + SPARE_THREADS]
