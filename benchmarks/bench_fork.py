"""Fork cost against memory size: every memory module, and a whole agent.

Run from the repository root::

    python benchmarks/bench_fork.py [--sizes 100 1000 5000] [--repeat 200] [--store chroma]
        [--search dense]

Each memory module is filled with ``n`` turns through its own ``ingest`` (a fake model answers
the modules that call one; the retrieval modules use the hash embedder), and a ``raw_turns``
agent with ``n`` turns of dialogue, route log and memory is built the same way. Then ``fork()`` is
timed ``--repeat`` times (median and 95th percentile). Then, on fresh forks, two writes in a
row are timed (an ingested turn each; for the agent, a ``respond`` each): the first write pays
for whatever the fork's copy-on-write copies, the second does not, so their difference is that
copy. A fork should cost the same at every size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MODULES: dict[str, dict[str, Any]] = {
    "working_memory": {"strategy": "append_delete"},
    "ccs": {"provider": "fake"},
    "task_graph": {"provider": "fake"},
    "raw_turns": {"embedder": "hash"},
    "mem0": {"embedder": "hash", "provider": "fake"},
    "amem": {"embedder": "hash", "provider": "fake"},
    "lightmem": {"embedder": "hash", "provider": "fake"},
    "memoryos": {"embedder": "hash", "provider": "fake"},
}


STORE = ["chroma"]
"""The retrieval modules' vector store (``--store``)."""
SEARCH = ["dense"]
"""The retrieval modules' search (``--search``): lexical and hybrid fork a BM25 index too."""


def _answer(prompt: str, schema: str) -> Any:
    """A fake model's structured answer for each module's calls, by schema name."""
    words = re.findall(r"[a-z]{5,}", prompt.lower())[-6:] or ["nothing"]
    fact = " ".join(words)
    return {
        "FactList": {"facts": [fact]},
        "UpdatePlan": {"memory": [{"id": "x", "text": fact, "event": "ADD"}]},
        "NoteAnalysis": {"keywords": words[:3], "context": "chat", "tags": ["chat"]},
        "Evolution": {"should_evolve": False},
        "FactBatch": {"facts": [{"source": 0, "fact": fact}]},
        "PageSummary": {"summary": fact, "keywords": words[:2]},
        "ProfileUpdate": {"profile": "Likes to talk."},
        "Knowledge": {"user_knowledge": [fact], "assistant_knowledge": []},
        "CCSDraft": {
            "episodic_trace": [fact],
            "semantic_gist": "chat",
            "focal_entities": [],
            "relational_map": [],
            "goal_orientation": "talk",
            "constraints": [],
            "predictive_cue": [],
            "uncertainty_signal": {"level": "low", "gaps": []},
            "retrieved_artifacts": [],
        },
        "TaskIntents": {"intents": [{"intent": "new", "slot": f"s{len(prompt)}", "value": fact}]},
    }[schema]


def _fake() -> Any:
    from cogarch.models import FunctionModel, Model, as_pairs

    def reply(messages: Sequence[Any], info: Any) -> str:
        prompt = "\n".join(t for _, t in as_pairs(messages))
        schema = (info.response_format or {}).get("json_schema", {}).get("name")
        return json.dumps(_answer(prompt, schema)) if schema else "Noted."

    return Model(FunctionModel(reply), provider="fake", model="fake", fake=True)


def _turn(i: int) -> Any:
    from cogarch.core.memory import TurnRecord

    return TurnRecord(i, f"turn {i}: the weather in Lisbon changed, remember it", f"noted {i}")


async def _timed(repeat: int, make: Callable[[], Awaitable[None]]) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await make()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


async def _two_writes(
    repeat: int, fork: Callable[[], Any], write: Callable[[Any, int], Awaitable[None]]
) -> tuple[float, float]:
    """Median times of the first and the second write in fresh forks."""
    first, second = [], []
    for _ in range(repeat):
        branch = fork()
        for n, times in enumerate((first, second)):
            start = time.perf_counter()
            await write(branch, n)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(first), statistics.median(second)


Row = tuple[float, float, float, float]


async def module_row(kind: str, n: int, repeat: int) -> Row:
    from cogarch.core.memory import MemoryContext
    from cogarch.memory import WorkingMemory, build_memory

    model = _fake()
    ctx = MemoryContext(model=lambda name: model, seed=1)
    retrieval = {"store": STORE[0], "search": SEARCH[0]}
    params = MODULES[kind] | (retrieval if "embedder" in MODULES[kind] else {})
    module = build_memory(kind, params)
    if isinstance(module, WorkingMemory):
        for i in range(n):
            module.apply("append_in_memory", {"section_title": "Active Notes", "lines": [f"- {i}"]})
    else:
        await module.ingest_many([_turn(i) for i in range(1, n + 1)], ctx)

    async def fork() -> None:
        module.fork()

    async def write(branch: Any, k: int) -> None:
        if isinstance(branch, WorkingMemory):
            branch.apply("append_in_memory", {"section_title": "Active Notes", "lines": ["- b"]})
        else:
            await branch.ingest(_turn(n + 1 + k), ctx)

    median, p95 = await _timed(repeat, fork)
    first, second = await _two_writes(max(5, repeat // 10), module.fork, write)
    return median, p95, first, second


async def agent_row(n: int, repeat: int) -> Row:
    from cogarch.models import Providers
    from cogarch.workspace import build_agent, load_agent_spec

    providers = Providers()
    providers.register("fake", _fake())
    spec = load_agent_spec("raw_turns", {"embedder": "hash"})
    part = spec.memory["turns"]
    spec.memory["turns"] = type(part).model_validate(
        {**part.model_dump(), "store": STORE[0], "search": SEARCH[0]}
    )
    agent = build_agent(spec, providers.get, provider="fake")
    for i in range(1, n + 1):
        await agent.respond(f"turn {i}: the weather in Lisbon changed, remember it")

    async def fork() -> None:
        agent.fork()

    async def respond(branch: Any, k: int) -> None:
        await branch.respond(f"What changed in Lisbon? ({k})")

    median, p95 = await _timed(repeat, fork)
    first, second = await _two_writes(max(5, repeat // 10), agent.fork, respond)
    return median, p95, first, second


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--modules", nargs="+", default=[*MODULES, "agent"])
    parser.add_argument("--store", default="chroma", choices=["chroma", "memory"])
    parser.add_argument("--search", default="dense", choices=["dense", "lexical", "hybrid"])
    args = parser.parse_args(argv)
    STORE[0], SEARCH[0] = args.store, args.search
    load = os.getloadavg()[0]
    print(
        f"{args.store} store, {args.search} search; load average {load:.1f} on "
        f"{os.cpu_count()} cores; times in ms"
    )
    print(
        f"{'what':<16} {'turns':>6} {'fork p50':>9} {'fork p95':>9} "
        f"{'1st write p50':>14} {'2nd write p50':>14}"
    )
    for kind in args.modules:
        for n in args.sizes:
            job = agent_row(n, args.repeat) if kind == "agent" else module_row(kind, n, args.repeat)
            row = asyncio.run(job)
            print(
                f"{kind:<16} {n:>6} {row[0]:>9.3f} {row[1]:>9.3f} {row[2]:>14.3f} {row[3]:>14.3f}"
            )


if __name__ == "__main__":
    main()
