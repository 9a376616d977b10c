"""Benchmark the trial viewer on a big run: index, list and filter 5,000 trials, and render a
trial file of several MB.

Run from the repository root (needs the ``view`` extra)::

    python benchmarks/bench_viewer.py [--trials 5000] [--turns 40] [--state-kb 80]

The trials are copies of one real fake-model trial (the Hangman fakes config) under 20
agents with outcomes spread over the SCT classes; the big trial repeats its turns ``--turns``
times with a private state of ``--state-kb`` kB that changes a little every turn.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cogarch.core.records import TrialRecord
from cogarch.experiments.results.trial_files import iter_trials, read_trial, write_trial
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.viewer.index import Query, TrialIndex
from cogarch.experiments.viewer.render import render
from cogarch.experiments.viewer.trial_view import trial_view
from cogarch.tasks.sct.evaluator import OUTCOMES

REPO = Path(__file__).resolve().parents[1]


def one_trial(where: Path) -> TrialRecord:
    config = load_run_config(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")
    config = RunConfig.model_validate(
        {**config.model_dump(), "results_dir": where, "trials": 1, "agents": config.agents[1:2]}
    )
    asyncio.run(Runner(config, progress=False).run())
    return next(r for _, r in iter_trials(where) if isinstance(r, TrialRecord))


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=5000)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--state-kb", type=int, default=80)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = one_trial(Path(tmp) / "seed")
        run = Path(tmp) / "big"
        for i in range(args.trials):
            outcome = OUTCOMES[i % len(OUTCOMES)]
            evaluation = base.evaluation.model_copy(update={"outcome": outcome})
            update = {"agent": f"agent_{i % 20:02d}", "trial": i // 20, "evaluation": evaluation}
            write_trial(run, base.model_copy(update=update))
        start = time.perf_counter()
        index = TrialIndex([run])
        load = time.perf_counter() - start
        print(f"{args.trials} trials: first index (read every file) {load:.2f} s")
        print(f"refresh with nothing changed: {best_of(lambda: index.refresh(force=True)):.3f} s")
        queries = {
            "list page 1": Query(),
            "filter outcome": Query(outcome="leakage"),
            "filter agent+status": Query(agent="agent_07", status="complete"),
            "text search (hit)": Query(q="secret word"),
            "text search (miss)": Query(q="zebra-crossing"),
            "counts table": None,
        }
        for name, query in queries.items():
            if query is None:
                took = best_of(index.counts)
            else:
                took = best_of(lambda q=query: index.select(q))
            print(f"  {name:<22} {took * 1000:7.1f} ms")
        page = best_of(lambda: render_list(index))
        print(f"  {'run page HTML':<22} {page * 1000:7.1f} ms")

        turns = []
        filler = "- note: " + "lorem ipsum dolor sit amet " * 3 + "\n"
        lines = args.state_kb * 1024 // len(filler)
        for n in range(1, args.turns + 1):
            t = base.turns[(n - 1) % len(base.turns)]
            state = "".join(filler.replace("note", f"note {i}") for i in range(lines))
            state += f"- Secret word: <secret>range</secret>\n- turn {n}\n"
            turns.append(t.model_copy(update={"turn": n, "private_state": state}))
        big = base.model_copy(update={"turns": turns, "agent": "big_agent", "trial": 0})
        path = write_trial(Path(tmp) / "one", big)
        size_mb = path.stat().st_size / 2**20
        read = best_of(lambda: read_trial(path), 3)
        view = best_of(lambda: trial_view(read_trial(path)), 3)
        html = best_of(
            lambda: render(
                "trial.html", root="/", home="/", mode="live", v=trial_view(read_trial(path))
            ),
            3,
        )
        print(
            f"trial file of {size_mb:.1f} MB ({args.turns} turns): read {read:.3f} s, "
            f"read+diffs {view:.3f} s, read+diffs+HTML {html:.3f} s"
        )
        print("per-query times are the best of 5 runs; nothing is cached between them")


def render_list(index: TrialIndex) -> str:
    from cogarch.experiments.viewer.app import run_page_context

    return render(
        "run.html",
        root="/",
        home="/",
        mode="live",
        **run_page_context(index, Query(outcome="leakage")),
    )


if __name__ == "__main__":
    main()
