"""A small vector store over one chromadb collection, with fork and state export.

Each store owns one collection whose name carries a fresh unique id, so two trials or two
branches never write to the same collection by accident (chromadb shares one in-memory system
per process). The collection is created with cosine space and with an explicit embedding
function wrapping our embedder: chromadb's default one would try to download a model. Vectors
are always computed by our embedder, one batch per call, and passed to chromadb explicitly.

Metadata may hold any JSON value: scalars are stored as chromadb metadata (so ``where``
filters work on them); lists, dicts and ``None`` are stored as JSON text and decoded on read.
Keys starting with ``_`` are reserved.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import uuid
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple, Self

from cogarch.errors import CogarchError

from .embeddings import Embedder, get_embedder

_SEQ = "_seq"
_JSON = "_json"
_SCALARS = (bool, int, float, str)


class VectorStoreError(CogarchError):
    """A store operation named an entry that does not exist, or one that already exists."""


@dataclass(frozen=True)
class Record:
    """One stored entry. ``embedding`` is filled only when asked for."""

    id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)
    embedding: list[float] | None = None


class Hit(NamedTuple):
    """A query result; unpacks as ``(id, text, metadata, similarity)``."""

    id: str
    text: str
    metadata: dict[str, Any]
    similarity: float


_CLIENTS: dict[str, Any] = {}
_CLIENTS_LOCK = threading.Lock()


def _client(path: str | None) -> Any:
    """One chromadb client per location (in memory, or a directory), telemetry off."""
    key = path or ":memory:"
    with _CLIENTS_LOCK:
        if key not in _CLIENTS:
            import chromadb
            from chromadb.config import Settings

            settings = Settings(anonymized_telemetry=False)
            try:
                if path is None:
                    _CLIENTS[key] = chromadb.EphemeralClient(settings=settings)
                else:
                    os.makedirs(path, exist_ok=True)
                    _CLIENTS[key] = chromadb.PersistentClient(path=path, settings=settings)
            except ValueError as exc:  # chromadb allows one client configuration per location
                raise VectorStoreError(
                    f"chromadb already has a client for {key} with other settings ({exc}); "
                    "create any other chromadb client in this process with "
                    "Settings(anonymized_telemetry=False), or set ANONYMIZED_TELEMETRY=False "
                    "in the environment before it starts"
                ) from exc
        return _CLIENTS[key]


@cache
def _adapter_class() -> type:
    """chromadb's embedding-function interface around an ``Embedder`` (built on first use)."""
    import numpy as np
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class CogarchEmbeddingFunction(EmbeddingFunction[Documents]):
        def __init__(self, embedder: Embedder) -> None:
            self.embedder = embedder

        def __call__(self, input: Documents) -> Embeddings:
            vectors = self.embedder.embed([str(text) for text in input])
            return [np.asarray(v, dtype=np.float32) for v in vectors]

        @staticmethod
        def name() -> str:
            return "cogarch"

        def get_config(self) -> dict[str, Any]:
            return {"embedder": self.embedder.name}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> CogarchEmbeddingFunction:
            return CogarchEmbeddingFunction(get_embedder(str(config["embedder"])))

        def default_space(self) -> Any:
            return "cosine"

        def supported_spaces(self) -> list[Any]:
            return ["cosine"]

    return CogarchEmbeddingFunction


def _drop_collection(path: str | None, name: str) -> None:
    # Best effort (it also runs during garbage collection, where nobody could handle an error).
    with contextlib.suppress(Exception):
        _client(path).delete_collection(name)


