"""Time the conceptual memory's consolidation: k-means over N concept embeddings.

Run from the repository root::

    python benchmarks/bench_consolidation.py [--sizes 10 50 100 400] [--dim 384] [--rounds 5]

Before each game the Episodex conceptual memory clusters its N stored concepts into
k = max(1, floor(sqrt(N))) clusters (cogarch's own k-means, 10 restarts, seeded, with no BLAS
call so that every machine finds the same clusters) and picks the member nearest each
centroid. N grows by a few concepts per won game, so a long curriculum reaches a few hundred.
For each N this prints the mean and worst wall time and the mean CPU time of one consolidation
on random unit vectors of ``--dim`` dimensions (384: MiniLM's; embedding time is not included),
beside scikit-learn's ``KMeans`` on one thread (BLAS distances, whose results depend on the
kernel) for comparison.

The target is under 500 ms per consolidation at N = 400: it runs once per game, whose model
calls take seconds at best. It is judged on CPU time, which a shared machine inflates far less
than wall time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
from sklearn.cluster import KMeans
from threadpoolctl import threadpool_limits

from cogarch.memory.long_term.clustering import cluster_count, consolidate

TARGET_MS = 500.0


def unit_vectors(n: int, dim: int, seed: int) -> list[list[float]]:
    data = np.random.default_rng(seed).normal(size=(n, dim))
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    return data.tolist()


def timed(fn: object, rounds: int) -> tuple[float, float, float]:
    """Mean and worst wall time, and mean CPU time, of ``rounds`` calls, in ms."""
    samples, cpu = [], []
    for _ in range(rounds):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()  # type: ignore[operator]
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.mean(samples), max(samples), statistics.mean(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 50, 100, 400])
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    print(
        f"{'N':>5} {'k':>3}   cogarch ms: wall mean /  max /   CPU"
        f"   scikit-learn ms: wall mean /  max /   CPU"
    )
    worst = worst_wall = 0.0
    for n in args.sizes:
        vectors = unit_vectors(n, args.dim, seed=n)
        k = cluster_count(n)
        mean, top, cpu = timed(lambda v=vectors: consolidate(v, seed=1), args.rounds)

        def pooled(v: list[list[float]] = vectors, k: int = k) -> None:
            if k > 1:
                with threadpool_limits(limits=1):
                    KMeans(n_clusters=k, n_init=10, random_state=1).fit(np.asarray(v))

        pool_mean, pool_top, pool_cpu = timed(pooled, args.rounds)
        print(
            f"{n:>5} {k:>3} {mean:>24.1f} / {top:>6.1f} / {cpu:>5.1f}"
            f" {pool_mean:>29.1f} / {pool_top:>6.1f} / {pool_cpu:>5.1f}"
        )
        if n == max(args.sizes):
            worst, worst_wall = cpu, mean
    verdict = "meets" if worst < TARGET_MS else "misses"
    print(
        f"largest N: {worst:.1f} ms of CPU per consolidation ({verdict} the {TARGET_MS:.0f} ms "
        f"target; {worst_wall:.1f} ms wall clock at load average {os.getloadavg()[0]:.1f})"
    )
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
