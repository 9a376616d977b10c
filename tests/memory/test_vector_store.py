"""Both vector stores (in process, and over chromadb): cosine queries, CRUD, metadata, forks
that never share a write in any order, state, and the off-loop variants."""

from __future__ import annotations

import asyncio
import base64
import gc
import threading
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings
from hypothesis import HealthCheck, given, settings

from cogarch.core.state import StateError
from cogarch.memory.retrieval import vector_store as vs
from cogarch.memory.retrieval.chroma_store import ChromaVectorStore
from cogarch.memory.retrieval.embeddings import HashEmbedder, cosine
from cogarch.memory.retrieval.records import Hit, VectorStoreError
from cogarch.memory.retrieval.vector_store import VectorStore
from tests.memory.store_forks import Expected, Op, fork_ops, play_forks

TEXTS = ["the cat sat on the mat", "stock markets fell sharply", "a cat slept on a mat"]
KINDS = ["memory", "chroma"]
Store = VectorStore | ChromaVectorStore


class CountingEmbedder(HashEmbedder):
    """Records every batch it is asked to embed, and the thread that embedded it."""

    def __init__(self, inline: int = 32) -> None:
        super().__init__()
        self.inline_texts = inline
        self.batches: list[list[str]] = []
        self.threads: list[int] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        self.threads.append(threading.get_ident())
        return super().embed(texts)


def new_store(kind: str, embedder: HashEmbedder | None = None, prefix: str = "test") -> Store:
    embedder = embedder or HashEmbedder()
    if kind == "chroma":
        return ChromaVectorStore(embedder, prefix=prefix)
    return VectorStore(embedder, prefix=prefix)


def filled(kind: str) -> Store:
    store = new_store(kind)
    store.add(["a", "b", "c"], TEXTS, [{"n": 1}, {"n": 2}, {"n": 3}])
    return store


def contents(store: Store) -> list[tuple[str, str, dict[str, Any]]]:
    return [(r.id, r.text, r.metadata) for r in store.all()]


def collection_names() -> set[str]:
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    return {c.name for c in client.list_collections()}


@pytest.mark.parametrize("kind", KINDS)
def test_query_returns_cosine_similarity_most_similar_first(kind: str) -> None:
    store = filled(kind)
    hits = store.query("cat on mat", 3)
    assert [h.id for h in hits] == ["c", "a", "b"]
    [query] = HashEmbedder().embed(["cat on mat"])
    vectors = dict(zip("abc", HashEmbedder().embed(TEXTS), strict=True))
    for hit in hits:  # similarity is the cosine of the two texts' vectors
        assert hit.similarity == pytest.approx(cosine(query, vectors[hit.id]), abs=1e-5)
    hit_id, text, metadata, similarity = hits[0]
    assert (hit_id, text, metadata) == ("c", TEXTS[2], {"n": 3})
    assert isinstance(hits[0], Hit) and similarity > hits[1].similarity
    assert len(store.query("cat", 10)) == 3
    assert [h.id for h in store.query("cat", 2, where={"n": {"$gte": 2}})] == ["c", "b"]
    assert [h.id for h in store.query("cat", 3, where={"n": {"$in": [1, 2]}})] == ["a", "b"]
    assert store.query("cat", 0) == []


def test_equal_scores_come_in_insertion_order() -> None:
    store = VectorStore(HashEmbedder())
    store.add(["x", "y", "z", "w"], ["same words", "same words", "other text", "same words"])
    assert [h.id for h in store.query("same words", 3)] == ["x", "y", "w"]
    assert [h.id for h in store.query("same words", 2)] == ["x", "y"]


@pytest.mark.parametrize("kind", KINDS)
def test_adding_embeds_in_one_batch_and_refuses_existing_ids(kind: str) -> None:
    embedder = CountingEmbedder()
    store = new_store(kind, embedder)
    store.add(["a", "b", "c"], TEXTS)
    assert embedder.batches == [TEXTS]
    with pytest.raises(VectorStoreError, match=r"ids already in store .*: a; use update"):
        store.add(["a"], ["again"])
    with pytest.raises(VectorStoreError, match="same id twice"):
        store.add(["x", "x"], ["one", "two"])
    with pytest.raises(VectorStoreError, match="2 ids, 1 texts"):
        store.add(["x", "y"], ["one"])
    with pytest.raises(VectorStoreError, match="reserved"):
        store.add(["x"], ["one"], [{"_seq": 4}])
    with pytest.raises(VectorStoreError, match="JSON values only"):
        store.add(["x"], ["one"], [{"when": object()}])
    assert store.count() == len(store) == 3
    assert "a" in store and "x" not in store


