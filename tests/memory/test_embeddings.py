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


def test_a_text_without_words_gets_the_zero_vector_and_similarity_zero() -> None:
    vectors = HashEmbedder(dim=16).embed(["?!", "", "a b c"])  # words of 1-2 letters are dropped
    assert vectors == [[0.0] * 16] * 3
    assert cosine(vectors[0], HashEmbedder(dim=16).embed(["letter"])[0]) == 0.0
    assert HashEmbedder().embed([]) == []


def test_words_are_cut_to_six_letters_and_adjacent_pairs_count() -> None:
    [stem, longer] = HashEmbedder().embed(["guessed letters", "guesses lettering"])
    assert stem == longer
    [reordered] = HashEmbedder().embed(["letters guessed"])
    assert cosine(stem, reordered) < 1.0  # the word pair differs


def test_the_vectors_are_the_ones_the_acc_gate_threshold_was_tuned_on() -> None:
    [vector] = HashEmbedder().embed(["nginx 502 errors"])
    nonzero = {i: round(x, 6) for i, x in enumerate(vector) if x}
    assert nonzero == {98: -0.447214, 110: -0.447214, 148: -0.447214, 158: 0.447214, 202: -0.447214}


def test_get_embedder_by_name_and_unknown_names_list_the_valid_ones() -> None:
    assert isinstance(get_embedder("hash"), HashEmbedder)
    minilm = get_embedder("minilm")
    assert isinstance(minilm, MiniLMEmbedder) and minilm.dim == 384
    assert isinstance(minilm, Embedder) and isinstance(HashEmbedder(), Embedder)
    assert MiniLMEmbedder().embed([]) == []  # nothing to embed: the model is not needed
    with pytest.raises(
        ConfigError, match="unknown embedder 'bert'; valid names: hash, minilm, static"
    ):
        get_embedder("bert")
    with pytest.raises(ConfigError, match="at least 8"):
        HashEmbedder(dim=4)


def test_cosine() -> None:
    assert cosine([1.0, 0.0], [2.0, 0.0]) == pytest.approx(1.0)
    assert cosine([1.0, 0.0], [0.0, 3.0]) == 0.0
    assert cosine([0.0, 0.0], [1.0, 1.0]) == 0.0
