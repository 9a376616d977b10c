"""Write a file of synthetic data in LongMemEval's published format (``synthetic_typed``).

It is not LongMemEval: it lets the LongMemEval configs run where the published data cannot be
downloaded, with questions of every type in S-sized haystacks by default::

    python -m cogarch.tasks.longmemeval.write_synthetic data/longmemeval_synthetic_s.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from cogarch.io import atomic_write_text

from .synthetic_typed import typed_longmemeval


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m cogarch.tasks.longmemeval.write_synthetic",
        description=(
            "Write synthetic data in LongMemEval's format (not LongMemEval): questions of "
            "every type, each with a haystack of dated sessions; the defaults give S-sized "
            "haystacks (50 sessions of 10 turns, about 115k tokens)."
        ),
    )
    parser.add_argument("out", type=Path, help="the JSON file to write")
    parser.add_argument("--questions-per-type", type=int, default=4, help="default 4")
    parser.add_argument("--abstention", type=int, default=2, help="abstention questions, default 2")
    parser.add_argument("--sessions", type=int, default=50, help="per haystack, default 50")
    parser.add_argument("--turns", type=int, default=10, help="turns per session, default 10")
    parser.add_argument(
        "--words",
        type=int,
        default=45,
        help="padding words a user turn (x4 assistant's), default 45",
    )
    parser.add_argument("--pool", type=int, default=300, help="shared filler sessions, default 300")
    parser.add_argument("--seed", type=int, default=0, help="default 0")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    for name in ("questions_per_type", "sessions", "pool"):
        if getattr(args, name) < 1:
            flag = "--" + name.replace("_", "-")
            print(f"error: {flag} is {getattr(args, name)}; give 1 or more", file=sys.stderr)
            return 2
    for name in ("abstention", "words"):
        if getattr(args, name) < 0:
            print(f"error: --{name} is {getattr(args, name)}; give 0 or more", file=sys.stderr)
            return 2
    try:
        data = typed_longmemeval(
            args.questions_per_type,
            sessions=args.sessions,
            turns_per_session=args.turns,
            turn_words=args.words,
            abstention=args.abstention,
            pool=args.pool,
            seed=args.seed,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out, json.dumps(data))
    sessions = sum(len(q["haystack_sessions"]) for q in data)
    print(f"wrote {len(data)} questions ({sessions} sessions) to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
