"""A store's count follows every write, whatever kind holds the entries (a chromadb store
counts once per write and answers reads from that count), forks included."""

from __future__ import annotations

import pytest

from cogarch.memory.retrieval.chroma_store import ChromaVectorStore
from cogarch.memory.retrieval.embeddings import HashEmbedder
from cogarch.memory.retrieval.vector_store import VectorStore

Store = VectorStore | ChromaVectorStore


def new_store(kind: str) -> Store:
    if kind == "chroma":
        return ChromaVectorStore(HashEmbedder(), prefix="counts")
    return VectorStore(HashEmbedder(), prefix="counts")


@pytest.mark.parametrize("kind", ["memory", "chroma"])
def test_the_count_follows_adds_updates_deletes_and_clears(kind: str) -> None:
    store = new_store(kind)
    assert store.count() == len(store) == 0
    store.add(["a", "b"], ["a cat", "a dog"])
    assert store.count() == 2 and len(store.query("cat", 10)) == 2
    store.add(["c"], ["a bird"])
    store.update(["a"], ["a lion"])
    assert store.count() == 3 and len(store.query("lion", 10)) == 3
    store.delete(["b", "unknown"])
    assert store.count() == 2 and {h.id for h in store.query("cat", 10)} == {"a", "c"}
    store.clear()
    assert store.count() == 0 and store.query("cat", 10) == []
    store.add(["d"], ["a fish"])
    assert store.count() == 1 and [h.id for h in store.query("fish", 10)] == ["d"]


@pytest.mark.parametrize("kind", ["memory", "chroma"])
def test_a_fork_and_its_original_each_count_their_own_writes(kind: str) -> None:
    store = new_store(kind)
    store.add(["a", "b"], ["a cat", "a dog"])
    assert store.count() == 2
    branch = store.fork()
    branch.add(["c"], ["a bird"])
    assert (store.count(), branch.count()) == (2, 3)
    store.delete(["a"])
    assert (store.count(), branch.count()) == (1, 3)
    twin = branch.fork()
    twin.clear()
    assert (store.count(), branch.count(), twin.count()) == (1, 3, 0)
    assert len(branch.query("bird", 10)) == 3 and twin.query("bird", 10) == []
