"""The rows of an in-process vector store: unit vectors, appended and never changed.

A store shares its ``Rows`` with its forks. Appending past the end never disturbs a reader:
a store only ever reads the rows its own entries name, and a reader that took the array before
it grew still finds them there.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np

from .records import VectorStoreError


class Rows:
    """Append-only float32 rows of ``dim`` values, shared by a store and its forks."""

    __slots__ = ("dim", "matrix", "size")

    def __init__(self, dim: int, capacity: int = 64) -> None:
        self.dim = dim
        self.matrix = np.zeros((max(capacity, 1), dim), dtype=np.float32)
        self.size = 0

    def append(self, vectors: np.ndarray) -> int:
        """Store ``vectors`` after the last row; returns the first new row's number."""
        start, need = self.size, self.size + len(vectors)
        if need > len(self.matrix):
            grown = np.zeros((max(need, 2 * len(self.matrix)), self.dim), dtype=np.float32)
            grown[:start] = self.matrix[:start]
            self.matrix = grown  # readers holding the old array still find their rows in it
        self.matrix[start:need] = vectors
        self.size = need
        return start

    def scores(self, rows: np.ndarray, query: np.ndarray) -> np.ndarray:
        """The dot product of ``query`` with each of ``rows``, in their order (see
        :func:`dots`): over the whole matrix when those rows fill most of it, else over just
        them."""
        matrix, size = self.matrix, self.size
        if size <= 2 * len(rows):
            return dots(matrix[:size], query)[rows]
        return dots(matrix[rows], query)


_CHUNK = 4096
"""Rows multiplied at once by :func:`dots` (bounds its float64 temporaries)."""


def dots(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """The dot product of ``query`` with each row of ``matrix``, in float64, the same bits on
    every machine.

    A matrix product goes through the BLAS kernel, whose choice (by CPU, thread count or
    ``OPENBLAS_CORETYPE``) changes the last bits of a score and so the order of near ties.
    Here each product of two float32 values is exact in float64 and each row is summed by
    numpy's fixed-order reduction, so a ranking does not depend on the machine."""
    q = np.asarray(query, dtype=np.float64)
    out = np.empty(len(matrix), dtype=np.float64)
    for start in range(0, len(matrix), _CHUNK):
        block = matrix[start : start + _CHUNK]
        # float32 rows meet the float64 query: numpy widens them in its own buffers, so no
        # float64 copy of the block is made
        np.sum(np.multiply(block, q), axis=1, out=out[start : start + len(block)])
    return out


def unit(vectors: Any, dim: int) -> np.ndarray:
    """``vectors`` as float32 rows of length 1 (zero rows stay zero; unit rows are kept bit
    for bit), or ``VectorStoreError`` for the wrong shape."""
    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim != 2 or array.shape[1] != dim:
        raise VectorStoreError(
            f"got embeddings of shape {array.shape}, the store holds {dim}-dimensional vectors; "
            "give one vector per text, from the store's embedder"
        )
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[np.abs(norms - 1.0) < 1e-6] = 1.0
    return np.divide(array, norms, out=np.zeros_like(array), where=norms > 0)


def vector_block(rows: np.ndarray | list[list[float]]) -> dict[str, Any]:
    """Vectors as one base64 block of float32 rows, as a state saves them (JSON values)."""
    matrix = np.asarray(rows, dtype="<f4")
    return {
        "dtype": "float32",
        "rows": int(matrix.shape[0]) if matrix.ndim == 2 else 0,
        "base64": base64.b64encode(matrix.tobytes()).decode("ascii"),
    }
