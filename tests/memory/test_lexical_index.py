"""The incremental BM25 index: bm25s's tokens and scores, ties in insertion order, forks that
never share a write in any order, and its state."""

from __future__ import annotations

import itertools
from typing import Any

import bm25s
import numpy as np
import pytest
import Stemmer
from hypothesis import HealthCheck, given, settings

from cogarch.memory.retrieval import lexical as lx
from cogarch.memory.retrieval.lexical import LexicalIndex, tokenize
from cogarch.memory.retrieval.records import VectorStoreError
from tests.memory.store_forks import Expected, Op, fork_ops, play_forks

TEXTS = [
    "[1:56 pm on 8 May, 2023] Caroline: I went to the LGBTQ support group yesterday.",
    "[1:56 pm on 8 May, 2023] Melanie: That sounds great! I painted a sunrise at the lake.",
    "[3:10 pm on 25 May, 2023] Caroline: The adoption agency called me about the interview.",
    "[3:10 pm on 25 May, 2023] Melanie: My kids loved the pottery class we took together.",
    "[7:00 pm on 9 June, 2023] Caroline: I'm researching counseling and mental health jobs.",
    "[7:00 pm on 9 June, 2023] Melanie: We camped by the lake and watched the stars.",
]
QUERIES = [
    "When did Caroline go to the LGBTQ support group?",
    "What did Melanie paint at the lake?",
    "Which jobs is Caroline researching? Answer with exact words.",
    "pottery kids",
    "nothing here matches zzz",
]


def reference_scores(texts: list[str], query: str) -> np.ndarray:
    stemmer = Stemmer.Stemmer("english")
    retriever = bm25s.BM25()
    corpus = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    retriever.index(corpus, show_progress=False)
    tokens = bm25s.tokenize([query], stopwords="en", stemmer=stemmer, return_ids=False)[0]
    return retriever.get_scores(tokens) if tokens else np.zeros(len(texts))


def built(texts: list[str], prefix: str = "d") -> LexicalIndex:
    index = LexicalIndex()
    for n, text in enumerate(texts):  # one record at a time, as ingestion adds them
        index.add([f"{prefix}{n}"], [text])
    return index


def scores(index: LexicalIndex, query: str) -> dict[str, float]:
    return dict(index.ranked(query))


