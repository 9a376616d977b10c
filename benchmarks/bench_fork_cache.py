"""Benchmark the SCT's branch phase on the embedded model: the old schedule against the new one.

Run from the repository root (loads the embedded model: about 2 GiB of RAM and all cores)::

    python benchmarks/bench_fork_cache.py [--trials 2] [--concurrency 2]
        [--agents vanilla workflow_overwrite] [--max-tokens 384]

Both schedules play real Hangman SCT trials (t_fork 4, 5 candidates, temperature 0.3) through
the same worker code the runner uses, against one embedded llama.cpp server with 2 slots,
``--concurrency`` trials at once, as the README's main job does:

- **old**: no slot affinity (each request goes to whichever slot llama.cpp picks) and every
  candidate branch fired at once (the schedule before fork-aware execution);
- **new**: the defaults: every call of a trial keeps to one slot (``id_slot``), the reveal
  branch goes first and the candidates follow one at a time on the warm slot.

The branch phase is everything ``fork_sct`` asks: the branches (the reveal and the candidate
branches, every call a forked agent makes) and, when the board leaves too few candidates, the
candidate top-up (one call of the task's own, with a prompt no branch shares). For the
branches the benchmark prints the prompt tokens sent and the share the server evaluated (sent
less those it reports served from its cache; target: at most 10% for the new schedule); the
top-up calls are counted apart. Also the branch phase's wall time (the union of the trials'
branch phases) and the whole trials' wall time. Both schedules play the same seeds, each on a
freshly started server, so neither meets the other's prompts in the server's cache; they
alternate agent by agent (old first).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cogarch.tasks.sct.engine as engine
from cogarch.core.backend import TrialSpec
from cogarch.core.model import Usage
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.worker import RunSetup
from cogarch.models.local import stop_local_servers
from cogarch.models.metering import Meter
from cogarch.seeds import trial_seed
from cogarch.tasks.sct.proposer import PROPOSER_CALLER

TARGET_EVALUATED = 0.10
SEED = 1337


@dataclass
class Phase:
    """The branch phases of one schedule: their calls and when each ran."""

    meters: list[Meter] = field(default_factory=list)
    spans: list[tuple[float, float]] = field(default_factory=list)
    trial_spans: list[tuple[float, float]] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def records(self, top_up: bool = False) -> list[Usage]:
        """The branches' calls, or (``top_up``) the candidate top-up's."""
        return [
            r for m in self.meters for r in m.records if (r.caller == PROPOSER_CALLER) == top_up
        ]

    def sent(self, top_up: bool = False) -> int:
        return sum(r.prompt_tokens for r in self.records(top_up))

    def from_cache(self, top_up: bool = False) -> int | None:
        known = [r.cached_prompt_tokens for r in self.records(top_up)]
        if any(k is None for k in known):
            return None
        return sum(k or 0 for k in known)

    def evaluated(self, top_up: bool = False) -> str:
        cached = self.from_cache(top_up)
        return "n/a" if cached is None else str(self.sent(top_up) - cached)


def union_seconds(spans: list[tuple[float, float]]) -> float:
    total, end = 0.0, float("-inf")
    for a, b in sorted(spans):
        if b <= end:
            continue
        total += b - max(a, end)
        end = b
    return total


def run_config(schedule: str, agent: str, args: argparse.Namespace) -> RunConfig:
    old = schedule == "old"
    provider: dict[str, Any] = {
        "kind": "local",
        "temperature": 0.3,
        "max_tokens": args.max_tokens,
        "n_ctx": 8192,
        "n_parallel": 2,
    }
    if old:
        provider["slots"] = 0
    params = {"strategy": "overwrite"} if agent.startswith("workflow") else {}
    return RunConfig.model_validate(
        {
            "name": f"bench_fork_{schedule}",
            "task": {
                "kind": "hangman_sct",
                "t_fork": 4,
                "n_candidates": 5,
                "branch_concurrency": 50 if old else "auto",
            },
            "trials": args.trials,
            "seed": SEED,
            "concurrency": args.concurrency,
            "cache": False,
            "providers": {"local": provider},
            "agents": [
                {
                    "name": agent,
                    "agent": agent.split("_")[0],
                    "provider": "local",
                    "params": params,
                }
            ],
        }
    )


def metered_fork(phase: Phase) -> Callable[..., Awaitable[engine.Fork]]:
    inner = engine.fork_sct

    async def fork_sct(*args: Any, **kwargs: Any) -> engine.Fork:
        meter = Meter()
        began = time.perf_counter()
        try:
            with meter.active():
                return await inner(*args, **kwargs)
        finally:
            phase.meters.append(meter)
            phase.spans.append((began, time.perf_counter()))

    return fork_sct


async def play(schedule: str, agent: str, args: argparse.Namespace) -> Phase:
    stop_local_servers()  # a cold server: nothing cached from the other schedule
    config = run_config(schedule, agent, args)
    setup = RunSetup(config)
    phase = Phase()
    original = engine.fork_sct
    engine.fork_sct = metered_fork(phase)  # type: ignore[assignment]
    gate = asyncio.Semaphore(args.concurrency)

    async def one(index: int) -> None:
        spec = TrialSpec(
            run_digest=setup.digest, agent=agent, index=index, seed=trial_seed(config.seed, index)
        )
        async with gate:
            began = time.perf_counter()
            record = await setup.play(spec)
            phase.trial_spans.append((began, time.perf_counter()))
        if record.status != "complete":
            phase.failed.append(f"#{index}: {record.error.message if record.error else '?'}")

    try:
        await asyncio.gather(*(one(i) for i in range(args.trials)))
    finally:
        engine.fork_sct = original
        await setup.providers.aclose()
    return phase


def row(schedule: str, agent: str, phase: Phase) -> list[str]:
    sent = phase.sent()
    cached = phase.from_cache()
    share = "n/a" if cached is None or not sent else f"{(sent - cached) / sent:.1%}"
    return [
        agent,
        schedule,
        str(len(phase.trial_spans)),
        str(len(phase.records())),
        str(sent),
        "n/a" if cached is None else str(cached),
        share,
        f"{len(phase.records(top_up=True))} / {phase.evaluated(top_up=True)}",
        f"{union_seconds(phase.spans):.1f}",
        f"{union_seconds(phase.trial_spans):.1f}",
    ]


def table(rows: list[list[str]]) -> str:
    header = [
        "agent",
        "schedule",
        "trials",
        "branch calls",
        "branch prompt tokens",
        "from cache",
        "evaluated",
        "top-ups / evaluated",
        "branch phase s",
        "trials s",
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in [header, *rows]
    ]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


async def main(args: argparse.Namespace) -> int:
    rows: list[list[str]] = []
    totals: dict[str, Phase] = {"old": Phase(), "new": Phase()}
    for agent in args.agents:
        for schedule in ("old", "new"):
            print(f"{agent}: {schedule} schedule, {args.trials} trials ...", flush=True)
            phase = await play(schedule, agent, args)
            rows.append(row(schedule, agent, phase))
            for name in ("meters", "spans", "trial_spans", "failed"):
                getattr(totals[schedule], name).extend(getattr(phase, name))
            for failure in phase.failed:
                print(f"  failed trial {failure}", file=sys.stderr)
    for schedule, phase in totals.items():
        rows.append(row(schedule, "all", phase))
    print()
    print(table(rows))
    old, new = totals["old"], totals["new"]
    old_s = sum(b - a for a, b in old.spans)
    new_s = sum(b - a for a, b in new.spans)
    cached, sent = new.from_cache(), new.sent()
    print()
    if new_s:
        wall = union_seconds(old.spans) / union_seconds(new.spans)
        trials = union_seconds(old.trial_spans) / union_seconds(new.trial_spans)
        print(
            f"branch phase wall time, old / new: {wall:.2f}x "
            f"(summed over trials: {old_s / new_s:.2f}x)"
        )
        print(f"trials wall time, old / new: {trials:.2f}x")
    if cached is not None and sent:
        share = (sent - cached) / sent
        verdict = "met" if share <= TARGET_EVALUATED else "NOT met"
        print(
            f"new schedule evaluates {share:.1%} of branch prompt tokens (target <= 10%: {verdict})"
        )
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=2, help="trials per agent and schedule")
    parser.add_argument("--concurrency", type=int, default=2, help="trials at once")
    parser.add_argument("--agents", nargs="+", default=["vanilla", "workflow_overwrite"])
    parser.add_argument("--max-tokens", type=int, default=384)
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(asyncio.run(main(parse())))
