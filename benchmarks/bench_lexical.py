"""The lexical (BM25) index alone: incremental ingestion, fork and query against its size.

Run from the repository root::

    python benchmarks/bench_lexical.py [--sizes 1000 5000 20000] [--batch 20] [--queries 200]

Synthetic dialogue lines are added ``--batch`` at a time (a session's turns reach a store
together) to a ``LexicalIndex``; the time per record should stay flat as the index grows
(ingestion linear in the conversation's length). For comparison, ``bm25s`` rebuilding its batch
index after every batch would cost the sum of its index times over the growing corpus:
reported as its time per record if it did so (it grows with the size). Then ``fork()`` is timed
(median of ``--queries``; it should not grow with the size), and a query (tokenising it,
scoring, the best 100 ranked) on the trunk and on a fork.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogarch.memory.retrieval.lexical import LexicalIndex

_NAMES = ["Caroline", "Melanie", "Jon", "Gina", "Maria", "John"]
_VOCABULARY = (
    "painted mural support group adoption agency pottery class camping lake stars kids "
    "counseling job interview guitar concert museum trip Paris dance studio marathon garden "
    "roses dog cat violin recipe bakery sunrise beach hiking festival library book"
)
_WORDS = _VOCABULARY.split()


def lines(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        f"[1:56 pm on {rng.randint(1, 28)} May, 2023] {rng.choice(_NAMES)}: "
        + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 18)))
        + f" ({i})"
        for i in range(n)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args(argv)
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    print(
        f"{'records':>8} {'add ms/rec':>11} {'bm25s rebuild ms/rec':>21} {'fork us':>8} "
        f"{'query ms':>9} {'fork query ms':>14}"
    )
    for size in args.sizes:
        texts = lines(size, size)
        index = LexicalIndex()
        start = time.perf_counter()
        for offset in range(0, size, args.batch):
            chunk = texts[offset : offset + args.batch]
            index.add([f"d{offset + i}" for i in range(len(chunk))], chunk)
        add = (time.perf_counter() - start) * 1000 / size
        # one bm25s build of the whole corpus, and the rebuilds a batch index would need
        start = time.perf_counter()
        tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
        bm25s.BM25().index(tokens, show_progress=False)
        whole = time.perf_counter() - start
        rebuilds = sum(whole * (k / size) for k in range(args.batch, size + 1, args.batch))
        forks = []
        for _ in range(args.queries):
            start = time.perf_counter()
            index.fork()
            forks.append((time.perf_counter() - start) * 1e6)
        fork = index.fork()
        fork.add(["branch"], ["a branch adds its own line about the lake"])
        asked = lines(args.queries, size + 1)
        timed = {}
        for name, target in (("trunk", index), ("fork", fork)):
            start = time.perf_counter()
            for text in asked:
                target.ranked(text, limit=100)
            timed[name] = (time.perf_counter() - start) * 1000 / len(asked)
        print(
            f"{size:>8} {add:>11.4f} {rebuilds * 1000 / size:>21.2f} "
            f"{statistics.median(forks):>8.1f} {timed['trunk']:>9.2f} {timed['fork']:>14.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
