"""Where the CCS module keeps its artifacts: the backend protocol, the built-in backends over
a vector store (``hash`` in process, ``chroma`` and ``chroma_hash`` in a chromadb collection),
and their registry by short name (``ARTIFACT_BACKENDS``)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Protocol, Self

from cogarch.registry import Registry, takes_positional

from ..retrieval.chroma_store import ChromaVectorStore
from ..retrieval.embeddings import HASH_DIM, HashEmbedder, get_embedder
from ..retrieval.store_base import BaseStore
from ..retrieval.vector_store import VectorStore
from .gate import Artifact, Candidate


class ArtifactBackend(Protocol):
    """Where artifacts live; ``search`` returns up to ``k`` candidates, best first.

    A backend with a ``fork()`` forks with the module (O(1) for the built-in ones); any other
    is deep-copied. ``__contains__`` (by artifact id), when given, spares a full listing.
    """

    def add(self, artifact: Artifact) -> None: ...

    def search(self, query: str, k: int) -> list[Candidate]: ...

    def artifacts(self) -> list[Artifact]: ...


class _StoreBackend:
    """Artifacts in a vector store (in process, or a chromadb collection)."""

    def __init__(self, store: BaseStore) -> None:
        self._store = store

    def add(self, artifact: Artifact) -> None:
        meta = {"turn": artifact.turn, "source": artifact.source}
        self._store.add([artifact.id], [artifact.text], [meta])

    def search(self, query: str, k: int) -> list[Candidate]:
        return [
            Candidate(_artifact(h.id, h.text, h.metadata), round(h.similarity, 6))
            for h in self._store.query(query, k)
        ]

    def artifacts(self) -> list[Artifact]:
        return [_artifact(r.id, r.text, r.metadata) for r in self._store.all()]

    def __contains__(self, artifact_id: object) -> bool:
        return artifact_id in self._store

    def fork(self) -> Self:
        twin = copy.copy(self)
        twin._store = self._store.fork()
        return twin


class HashListBackend(_StoreBackend):
    """Artifacts ranked by feature-hash embeddings, in process; ties in insertion order."""

    def __init__(self, dim: int = HASH_DIM) -> None:
        super().__init__(VectorStore(HashEmbedder(dim), prefix="ccs-artifacts"))


class ChromaBackend(_StoreBackend):
    """Artifacts in a chromadb collection. ``embedder`` is ``"minilm"`` (the offline sentence
    model) or ``"hash"``."""

    def __init__(self, embedder: str = "minilm") -> None:
        super().__init__(ChromaVectorStore(get_embedder(embedder), prefix="ccs-artifacts"))


def _artifact(artifact_id: str, text: str, meta: dict[str, Any]) -> Artifact:
    return Artifact(id=artifact_id, text=text, turn=int(meta["turn"]), source=meta["source"])


def holds(store: ArtifactBackend, artifact_id: str) -> bool:
    if hasattr(store, "__contains__"):
        return artifact_id in store
    return any(a.id == artifact_id for a in store.artifacts())


ARTIFACT_BACKENDS: Registry[Callable[[], ArtifactBackend]] = Registry(
    "artifact backend", check=takes_positional(0)
)
ARTIFACT_BACKENDS.register("hash", HashListBackend)
ARTIFACT_BACKENDS.register("chroma", lambda: ChromaBackend("minilm"))
ARTIFACT_BACKENDS.register("chroma_hash", lambda: ChromaBackend("hash"))


def drop_unused(store: Any) -> None:
    """Let go of an artifact store that was not used (one that holds resources)."""
    drop = getattr(store, "drop", None)
    if callable(drop):
        drop()
