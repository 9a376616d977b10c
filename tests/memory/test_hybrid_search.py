"""The ``search`` setting of both vector stores and every retrieval module: lexical and hybrid
hits with their ranks and scores, dense unchanged, forks and trunks answering alike in any
order of writes, and the lexical index saved and loaded with its store."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from cogarch.core.memory import TurnRecord
from cogarch.memory import build_memory
from cogarch.memory.retrieval.chroma_store import ChromaVectorStore
from cogarch.memory.retrieval.embeddings import HashEmbedder
from cogarch.memory.retrieval.params import RetrievalParams
from cogarch.memory.retrieval.records import Hit, VectorStoreError
from cogarch.memory.retrieval.search import SearchParams, names_and_numbers
from cogarch.memory.retrieval.vector_store import VectorStore
from tests.memory import context
from tests.memory.store_forks import Op, fork_ops, play_forks
from tests.memory.test_fork_isolation import ORDERS, writes_stay_where_they_were_made
from tests.memory.test_module_state import CASES, LLM, TURNS, Case, _found, _same

KINDS = ["memory", "chroma"]
Store = VectorStore | ChromaVectorStore
LINES = [
    "[8 May, 2023] Caroline: I went to the LGBTQ support group yesterday.",
    "[8 May, 2023] Melanie: I painted a sunrise over the lake last week.",
    "[25 May, 2023] Caroline: The adoption agency called about my interview.",
    "[25 May, 2023] Melanie: The kids loved the pottery class.",
    "[9 June, 2023] Caroline: I am researching counseling jobs.",
]
HYBRID = SearchParams(mode="hybrid")
LEXICAL = SearchParams(mode="lexical")


def new_store(kind: str, search: SearchParams) -> Store:
    if kind == "chroma":
        return ChromaVectorStore(HashEmbedder(), prefix="hybrid-test", search=search)
    return VectorStore(HashEmbedder(), prefix="hybrid-test", search=search)


def filled(kind: str, search: SearchParams) -> Store:
    store = new_store(kind, search)
    store.add(
        [f"m{n}" for n in range(len(LINES))],
        LINES,
        [{"turn": n, "speaker": line.split("] ")[1].split(":")[0]} for n, line in enumerate(LINES)],
    )
    return store


def answer(hits: list[Hit]) -> list[tuple[Any, ...]]:
    """Each hit's id, score and detail, scores to 5 digits (chromadb's distances carry float
    noise)."""
    return [
        (
            h.id,
            round(h.similarity, 5),
            *(
                round(v, 5) if isinstance(v, float) else v
                for v in (vars(h.detail).values() if h.detail else ())
            ),
        )
        for h in hits
    ]


@pytest.mark.parametrize("kind", KINDS)
async def test_lexical_search_ranks_by_bm25_and_says_so(kind: str) -> None:
    store = filled(kind, LEXICAL)
    hits = await store.aquery("Which class did the kids love? pottery", 3)
    assert hits[0].id == "m3"
    assert [h.detail.lexical_rank for h in hits if h.detail] == list(range(1, len(hits) + 1))
    assert all(
        h.detail and h.detail.dense_rank is None and h.detail.mode == "lexical" for h in hits
    )
    assert hits[0].similarity == hits[0].detail.lexical_score > 0  # type: ignore[union-attr]
    assert store.query("Which class did the kids love? pottery", 3) == hits
    assert await store.aquery("zzz qqq", 3) == []  # no token shared: nothing found
    only = await store.aquery("Caroline Melanie", 5, where={"speaker": "Melanie"})
    assert {h.id for h in only} == {"m1", "m3"}


@pytest.mark.parametrize("kind", KINDS)
async def test_hybrid_fuses_both_searches_and_keeps_each_rank_and_score(kind: str) -> None:
    store = filled(kind, HYBRID)
    hits = await store.aquery("When did Caroline go to the LGBTQ support group?", 5)
    assert hits[0].id == "m0"
    assert len(hits) == 5 and [h.similarity for h in hits] == sorted(
        (h.similarity for h in hits), reverse=True
    )
    for hit in hits:
        detail = hit.detail
        assert detail is not None and detail.mode == "hybrid" and detail.score == hit.similarity
        assert detail.dense_rank is not None and detail.dense_score is not None
        assert detail.lexical_score is not None and 0.0 <= detail.score <= 1.0
    assert sorted(h.detail.dense_rank for h in hits if h.detail) == [1, 2, 3, 4, 5]
    # the scores are each search's own: dense cosine and BM25, as the plain searches give them
    dense = new_store(kind, SearchParams())
    dense.add([f"m{n}" for n in range(len(LINES))], LINES, [{"turn": n} for n in range(len(LINES))])
    plain = {h.id: h.similarity for h in dense.query(hits[0].text, 5)}
    assert set(plain) == {f"m{n}" for n in range(5)}
    lexical = {h.id: h.similarity for h in filled(kind, LEXICAL).query("LGBTQ support group", 5)}
    again = store.query("LGBTQ support group", 5)
    assert {h.id: h.detail.lexical_score for h in again if h.detail and h.id in lexical} == (
        pytest.approx(lexical)
    )


@pytest.mark.parametrize("kind", KINDS)
def test_rank_fusion_and_the_entity_boost_are_options(kind: str) -> None:
    rrf = filled(kind, SearchParams(mode="hybrid", fusion="rrf"))
    hits = rrf.query("pottery class kids", 5)
    for hit in hits:
        assert hit.detail is not None
        expected = sum(
            1 / (60 + rank)
            for rank in (hit.detail.dense_rank, hit.detail.lexical_rank)
            if rank is not None
        )
        assert hit.similarity == pytest.approx(expected)
    boosted = filled(kind, SearchParams(mode="hybrid", entity_boost=1.0))
    plain = filled(kind, HYBRID)
    query = "What did Melanie do in June?"
    gain = {h.id: h.similarity for h in boosted.query(query, 5)}
    base = {h.id: h.similarity for h in plain.query(query, 5)}
    # Melanie's lines share one of the two names: half a boost; m4 shares June
    assert gain["m1"] - base["m1"] == pytest.approx(0.5)
    assert gain["m4"] - base["m4"] == pytest.approx(0.5)
    assert gain["m0"] == pytest.approx(base["m0"])
    assert names_and_numbers("Where did Caroline go on 8 May 2023?") == {"carolin", "may", "2023"}


@pytest.mark.parametrize("kind", KINDS)
def test_ties_rank_in_insertion_order(kind: str) -> None:
    for search in (LEXICAL, HYBRID):
        store = new_store(kind, search)
        store.add(["z", "a", "m"], ["green tea", "green tea", "green tea"])
        store.add(["b"], ["green tea"])
        assert [h.id for h in store.query("green tea", 4)] == ["z", "a", "m", "b"]
        store.update(["z"], ["green tea"])
        assert [h.id for h in store.query("green tea", 2)] == ["z", "a"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_dense_store_keeps_no_index_and_saves_what_it_always_did(kind: str) -> None:
    store = filled(kind, SearchParams())
    assert store.lexical is None and "lexical" not in store.save_state()
    assert all(h.detail is None for h in store.query("Caroline", 3))
    assert RetrievalParams().model_dump() == RetrievalParams(search="dense").model_dump()
    assert "search" not in RetrievalParams().model_dump()
    assert RetrievalParams(search="hybrid").search == HYBRID


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("search", [LEXICAL, HYBRID], ids=["lexical", "hybrid"])
def test_state_round_trip_answers_alike_and_a_damaged_index_changes_nothing(
    kind: str, search: SearchParams
) -> None:
    store = filled(kind, search)
    store.delete(["m2"])
    state = store.save_state()
    assert state["lexical"]["ids"] == ["m0", "m1", "m3", "m4"]
    for other_kind in KINDS:
        restored = new_store(other_kind, search)
        restored.load_state(state)
        for query in ["Caroline support group", "lake sunrise painted", "jobs"]:
            assert answer(restored.query(query, 4)) == answer(store.query(query, 4))
        restored.add(["new"], ["a new lake"])  # the loaded index goes on taking records
        assert restored.query("new lake", 1)[0].id == "new"
    # a state saved by a dense store: the index is built from its records
    dense = filled(kind, SearchParams())
    rebuilt = new_store(kind, search)
    rebuilt.load_state(dense.save_state())
    assert [h.id for h in rebuilt.query("pottery", 1)] == ["m3"]
    # an index that names other records is refused before anything is replaced
    target = filled(kind, search)
    before = answer(target.query("Caroline", 5))
    damaged = {**state, "lexical": {**state["lexical"], "ids": ["m0", "m1", "m3", "x"]}}
    with pytest.raises(VectorStoreError, match="damaged"):
        target.load_state(damaged)
    assert answer(target.query("Caroline", 5)) == before and len(target) == len(LINES)


# Any interleaving of writes over a trunk and its forks: each store must answer exactly as a
# fresh store holding its own records.
OPS = fork_ops(5, ["add", "update", "delete", "fork", "clear"], max_size=20)
WORDS = ["apple pie", "river boat", "red car river", "green tea", "old town apple"]


def changed(step: int) -> str:
    return f"changed {WORDS[step % 5]}"


def play(kind: str, ops: list[Op]) -> None:
    stores, models = play_forks(new_store(kind, HYBRID), ops, WORDS, changed)
    for store, model in zip(stores, models, strict=True):
        reference = new_store(kind, HYBRID)
        for entry, (text, _) in model.items():
            reference.add([entry], [text])
        for probe in ["apple river", "changed tea", "red car"]:
            got, want = store.query(probe, 5), reference.query(probe, 5)
            assert [(h.id, h.text) for h in got] == [(h.id, h.text) for h in want]
            assert [h.similarity for h in got] == pytest.approx([h.similarity for h in want])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_hybrid_forks_stay_isolated_in_any_order_of_writes(ops: list[tuple[int, str, int]]) -> None:
    play("memory", ops)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_hybrid_chroma_forks_stay_isolated_in_any_order_of_writes(
    ops: list[tuple[int, str, int]],
) -> None:
    play("chroma", ops)


# Every retrieval module, on both stores, with hybrid search.
RETRIEVAL = [c for c in CASES if c.kind in ("mem0", "amem", "lightmem", "memoryos")]
MODULES = [
    Case(c.kind, {**c.params, "search": mode, "store": store}, c.drive)
    for c in [*RETRIEVAL, Case("raw_turns", {"embedder": "hash"})]
    for mode, store in (("hybrid", "memory"), ("hybrid", "chroma"), ("lexical", "memory"))
]


ORDERED = [
    c
    for c in MODULES
    if (c.params["search"], c.params["store"]) == ("hybrid", "memory") or c.kind == "raw_turns"
]
"""Every module with hybrid search in process; raw turns with each setting and store."""


def case_id(case: Case) -> str:
    return f"{case.kind}-{case.params['search']}-{case.params['store']}"


@pytest.mark.parametrize("case", ORDERED, ids=case_id)
@pytest.mark.parametrize("order", ORDERS, ids="-".join)
async def test_module_writes_after_a_fork_stay_where_they_were_made(
    case: Case, order: tuple[str, ...]
) -> None:
    await writes_stay_where_they_were_made(case, order)


@pytest.mark.parametrize("case", MODULES, ids=case_id)
async def test_a_module_fork_answers_as_its_trunk_and_its_state_round_trips(case: Case) -> None:
    trunk = build_memory(case.kind, case.params)
    for turn in TURNS:
        await trunk.ingest(turn, context(LLM))
    query = "Where is the hotel in Lisbon?"
    found = await trunk.retrieve(query, context(LLM))
    assert found and any("search" in item.fields for item in found)
    for item in found:
        detail = item.fields.get("search")
        if detail is not None:
            assert detail["mode"] == case.params["search"] and item.score == round(
                detail["score"], 6
            )
    for branch in (trunk.fork(), trunk.fork().fork()):
        assert _found(await branch.retrieve(query, context(LLM))) == _found(found)
    state = trunk.save_state()
    assert _same(state) == _same(trunk.fork().save_state())
    restored = build_memory(case.kind, case.params)
    restored.load_state(state)
    assert _found(await restored.retrieve(query, context(LLM))) == _found(found)


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
async def test_raw_turns_with_the_same_search_in_every_order_of_trunk_and_fork(mode: str) -> None:
    params = {"embedder": "hash", "search": mode, "store": "memory", "top_k": 3}
    trunk = build_memory("raw_turns", params)
    for turn in TURNS:
        await trunk.ingest(turn, context(LLM))
    for first, second in itertools.permutations(["trunk", "fork"]):
        modules = {"trunk": trunk.fork(), "fork": trunk.fork()}
        await modules[first].ingest(
            TurnRecord(9, "Dinner by the river in Porto.", ""), context(LLM)
        )
        on_first = await modules[first].retrieve("river Porto", context(LLM))
        on_second = await modules[second].retrieve("river Porto", context(LLM))
        assert on_first[0].text == "Dinner by the river in Porto."
        assert all(item.text != "Dinner by the river in Porto." for item in on_second)
