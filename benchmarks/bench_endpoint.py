"""An endpoint kept busy: a LongMemEval-style run against a scripted OpenAI-compatible server
that answers every call after a fixed latency.

Run from the repository root::

    python benchmarks/bench_endpoint.py [--questions 2000] [--concurrency 64] [--latency 0.3]
        [--sessions 4] [--turns 4] [--embedder hash] [--store memory] [--rounds 1]

A served model (vLLM, a hosted API) answers many calls at once, so a run is as fast as the
calls it keeps in flight. The server (``cogarch.testing.ScriptedServer`` in a process of its
own, so its threads never take the run's CPU or its interpreter lock) holds each chat
completion ``--latency`` seconds, then answers as LongMemEval's scripted reader and judge do.
The run is the real task and runner: ``--questions`` synthetic questions (haystacks of
``--sessions`` sessions of ``--turns`` turns, small so that ingestion is not what is timed),
``raw_turns_hybrid`` (raw-turn memory with hybrid search) with its vectors in ``--store``
(``memory``, the in-process store, by default; ``chroma`` for the module's default chromadb
collections, one per trial, which rank these haystacks the same and cost several times the
CPU: see benchmarks/README.md), the reader and the official judge both on the server,
``--concurrency`` trials at once.

Printed per round: the calls the server answered, the wall time of the run (set-up excluded)
against the ideal (calls x latency / concurrency), the most calls the server ever held at once,
the run's own CPU time (this process's user and system seconds during the run) per call, the
server process's CPU time per call (it shares the machine's cores) and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def answer(body: dict[str, Any]) -> str:
    """The scripted reader's or judge's answer to one request body."""
    from cogarch.tasks.longmemeval.fakes import judge, reader

    pairs = [(str(m.get("role")), str(m.get("content"))) for m in body.get("messages", [])]
    last = pairs[-1][1] if pairs else ""
    return judge(pairs, 0) if "Model Response:" in last else reader(pairs, 0)


def serve(latency: float, pipe: Any) -> None:
    """The server process: serve until the parent sends anything, then report the counts."""
    from cogarch.testing import ScriptedServer

    with ScriptedServer(answer, default=f"delay:{latency}", keep_alive=True) as server:
        pipe.send(server.base_url)
        pipe.recv()  # the run starts
        before = os.times()
        pipe.recv()  # the run is over
        after = os.times()
        cpu = (after.user - before.user) + (after.system - before.system)
        pipe.send({"calls": server.hits, "peak_in_flight": server.peak_in_flight, "cpu_s": cpu})


def agent_spec(folder: Path, store: str) -> Path:
    """``raw_turns_hybrid`` with its memory's vectors in ``store`` ('chroma', the module's
    default, or 'memory', the in-process store), written to ``folder``."""
    import yaml

    from cogarch.config import read_yaml
    from cogarch.workspace.registry import ready_made_agents

    spec = read_yaml(ready_made_agents()["raw_turns_hybrid"])
    spec["memory"]["turns"]["store"] = store
    path = folder / "raw_turns_hybrid.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def run_config(data: Path, results: Path, base_url: str, args: argparse.Namespace) -> Any:
    from cogarch.experiments.running.run_config import RunConfig

    endpoint = {"kind": "openai", "model": "scripted", "base_url": base_url, "timeout": 60}
    return RunConfig.model_validate(
        {
            "name": "bench_endpoint",
            "task": {"kind": "longmemeval", "data": str(data), "cache_memory": False},
            "trials": args.questions,
            "concurrency": args.concurrency,
            "results_dir": str(results),
            "cache": False,
            "helper_provider": "judge",
            "providers": {"reader": endpoint, "judge": endpoint},
            "agents": [
                {
                    "name": "raw",
                    "agent": str(agent_spec(data.parent, args.store)),
                    "provider": "reader",
                    "params": {"embedder": args.embedder},
                }
            ],
        }
    )


def write_data(path: Path, args: argparse.Namespace) -> Path:
    from cogarch.tasks.longmemeval.synthetic import synthetic_longmemeval

    per_type = -(-args.questions // 6)
    data = synthetic_longmemeval(
        per_type,
        sessions=args.sessions,
        turns_per_session=args.turns,
        abstention=0,
        pool=200,
        seed=11,
    )[: args.questions]
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def warm_up(runner: Any) -> None:
    """Build one agent and ingest one haystack, so that imports and first-use set-up (the
    vector store's client, the embedder) are not timed."""
    from cogarch.tasks.longmemeval.data import load_longmemeval
    from cogarch.tasks.longmemeval.task import haystack_observations
    from cogarch.workspace.spec import build_agent

    setup = runner.setup
    agent = build_agent(setup.plans["raw"], setup.providers.get, name="raw", provider="reader")
    await agent.observe_many(haystack_observations(load_longmemeval(setup.task.params.data)[0]))


async def one_round(
    folder: Path, base_url: str, args: argparse.Namespace, server: Any
) -> dict[str, Any]:
    from cogarch.experiments.running.runner import Runner

    data = write_data(folder / "data.json", args)
    runner = Runner(run_config(data, folder / "runs", base_url, args), progress=False)
    await warm_up(runner)
    server.send("start")
    cpu, start = os.times(), time.perf_counter()
    report = await runner.run()
    wall, after = time.perf_counter() - start, os.times()
    server.send("stop")
    if report.failed:
        raise SystemExit(f"{report.failed} trials failed; the first: {report.errors[0]}")
    cpu_s = (after.user - cpu.user) + (after.system - cpu.system)
    return {"wall_s": wall, "cpu_s": cpu_s, **outcomes(folder / "runs")}


def outcomes(results: Path) -> dict[str, Any]:
    """What the trials found, to compare runs by: the count of each outcome, and a digest of
    every trial's evaluation (outcome, retrieval metrics), answer, verdict, rankings and token
    counts (times and paths left out)."""
    import hashlib
    from collections import Counter

    digest = hashlib.sha256()
    counts: Counter[str] = Counter()
    for path in sorted(results.glob("*/trial_*.json")):
        trial = json.loads(path.read_text(encoding="utf-8"))
        payload = {k: v for k, v in trial["payload"].items() if k not in ("ingest", "latency_s")}
        tokens = [
            (c["caller"], c["prompt_tokens"], c["completion_tokens"])
            for c in trial["usage"]["calls"]
        ]
        kept = [trial["trial"], trial["seed"], trial["evaluation"], payload, tokens]
        digest.update(json.dumps(kept, sort_keys=True).encode())
        counts[str(trial["evaluation"].get("outcome"))] += 1
    return {"outcomes": dict(sorted(counts.items())), "digest": digest.hexdigest()[:16]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per call")
    parser.add_argument("--sessions", type=int, default=4)
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--embedder", default="hash", choices=["hash", "minilm"])
    parser.add_argument("--store", default="memory", choices=["memory", "chroma"])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        f"{args.questions} questions at concurrency {args.concurrency}, "
        f"{args.latency * 1000:.0f} ms per call; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    context = multiprocessing.get_context("spawn")
    for _ in range(args.rounds):
        ours, theirs = context.Pipe()
        server = context.Process(target=serve, args=(args.latency, theirs), daemon=True)
        server.start()
        try:
            base_url = ours.recv()
            with tempfile.TemporaryDirectory() as tmp:
                timed = asyncio.run(one_round(Path(tmp), base_url, args, ours))
            counts = ours.recv()
        finally:
            server.join(timeout=10)
            if server.is_alive():
                server.terminate()
        calls = counts["calls"]
        ideal = calls * args.latency / args.concurrency
        row = {
            "calls": calls,
            "wall_s": round(timed["wall_s"], 2),
            "ideal_s": round(ideal, 2),
            "of_ideal": round(timed["wall_s"] / ideal, 2),
            "peak_in_flight": counts["peak_in_flight"],
            "cpu_ms_per_call": round(timed["cpu_s"] / calls * 1000, 2),
            "server_cpu_ms_per_call": round(counts["cpu_s"] / calls * 1000, 2),
            "load_average": round(os.getloadavg()[0], 1),
            "outcomes": timed["outcomes"],
            "digest": timed["digest"],
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
