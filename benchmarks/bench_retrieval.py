"""Vector store + embedder latency: ingest throughput and query latency, without model calls.

Run from the repository root::

    python benchmarks/bench_retrieval.py [--sizes 1000 10000] [--embedders hash minilm]
                                         [--queries 200] [--batch 256] [--json out.json]
                                         [--torch-threads 1]

For each embedder and store size, synthetic sentences are added to a fresh in-memory store in
batches (``add``: one embedding call per batch, then chromadb's insert), then ``--queries``
queries are timed one by one: ``query`` (embed the query text, then search top 10) and
``search`` (the search alone, with a precomputed vector). The MiniLM model is loaded before
timing starts; its load time is reported separately. The numbers are wall-clock times on
whatever the machine is doing at the time, so compare them within one run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogarch.memory.retrieval.embeddings import MiniLMEmbedder, get_embedder
from cogarch.memory.retrieval.vector_store import VectorStore

_SUBJECTS = ["The user", "The host", "My friend", "The patient", "A player", "The assistant"]
_VERBS = ["guessed", "asked about", "mentioned", "forgot", "prefers", "revealed", "described"]
_OBJECTS = [
    "the letter e",
    "a secret word",
    "six lives",
    "a persistent cough",
    "the weather in Paris",
    "a train to Berlin",
    "the rules of the game",
    "a mild fever",
    "an animal category",
    "the final pattern",
    "a trip to Lisbon",
    "a recipe with mango",
]
_TAILS = ["yesterday", "this morning", "after lunch", "on turn {n}", "twice", "again", "at noon"]


def sentences(n: int, seed: int) -> list[str]:
    """``n`` distinct synthetic memory entries (numbered, so no two are identical)."""
    rng = random.Random(seed)
    return [
        f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} "
        f"{rng.choice(_TAILS).format(n=i)} (note {i})"
        for i in range(n)
    ]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def run(embedder_name: str, size: int, queries: int, batch: int) -> dict[str, Any]:
    embedder = get_embedder(embedder_name)
    store = VectorStore(embedder, prefix=f"bench-{embedder_name}")
    texts = sentences(size, seed=size)
    start = time.perf_counter()
    for offset in range(0, size, batch):
        chunk = texts[offset : offset + batch]
        store.add([f"e{offset + i}" for i in range(len(chunk))], chunk)
    ingest = time.perf_counter() - start
    asked = sentences(queries, seed=size + 1)
    query_ms, search_ms = [], []
    for text in asked:
        start = time.perf_counter()
        store.query(text, 10)
        query_ms.append((time.perf_counter() - start) * 1000)
    for vector in embedder.embed(asked):
        start = time.perf_counter()
        store.query_vector(vector, 10)
        search_ms.append((time.perf_counter() - start) * 1000)
    count = store.count()
    store.drop()
    return {
        "embedder": embedder_name,
        "entries": count,
        "ingest_s": round(ingest, 3),
        "ingest_per_s": round(size / ingest, 1),
        "query_mean_ms": round(statistics.fmean(query_ms), 3),
        "query_p95_ms": round(percentile(query_ms, 0.95), 3),
        "search_mean_ms": round(statistics.fmean(search_ms), 3),
        "search_p95_ms": round(percentile(search_ms, 0.95), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--embedders", nargs="+", default=["hash", "minilm"])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--json", type=Path, default=None, help="Also write the rows here.")
    parser.add_argument(
        "--torch-threads", type=int, default=None, help="torch.set_num_threads before MiniLM."
    )
    args = parser.parse_args(argv)
    if args.torch_threads is not None:
        import torch

        torch.set_num_threads(args.torch_threads)

    rows: list[dict[str, Any]] = []
    extra: dict[str, float] = {}
    if "minilm" in args.embedders:
        start = time.perf_counter()
        MiniLMEmbedder().embed(["warm up"])
        extra["minilm_load_s"] = round(time.perf_counter() - start, 2)
        print(f"MiniLM load and first encode: {extra['minilm_load_s']} s")
    header = (
        f"{'embedder':<8} {'entries':>8} {'ingest s':>9} {'ingest/s':>9} "
        f"{'query ms':>9} {'q p95':>8} {'search ms':>10} {'s p95':>8}"
    )
    print(header)
    for name in args.embedders:
        for size in args.sizes:
            row = run(name, size, args.queries, args.batch)
            rows.append(row)
            print(
                f"{row['embedder']:<8} {row['entries']:>8} {row['ingest_s']:>9} "
                f"{row['ingest_per_s']:>9} {row['query_mean_ms']:>9} {row['query_p95_ms']:>8} "
                f"{row['search_mean_ms']:>10} {row['search_p95_ms']:>8}",
                flush=True,
            )
    if args.json is not None:
        args.json.write_text(json.dumps({"rows": rows, **extra}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
