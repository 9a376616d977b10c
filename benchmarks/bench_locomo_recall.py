"""Evidence recall of each search setting on a LoCoMo file, and the framework's time per question.

Run from the repository root, on any file in LoCoMo's format::

    python benchmarks/bench_locomo_recall.py --data PATH/locomo10.json
        [--searches dense lexical hybrid] [--stores chroma memory] [--agent raw_turns]
        [--embedder static|minilm|hash] [--query question|input] [--json out.json]

A search setting is a mode name or a JSON mapping of the ``search`` parameter, e.g.
``'{"mode": "hybrid", "fusion": "rrf"}'``.

Every conversation of the file is played as one trial of the real LoCoMo task (ingestion,
one fork per question, the trial file's answers), with the zero-latency fake reader
``locomo.reader`` answering, once per store and search setting; the agent's retrieval modules
get that store and ``search`` and nothing else changes. Recall@k is what the task reports: the
share of a question's evidence dialog ids among the first k retrieved turns, averaged over
every question (as ``locomo``'s evaluation does). The retrieval specialists search for
the question each prompt asks (``--query question``, the agents' default: the text after
``Question:``, the temporal hint and the adversarial options included, without the
instructions and the answer cue) or for the whole prompt (``--query input``, the default
before). Framework time per question is the
question's cycle (the fork, the answer, scoring, the log line) less the agent's answer, as
``bench_locomo.py`` measures it; ``respond`` is the agent's answer itself, retrieval included.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_locomo

from cogarch.memory.retrieval.embeddings import EMBEDDERS
from cogarch.workspace import load_agent_spec

AT = ("1", "5", "10")

QUERIES = ("question", "input")


async def setting(data: Path, agent: str, embedder: str, conversations: int) -> dict[str, Any]:
    """Play every conversation with the current ``bench_locomo.STORE`` and ``SEARCH``."""
    recall: dict[str, list[float]] = {k: [] for k in AT}
    framework: list[float] = []
    respond: list[float] = []
    per_conversation: dict[str, float] = {}
    began = time.perf_counter()
    for trial in range(conversations):
        with tempfile.TemporaryDirectory() as tmp:
            out, times, _ = await bench_locomo.timed_trial(data, trial, agent, embedder, Path(tmp))
        answers = [a for a in out.payload.answers if a.recall is not None]
        for k in AT:
            recall[k].extend(a.recall[k] for a in answers if a.recall is not None)
        at10 = [a.recall["10"] for a in answers if a.recall is not None]
        per_conversation[out.payload.sample_id] = round(statistics.fmean(at10), 4) if at10 else 0
        framework.extend(times)
        respond.extend(a.latency_s * 1000 for a in out.payload.answers)
    return {
        "store": bench_locomo.STORE[0],
        "search": label(bench_locomo.SEARCH[0]),
        "questions": len(recall["1"]),
        **{f"recall@{k}": round(statistics.fmean(v), 4) if v else None for k, v in recall.items()},
        "recall@10 by conversation": per_conversation,
        "framework_mean_ms": round(statistics.fmean(framework), 3),
        "respond_mean_ms": round(statistics.fmean(respond), 3),
        "seconds": round(time.perf_counter() - began, 1),
    }


def label(search: Any) -> str:
    if isinstance(search, str):
        return search
    return ",".join(f"{k}={v}" for k, v in search.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="A file in LoCoMo's format.")
    parser.add_argument(
        "--searches", nargs="+", default=["dense", "lexical", "hybrid"], help="Search settings."
    )
    parser.add_argument("--stores", nargs="+", default=["memory", "chroma"])
    parser.add_argument("--agent", default="raw_turns")
    parser.add_argument(
        "--embedder", default=None, choices=EMBEDDERS, help="Default: the agent's own."
    )
    parser.add_argument(
        "--query",
        default="question",
        choices=QUERIES,
        help="What the memory ranks for: the question the prompt asks, or the whole prompt.",
    )
    parser.add_argument("--json", type=Path, default=None, help="Also write the rows here.")
    args = parser.parse_args(argv)
    if args.embedder is None:
        args.embedder = load_agent_spec(args.agent).params["embedder"]
    conversations = len(json.loads(args.data.read_text(encoding="utf-8")))
    print(
        f"{args.data.name}: {conversations} conversations, agent {args.agent}, "
        f"{args.embedder} embedder, {args.query} as the query, zero-latency fake reader"
    )
    print(
        f"{'store':<7} {'search':<8} {'questions':>9} {'R@1':>6} {'R@5':>6} {'R@10':>6} "
        f"{'framework ms':>13} {'respond ms':>11}"
    )
    rows = []
    for store in args.stores:
        for name in args.searches:
            search = json.loads(name) if name.lstrip().startswith("{") else name
            bench_locomo.STORE[0], bench_locomo.SEARCH[0] = store, search
            bench_locomo.QUERY[0] = args.query
            row = asyncio.run(setting(args.data, args.agent, args.embedder, conversations))
            rows.append({**row, "query": args.query})
            print(
                f"{store:<7} {row['search']:<8} {row['questions']:>9} {row['recall@1']:>6.3f} "
                f"{row['recall@5']:>6.3f} {row['recall@10']:>6.3f} "
                f"{row['framework_mean_ms']:>13.2f} {row['respond_mean_ms']:>11.2f}",
                flush=True,
            )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
