"""Benchmark the Hangman vocabulary index: load and build times, then query latency.

Run from the repository root::

    python benchmarks/bench_candidates.py [--queries 1000] [--lengths 4 5 6 8 10] [--seed 0]

Boards are realistic: a random vocabulary word of the given length, a random subset of its
letters guessed, plus up to six random wrong guesses. Each query is timed twice, asking for
the candidate-set size (``--limit``) and for every fitting word. The last line compares one
query against a plain scan of the same-length words with ``is_consistent``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import string
import sys
import time
from pathlib import Path


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _summary(samples: list[float]) -> str:
    return " / ".join(
        f"{value:.3f}"
        for value in (
            statistics.fmean(samples),
            _percentile(samples, 0.5),
            _percentile(samples, 0.95),
            max(samples),
        )
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=1000, help="queries per pattern length")
    parser.add_argument("--lengths", type=int, nargs="+", default=[4, 5, 6, 8, 10])
    parser.add_argument("--limit", type=int, default=10, help="words asked for per query")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from cogarch.tasks.hangman.rules import reveal_pattern
    from cogarch.tasks.hangman.vocabulary import english_vocabulary, is_consistent

    started = time.perf_counter()
    vocabulary = english_vocabulary()
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    vocabulary.warm()
    built = time.perf_counter() - started
    print(f"vocabulary: {len(vocabulary):,} words, loaded from wordfreq in {loaded:.2f} s")
    print(f"index: every length built in {built * 1000:.0f} ms")

    rng = random.Random(args.seed)
    by_length: dict[int, list[str]] = {}
    for word in vocabulary.words:
        by_length.setdefault(len(word), []).append(word)

    print(f"\nlatency in ms over {args.queries} queries per length (mean / p50 / p95 / max)")
    print(f"{'length':>6} {'words':>7} {'hits':>7} | {'limit=' + str(args.limit):^27} | all words")
    for length in args.lengths:
        words = by_length.get(length, [])
        if not words:
            print(f"{length:>6}: no words of this length")
            continue
        boards = []
        for _ in range(args.queries):
            secret = rng.choice(words)
            letters = sorted(set(secret))
            guessed = set(rng.sample(letters, rng.randint(0, len(letters))))
            guessed |= set(rng.sample(string.ascii_lowercase, rng.randint(0, 6)))
            absent = {letter for letter in guessed if letter not in secret}
            boards.append((reveal_pattern(secret, guessed), absent))
        limited: list[float] = []
        unlimited: list[float] = []
        hits = 0
        for pattern, absent in boards:
            tick = time.perf_counter()
            vocabulary.consistent(pattern, absent, args.limit)
            limited.append((time.perf_counter() - tick) * 1000)
            tick = time.perf_counter()
            hits += len(vocabulary.consistent(pattern, absent))
            unlimited.append((time.perf_counter() - tick) * 1000)
        print(
            f"{length:>6} {len(words):>7,} {hits / len(boards):>7.0f} | "
            f"{_summary(limited)} | {_summary(unlimited)}"
        )

    words = by_length[5]
    pattern, absent = "_a__e", {"s", "t"}
    tick = time.perf_counter()
    scanned = [word for word in words if is_consistent(word, pattern, absent)]
    scan_ms = (time.perf_counter() - tick) * 1000
    tick = time.perf_counter()
    indexed = vocabulary.consistent(pattern, absent)
    index_ms = (time.perf_counter() - tick) * 1000
    assert scanned == indexed
    print(
        f"\nplain scan of {len(words):,} five-letter words for {pattern!r}: {scan_ms:.1f} ms; "
        f"index: {index_ms:.3f} ms ({len(indexed)} words)"
    )


if __name__ == "__main__":
    main()