@pytest.mark.parametrize("kind", KINDS)
def test_metadata_holds_any_json_value_and_reads_hand_out_copies(kind: str) -> None:
    store = new_store(kind)
    meta = {"tags": ["a", "b"], "empty": [], "nested": {"k": [1, 2]}, "none": None, "ok": True}
    store.add(["x"], ["text"], [meta])
    assert store.get(["x"])[0].metadata == meta
    hit = store.query("text", 1)[0]
    assert hit.metadata == meta
    hit.metadata["tags"].append("changed by a reader")
    store.get(["x"])[0].metadata["nested"]["k"].clear()
    assert store.all()[0].metadata == meta


@pytest.mark.parametrize("kind", KINDS)
def test_update_reembeds_text_and_replaces_metadata(kind: str) -> None:
    store = filled(kind)
    store.update(["a"], ["dogs bark loudly"], [{"kind": "dog"}])
    [record] = store.get(["a"], embeddings=True)
    assert (record.text, record.metadata) == ("dogs bark loudly", {"kind": "dog"})
    assert record.embedding == pytest.approx(HashEmbedder().embed(["dogs bark loudly"])[0])
    assert store.query("dogs bark", 1)[0].id == "a"
    store.update(["b"], metadatas=[{}])
    assert store.get(["b"])[0].metadata == {}
    with pytest.raises(VectorStoreError, match=r"cannot update ids not in store .*: zz"):
        store.update(["zz"], ["x"])
    assert [r.id for r in store.all()] == ["a", "b", "c"]  # updates keep insertion order


@pytest.mark.parametrize("kind", KINDS)
def test_get_keeps_the_order_asked_and_delete_ignores_unknown_ids(kind: str) -> None:
    store = filled(kind)
    assert [r.id for r in store.get(["c", "zz", "a"])] == ["c", "a"]
    assert store.get([]) == []
    store.delete(["b", "zz"])
    assert [r.id for r in store.all()] == ["a", "c"]
    assert store.texts() == [("a", TEXTS[0]), ("c", TEXTS[2])]
    store.clear()
    assert store.count() == 0 and store.query("cat", 3) == []


@pytest.mark.parametrize("kind", KINDS)
def test_a_fork_embeds_nothing_and_branches_never_share_writes(kind: str) -> None:
    embedder = CountingEmbedder()
    original = new_store(kind, embedder, prefix="trial-7")
    original.add(["a", "b"], TEXTS[:2])
    left, right = original.fork(), original.fork()
    assert len(embedder.batches) == 1  # forks reuse the stored vectors
    left.add(["l"], ["left only"])
    right.update(["a"], ["right changed it"])
    original.delete(["b"])
    assert [r.text for r in original.all()] == [TEXTS[0]]
    assert [r.text for r in left.all()] == [*TEXTS[:2], "left only"]
    assert [r.text for r in right.all()] == ["right changed it", TEXTS[1]]
    assert [h.id for h in left.query("left only", 1)] == ["l"]
    assert original.query("left only", 3)[0].id == "a" and len(original.query("x", 3)) == 1
    copied = [r.embedding for r in left.get(["a"], embeddings=True)]
    assert copied == [r.embedding for r in original.get(["a"], embeddings=True)]
    assert left.name.startswith("trial-7-")


# Any interleaving of writes over a trunk and its forks: each store must hold exactly what
# its own writes (and those before its fork) made, checked against a plain dict per store.
OPS = fork_ops(6, ["add", "update", "meta", "delete", "fork", "clear"], max_size=30)
WORDS = ["apple pie", "river boat", "red car", "green tea", "old town", "cold rain"]


def _hold_what_they_wrote(stores: list[Store], models: list[Expected]) -> None:
    for other, expected in zip(stores, models, strict=True):
        assert {r.id: (r.text, r.metadata) for r in other.all()} == expected
        assert len(other) == len(expected)
        hits = other.query("apple river red changed", 10)
        assert sorted(h.id for h in hits) == sorted(expected)


