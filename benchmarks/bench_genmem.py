"""The generated memory benchmark's generator: time and peak memory of writing a whole
history, at lengths from 8k to 1.5M tokens (and beyond with --sizes).

Run from the repository root::

    python benchmarks/bench_genmem.py [--sizes 8000 32000 128000 512000 1500000]
        [--seed 0] [--questions 200]

Each size runs in a fresh process (``python -m cogarch.tasks.genmem --stats``), which
streams every session and counts its tokens with the offline estimate; the peak resident
memory is the process's own (its ``VmHWM``, or ``resource.getrusage`` where there is
none), so it includes the interpreter and cogarch's imports. The target is that no size
needs more than 500 MB: the history is written one session at a time and never held whole.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

LIMIT_MB = 500


def measure(size: int, seed: int, questions: int) -> dict[str, float]:
    command = [
        sys.executable,
        "-m",
        "cogarch.tasks.genmem",
        "--seed",
        str(seed),
        "--target-tokens",
        str(size),
        "--questions",
        str(questions),
        "--stats",
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    stats: dict[str, float] = json.loads(done.stdout)
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[8000, 32000, 128000, 512000, 1500000]
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--questions", type=int, default=200)
    args = parser.parse_args()
    print("| target tokens | sessions | turns | tokens | questions | seconds | peak RSS MB |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    worst = 0.0
    for size in args.sizes:
        questions = min(args.questions, max(5, size // 400))
        s = measure(size, args.seed, questions)
        worst = max(worst, s["peak_rss_mb"])
        print(
            f"| {size} | {s['sessions']} | {s['turns']} | {s['tokens']} | {s['questions']} "
            f"| {s['seconds']} | {s['peak_rss_mb']} |"
        )
    print(
        f"\npeak RSS at most {worst} MB (limit {LIMIT_MB} MB): "
        + ("within" if worst < LIMIT_MB else "OVER")
    )
    return 0 if worst < LIMIT_MB else 1


if __name__ == "__main__":
    sys.exit(main())
