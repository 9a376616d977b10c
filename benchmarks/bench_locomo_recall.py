"""Evidence recall of each search setting on a LoCoMo file, and the framework's time per question.

Run from the repository root, on any file in LoCoMo's format::

    python benchmarks/bench_locomo_recall.py --data PATH/locomo10.json
        [--searches dense lexical hybrid] [--stores chroma memory] [--agent raw_turns]
        [--embedder static|minilm|hash] [--query prompt|question] [--json out.json]

A search setting is a mode name or a JSON mapping of the ``search`` parameter, e.g.
``'{"mode": "hybrid", "fusion": "rrf"}'``.

Every conversation of the file is played as one trial of the real LoCoMo task (ingestion,
one fork per question, the trial file's answers), with the zero-latency fake reader
``locomo.reader`` answering, once per store and search setting; the agent's retrieval modules
get that store and ``search`` and nothing else changes. Recall@k is what the task reports: the
share of a question's evidence dialog ids among the first k retrieved turns, averaged over
every question (as ``locomo``'s evaluation does). The memory ranks for what the task asks, the
whole question prompt (``--query prompt``); with ``--query question`` the benchmark hands the
retrieval modules the bare question instead (the text after ``Question:``, without the
temporal hint or the adversarial options), and everything else, the reader's prompt included,
stays as the task has it. Framework time per question is the
question's cycle (the fork, the answer, scoring, the log line) less the agent's answer, as
``bench_locomo.py`` measures it; ``respond`` is the agent's answer itself, retrieval included.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_locomo

from cogarch.core.memory import MemoryContext, MemoryItem
from cogarch.memory.retrieval.base import RetrievalModule
from cogarch.memory.retrieval.embeddings import EMBEDDERS
from cogarch.memory.retrieval.params import RetrievalParams
from cogarch.tasks.locomo.questions import TEMPORAL_HINT

DEFAULT_EMBEDDER = RetrievalParams.model_fields["embedder"].default

AT = ("1", "5", "10")

QUERIES = ("prompt", "question")
_QUESTION_ENDS = (TEMPORAL_HINT, " Select the correct answer:", " Short answer:")
_QUESTION = re.compile(
    "Question: (.*?)(?:" + "|".join(re.escape(end) for end in _QUESTION_ENDS) + ")", re.S
)


def bare_question(prompt: str) -> str:
    """The question inside a LoCoMo question prompt (``questions.QA_PROMPT``), without the
    temporal hint or the adversarial options; any other text unchanged."""
    found = _QUESTION.search(prompt)
    return found.group(1) if found else prompt


@contextlib.contextmanager
def querying(mode: str) -> Iterator[None]:
    """Within the block, retrieval modules rank for the bare question (``question``) or for
    the whole prompt as the task asks it (``prompt``: nothing is changed)."""
    if mode == "prompt":
        yield
        return
    real = RetrievalModule.retrieve

    async def retrieve(self: RetrievalModule, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        return await real(self, bare_question(query), ctx)

    RetrievalModule.retrieve = retrieve  # type: ignore[method-assign]
    try:
        yield
    finally:
        RetrievalModule.retrieve = real  # type: ignore[method-assign]


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
    parser.add_argument("--embedder", default=DEFAULT_EMBEDDER, choices=EMBEDDERS)
    parser.add_argument(
        "--query",
        default="prompt",
        choices=QUERIES,
        help="What the memory ranks for: the task's whole question prompt, or the bare question.",
    )
    parser.add_argument("--json", type=Path, default=None, help="Also write the rows here.")
    args = parser.parse_args(argv)
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
            with querying(args.query):
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