def _play(kind: str, ops: list[Op]) -> None:
    changed = "changed {}".format
    play_forks(
        new_store(kind), ops, WORDS, changed, metadata=True, after_each=_hold_what_they_wrote
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_forks_stay_isolated_in_any_order_of_writes(ops: list[tuple[int, str, int]]) -> None:
    _play("memory", ops)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPS)
def test_chroma_forks_stay_isolated_in_any_order_of_writes(
    ops: list[tuple[int, str, int]],
) -> None:
    _play("chroma", ops)


def test_rows_no_store_needs_are_dropped_and_forks_keep_theirs(monkeypatch: Any) -> None:
    monkeypatch.setattr(vs, "_COMPACT_SLACK", 4)
    store = VectorStore(HashEmbedder())
    store.add([f"k{i}" for i in range(5)], [f"note number {i}" for i in range(5)])
    branch = store.fork()
    for round_ in range(10):  # every update leaves a row behind
        store.update(["k0"], [f"note number zero, take {round_}"])
    assert store._rows.size <= 2 * len(store) + 4  # the rows nobody needs were dropped
    assert store.get(["k0"])[0].text == "note number zero, take 9"
    assert store.query("take 9", 1)[0].id == "k0"
    assert branch.get(["k0"])[0].text == "note number 0"
    assert branch.query("note number 0", 1)[0].id == "k0"


@pytest.mark.parametrize("kind", KINDS)
def test_state_round_trip_keeps_ids_texts_metadata_and_vectors(kind: str) -> None:
    store = filled(kind)
    state = store.save_state()
    assert [r["id"] for r in state["records"]] == ["a", "b", "c"]
    for target in KINDS:  # either kind loads either kind's state
        other = new_store(target)
        other.add(["old"], ["to be replaced"])
        other.load_state(state)
        assert contents(other) == contents(store)
        assert other.query("cat on mat", 1)[0].id == "c"
        for mine, theirs in zip(
            store.all(embeddings=True), other.all(embeddings=True), strict=True
        ):
            assert theirs.embedding == pytest.approx(mine.embedding, abs=1e-6)
        again = new_store(target)
        again.load_state(other.save_state())
        assert again.save_state() == other.save_state()


def test_older_states_with_a_vector_per_record_or_none_still_load() -> None:
    store = filled("memory")
    vectors = [r.embedding for r in store.all(embeddings=True)]
    old = {
        "embedder": "hash",
        "records": [
            {**r, "embedding": v}
            for r, v in zip(store.save_state()["records"], vectors, strict=True)
        ],
    }
    loaded = VectorStore(HashEmbedder())
    loaded.load_state(old)
    assert loaded.save_state() == store.save_state()
    embedder = CountingEmbedder()
    stripped = VectorStore(embedder)
    stripped.load_state({"records": [{**r, "embedding": None} for r in old["records"]]})
    assert embedder.batches == [TEXTS]  # recomputed, in one batch
    assert stripped.save_state() == store.save_state()
    with pytest.raises(VectorStoreError, match="'minilm' embedder"):
        stripped.load_state({**old, "embedder": "minilm"})
    damaged = store.save_state()
    damaged["vectors"]["base64"] = damaged["vectors"]["base64"][:40]
    with pytest.raises(VectorStoreError, match="damaged"):
        VectorStore(HashEmbedder()).load_state(damaged)


@pytest.mark.parametrize("kind", KINDS)
async def test_the_off_loop_variants_do_the_same_work(kind: str) -> None:
    embedder = CountingEmbedder(inline=0)  # a model: always embedded in a worker thread
    store = new_store(kind, embedder)
    await store.aadd(["a", "b", "c"], TEXTS, [{"n": 1}, {"n": 2}, {"n": 3}])
    await store.aupdate(["b"], ["markets rose"], [{"n": 5}])
    assert threading.get_ident() not in embedder.threads
    reference = new_store(kind)
    reference.add(
        ["a", "b", "c"], [TEXTS[0], "markets rose", TEXTS[2]], [{"n": 1}, {"n": 5}, {"n": 3}]
    )
    assert contents(store) == contents(reference)
    assert await store.aquery("cat mat", 2) == reference.query("cat mat", 2)
    [vector] = await store.aembed(["markets"])
    assert await store.aquery_vector(vector, 1, where={"n": 5}) == reference.query("markets", 1)