def alike(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    """The same records in the same order, with the same scores (to float rounding)."""
    assert [i for i, _ in got] == [i for i, _ in want]
    assert [s for _, s in got] == pytest.approx([s for _, s in want])


def test_tokens_are_bm25s_english_stopwords_and_snowball_stems() -> None:
    stemmer = Stemmer.Stemmer("english")
    for text in TEXTS + QUERIES:
        expected = bm25s.tokenize([text], stopwords="en", stemmer=stemmer, return_ids=False)[0]
        assert tokenize(text) == expected
    assert tokenize("The running dogs are in a park") == ["run", "dog", "park"]


@pytest.mark.parametrize("query", QUERIES)
def test_scores_built_one_record_at_a_time_equal_bm25s_batch_scores(query: str) -> None:
    index = built(TEXTS)
    expected = reference_scores(TEXTS, query)
    mine = scores(index, query)
    for n, value in enumerate(expected):
        assert mine.get(f"d{n}", 0.0) == pytest.approx(float(value), rel=1e-5, abs=1e-6)
    assert all(value > 0 for value in mine.values())


def test_updates_and_deletes_score_as_a_fresh_index_of_what_is_left() -> None:
    index = built(TEXTS)
    index.update(["d1"], ["Melanie: I painted the lake at sunset."])
    index.delete(["d3", "missing"])
    left = [t for n, t in enumerate(TEXTS) if n != 3]
    left[1] = "Melanie: I painted the lake at sunset."
    for query in QUERIES:
        expected = reference_scores(left, query)
        mine = scores(index, query)
        for n, value in zip([0, 1, 2, 4, 5], expected, strict=True):
            assert mine.get(f"d{n}", 0.0) == pytest.approx(float(value), rel=1e-5, abs=1e-6)
        assert "d3" not in mine


def test_ties_come_in_insertion_order_and_an_update_keeps_its_place() -> None:
    index = LexicalIndex()
    index.add(["z", "a", "m"], ["green tea", "green tea", "green tea"])
    index.add(["b"], ["green tea"])
    assert [i for i, _ in index.ranked("green tea")] == ["z", "a", "m", "b"]
    assert [i for i, _ in index.ranked("green tea", limit=2)] == ["z", "a"]
    index.update(["z"], ["green tea"])  # same words again: still first
    assert [i for i, _ in index.ranked("green tea")] == ["z", "a", "m", "b"]
    assert len({s for _, s in index.ranked("green tea")}) == 1


def test_ranked_limit_keeps_the_best_and_scored_gives_zero_to_records_without_a_token() -> None:
    index = built(TEXTS)
    everything = index.ranked("Caroline lake")
    assert index.ranked("Caroline lake", limit=3) == everything[:3]
    found = index.scored("pottery").of(["d3", "d0", "unknown"])
    assert found["d0"] == 0.0 and found["d3"] > 0 and "unknown" not in found
    assert index.ranked("") == [] and LexicalIndex().ranked("lake") == []


# Any interleaving of writes over a trunk and its forks: each index must rank exactly as a fresh
# index holding its own records (in its own insertion order).
OPS = fork_ops(6, ["add", "update", "delete", "fork", "clear"], max_size=40)
WORDS = ["apple pie", "river boat", "red car river", "green tea", "old town apple", "cold rain"]
PROBES = ["apple river", "red car", "changed tea", "town rain boat"]


def fresh(model: dict[str, str]) -> LexicalIndex:
    index = LexicalIndex()
    for entry, text in model.items():
        index.add([entry], [text])
    return index


def same_answers(index: LexicalIndex, model: dict[str, str]) -> None:
    reference = fresh(model)
    assert len(index) == len(model)
    for probe in PROBES:
        alike(index.ranked(probe), reference.ranked(probe))


def changed(step: int) -> str:
    return f"changed {WORDS[step % 6]}"


def all_same_answers(indexes: list[LexicalIndex], models: list[Expected]) -> None:
    for other, expected in zip(indexes, models, strict=True):
        same_answers(other, {entry: text for entry, (text, _) in expected.items()})


def play(ops: list[Op]) -> None:
    play_forks(LexicalIndex(), ops, WORDS, changed, after_each=all_same_answers)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_forks_stay_isolated_in_any_order_of_writes(ops: list[tuple[int, str, int]]) -> None:
    play(ops)


@pytest.mark.parametrize("order", list(itertools.permutations(["trunk", "left", "right"])))
def test_trunk_and_branches_each_see_only_their_own_writes_in_every_order(
    order: tuple[str, ...],
) -> None:
    trunk = built(TEXTS[:3])
    indexes = {"trunk": trunk, "left": trunk.fork(), "right": trunk.fork()}
    models = {name: {f"d{n}": TEXTS[n] for n in range(3)} for name in indexes}
    writes = {
        "trunk": lambda ix: (ix.add(["t"], [TEXTS[3]]), ix.delete(["d0"])),
        "left": lambda ix: (ix.add(["l"], [TEXTS[4]]), ix.update(["d1"], ["left lake text"])),
        "right": lambda ix: (ix.add(["r"], [TEXTS[5]]), ix.update(["d2"], ["right agency"])),
    }
    changes: dict[str, Any] = {
        "trunk": {"t": TEXTS[3], "d0": None},
        "left": {"l": TEXTS[4], "d1": "left lake text"},
        "right": {"r": TEXTS[5], "d2": "right agency"},
    }
    for name in order:
        writes[name](indexes[name])
        for key, text in changes[name].items():
            if text is None:
                models[name].pop(key)
            else:
                models[name][key] = text
        for other in indexes:
            for probe in ["Caroline lake", "agency", "stars camped", "left right"]:
                reference = built_from(models[other])
                alike(indexes[other].ranked(probe), reference.ranked(probe))


def built_from(model: dict[str, str]) -> LexicalIndex:
    """An index of ``model`` whose records keep the trunk's order (``d*`` first)."""
    index = LexicalIndex()
    for entry in sorted(model, key=lambda e: (not e.startswith("d"), e)):
        index.add([entry], [model[entry]])
    return index


def test_compaction_keeps_every_answer_and_a_fork_keeps_its_own(monkeypatch: Any) -> None:
    monkeypatch.setattr(lx, "_COMPACT_SLACK", 2)
    index = built(TEXTS)
    before = index.fork()
    for n in range(12):  # updates leave slots behind until the index rebuilds its own
        index.update([f"d{n % 6}"], [f"{TEXTS[n % 6]} again {n}"])
    assert len(index._slots.tokens) <= 2 * len(index) + 2
    model = {f"d{n}": TEXTS[n] for n in range(6)}
    for n in range(12):
        model[f"d{n % 6}"] = f"{TEXTS[n % 6]} again {n}"
    same = fresh(model)
    for query in QUERIES:
        alike(index.ranked(query), same.ranked(query))
        alike(before.ranked(query), built(TEXTS).ranked(query))


def test_state_round_trip_answers_alike_and_checks_before_replacing() -> None:
    index = built(TEXTS)
    index.delete(["d2"])
    records = [(f"d{n}", TEXTS[n]) for n in range(6) if n != 2]
    state = index.save_state()
    assert state["ids"] == [i for i, _ in records]
    restored = LexicalIndex.restored(state, records)
    for query in QUERIES:
        assert restored.ranked(query) == index.ranked(query)
    # another tokenizer's tokens (or none at all): tokenised anew from the texts
    rebuilt = LexicalIndex.restored({**state, "tokenizer": {"stemmer": "none"}}, records)
    assert rebuilt.ranked(QUERIES[0]) == index.ranked(QUERIES[0])
    assert LexicalIndex.restored(None, records).ranked(QUERIES[1]) == index.ranked(QUERIES[1])
    for damaged in (
        {**state, "ids": state["ids"][:-1]},
        {**state, "tokens": state["tokens"][:-1]},
        {**state, "tokens": "not a list"},
    ):
        with pytest.raises(VectorStoreError, match="damaged"):
            LexicalIndex.restored(damaged, records)
