"""Trials per second against concurrency, with a fake model that takes 200 ms per call.

Run from the repository root::

    python benchmarks/bench_concurrency.py [--concurrency 1 2 8] [--rounds 3] [--delay 0.2]
        [--tasks hangman locomo] [--store chroma|memory]

A served model answers in a fraction of a second and serves many requests at once; the framework
must keep out of the way, so trials per second should grow with concurrency almost as
``concurrency`` does. Each task runs through the real runner at each concurrency ``c`` with ``c
x --rounds`` trials (after one trial that warms up imports and caches, not counted), against a
fake that sleeps ``--delay`` seconds (without blocking the event loop) before it answers: the
honest Hangman host (vanilla agent, t_fork 4, 5 candidates) or the LoCoMo fake reader (raw-turn
memory, hash embeddings, a synthetic conversation of 300 turns and 10 questions per trial, the
vectors on ``--store``). Trials per second count the trials over the span from the first one's
start to the last one's end (the run's set-up left out). Printed per task and concurrency:
trials per second, the speed-up over concurrency 1 and its share of the ideal (``c``), and how
long after its trial ended each trial file was on disk (the worst case).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DELAY_ENV = "COGARCH_BENCH_DELAY_S"

from bench_locomo import STORE  # noqa: E402 (after the path set-up)


def _delay() -> float:
    return float(os.environ.get(DELAY_ENV, "0.2"))


async def sleepy_host(pairs: Sequence[tuple[str, str]], seed: int, call: Any) -> str:
    """The honest Hangman host, after a served model's latency."""
    from cogarch.tasks.hangman.hosts import honest_host

    await asyncio.sleep(_delay())
    return honest_host(pairs, seed, call)


async def sleepy_reader(pairs: Sequence[tuple[str, str]], seed: int, call: Any) -> str:
    """The LoCoMo fake reader, after a served model's latency."""
    from cogarch.tasks.locomo.reader import reader

    await asyncio.sleep(_delay())
    return reader(pairs, seed, call)


def _config(task: str, trials: int, concurrency: int, tmp: Path) -> Any:
    from cogarch.experiments.running.run_config import RunConfig
    from cogarch.tasks.locomo.synthetic import synthetic_locomo

    if task == "hangman":
        task_cfg: dict[str, Any] = {"kind": "hangman_sct", "t_fork": 4, "n_candidates": 5}
        fake, agent, params = "bench_concurrency:sleepy_host", "vanilla", {}
    else:
        tmp.mkdir(parents=True, exist_ok=True)
        data = tmp / "locomo.json"
        if not data.exists():
            sample = synthetic_locomo(4, sessions=10, turns_per_session=30, questions=10, seed=7)
            data.write_text(json.dumps(sample), encoding="utf-8")
        task_cfg = {"kind": "locomo", "data": str(data)}
        from bench_locomo import spec_file

        fake, agent, params = (
            "bench_concurrency:sleepy_reader",
            spec_file(tmp, "raw_turns", "hash"),
            {},
        )
    return RunConfig.model_validate(
        {
            "name": f"bench_{task}_{concurrency}",
            "task": task_cfg,
            "trials": trials,
            "seed": 7,
            "concurrency": concurrency,
            "results_dir": str(tmp / f"{task}_{concurrency}"),
            "cache": False,
            "helper_provider": "helper",
            "providers": {
                "fake": {"kind": "fake", "fake": fake},
                "helper": {"kind": "fake", "fake": fake},
            },
            "agents": [{"name": "agent", "agent": agent, "provider": "fake", "params": params}],
        }
    )


def _measured(results: Path) -> tuple[float, float]:
    """Trials per second over the trials' span, and the longest wait between a trial's end
    and its file's last write (seconds)."""
    from cogarch.experiments.results.trial_files import read_trial

    spans, worst = [], 0.0
    for path in results.glob("*/trial_*.json"):
        record = read_trial(path)
        started = datetime.fromisoformat(record.metadata.started_at or "").timestamp()
        ended = started + (record.metadata.duration_s or 0.0)
        spans.append((started, ended))
        worst = max(worst, path.stat().st_mtime - ended)
    span = max(e for _, e in spans) - min(s for s, _ in spans)
    return len(spans) / span, worst


async def run_one(task: str, concurrency: int, trials: int, tmp: Path) -> tuple[float, float]:
    from cogarch.experiments.running.runner import Runner

    config = _config(task, trials, concurrency, tmp)
    report = await Runner(config, progress=False).run()
    if report.failed:
        raise SystemExit(f"{report.failed} {task} trials failed")
    return _measured(config.output_dir())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2, 8])
    parser.add_argument("--rounds", type=int, default=3, help="trials per concurrent slot")
    parser.add_argument("--delay", type=float, default=0.2, help="seconds per model call")
    parser.add_argument("--tasks", nargs="+", default=["hangman", "locomo"])
    parser.add_argument("--store", default="chroma", choices=["chroma", "memory"])
    args = parser.parse_args(argv)
    STORE[0] = args.store
    os.environ[DELAY_ENV] = str(args.delay)
    print(
        f"fake model: {args.delay * 1000:.0f} ms per call; LoCoMo on the {args.store} store; "
        "load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"{'task':<8} {'concurrency':>11} {'trials':>6} {'trials/s':>9} {'speed-up':>9} "
        f"{'of ideal':>9} {'file lag':>9}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for task in args.tasks:
            asyncio.run(run_one(task, 1, 1, Path(tmp) / "warm-up"))
            base = None
            for c in args.concurrency:
                rate, lag = asyncio.run(run_one(task, c, c * args.rounds, Path(tmp)))
                base = base or rate / c
                up = rate / base
                print(
                    f"{task:<8} {c:>11} {c * args.rounds:>6} {rate:>9.2f} {up:>8.2f}x "
                    f"{up / c:>8.0%} {lag * 1000:>6.0f} ms"
                )


if __name__ == "__main__":
    main()