async def test_a_search_over_a_large_store_runs_off_the_event_loop(monkeypatch: Any) -> None:
    monkeypatch.setattr(vs, "OFFLOAD_ROWS", 3)
    searched: list[int] = []

    class Watched(VectorStore):
        def query_vector(self, *args: Any, **kwargs: Any) -> list[Hit]:
            searched.append(threading.get_ident())
            return super().query_vector(*args, **kwargs)

    store = Watched(HashEmbedder())
    store.add(["a", "b"], TEXTS[:2])
    await store.aquery("cat", 1)
    store.add(["c"], TEXTS[2:])
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    running = asyncio.ensure_future(ticker())
    hits = await store.aquery("cat", 1)
    running.cancel()
    assert searched[0] == threading.get_ident() != searched[1]  # small inline, large in a thread
    assert hits[0].id == "c"


def test_in_memory_chroma_collections_go_away_with_the_last_store_holding_them() -> None:
    store = filled("chroma")
    name = store.name
    branch = store.fork()
    assert branch.name == name and name in collection_names()  # a fork reads the same one
    del store
    gc.collect()
    assert name in collection_names()  # the branch still holds it
    branch.add(["d"], ["a new entry"])
    assert branch.name == name  # held alone now: written in place
    del branch
    gc.collect()
    assert name not in collection_names()
    dropped = filled("chroma")
    dropped.drop()
    assert dropped.name not in collection_names()


def test_a_chroma_fork_writes_to_a_copy_while_the_original_holds_the_collection() -> None:
    store = filled("chroma")
    branch = store.fork()
    branch.delete(["a"])
    assert branch.name != store.name
    assert [r.id for r in store.all()] == ["a", "b", "c"]
    assert [r.id for r in branch.all()] == ["b", "c"]


def test_a_persistent_store_lives_under_its_directory(tmp_path: Path) -> None:
    store = ChromaVectorStore(HashEmbedder(), path=tmp_path / "chroma", prefix="mem0")
    store.add(["a"], ["kept on disk"], [{"n": 1}])
    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=Settings(anonymized_telemetry=False)
    )
    assert store.name in {c.name for c in client.list_collections()}
    branch = store.fork()
    assert branch.path == store.path and branch.count() == 1
    branch.add(["b"], ["only in the branch"])
    assert store.count() == 1 and branch.count() == 2
    store.drop()
    branch.drop()
    assert {c.name for c in client.list_collections()} == set()


@pytest.mark.parametrize("kind", ["memory", "chroma"])
@pytest.mark.parametrize(
    "damage",
    ["nan", "inf", "one nan", "records not a list", "record without text", "id twice", "block"],
)
def test_a_damaged_state_is_refused_and_the_store_left_as_it_was(kind: str, damage: str) -> None:
    source = filled("memory").save_state()
    store = filled(kind)
    before = [(r.id, r.text) for r in store.all()]
    hits = [h.id for h in store.query("a cat sleeping", 3)]
    bad: dict[str, Any] = {**source, "records": [dict(r) for r in source["records"]]}
    values = np.frombuffer(base64.b64decode(source["vectors"]["base64"]), dtype="<f4").copy()
    if damage in ("nan", "inf", "one nan"):
        if damage == "one nan":
            values[3] = np.nan
        else:
            values[:] = np.nan if damage == "nan" else np.inf
        bad["vectors"] = {
            **source["vectors"],
            "base64": base64.b64encode(values.tobytes()).decode(),
        }
    elif damage == "records not a list":
        bad["records"] = {"a": 1}
    elif damage == "record without text":
        del bad["records"][1]["text"]
    elif damage == "id twice":
        bad["records"][1]["id"] = bad["records"][0]["id"]
    else:
        bad["vectors"] = "not a block"
    with pytest.raises(StateError, match=r"records|vectors") as caught:
        store.load_state(bad)
    assert isinstance(caught.value, VectorStoreError)  # what callers of stores catch
    assert [(r.id, r.text) for r in store.all()] == before
    assert [h.id for h in store.query("a cat sleeping", 3)] == hits
