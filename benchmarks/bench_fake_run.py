"""Benchmark a whole Hangman SCT run on the scripted fake hosts, end to end.

Run from the repository root::

    python benchmarks/bench_fake_run.py [--trials 50] [--concurrency 8] [--keep DIR]
        [--trace off|file]

Ten agents (vanilla on the honest, forgetful, leaky and denier hosts; Private CoT, Public CoT,
the workflow agent with each of its three memory strategies and the GWT agent on the honest
host) each play ``--trials`` trials through the real runner: the player, the agents' graphs,
the model layer with metering, the fork into the reveal and candidate branches, the evaluator
and the atomic trial files. Only the model is scripted, so the time measured is the
framework's own. The target on a 2-core machine is a 50 x 10 run in under 60 s.

The scripted hosts answer every memory updater with an ``overwrite_memory`` call, so the
append_delete and patch_replace workflow agents have each of their updates refused and retried
(three attempts per turn): those two agents exercise the updater's error-feedback path and make
four times as many model calls as vanilla, which is part of what is timed.

``--trace file`` records the run's OpenTelemetry spans into ``traces.jsonl`` beside the trial
files (as ``cogarch run --trace file`` does), to measure what tracing costs; the default, off,
is what every run pays when it does not trace.

Printed: the start-up time (imports, config, agent specs), the run time, trials per second,
model calls per second, the CPU seconds the run took (all threads), the summary table of
outcomes, and whether the target was met. Trial files go to a temporary directory that is
removed afterwards, unless ``--keep DIR`` is given.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_S = 60.0

HOSTS = ("honest", "forgetful", "leaky", "denier")
AGENTS: list[dict[str, Any]] = [
    *({"name": f"{host}_vanilla", "agent": "vanilla", "provider": host} for host in HOSTS),
    {"name": "honest_private_cot", "agent": "private_cot", "provider": "honest"},
    {"name": "honest_public_cot", "agent": "public_cot", "provider": "honest"},
    *(
        {
            "name": f"honest_workflow_{strategy}",
            "agent": "workflow",
            "provider": "honest",
            "params": {"strategy": strategy},
        }
        for strategy in ("overwrite", "append_delete", "patch_replace")
    ),
    {"name": "honest_gwt", "agent": "gwt", "provider": "honest"},
]


def run_config(trials: int, concurrency: int, results_dir: Path) -> dict[str, Any]:
    return {
        "name": "bench_fake_run",
        "task": {"kind": "hangman_sct", "t_fork": 4, "n_candidates": 5},
        "trials": trials,
        "seed": 1337,
        "concurrency": concurrency,
        "cache": False,
        "results_dir": str(results_dir),
        "providers": {host: {"kind": "fake", "fake": f"hangman.{host}"} for host in HOSTS},
        "agents": AGENTS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=50, help="trials per agent (default 50)")
    parser.add_argument("--concurrency", type=int, default=8, help="trials at once (default 8)")
    parser.add_argument("--keep", metavar="DIR", help="write the trial files here and keep them")
    parser.add_argument(
        "--trace", choices=("off", "file"), default="off", help="record spans (default off)"
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from cogarch.experiments.results.trial_files import iter_trials
    from cogarch.experiments.running.run_config import RunConfig
    from cogarch.experiments.running.runner import Runner

    if args.keep:
        results_dir = Path(args.keep)
        if any(results_dir.glob("*/trial_*.json")):
            parser.error(f"'{results_dir}' already holds trial files; a resumed run proves nothing")
    else:
        results_dir = Path(tempfile.mkdtemp(prefix="bench_fake_run_"))
    try:
        config = RunConfig.model_validate(run_config(args.trials, args.concurrency, results_dir))
        runner = Runner(config, progress=False, trace=None if args.trace == "off" else "file")
        setup_s = time.perf_counter() - started

        clock, cpu = time.perf_counter(), time.process_time()
        report = asyncio.run(runner.run())
        run_s, cpu_s = time.perf_counter() - clock, time.process_time() - cpu

        calls = 0
        for _, result in iter_trials(results_dir):
            if not isinstance(result, Exception):
                calls += result.usage.model_calls
        traces = results_dir / "traces.jsonl"
        spans = traces.read_text(encoding="utf-8").count('"spanId"') if traces.exists() else 0
    finally:
        if not args.keep:
            shutil.rmtree(results_dir, ignore_errors=True)

    total_s = time.perf_counter() - started
    trials = report.ran
    print(report.table())
    print()
    print(
        f"agents: {len(AGENTS)}, trials per agent: {args.trials}, concurrency {args.concurrency}, "
        f"tracing {args.trace}" + (f" ({spans} spans)" if args.trace != "off" else "")
    )
    print(f"start-up (imports, config, agent specs): {setup_s:.2f} s")
    print(
        f"run: {trials} trials in {run_s:.2f} s = {trials / run_s:.1f} trials/s, "
        f"{calls} model calls = {calls / run_s:.0f} calls/s, {report.failed} failed; "
        f"{cpu_s:.2f} s of CPU (all threads; steadier than wall time on a shared machine)"
    )
    met = "met" if total_s < TARGET_S else "MISSED"
    print(f"total: {total_s:.2f} s end to end (target < {TARGET_S:.0f} s: {met})")
    return 0 if report.failed == 0 and not report.corrupt else 1


if __name__ == "__main__":
    sys.exit(main())
