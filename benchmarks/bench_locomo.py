"""The framework's own cost on LoCoMo: per question, and ingestion against session length.

Run from the repository root::

    python benchmarks/bench_locomo.py [--records 600 5000] [--questions 100]
        [--agent raw_turns] [--embedder hash] [--store chroma] [--search dense]
        [--session-turns 750 1500 3000]

Per question: a synthetic conversation (``cogarch.tasks.locomo.synthetic``; LoCoMo's own data
is not shipped) of ``--records`` turns is played as one trial of the real task, with a results
directory, so the trial logs every answer and snapshots the agent as a run does. The reader
is the zero-latency fake ``locomo.reader``. Each question's cycle (from one question's start to
the next's: the fork, the answer, scoring, the log line) is timed, and its ``respond`` time (the
agent's answer, retrieval included, as the trial records it in ``latency_s``) is subtracted:
what remains is the framework around the answer. The raw-turn memory stores one record per
turn, so the records are the turns. Targets: under 20 ms per question at 600 records, under
50 ms at 5,000.

Ingestion: one session of each ``--session-turns`` length is taken in by a fresh agent
(history and memory, embedded in one batch per module); seconds per turn should stay flat as
the session grows.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGETS_MS = {600: 20.0, 5000: 50.0}


STORE = ["chroma"]
"""The retrieval modules' vector store (``--store``)."""
SEARCH: list[Any] = ["dense"]
"""The retrieval modules' search (``--search``): a mode name or a ``search`` mapping."""
QUERY = ["question"]
"""What the retrieval specialists search for: ``question`` (the default) or ``input``."""


def retrieval_spec(agent: str, embedder: str) -> Any:
    """The ready-made spec ``agent`` with its retrieval modules on the ``--store`` store,
    searching as ``--search`` says, its retrieval specialists for ``QUERY``."""
    from cogarch.workspace import load_agent_spec
    from cogarch.workspace.spec import ComponentSpec

    spec = load_agent_spec(agent, {"embedder": embedder})
    for name, part in spec.memory.items():
        if "embedder" in part.params():
            data = {**part.model_dump(exclude_none=True), "store": STORE[0], "search": SEARCH[0]}
            spec.memory[name] = ComponentSpec.model_validate(data)
    for name, part in spec.specialists.items():
        if part.kind == "retrieval":
            data = {**part.model_dump(exclude_none=True), "query": QUERY[0]}
            spec.specialists[name] = ComponentSpec.model_validate(data)
    return spec


def spec_file(folder: Path, agent: str, embedder: str) -> str:
    import yaml

    path = folder / f"{agent}.yaml"
    data = retrieval_spec(agent, embedder).model_dump(mode="json", by_alias=True, exclude_none=True)
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


def _config(data: Path, results: Path, agent: str, embedder: str) -> Any:
    from cogarch.experiments.running.run_config import RunConfig

    return RunConfig.model_validate(
        {
            "name": "bench_locomo",
            "task": {"kind": "locomo", "data": str(data)},
            "trials": 1,
            "results_dir": str(results),
            "cache": False,
            "providers": {"reader": {"kind": "fake", "fake": "locomo.reader"}},
            "agents": [
                {
                    "name": agent,
                    "agent": spec_file(results.parent, agent, embedder),
                    "provider": "reader",
                }
            ],
        }
    )


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def timed_trial(
    data: Path, trial: int, agent: str, embedder: str, folder: Path
) -> tuple[Any, list[float], Any]:
    """Play trial ``trial`` of the LoCoMo file ``data`` (its ``trial``-th conversation) with
    results under ``folder``; returns the trial's output, each question's framework time in
    ms (its cycle less the agent's answer) and the agent built for it."""
    from cogarch.core.task import TrialContext
    from cogarch.experiments.running.worker import RunSetup
    from cogarch.tasks.locomo import task as task_mod
    from cogarch.workspace.spec import build_agent

    setup = RunSetup(_config(data, folder / "run", agent, embedder))
    built: list[Any] = []

    def make() -> Any:
        built.append(
            build_agent(
                setup.specs[agent], setup.providers.get, name=agent, provider="reader", seed=1
            )
        )
        return built[-1]

    ctx = TrialContext(agent, trial, 1, make, setup.providers.get, None, folder / "state")
    starts: list[float] = []
    real_ask = task_mod.ask

    async def timed(*args: Any) -> Any:
        starts.append(time.perf_counter())
        return await real_ask(*args)

    task_mod.ask = timed  # type: ignore[assignment]
    try:
        out = await setup.task.run_trial(ctx)
        ended = time.perf_counter()
    finally:
        task_mod.ask = real_ask  # type: ignore[assignment]
    answers = out.payload.answers
    cycles = [b - a for a, b in itertools.pairwise(starts)] + [ended - starts[-1]]
    framework = [(c - a.latency_s) * 1000 for c, a in zip(cycles, answers, strict=True)]
    return out, framework, built[0]


