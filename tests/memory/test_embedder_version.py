"""An embedder's ``version`` (a model's precision) travels with the vectors it made.

A store saves it beside its vectors; a state saved under another version is loaded with every
record embedded again by the loading store's embedder (never a mix of the two), and the saved
memories of LongMemEval, keyed by a fresh agent's state, get another key.
"""

from __future__ import annotations

import numpy as np
import pytest

from cogarch.errors import ConfigError
from cogarch.memory.retrieval.embeddings import HashEmbedder, MiniLMEmbedder, fast_bfloat16
from cogarch.memory.retrieval.vector_store import VectorStore
from cogarch.tasks.longmemeval.memory_cache import MemoryCache


class Versioned(HashEmbedder):
    """Hash vectors turned by a fixed sign pattern: other vectors for the same texts."""

    name = "hash"

    def __init__(self, version: str, flip: bool) -> None:
        super().__init__()
        self.version = version
        self.flip = flip

    def embed(self, texts: list[str]) -> list[list[float]]:
        vectors = super().embed(texts)
        if not self.flip:
            return vectors
        return [[-v if i % 2 else v for i, v in enumerate(row)] for row in vectors]


TEXTS = ["my parrot is called Pixel", "I run marathons in Oslo", "dinner: rice and beans"]


def store_of(embedder: Versioned) -> VectorStore:
    store = VectorStore(embedder)
    store.add([f"r{i}" for i in range(len(TEXTS))], TEXTS)
    return store


def test_a_state_of_another_version_is_embedded_again_by_the_loading_store() -> None:
    old, new = Versioned("v1", False), Versioned("v2", True)
    saved = store_of(old).save_state()
    assert saved["embedder_version"] == "v1"

    same = VectorStore(Versioned("v1", True))  # same version: the saved vectors are kept
    same.load_state(saved)
    np.testing.assert_allclose(same._export()[1], old.embed(TEXTS), atol=1e-6)

    other = VectorStore(new)
    other.load_state(saved)
    np.testing.assert_allclose(other._export()[1], new.embed(TEXTS), atol=1e-6)
    assert other.save_state()["embedder_version"] == "v2"
    assert [r["text"] for r in other.save_state()["records"]] == TEXTS


def test_an_unversioned_embedder_saves_no_version() -> None:
    store = VectorStore(HashEmbedder())
    store.add(["a"], ["some words here"])
    assert "embedder_version" not in store.save_state()


def test_saved_memories_are_keyed_by_the_embedder_version() -> None:
    one = VectorStore(Versioned("minilm/float32", False)).save_state()
    two = VectorStore(Versioned("minilm/bfloat16", False)).save_state()
    assert MemoryCache.key("d", {"memory": one}, "m") != MemoryCache.key("d", {"memory": two}, "m")
    assert MemoryCache.key("d", {"memory": one}, "m") == MemoryCache.key("d", {"memory": one}, "m")


def test_minilm_names_its_precision_without_loading_the_model() -> None:
    assert MiniLMEmbedder(precision="float32").version == "minilm/float32"
    assert MiniLMEmbedder(precision="bfloat16").version == "minilm/bfloat16"
    assert MiniLMEmbedder().version in ("minilm/float32", "minilm/bfloat16")
    with pytest.raises(ConfigError, match="unknown precision 'half'"):
        MiniLMEmbedder(precision="half")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("amx", "avx512_bf16", "expected"),
    [(True, False, "bfloat16"), (False, True, "bfloat16"), (False, False, "float32")],
)
def test_auto_precision_takes_bfloat16_where_the_cpu_has_amx_or_avx512_bf16(
    monkeypatch: pytest.MonkeyPatch, amx: bool, avx512_bf16: bool, expected: str
) -> None:
    import torch

    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: amx)
    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda: avx512_bf16)
    assert fast_bfloat16() is (expected == "bfloat16")
    assert MiniLMEmbedder().version == f"minilm/{expected}"
    assert MiniLMEmbedder(precision="float32").version == "minilm/float32"  # the off switch
