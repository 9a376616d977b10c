"""The static embedder: word-piece vectors distilled from the packaged MiniLM, cached on disk."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from cogarch.memory.retrieval import embeddings_static
from cogarch.memory.retrieval.embeddings import Embedder, cosine, get_embedder
from cogarch.memory.retrieval.embeddings_static import (
    STATIC_DIM,
    StaticEmbedder,
    cache_file,
    piece_shares,
)


def test_static_vectors_rank_close_sentences_above_unrelated_ones() -> None:
    embedder = get_embedder("static")
    assert isinstance(embedder, StaticEmbedder) and isinstance(embedder, Embedder)
    cat, kitten, market, nothing = embedder.embed(
        [
            "The cat sat on the mat.",
            "A kitten was sitting on the rug with the cat.",
            "Stock markets fell sharply today.",
            "",
        ]
    )
    assert len(cat) == embedder.dim == STATIC_DIM
    assert math.isclose(math.fsum(x * x for x in cat), 1.0, rel_tol=1e-4)
    assert cosine(cat, kitten) > cosine(cat, market) + 0.2
    assert nothing == [0.0] * STATIC_DIM
    assert StaticEmbedder().embed(["Stock markets fell sharply today."]) == [market]


CHAT = (
    "Good question! It helps to gather everything you need before you begin, which saves a lot "
    "of time. If something goes wrong, it is usually the timing, so give it a little longer. "
    "Hope that helps.",
    "Great idea. Write down a simple plan first, then adjust it after a week based on how it "
    "went. A good rule of thumb is to prepare the night before, when you are not in a hurry. "
    "Let me know how it goes!",
    "That sounds lovely. Try to notice one thing you did better each time; small wins keep you "
    "going, and it is fine to take a break when you need one.",
)


def test_long_chat_turns_do_not_lean_toward_every_question() -> None:
    # With the common direction left in the table (36e7a7a), these replies scored 0.66-0.68
    # against the question, close to the fact's 0.83; a question's wording then decided the
    # ranking.
    fact = "Oh, my cousin Stedax got rid of the purple car; the new car is silver."
    question = (
        "What colour is my cousin Stedax's car now? Answer with the colour only, or with "
        "'not mentioned' if it never came up."
    )
    *chats, found, asked = StaticEmbedder().embed([*CHAT, fact, question])
    assert max(cosine(asked, chat) for chat in chats) < 0.45
    assert cosine(asked, found) > 0.7


def test_a_vector_does_not_depend_on_the_batch_it_came_in() -> None:
    texts = ["[2023/05/20 (Sat) 02:21] user: I repotted the fig.", "Where did my sister move?"]
    together = StaticEmbedder().embed(texts)
    alone = [StaticEmbedder().embed([t])[0] for t in texts]
    assert together == alone


def test_the_version_names_the_recipe_and_frequent_pieces_weigh_less() -> None:
    assert StaticEmbedder().version == f"static/{embeddings_static.RECIPE}"
    tokenizer = embeddings_static._tokenizer()
    shares = piece_shares(tokenizer, words=2000)
    assert math.isclose(float(shares.sum()), 1.0)
    assert shares[tokenizer.token_to_id("the")] > shares[tokenizer.token_to_id("kitten")]


def test_the_table_is_made_once_and_read_back_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path))
    tokenizer = embeddings_static._tokenizer()
    made: list[int] = []

    def distil(tok: object) -> np.ndarray:
        made.append(1)
        rows = np.arange(tokenizer.get_vocab_size() * STATIC_DIM, dtype=np.float32)
        return rows.reshape(-1, STATIC_DIM) / rows.size

    monkeypatch.setattr(embeddings_static, "distil_table", distil)
    first = embeddings_static._load_or_distil(tokenizer)
    assert cache_file().is_file() and str(cache_file()).startswith(str(tmp_path))
    again = embeddings_static._load_or_distil(tokenizer)
    assert made == [1] and np.array_equal(first, again)
    cache_file().write_bytes(b"not an array")
    assert np.array_equal(embeddings_static._load_or_distil(tokenizer), first)
    assert made == [1, 1]
