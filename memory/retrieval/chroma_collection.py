"""chromadb's side of ``ChromaVectorStore``: clients, collections and metadata encoding.

One client per location (in memory, or a directory), telemetry off. A collection is created
with cosine space and an explicit embedding function around our embedder (chromadb's default
one would try to download a model), under a name that carries a fresh unique id. Metadata
scalars are stored as chromadb metadata, so ``where`` filters work on them; lists, dicts and
``None`` as JSON text, listed under a reserved key and decoded on read.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import uuid
import weakref
from collections.abc import Mapping
from functools import cache
from typing import Any

from .embeddings import Embedder, get_embedder
from .records import VectorStoreError, encode_metadata

_SEQ = "_seq"
_JSON = "_json"
_SCALARS = (bool, int, float, str)

_CLIENTS: dict[str, Any] = {}
_CLIENTS_LOCK = threading.Lock()


def chroma_client(path: str | None) -> Any:
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
def adapter_class() -> type:
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


def drop_collection(path: str | None, name: str) -> None:
    # Best effort (it also runs during garbage collection, where nobody could handle an error).
    with contextlib.suppress(Exception):
        chroma_client(path).delete_collection(name)


def encode(metadata: Mapping[str, Any], seq: int) -> dict[str, Any]:
    encode_metadata(metadata)  # the same checks as the in-process store
    out: dict[str, Any] = {_SEQ: seq}
    as_json: list[str] = []
    for key, value in metadata.items():
        if isinstance(value, _SCALARS):
            out[key] = value
        else:
            out[key] = json.dumps(value)
            as_json.append(key)
    out[_JSON] = json.dumps(as_json)
    return out


def decode(raw: Mapping[str, Any] | None) -> tuple[dict[str, Any], int]:
    if not raw:
        return {}, 0
    as_json = set(json.loads(raw.get(_JSON, "[]")))
    seq = int(raw.get(_SEQ, 0))
    out = {
        k: (json.loads(v) if k in as_json else v) for k, v in raw.items() if k not in (_SEQ, _JSON)
    }
    return out, seq


class Collection:
    """One chromadb collection and how many stores hold it."""

    def __init__(self, embedder: Embedder, path: str | None, prefix: str) -> None:
        self.path = path
        self.name = f"{prefix}-{uuid.uuid4().hex}"
        client = chroma_client(path)
        self.chroma = client.create_collection(
            self.name,
            embedding_function=adapter_class()(embedder),
            configuration={"hnsw": {"space": "cosine"}},
        )
        self.batch = int(client.get_max_batch_size())
        self.size: int | None = 0
        """The entries it holds, as last counted (None: written since, count again)."""
        self.holders = 0
        self._lock = threading.Lock()  # a store let go by the garbage collector, any thread
        if path is None:  # in memory: gone with the last store that holds it
            weakref.finalize(self, drop_collection, None, self.name).atexit = False

    def count(self) -> int:
        """The entries it holds (counted by chromadb once per write, not per read)."""
        if self.size is None:
            self.size = int(self.chroma.count())
        return self.size

    def hold(self) -> None:
        with self._lock:
            self.holders += 1

    def release(self) -> None:
        with self._lock:
            self.holders -= 1