def _safe_prefix(prefix: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", prefix).strip("-._") or "store"
    return cleaned[:64]


def _encode(metadata: Mapping[str, Any], seq: int) -> dict[str, Any]:
    out: dict[str, Any] = {_SEQ: seq}
    as_json: list[str] = []
    for key, value in metadata.items():
        if key.startswith("_"):
            raise VectorStoreError(f"metadata key '{key}' is reserved (keys starting with '_')")
        if isinstance(value, _SCALARS):
            out[key] = value
        else:
            out[key] = json.dumps(value)
            as_json.append(key)
    out[_JSON] = json.dumps(as_json)
    return out


def _decode(raw: Mapping[str, Any] | None) -> tuple[dict[str, Any], int]:
    if not raw:
        return {}, 0
    as_json = set(json.loads(raw.get(_JSON, "[]")))
    seq = int(raw.get(_SEQ, 0))
    out = {
        k: (json.loads(v) if k in as_json else v) for k, v in raw.items() if k not in (_SEQ, _JSON)
    }
    return out, seq


class VectorStore:
    """Add, update, delete, query and export texts with their embeddings and metadata.

    ``path=None`` keeps the collection in memory (it is deleted when the store is garbage
    collected); a directory keeps it on disk until ``drop`` is called.
    """

    def __init__(
        self,
        embedder: Embedder,
        *,
        path: str | os.PathLike[str] | None = None,
        prefix: str = "cogarch",
    ) -> None:
        self.embedder = embedder
        self.path = None if path is None else os.fspath(path)
        self.prefix = _safe_prefix(prefix)
        self.name = f"{self.prefix}-{uuid.uuid4().hex}"
        client = _client(self.path)
        self._collection = client.create_collection(
            self.name,
            embedding_function=_adapter_class()(embedder),
            configuration={"hnsw": {"space": "cosine"}},
        )
        self._batch = int(client.get_max_batch_size())
        self._next_seq = 1
        self._finalizer: weakref.finalize | None = None
        if self.path is None:
            self._finalizer = weakref.finalize(self, _drop_collection, None, self.name)
            self._finalizer.atexit = False

    def __repr__(self) -> str:
        return f"VectorStore(name={self.name!r}, embedder={self.embedder!r})"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed in one batch with this store's embedder."""
        return self.embedder.embed(list(texts))

    def add(
        self,
        ids: Sequence[str],
        texts: Sequence[str],
        metadatas: Sequence[Mapping[str, Any]] | None = None,
        *,
        embeddings: Sequence[Sequence[float]] | None = None,
    ) -> None:
        """Add new entries; an id that already exists is an error (use ``update``)."""
        ids, texts = list(ids), list(texts)
        metas = [dict(m) for m in metadatas] if metadatas is not None else [{} for _ in ids]
        if not (len(ids) == len(texts) == len(metas)):
            raise VectorStoreError(
                f"add got {len(ids)} ids, {len(texts)} texts and {len(metas)} metadatas; "
                "give one of each per entry"
            )
        if not ids:
            return
        if len(set(ids)) != len(ids):
            raise VectorStoreError("add got the same id twice in one call")
        existing = self._existing(ids)
        if existing:
            raise VectorStoreError(
                f"ids already in store '{self.name}': {', '.join(sorted(existing)[:5])}; "
                "use update() to change them"
            )
        vectors = [list(v) for v in embeddings] if embeddings is not None else self.embed(texts)
        if len(vectors) != len(ids):
            raise VectorStoreError(f"add got {len(vectors)} embeddings for {len(ids)} ids")
        encoded = [_encode(meta, self._next_seq + n) for n, meta in enumerate(metas)]
        self._next_seq += len(metas)
        for start in range(0, len(ids), self._batch):
            end = start + self._batch
            self._collection.add(
                ids=ids[start:end],
                documents=texts[start:end],
                embeddings=vectors[start:end],
                metadatas=encoded[start:end],
            )

    def update(
        self,
        ids: Sequence[str],
        texts: Sequence[str] | None = None,
        metadatas: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        """Replace the text (re-embedded) and/or the whole metadata of existing entries."""
        ids = list(ids)
        if not ids:
            return
        if texts is not None and len(texts) != len(ids):
            raise VectorStoreError(f"update got {len(texts)} texts for {len(ids)} ids")
        if metadatas is not None and len(metadatas) != len(ids):
            raise VectorStoreError(f"update got {len(metadatas)} metadatas for {len(ids)} ids")
        current = {r.id: (seq, r) for seq, r in self._fetch(ids, embeddings=False)}
        missing = [i for i in ids if i not in current]
        if missing:
            raise VectorStoreError(
                f"cannot update ids not in store '{self.name}': {', '.join(missing[:5])}"
            )
        args: dict[str, Any] = {"ids": ids}
        if texts is not None:
            args["documents"] = list(texts)
            args["embeddings"] = self.embed(texts)
        if metadatas is not None:
            encoded = []
            for entry_id, meta in zip(ids, metadatas, strict=True):
                seq, record = current[entry_id]
                new = _encode(meta, seq)
                # chromadb merges metadata on update; None removes the keys that are gone.
                new.update({k: None for k in record.metadata if k not in new})
                encoded.append(new)
            args["metadatas"] = encoded
        self._collection.update(**args)

    def delete(self, ids: Sequence[str]) -> None:
        """Remove entries; ids not in the store are ignored."""
        ids = list(ids)
        if ids:
            self._collection.delete(ids=ids)

    def clear(self) -> None:
        ids = self._collection.get(include=[])["ids"]
        for start in range(0, len(ids), self._batch):
            self._collection.delete(ids=ids[start : start + self._batch])

    def drop(self) -> None:
        """Delete the collection (an on-disk one too). The store is unusable afterwards."""
        if self._finalizer is not None:
            self._finalizer.detach()
        _drop_collection(self.path, self.name)

    def count(self) -> int:
        return int(self._collection.count())

    def __len__(self) -> int:
        return self.count()

    def query(self, text: str, k: int, *, where: Mapping[str, Any] | None = None) -> list[Hit]:
        """The ``k`` entries most similar to ``text``, most similar first."""
        return self.query_vector(self.embed([text])[0], k, where=where)

    def query_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]:
        n = min(k, self.count())
        if n <= 0:
            return []
        result = self._collection.query(
            query_embeddings=[list(vector)],
            n_results=n,
            where=dict(where) if where else None,
            include=["documents", "metadatas", "distances"],
        )
        hits = []
        for entry_id, text, raw, distance in zip(
            result["ids"][0],
            result["documents"][0],
            result["metadatas"][0],
            result["distances"][0],
            strict=True,
        ):
            meta, _ = _decode(raw)
            hits.append(Hit(entry_id, text or "", meta, 1.0 - float(distance)))
        return hits

    def get(self, ids: Sequence[str], *, embeddings: bool = False) -> list[Record]:
        """The entries with these ids, in the order asked; unknown ids are left out."""
        found = {r.id: r for _, r in self._fetch(list(ids), embeddings=embeddings)}
        return [found[i] for i in ids if i in found]

    def all(self, *, embeddings: bool = False) -> list[Record]:
        """Every entry, oldest first."""
        return [r for _, r in sorted(self._fetch(None, embeddings=embeddings), key=lambda p: p[0])]

    def _existing(self, ids: list[str]) -> set[str]:
        return set(self._collection.get(ids=ids, include=[])["ids"])

    def _fetch(self, ids: list[str] | None, *, embeddings: bool) -> list[tuple[int, Record]]:
        """``(insertion number, record)`` pairs in chromadb's order."""
        if ids is not None and not ids:
            return []
        include = ["documents", "metadatas"] + (["embeddings"] if embeddings else [])
        result = self._collection.get(ids=ids, include=include)
        vectors = result.get("embeddings") if embeddings else None
        out = []
        for n, entry_id in enumerate(result["ids"]):
            meta, seq = _decode(result["metadatas"][n])
            vector = None if vectors is None else [float(x) for x in vectors[n]]
            out.append((seq, Record(entry_id, result["documents"][n] or "", meta, vector)))
        return out

    def fork(self) -> VectorStore:
        """A new collection (new unique name) holding a copy of every entry."""
        other = VectorStore(self.embedder, path=self.path, prefix=self.prefix)
        other._add_records(self.all(embeddings=True))
        other._next_seq = self._next_seq
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.fork()  # type: ignore[return-value]

    def save_state(self) -> dict[str, Any]:
        """Every entry with its embedding, as plain JSON values."""
        return {
            "embedder": self.embedder.name,
            "records": [
                {"id": r.id, "text": r.text, "metadata": r.metadata, "embedding": r.embedding}
                for r in self.all(embeddings=True)
            ],
        }

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Replace the contents with exported entries (re-embedding any without a vector)."""
        if state.get("embedder") not in (None, self.embedder.name):
            raise VectorStoreError(
                f"the state was saved with the '{state['embedder']}' embedder but this store "
                f"uses '{self.embedder.name}'; load it into a store with the same embedder"
            )
        records = [
            Record(str(r["id"]), str(r["text"]), dict(r.get("metadata") or {}), r.get("embedding"))
            for r in state.get("records", [])
        ]
        self.clear()
        self._next_seq = 1
        self._add_records(records)

    def _add_records(self, records: list[Record]) -> None:
        if not records:
            return
        missing = [r.text for r in records if r.embedding is None]
        computed = iter(self.embed(missing)) if missing else iter(())
        vectors = [r.embedding if r.embedding is not None else next(computed) for r in records]
        self.add(
            [r.id for r in records],
            [r.text for r in records],
            [r.metadata for r in records],
            embeddings=vectors,
        )


__all__ = ["Hit", "Record", "VectorStore", "VectorStoreError"]
