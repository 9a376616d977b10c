"""Clusters and vector rankings do not depend on the machine's BLAS kernel.

OpenBLAS picks its kernel by CPU unless ``OPENBLAS_CORETYPE`` names one (some machines set it,
with ``OPENBLAS_L2_SIZE``), and different kernels give a matrix product different last bits.
Each setting runs in its own process (OpenBLAS reads them when it loads), clustering concept
embeddings and ranking a vector store's entries; the answers must be equal to the bit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

_PROBE = r"""
import itertools
import json
import numpy as np
from cogarch.memory.long_term.clustering import consolidate, squared_distances
from cogarch.memory.retrieval.embeddings import hash_embedding
from cogarch.memory.retrieval.rows import Rows, unit

# lessons of household games, hash-embedded: sparse vectors full of near ties, the case where
# scikit-learn's k-means gave other clusters under another OpenBLAS kernel
verbs = ["go to", "take", "open", "close", "heat", "cool", "clean", "move"]
things = ["mug", "apple", "pan", "knife", "plate", "lettuce", "bread", "egg", "cup"]
places = ["fridge 1", "microwave 1", "sinkbasin 1", "countertop 2", "cabinet 3", "toilet 1"]
texts = [
    f"{v} the {t} from {p} before the goal"
    for v, t, p in itertools.islice(itertools.product(verbs, things, places), 0, None, 6)
]
vectors = [hash_embedding(t) for t in texts]
groups = [
    [list(g.members), g.representative] for seed in range(30) for g in consolidate(vectors, seed)
]
matrix = unit(vectors, len(vectors[0]))
rows = Rows(matrix.shape[1])
rows.append(matrix)
query = unit([hash_embedding("take the mug from the fridge 1")], matrix.shape[1])[0]
scores = rows.scores(np.arange(len(texts)), query)
print(json.dumps({
    "n": len(texts),
    "groups": groups,
    "scores": [float(s).hex() for s in scores],
    "order": np.argsort(-scores, kind="stable").tolist(),
    "distances": [float(d).hex() for d in squared_distances(matrix[:9], matrix[:3]).ravel()],
}))
"""

_SETTINGS = {
    "unset": {},
    "haswell": {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_L2_SIZE": "512"},
    "one thread": {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
}


def _probe(extra: dict[str, str]) -> dict[str, object]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENBLAS_", "OMP_", "MKL_", "GOTO"))
    }
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env={**env, **extra},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"the probe failed under {extra}:\n{done.stderr[-2000:]}", pytrace=False)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_clusters_and_rankings_are_the_same_under_every_blas_setting() -> None:
    answers = {name: _probe(extra) for name, extra in _SETTINGS.items()}
    first = answers["unset"]
    n: int = first["n"]  # type: ignore[assignment]
    groups: list[list[object]] = first["groups"]  # type: ignore[assignment]
    assert n == 72
    assert sum(len(members) for members, _ in groups) == 30 * n  # every concept, every seed
    for name, answer in answers.items():
        assert answer == first, f"the answer under '{name}' differs from the one with none set"