async def per_question(records: int, questions: int, agent: str, embedder: str) -> dict[str, Any]:
    from cogarch.tasks.locomo.synthetic import synthetic_locomo

    per_session = min(records, 100 if records > 1000 else 30)
    sample = synthetic_locomo(
        1,
        sessions=records // per_session,
        turns_per_session=per_session,
        questions=questions,
        seed=records,
    )
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "locomo.json"
        data.write_text(json.dumps(sample), encoding="utf-8")
        began = time.perf_counter()
        out, framework, built = await timed_trial(data, 0, agent, embedder, Path(tmp))
        ended = time.perf_counter()
        answers = out.payload.answers
        stored = sum(len(getattr(m, "store", ())) for m in built.memory.values())
        return {
            "records": stored,
            "questions": len(answers),
            "framework_mean": statistics.fmean(framework),
            "framework_p50": statistics.median(framework),
            "framework_p95": _percentile(framework, 0.95),
            "respond_mean": statistics.fmean(a.latency_s for a in answers) * 1000,
            "ingest_s": out.payload.ingest.get("seconds", 0.0),
            "trial_s": ended - began,
        }


async def ingestion(turns: int, agent: str, embedder: str) -> float:
    """Seconds per turn to take in one session of ``turns`` turns."""
    from cogarch.models import Model, Providers
    from cogarch.models.fakes import pairs_model
    from cogarch.tasks.locomo.data import load_locomo
    from cogarch.tasks.locomo.ingest import ingest_turns
    from cogarch.tasks.locomo.reader import reader
    from cogarch.tasks.locomo.synthetic import synthetic_locomo
    from cogarch.workspace import build_agent

    sample = synthetic_locomo(1, sessions=1, turns_per_session=turns, questions=1, seed=turns)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "locomo.json"
        data.write_text(json.dumps(sample), encoding="utf-8")
        [conv] = load_locomo(data)
    providers = Providers()
    providers.register(
        "reader", Model(pairs_model(reader), provider="reader", model="r", fake=True)
    )
    built = build_agent(
        retrieval_spec(agent, embedder),
        providers.get,
        provider="reader",
    )
    start = time.perf_counter()
    await ingest_turns(built, conv.sessions[1])
    return (time.perf_counter() - start) / turns


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, nargs="+", default=[600, 5000])
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--agent", default="raw_turns")
    parser.add_argument("--embedder", default="hash", choices=["hash", "minilm"])
    parser.add_argument("--store", default="chroma", choices=["chroma", "memory"])
    parser.add_argument("--search", default="dense", choices=["dense", "lexical", "hybrid"])
    parser.add_argument("--session-turns", type=int, nargs="+", default=[750, 1500, 3000])
    args = parser.parse_args(argv)
    STORE[0], SEARCH[0] = args.store, args.search
    print(
        f"agent {args.agent}, {args.embedder} embedder, {args.store} store, {args.search} "
        "search, zero-latency fake "
        "reader, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"{'records':>8} {'questions':>9} {'framework mean':>15} {'p50':>8} {'p95':>8} "
        f"{'respond mean':>13} {'ingest':>8} {'target':>8}"
    )
    for n in args.records:
        row = asyncio.run(per_question(n, args.questions, args.agent, args.embedder))
        target = TARGETS_MS.get(n)
        verdict = "-" if target is None else ("met" if row["framework_mean"] < target else "MISSED")
        print(
            f"{row['records']:>8} {row['questions']:>9} {row['framework_mean']:>12.2f} ms "
            f"{row['framework_p50']:>5.2f} ms {row['framework_p95']:>5.2f} ms "
            f"{row['respond_mean']:>10.2f} ms {row['ingest_s']:>6.1f} s {verdict:>8}"
        )
    print(f"\n{'session turns':>13} {'ms per turn':>12}")
    for turns in args.session_turns:
        per_turn = asyncio.run(ingestion(turns, args.agent, args.embedder))
        print(f"{turns:>13} {per_turn * 1000:>12.3f}")


if __name__ == "__main__":
    main()
