"""Benchmark the execution backends on fake trials, and estimate how Ray scales.

Run from the repository root (the ``ray`` extra installed)::

    python benchmarks/bench_backends.py [--trials 500] [--concurrency 8] [--backends local ray]

Each backend plays ``--trials`` Hangman SCT trials (vanilla agent, the honest scripted host,
no cache) through the real runner into a temporary directory. Printed per backend: the
start-up cost (from the start of the run to the first record, less one trial's own time: for
Ray that is starting the local instance and its worker processes, which import cogarch), the
steady rate (records after the first, per second) and the overall rate.

The scaling estimate for N Ray workers uses measured per-trial costs: ``t_trial``, the mean
time a worker spends on one trial (the records' ``duration_s``), and ``t_driver``, the driver's
own cost per trial (Ray's per-task round trip, measured with no-op tasks, plus reading the
record and writing its file, measured on the records of the run). With N worker processes the
rate is at most ``min(N / t_trial, 1 / t_driver)``: the workers' share grows with N until the
single driver saturates. Real-model trials take minutes, so there the driver bound is far off.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cogarch.core.records import TrialRecord
from cogarch.experiments.results.trial_files import write_trial
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.registry import TASKS


def config(results: Path, backend: str, trials: int, concurrency: int) -> RunConfig:
    return RunConfig.model_validate(
        {
            "name": f"bench_{backend}",
            "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
            "trials": trials,
            "concurrency": concurrency,
            "cache": False,
            "results_dir": str(results),
            "providers": {"honest": {"kind": "fake", "fake": "hangman.honest"}},
            "agents": [{"name": "vanilla", "agent": "vanilla", "provider": "honest"}],
            "execution": {"backend": backend},
        }
    )


async def timed_run(cfg: RunConfig) -> dict[str, Any]:
    stamps: list[float] = []
    records: list[TrialRecord] = []

    def seen(record: TrialRecord) -> None:
        stamps.append(time.perf_counter())
        records.append(record)

    start = time.perf_counter()
    report = await Runner(cfg, progress=False).run(seen)
    total = time.perf_counter() - start
    if report.failed:
        raise SystemExit(f"{report.failed} trials failed")
    t_trial = statistics.mean(r.metadata.duration_s or 0.0 for r in records)
    steady = (len(stamps) - 1) / (stamps[-1] - stamps[0]) if len(stamps) > 1 else 0.0
    return {
        "records": records,
        "startup": stamps[0] - start - t_trial,
        "steady": steady,
        "overall": len(records) / total,
        "t_trial": t_trial,
    }


def driver_cost_per_trial(records: list[TrialRecord], folder: Path) -> float:
    """Reading a record from plain data into its task's classes and writing its file, as the
    Ray driver does per trial."""
    payloads = [r.model_dump(mode="json") for r in records]
    types = TASKS.get(records[0].task).record_types()
    start = time.perf_counter()
    for data in payloads:
        write_trial(folder, TrialRecord.read(data, types))
    return (time.perf_counter() - start) / len(payloads)


def ray_round_trip(tasks: int = 2000) -> float:
    """Seconds of driver time per no-op Ray task, submitted in bulk (a local instance)."""
    import ray

    ray.init(address="local", include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        noop = ray.remote(lambda: None)
        ray.get([noop.remote() for _ in range(100)])  # start the workers first
        start = time.perf_counter()
        ray.get([noop.remote() for _ in range(tasks)])
        return (time.perf_counter() - start) / tasks
    finally:
        ray.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--backends", nargs="+", default=["local", "ray"])
    args = parser.parse_args()
    measured: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends:
            cfg = config(Path(tmp) / backend, backend, args.trials, args.concurrency)
            measured[backend] = asyncio.run(timed_run(cfg))
            m = measured[backend]
            print(
                f"{backend:<6} {args.trials} trials: start-up {m['startup']:.1f} s, steady "
                f"{m['steady']:.1f} trials/s, overall {m['overall']:.1f} trials/s, "
                f"{m['t_trial'] * 1000:.0f} ms per trial on a worker"
            )
        if "ray" not in measured:
            return 0
        ray_m = measured["ray"]
        write_cost = driver_cost_per_trial(ray_m["records"], Path(tmp) / "driver")
    round_trip = ray_round_trip()
    t_driver = write_cost + round_trip
    t_trial = ray_m["t_trial"]
    print(
        f"\nper-trial costs: worker {t_trial * 1000:.1f} ms, driver {t_driver * 1000:.2f} ms "
        f"(Ray round trip {round_trip * 1000:.2f} ms + record and file {write_cost * 1000:.2f} ms)"
    )
    print("estimated Ray rate with N worker processes (fake trials): min(N/t_trial, 1/t_driver)")
    for n in (1, 2, 4, 8, 16, 32, 64, 128, 256):
        rate = min(n / t_trial, 1 / t_driver)
        bound = "driver-bound" if n / t_trial > 1 / t_driver else "worker-bound"
        print(f"  N={n:<4} {rate:8.1f} trials/s  ({bound})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
