"""Embedders: the hashing embedder's geometry, the registry of names, cosine."""

from __future__ import annotations

import math

import pytest

from cogarch.errors import ConfigError
from cogarch.memory.retrieval.embeddings import (
    Embedder,
    HashEmbedder,
    MiniLMEmbedder,
    cosine,
    get_embedder,
)


def test_hash_vectors_are_deterministic_unit_vectors_of_256_floats() -> None:
    embedder = HashEmbedder()
    first = embedder.embed(["The cat sat on the mat."])
    again = HashEmbedder().embed(["the CAT sat on the mat"])
    assert embedder.dim == 256 and len(first[0]) == 256
    assert first == again  # case and punctuation do not matter; no per-process salt
    assert math.isclose(math.fsum(x * x for x in first[0]), 1.0)


def test_hash_similarity_follows_shared_words() -> None:
    close, near, far = HashEmbedder().embed(
        ["my next guess is the letter e", "my next guess is the letter a", "stock markets fell"]
    )
    assert cosine(close, near) > 0.8
    assert abs(cosine(close, far)) < 0.3
    assert cosine(close, near) > cosine(close, far)


def test_empty_text_still_gets_a_unit_vector() -> None:
    [vector] = HashEmbedder(dim=16).embed(["?!"])
    assert vector[0] == 1.0 and sum(vector) == 1.0
    assert HashEmbedder().embed([]) == []


def test_get_embedder_by_name_and_unknown_names_list_the_valid_ones() -> None:
    assert isinstance(get_embedder("hash"), HashEmbedder)
    minilm = get_embedder("minilm")
    assert isinstance(minilm, MiniLMEmbedder) and minilm.dim == 384
    assert isinstance(minilm, Embedder) and isinstance(HashEmbedder(), Embedder)
    assert MiniLMEmbedder().embed([]) == []  # nothing to embed: the model is not needed
    with pytest.raises(ConfigError, match="unknown embedder 'bert'; valid names: hash, minilm"):
        get_embedder("bert")
    with pytest.raises(ConfigError, match="at least 8"):
        HashEmbedder(dim=4)


def test_cosine() -> None:
    assert cosine([1.0, 0.0], [2.0, 0.0]) == pytest.approx(1.0)
    assert cosine([1.0, 0.0], [0.0, 3.0]) == 0.0
    assert cosine([0.0, 0.0], [1.0, 1.0]) == 0.0
