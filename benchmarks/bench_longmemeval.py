"""LongMemEval ingestion: one S-sized haystack into raw-turn memory with hybrid search, and
the whole of S with the process's embedding memo, on synthetic files in the official format.

Run from the repository root::

    python benchmarks/bench_longmemeval.py [--sessions 50] [--turns 10] [--words 45]
        [--questions 500] [--pool 2000] [--concurrency 2] [--skip-one] [--skip-whole]
        [--dates-per-haystack] [--precision auto|float32|bfloat16]
        [--embedder minilm|static]

LongMemEval's data is not shipped: the benchmark writes its own files
(``cogarch.tasks.longmemeval.synthetic``): a haystack of ``--sessions`` sessions of
``--turns`` turns, padded so that it is about the 115k tokens of an S haystack.

One haystack: a fresh ``raw_turns_hybrid`` agent (``--embedder``'s embeddings, the static
embedder by default, BM25 and dense fused, chromadb store) takes the haystack in as the task
feeds it (one ``observe_many`` of every session in date order): first cold (MiniLM's embedding
memo empty), then again into a fresh agent with every turn's vector in the memo (what is left
is the store, BM25 and the agent), and once with the hash embedder (no model at all). The
difference is what embedding costs. The static embedder keeps no memo (it is cheaper than
one): its two runs differ only by what the first one warmed; its table is loaded before either.

Whole S: ``--questions`` questions whose haystacks draw their filler sessions from a shared
pool of ``--pool`` sessions (as S's haystacks share sessions; a pool session keeps one date
everywhere unless ``--dates-per-haystack``: raw-turn memory embeds each turn with its date, so
a session dated anew is a new text) are played through the real
task and runner (fake reader, no judge, no memory cache), ``--concurrency`` at a time: each
distinct turn is embedded once, every other ingestion reads the memo. Reported: wall time,
turns ingested per second, the memo's hits, and the peak RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def run_config(data: Path, results: Path, embedder: str, **extra: Any) -> Any:
    from cogarch.experiments.running.run_config import RunConfig

    return RunConfig.model_validate(
        {
            "name": "bench_longmemeval",
            "task": {
                "kind": "longmemeval",
                "data": str(data),
                "judge": False,
                "cache_memory": False,
            },
            "trials": 1,
            "results_dir": str(results),
            "cache": False,
            "providers": {"reader": {"kind": "fake", "fake": "longmemeval.reader"}},
            "agents": [
                {
                    "name": "raw",
                    "agent": "raw_turns_hybrid",
                    "provider": "reader",
                    "params": {"embedder": embedder},
                }
            ],
            **extra,
        }
    )


async def ingest_once(data: Path, folder: Path, embedder: str) -> tuple[float, float]:
    """Seconds and CPU seconds (every thread of the process) for a fresh raw_turns_hybrid
    agent to take the first question's haystack in, as the task feeds it (every session, in
    date order, in one batch)."""
    from cogarch.experiments.running.worker import RunSetup
    from cogarch.tasks.longmemeval.data import load_longmemeval
    from cogarch.tasks.longmemeval.task import haystack_observations
    from cogarch.workspace.spec import AgentSpec, build_agent

    setup = RunSetup(run_config(data, folder / "runs", embedder))
    spec = setup.specs["raw"]
    assert isinstance(spec, AgentSpec)
    agent = build_agent(spec, setup.providers.get, name="raw", provider="reader")
    question = load_longmemeval(data)[0]
    cpu, start = time.process_time(), time.perf_counter()
    await agent.observe_many(haystack_observations(question))
    return time.perf_counter() - start, time.process_time() - cpu


def write_data(path: Path, questions: int, args: argparse.Namespace) -> Path:
    from cogarch.tasks.longmemeval.synthetic import synthetic_longmemeval

    per_type = max(1, questions // 6)
    data = synthetic_longmemeval(
        per_type,
        sessions=args.sessions,
        turns_per_session=args.turns,
        abstention=0,
        pool=args.pool,
        turn_words=args.words,
        shared_dates=not args.dates_per_haystack,
        seed=7,
    )[:questions]
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def one_haystack(folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    from cogarch.memory.retrieval.embeddings import get_embedder
    from cogarch.tasks.longmemeval.data import load_longmemeval
    from cogarch.tokens import count_tokens

    data = write_data(folder / "one.json", 1, args)
    [question] = load_longmemeval(data)
    turns = sum(len(s.turns) for s in question.sessions)
    tokens = sum(count_tokens(t.content) for s in question.sessions for t in s.turns)
    embedder = get_embedder(args.embedder)
    embedder.load()  # type: ignore[attr-defined]
    cold, cold_cpu = await ingest_once(data, folder, args.embedder)
    warm, warm_cpu = await ingest_once(data, folder, args.embedder)
    hashed, _ = await ingest_once(data, folder, "hash")
    return {
        "turns": turns,
        "tokens": tokens,
        "embedder": args.embedder,
        "version": getattr(embedder, "version", None),
        "cold_s": round(cold, 2),
        "cold_cpu_s": round(cold_cpu, 2),
        "warm_s": round(warm, 2),
        "warm_cpu_s": round(warm_cpu, 2),
        "hash_s": round(hashed, 2),
        "embedding_share": round((cold - warm) / cold, 3),
        "turns_per_s_cold": round(turns / cold, 1),
        "load_average": round(os.getloadavg()[0], 1),
    }


async def whole(folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    from cogarch.experiments.running.runner import Runner
    from cogarch.memory.retrieval.embeddings import MiniLMEmbedder

    data = write_data(folder / "whole.json", args.questions, args)
    config = run_config(
        data,
        folder / "runs",
        args.embedder,
        trials=args.questions,
        concurrency=args.concurrency,
    )
    hits = MiniLMEmbedder.memo_hits()
    start = time.perf_counter()
    report = await Runner(config, progress=False).run()
    wall = time.perf_counter() - start
    turns = args.questions * args.sessions * args.turns
    return {
        "questions": args.questions,
        "failed": report.failed,
        "turns_ingested": turns,
        "wall_s": round(wall, 1),
        "turns_per_s": round(turns / wall, 1),
        "memo_hits": MiniLMEmbedder.memo_hits() - hits,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--words", type=int, default=45)
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--pool", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--skip-whole", action="store_true")
    parser.add_argument("--skip-one", action="store_true")
    parser.add_argument(
        "--dates-per-haystack",
        action="store_true",
        help="date each haystack's sessions anew (a shared session's dated lines then differ)",
    )
    parser.add_argument(
        "--precision",
        choices=["auto", "float32", "bfloat16"],
        default="auto",
        help="what MiniLM's 'auto' precision resolves to in this process (default: the "
        "machine's choice); float32 measures the embedder as it is without bfloat16 products",
    )
    parser.add_argument(
        "--embedder",
        choices=["minilm", "static"],
        default="static",
        help="the embedder of the raw_turns_hybrid agent (default: the agent's, static; the "
        "hash embedder is timed anyway)",
    )
    args = parser.parse_args()
    if args.precision != "auto":
        from cogarch.memory.retrieval import embeddings

        embeddings.fast_bfloat16 = lambda: args.precision == "bfloat16"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.skip_one:
            one = await one_haystack(folder, args)
            print("one S-sized haystack:", json.dumps(one), flush=True)
        if not args.skip_whole:
            print("whole S:", json.dumps(await whole(folder, args)), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
