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
        """The dot product of ``query`` with each of ``rows``, in their order: one product
        over the whole matrix when those rows fill most of it, else over just them."""
        matrix, size = self.matrix, self.size
        if size <= 2 * len(rows):
            return (matrix[:size] @ query)[rows]
        return matrix[rows] @ query


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


__all__ = ["Rows", "unit", "vector_block"]
