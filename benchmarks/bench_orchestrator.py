"""Benchmark the orchestrator's own cost per specialist step, with a zero-latency fake model.

Run from the repository root::

    python benchmarks/bench_orchestrator.py [--trials 20] [--turns 25] [--strategy append_delete]

Two ready-made agents are driven for ``--turns`` turns per trial, a fresh agent per trial:

- ``gwt``: routed, with loops and a chooser; the fake router sends each turn through focus,
  then planning, then the responder (eight steps per turn, three router calls);
- ``workflow``: responder then memory updater (two steps per turn).

The fake model answers instantly with a fixed text per role (the reply, a valid memory tool
call, or a routing choice), so what is measured is everything around the model: prompt
building, the model layer (metering, reasoning split, the fake client's bookkeeping), routing,
memory tools, route-log records. Reported per agent:

- ``step``: mean and p95 of each step's elapsed time as the route log records it;
- ``turn/steps``: wall time of ``respond`` divided by the turn's steps (adds routing and the
  bookkeeping between steps);
- ``cpu/steps``: the process's CPU time for the turn divided by its steps: the same cost
  without the time the process waited for a core (the figure to trust on a busy machine);
- ``client``: the part of a step spent inside the fake chat client itself (its token
  counting), which a real model replaces with network time.

The target is under 2 ms per step.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

TARGET_MS = 2.0
ROUTE = ("focus", "planner", "responder")


def _percentile(samples: Sequence[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _constant_replies(strategy: str) -> dict[str, str]:
    """One fixed answer per role: every answer is valid for its role."""
    edits = {
        "overwrite": {
            "name": "overwrite_memory",
            "arguments": {
                "new_memory": "## 1. Goals and Plans\n- play\n\n## 2. Facts and "
                "Knowledge\n- word: zebra\n\n## 3. Active Notes\n- turn seen\n"
            },
        },
        "append_delete": {
            "name": "append_in_memory",
            "arguments": {"section_title": "Active Notes", "lines": ["- turn seen"]},
        },
        "patch_replace": {
            "name": "patch_memory",
            "arguments": {
                "patch": "*** Begin Patch\n*** Update Memory\n@@ section: Active Notes\n"
                "+ - turn seen\n*** End Patch",
                "explanation": "note the turn",
            },
        },
    }
    return {
        "updater": json.dumps(edits[strategy]),
        "planner": "Plan: answer in one sentence.",
        "responder": "Sure, here is my answer. <secret>zebra</secret>",
    }


def _make_fake(strategy: str) -> Any:
    from cogarch.models import FunctionModel

    replies = _constant_replies(strategy)
    routes = [json.dumps({"next": name}) for name in ROUTE]

    class TimedFake(FunctionModel):
        """A constant-answer fake that also times its own ``create``."""

        def __init__(self) -> None:
            super().__init__(self._answer)
            self.client_s = 0.0
            self._route = 0

        def _answer(self, messages: Sequence[Any], info: Any) -> str:
            head = str(messages[0].content)[:40]
            if head.startswith("You are the conscious router"):
                self._route += 1
                return routes[(self._route - 1) % len(routes)]
            if head.startswith("You are a memory updater"):
                return replies["updater"]
            if head.startswith("You plan privately"):
                return replies["planner"]
            return replies["responder"]

        async def create(self, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await super().create(*args, **kwargs)
            finally:
                self.client_s += time.perf_counter() - start

    return TimedFake()


async def _run(name: str, strategy: str, trials: int, turns: int) -> Mapping[str, Any]:
    from cogarch.models import Model, Providers
    from cogarch.workspace import build_agent, load_agent_spec

    spec = load_agent_spec(name, {"strategy": strategy})
    step_ms: list[float] = []
    per_step_ms: list[float] = []
    cpu_ms: list[float] = []
    client_s = 0.0
    wall_s = 0.0
    for trial in range(trials + 1):  # trial 0 warms up (lazy imports, caches) and is not kept
        fake = _make_fake(strategy)
        providers = Providers()
        providers.register("fake", Model(fake, provider="fake", model="constant", fake=True))
        agent = build_agent(spec, providers.get, provider="fake")
        for turn in range(1, turns + 1):
            start, cpu_start = time.perf_counter(), time.process_time()
            await agent.respond(f"Question number {turn}: is there an E?")
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
            if trial == 0:
                continue
            steps = [s for s in agent.route_log.steps if s.turn == turn]
            step_ms += [s.elapsed_s * 1000 for s in steps]
            per_step_ms.append(elapsed * 1000 / len(steps))
            cpu_ms.append(cpu * 1000 / len(steps))
            wall_s += elapsed
        if trial:
            client_s += fake.client_s
    return {
        "agent": name,
        "steps": len(step_ms),
        "step_mean": statistics.fmean(step_ms),
        "step_p95": _percentile(step_ms, 0.95),
        "turn_mean": statistics.fmean(per_step_ms),
        "turn_p95": _percentile(per_step_ms, 0.95),
        "cpu_mean": statistics.fmean(cpu_ms),
        "cpu_p95": _percentile(cpu_ms, 0.95),
        "client_share": client_s / wall_s if wall_s else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=20, help="fresh agents per agent type")
    parser.add_argument("--turns", type=int, default=25, help="turns per trial")
    parser.add_argument(
        "--strategy",
        default="append_delete",
        choices=["overwrite", "append_delete", "patch_replace"],
    )
    parser.add_argument("--agents", nargs="+", default=["gwt", "workflow"])
    args = parser.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    print(
        f"{args.trials} trials x {args.turns} turns per agent, strategy {args.strategy}, "
        f"zero-latency fake model, load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    header = (
        f"{'agent':<10} {'steps':>6} {'step mean':>10} {'step p95':>9} "
        f"{'turn/steps mean':>16} {'p95':>8} {'cpu/steps mean':>15} {'p95':>8} {'client':>7}"
    )
    print(header)
    worst_cpu = worst_wall = 0.0
    for name in args.agents:
        row = asyncio.run(_run(name, args.strategy, args.trials, args.turns))
        worst_cpu = max(worst_cpu, row["cpu_p95"])
        worst_wall = max(worst_wall, row["turn_p95"])
        print(
            f"{row['agent']:<10} {row['steps']:>6} {row['step_mean']:>8.3f}ms "
            f"{row['step_p95']:>7.3f}ms {row['turn_mean']:>14.3f}ms {row['turn_p95']:>6.3f}ms "
            f"{row['cpu_mean']:>13.3f}ms {row['cpu_p95']:>6.3f}ms {row['client_share']:>6.0%}"
        )
    verdict = "within" if worst_cpu < TARGET_MS else "OVER"
    print(
        f"worst p95 per step: {worst_cpu:.3f} ms CPU, {verdict} the {TARGET_MS:.0f} ms target "
        f"({worst_wall:.3f} ms wall clock at load average {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
