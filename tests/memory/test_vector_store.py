"""The chromadb-backed vector store: cosine queries, CRUD, metadata, fork, state, persistence."""

from __future__ import annotations

import gc
from pathlib import Path

import chromadb
import pytest
from chromadb.config import Settings

from cogarch.memory.retrieval.embeddings import HashEmbedder, cosine
from cogarch.memory.retrieval.vector_store import Hit, VectorStore, VectorStoreError

TEXTS = ["the cat sat on the mat", "stock markets fell sharply", "a cat slept on a mat"]


class CountingEmbedder(HashEmbedder):
    """Records every batch it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[str]] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        return super().embed(texts)


def filled(prefix: str = "test") -> VectorStore:
    store = VectorStore(HashEmbedder(), prefix=prefix)
    store.add(["a", "b", "c"], TEXTS, [{"n": 1}, {"n": 2}, {"n": 3}])
    return store


def collection_names() -> set[str]:
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    return {c.name for c in client.list_collections()}


def test_query_returns_cosine_similarity_most_similar_first() -> None:
    store = filled()
    hits = store.query("cat on mat", 3)
    assert [h.id for h in hits] == ["c", "a", "b"]
    [query] = HashEmbedder().embed(["cat on mat"])
    vectors = dict(zip("abc", HashEmbedder().embed(TEXTS), strict=True))
    for hit in hits:  # similarity = 1 - cosine distance, so the space really is cosine
        assert hit.similarity == pytest.approx(cosine(query, vectors[hit.id]), abs=1e-5)
    hit_id, text, metadata, similarity = hits[0]
    assert (hit_id, text, metadata) == ("c", TEXTS[2], {"n": 3})
    assert isinstance(hits[0], Hit) and similarity > hits[1].similarity
    assert len(store.query("cat", 10)) == 3
    assert [h.id for h in store.query("cat", 2, where={"n": {"$gte": 2}})] == ["c", "b"]


def test_adding_embeds_in_one_batch_and_refuses_existing_ids() -> None:
    embedder = CountingEmbedder()
    store = VectorStore(embedder)
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
    assert store.count() == len(store) == 3


def test_metadata_holds_any_json_value() -> None:
    store = VectorStore(HashEmbedder())
    meta = {"tags": ["a", "b"], "empty": [], "nested": {"k": [1, 2]}, "none": None, "ok": True}
    store.add(["x"], ["text"], [meta])
    assert store.get(["x"])[0].metadata == meta
    assert store.query("text", 1)[0].metadata == meta


def test_update_reembeds_text_and_replaces_metadata() -> None:
    store = filled()
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


def test_get_keeps_the_order_asked_and_delete_ignores_unknown_ids() -> None:
    store = filled()
    assert [r.id for r in store.get(["c", "zz", "a"])] == ["c", "a"]
    assert store.get([]) == []
    store.delete(["b", "zz"])
    assert [r.id for r in store.all()] == ["a", "c"]
    store.clear()
    assert store.count() == 0 and store.query("cat", 3) == []


def test_fork_copies_into_a_new_collection_and_branches_never_share_writes() -> None:
    embedder = CountingEmbedder()
    original = VectorStore(embedder, prefix="trial-7")
    original.add(["a", "b"], TEXTS[:2])
    left, right = original.fork(), original.fork()
    assert len(embedder.batches) == 1  # copies reuse the stored vectors
    assert left.name.startswith("trial-7-") and len({original.name, left.name, right.name}) == 3
    left.add(["l"], ["left only"])
    right.update(["a"], ["right changed it"])
    original.delete(["b"])
    assert [r.text for r in original.all()] == [TEXTS[0]]
    assert [r.text for r in left.all()] == [*TEXTS[:2], "left only"]
    assert [r.text for r in right.all()] == ["right changed it", TEXTS[1]]
    copied = [r.embedding for r in left.get(["a"], embeddings=True)]
    assert copied == [r.embedding for r in original.get(["a"], embeddings=True)]


def test_state_round_trip_keeps_ids_texts_metadata_and_vectors() -> None:
    store = filled()
    state = store.save_state()
    assert [r["id"] for r in state["records"]] == ["a", "b", "c"]
    other = VectorStore(HashEmbedder())
    other.add(["old"], ["to be replaced"])
    other.load_state(state)
    assert other.save_state() == state
    assert other.query("cat on mat", 1)[0].id == "c"
    stripped = {"records": [{**r, "embedding": None} for r in state["records"]]}
    third = VectorStore(HashEmbedder())
    third.load_state(stripped)  # vectors are recomputed when a state has none
    assert third.save_state()["records"][0]["embedding"] == pytest.approx(
        state["records"][0]["embedding"]
    )
    with pytest.raises(VectorStoreError, match="'minilm' embedder"):
        third.load_state({**state, "embedder": "minilm"})


def test_in_memory_collections_go_away_with_their_store() -> None:
    store = filled()
    name = store.name
    assert name in collection_names()
    del store
    gc.collect()
    assert name not in collection_names()
    dropped = filled()
    dropped.drop()
    assert dropped.name not in collection_names()


def test_a_persistent_store_lives_under_its_directory(tmp_path: Path) -> None:
    store = VectorStore(HashEmbedder(), path=tmp_path / "chroma", prefix="mem0")
    store.add(["a"], ["kept on disk"], [{"n": 1}])
    client = chromadb.PersistentClient(
        path=str(tmp_path / "chroma"), settings=Settings(anonymized_telemetry=False)
    )
    assert store.name in {c.name for c in client.list_collections()}
    branch = store.fork()
    assert branch.path == store.path and branch.count() == 1
    store.drop()
    branch.drop()
    assert {c.name for c in client.list_collections()} == set()
