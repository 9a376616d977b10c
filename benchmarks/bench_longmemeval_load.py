"""LongMemEval loading time against haystack size: one question of N sessions in the official
format, written to a temporary file and read by ``load_longmemeval``. A linear loader keeps the
milliseconds per thousand sessions flat as N grows.

Run from the repository root::

    python benchmarks/bench_longmemeval_load.py --sessions 10000 20000 40000
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from cogarch.tasks.longmemeval.data import load_longmemeval


def question(sessions: int) -> dict[str, object]:
    """One question whose haystack holds ``sessions`` two-turn sessions."""
    return {
        "question_id": "q1",
        "question_type": "multi-session",
        "question": "Where did I go?",
        "answer": "Lisbon",
        "question_date": "2023/05/30 (Tue) 23:40",
        "haystack_session_ids": [f"s{i}" for i in range(sessions)],
        "haystack_dates": ["2023/05/20 (Sat) 10:02"] * sessions,
        "haystack_sessions": [
            [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
        ]
        * sessions,
        "answer_session_ids": ["s1"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[10_000, 20_000, 40_000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "data.json"
        print("sessions  seconds  ms per 1,000 sessions")
        for n in args.sessions:
            path.write_text(json.dumps([question(n)]), encoding="utf-8")
            start = time.perf_counter()
            load_longmemeval(path)
            took = time.perf_counter() - start
            print(f"{n:>8,}  {took:7.2f}  {1000 * took * 1000 / n:8.1f}")


if __name__ == "__main__":
    main()
