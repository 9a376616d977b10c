"""``python -m cogarch.tasks.genmem``: write a generated benchmark, or show a piece of it.

  python -m cogarch.tasks.genmem --seed 3 --target-tokens 8000 --show 2
  python -m cogarch.tasks.genmem --seed 3 --target-tokens 1500000 --jsonl > bench.jsonl
  python -m cogarch.tasks.genmem --seed 3 --target-tokens 1500000 --stats

``--show N`` prints the first N sessions as dated lines and every question with its answer
and evidence turns; ``--jsonl`` writes the knobs, every session and every question as JSON
Lines; ``--stats`` streams the whole history and prints its size and the peak memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections.abc import Sequence

from pydantic import ValidationError

from cogarch.errors import ConfigError
from cogarch.tokens import count_tokens

from .conversation import Conversation, write_jsonl
from .params import GeneratorParams


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m cogarch.tasks.genmem",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--target-tokens", type=int)
    p.add_argument("--sessions", type=int)
    p.add_argument("--turns-per-session", type=int, default=8)
    p.add_argument("--questions", type=int, default=40)
    p.add_argument("--distractor-share", type=float, default=0.3)
    what = p.add_mutually_exclusive_group()
    what.add_argument("--show", type=int, metavar="N", help="print the first N sessions")
    what.add_argument("--jsonl", action="store_true", help="write the benchmark as JSON Lines")
    what.add_argument("--stats", action="store_true", help="print its size and peak memory")
    return p


def _show(c: Conversation, sessions: int) -> None:
    for session in c.sessions(set(range(sessions))):
        print(f"### Session {session.session_id} ({session.date})")
        for t in session.turns:
            mark = "  <- evidence" if t.has_answer else ""
            print(f"[{t.turn_id}] {t.role}: {t.content}{mark}")
        print()
    print(f"### Questions (asked {c.plan.question_date})")
    for q in c.questions:
        print(f"[{q.question_id}] {q.question}")
        print(f"    answer: {q.answer}; evidence: {', '.join(q.evidence_turns) or 'none'}")


def _peak_rss_mb() -> float:
    """This process's peak resident memory in MB: the kernel's high-water mark of its own
    address space (``VmHWM``), which starts afresh at exec, where ``getrusage`` would report
    the larger peak of the process that started it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _stats(c: Conversation) -> None:
    start = time.perf_counter()
    sessions = turns = tokens = 0
    for session in c.sessions():
        sessions += 1
        for t in session.turns:
            turns += 1
            tokens += count_tokens(f"[{session.date}] {t.role}: {t.content}")
    peak = _peak_rss_mb()
    print(
        json.dumps(
            {
                "sessions": sessions,
                "turns": turns,
                "tokens": tokens,
                "questions": len(c.questions),
                "seconds": round(time.perf_counter() - start, 2),
                "peak_rss_mb": round(peak, 1),
            }
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    knobs = {
        "seed": args.seed,
        "target_tokens": args.target_tokens,
        "sessions": args.sessions,
        "turns_per_session": args.turns_per_session,
        "questions": args.questions,
        "distractor_share": args.distractor_share,
    }
    try:
        conversation = Conversation(GeneratorParams.model_validate(knobs))
    except (ValidationError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.jsonl:
        write_jsonl(conversation, sys.stdout)
    elif args.stats:
        _stats(conversation)
    else:
        _show(conversation, 1 if args.show is None else args.show)
    return 0
