"""The real memory libraries beside cogarch's re-implementations, on the same dialogues.

    python benchmarks/compare_baselines.py \
        --providers experiments/configs/baselines_lib_local.yaml \
        --provider local --hangman-seeds 1 --locomo /path/to/locomo.json --sessions 1 \
        --sct-results results/baselines_lib_local --out /tmp/compare.md

For each pair (``mem0_lib``/``mem0``, ``memoryos_lib``/``memoryos``) and each dialogue (scripted
Hangman games, the first sessions of a LoCoMo conversation), both modules take in the same
turns with the same model and retrieve for the same queries (see
``cogarch.experiments.papers.compare_baselines``); the tables of memories stored, retrieval
overlap per turn and model calls and tokens go to ``--out`` (Markdown) and stdout. With
``--sct-results``, the outcome class of each trial of a Hangman SCT run of the four agents is
tabulated too.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--providers", help="a YAML file whose 'providers' section defines them")
    parser.add_argument("--provider", default="local", help="the provider both modules use")
    parser.add_argument("--pairs", nargs="+", default=["mem0", "memoryos"])
    parser.add_argument("--hangman-seeds", type=int, nargs="*", default=[1])
    parser.add_argument("--locomo", help="a LoCoMo JSON file (read, never copied)")
    parser.add_argument("--conversation", type=int, default=0)
    parser.add_argument("--sessions", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=None, help="cut each dialogue")
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--sct-results", help="a results folder of a Hangman SCT run")
    parser.add_argument(
        "--sct-agents", nargs="+", default=["mem0", "mem0_lib", "memoryos", "memoryos_lib"]
    )
    parser.add_argument("--out", help="write the tables here (Markdown)")
    parser.add_argument("--cache", help="a response cache folder (a rerun replays its calls)")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args))
    print(report)
    return 0


async def run(args: argparse.Namespace) -> str:
    from cogarch.config import read_yaml
    from cogarch.experiments.papers.compare_baselines import (
        Dialogue,
        compare_dialogue,
        hangman_dialogue,
        locomo_dialogue,
    )
    from cogarch.experiments.running.fakes import run_fakes
    from cogarch.models.providers import Providers, load_providers_yaml

    section = {}
    if args.providers:
        data = read_yaml(args.providers)
        section = data.get("providers", data) if isinstance(data, dict) else {}
    providers = Providers(
        load_providers_yaml(section or {}), cache_dir=args.cache, fakes=run_fakes()
    )
    model = providers.get(args.provider, args.seed)

    dialogues: list[Dialogue] = [hangman_dialogue(s) for s in args.hangman_seeds]
    if args.locomo:
        dialogues.append(
            locomo_dialogue(args.locomo, conversation=args.conversation, sessions=args.sessions)
        )
    if args.max_turns:
        dialogues = [
            Dialogue(d.name, d.turns[: args.max_turns], d.queries[: args.max_turns])
            for d in dialogues
        ]
    turn_rows, summaries = [], []
    for dialogue in dialogues:
        for pair in args.pairs:
            began = time.perf_counter()
            rows, summary = await compare_dialogue(dialogue, pair, model, seed=args.seed)
            turn_rows += rows
            summaries.append(summary)
            print(
                f"{dialogue.name} {pair}: {len(rows)} turns in {time.perf_counter() - began:.0f} s",
                file=sys.stderr,
                flush=True,
            )
            if args.out:  # what is done so far survives an interrupted run
                Path(args.out).write_text(
                    tables(args, model.model, summaries, turn_rows) + "\n", encoding="utf-8"
                )
    await model.aclose()
    report = tables(args, model.model, summaries, turn_rows)
    if args.out:
        Path(args.out).write_text(report + "\n", encoding="utf-8")
    return report


def tables(args: argparse.Namespace, model: str, summaries: list, turn_rows: list) -> str:
    from cogarch.experiments.papers.compare_baselines import markdown, outcome_rows

    parts = [
        f"## Memories stored and model use per dialogue (provider {args.provider}, model {model})",
        markdown(summaries),
        "## Per turn: model calls, tokens, retrieved entries and their overlap",
        markdown(turn_rows),
    ]
    errors = [f"- {s.dialogue} {s.pair}: {e}" for s in summaries for e in s.errors]
    if errors:
        parts += ["## Turns a module could not take in", *errors]
    if args.sct_results:
        parts += [
            "## SCT outcome class per trial",
            markdown(outcome_rows(args.sct_results, args.sct_agents)),
        ]
    return "\n\n".join(parts)


if __name__ == "__main__":
    sys.exit(main())
