"""A small in-process vector store: exact cosine search, metadata filters, an O(1) fork.

Vectors live in an append-only matrix (float32, unit length) that a store shares with its
forks; each store keeps its own map from entry id to a row, copied on its first write after a
fork (``cogarch.core.cow.CowDict``). A write never changes a row: an updated entry gets a new
row, a deleted one just leaves the map, so a fork sees exactly the entries it had, whatever the
others write and in whatever order. Rows no store needs any more are dropped when a store
rebuilds its matrix (once it holds more than twice its live rows).

Search is exact: one matrix-vector product over the store's rows, the best ``k`` by cosine
similarity, ties in insertion order. Metadata may hold any JSON value and is kept as JSON
text, so every read hands out a fresh copy; keys starting with ``_`` are reserved. ``where``
filters follow chromadb's language (see ``where``). Vectors are always computed by the
store's embedder, one batch per call, unless given.

The ``a``-prefixed methods do the same work off the event loop when it is heavy (the
embedder's model, a search over ``OFFLOAD_ROWS`` rows or more), so other trials go on
meanwhile. ``ChromaVectorStore`` (``chroma_store``) keeps the entries in a chromadb
collection instead, behind the same interface.

A store made with a lexical or hybrid ``search`` (``search.SearchParams``) also keeps a BM25
index of its texts (``lexical.LexicalIndex``), written with every write, forked with the store
in O(1) and saved and loaded with it; ``query``/``aquery`` then search as the setting says.
"""

from __future__ import annotations

import asyncio
import base64
import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from pydantic import BaseModel, ConfigDict

from cogarch.core.cow import CowDict
from cogarch.core.state import StateError, state_object, state_part, state_value

from .embeddings import Embedder, embed_off_loop
from .lexical import LexicalIndex
from .records import (
    REVISIONS,
    Hit,
    Record,
    VectorStoreError,
    checked_add,
    checked_update,
    encode_metadata,
    safe_prefix,
)
from .rows import Rows, unit, vector_block
from .search import DENSE, SearchParams, asearch, search
from .where import compile_where

OFFLOAD_ROWS = 16_384
"""Searches over at least this many rows run in a worker thread (about a millisecond)."""
_COMPACT_SLACK = 1024


class _Entry(NamedTuple):
    row: int
    seq: int
    text: str
    meta: str
    """The metadata as JSON text."""


@dataclass(frozen=True)
class _Index:
    """A store's live rows in insertion order (what a search scans), built on demand."""

    ids: tuple[str, ...]
    rows: np.ndarray


class VectorStore:
    """Add, update, delete, query, fork and export texts with their embeddings and metadata."""

    def __init__(
        self, embedder: Embedder, *, prefix: str = "cogarch", search: SearchParams = DENSE
    ) -> None:
        self.embedder = embedder
        self.search = search
        self.lexical = None if search.mode == "dense" else LexicalIndex()
        """The BM25 index of a lexical or hybrid store (see ``search``); None for dense."""
        self.prefix = safe_prefix(prefix)
        self.name = f"{self.prefix}-{uuid.uuid4().hex}"
        self._rows = Rows(int(embedder.dim))
        self._entries: CowDict[str, _Entry] = CowDict()
        self._next_seq = 1
        self._index: _Index | None = None
        self.revision = next(REVISIONS)
        """Changes with every write, to a number no other store's content ever had (a fork
        keeps its original's until it writes), so it can key a cache of derived values."""

    def __repr__(self) -> str:
        return f"VectorStore(name={self.name!r}, embedder={self.embedder!r})"

    # -- embedding -------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed in one batch with this store's embedder."""
        return self.embedder.embed(list(texts))

    async def aembed(self, texts: Sequence[str]) -> list[list[float]]:
        """``embed``, in a worker thread unless the embedder is cheap for this many texts."""
        return await embed_off_loop(self.embedder, list(texts))

    # -- writing ---------------------------------------------------------------------
    def _present(self, ids: list[str]) -> list[str]:
        return [i for i in ids if i in self._entries]

    def add(
        self,
        ids: Sequence[str],
        texts: Sequence[str],
        metadatas: Sequence[Mapping[str, Any]] | None = None,
        *,
        embeddings: Sequence[Sequence[float]] | None = None,
    ) -> None:
        """Add new entries; an id that already exists is an error (use ``update``)."""
        ids, texts, metas = checked_add(self.name, ids, texts, metadatas, self._present)
        if not ids:
            return
        encoded = [encode_metadata(m) for m in metas]
        vectors = self.embed(texts) if embeddings is None else embeddings
        if len(vectors) != len(ids):
            raise VectorStoreError(f"add got {len(vectors)} embeddings for {len(ids)} ids")
        first = self._rows.append(unit(vectors, self._rows.dim))
        for n, (entry_id, text, meta) in enumerate(zip(ids, texts, encoded, strict=True)):
            self._entries[entry_id] = _Entry(first + n, self._next_seq + n, text, meta)
        self._next_seq += len(ids)
        if self.lexical is not None:
            self.lexical.add(ids, texts)
        self._changed()

    async def aadd(
        self,
        ids: Sequence[str],
        texts: Sequence[str],
        metadatas: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        """``add``, embedding the texts off the event loop."""
        self.add(ids, texts, metadatas, embeddings=await self.aembed(texts) if texts else [])

    def update(
        self,
        ids: Sequence[str],
        texts: Sequence[str] | None = None,
        metadatas: Sequence[Mapping[str, Any]] | None = None,
        *,
        embeddings: Sequence[Sequence[float]] | None = None,
    ) -> None:
        """Replace the text (re-embedded) and/or the whole metadata of existing entries."""
        ids = checked_update(self.name, ids, texts, metadatas, self._present)
        if not ids:
            return
        encoded = [encode_metadata(m) for m in metadatas] if metadatas is not None else None
        first = None
        if texts is not None:
            vectors = self.embed(texts) if embeddings is None else embeddings
            first = self._rows.append(unit(vectors, self._rows.dim))
        for n, entry_id in enumerate(ids):
            old = self._entries[entry_id]
            self._entries[entry_id] = _Entry(
                old.row if first is None else first + n,
                old.seq,
                old.text if texts is None else str(texts[n]),
                old.meta if encoded is None else encoded[n],
            )
        if texts is not None and self.lexical is not None:
            self.lexical.update(ids, [str(t) for t in texts])
        self._changed()

    async def aupdate(
        self,
        ids: Sequence[str],
        texts: Sequence[str] | None = None,
        metadatas: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        """``update``, embedding new texts off the event loop."""
        vectors = await self.aembed(texts) if texts else None
        self.update(ids, texts, metadatas, embeddings=vectors)

    def delete(self, ids: Sequence[str]) -> None:
        """Remove entries; ids not in the store are ignored."""
        gone = [i for i in ids if i in self._entries]
        for entry_id in gone:
            del self._entries[entry_id]
        if gone and self.lexical is not None:
            self.lexical.delete(gone)
        if gone:
            self._changed()

    def clear(self) -> None:
        self._entries = CowDict()
        self._rows = Rows(self._rows.dim)
        self._index = None
        if self.lexical is not None:
            self.lexical = LexicalIndex()
        self.revision = next(REVISIONS)

    def drop(self) -> None:
        """Empty the store and let its memory go (the store stays usable, empty)."""
        self.clear()

    def _changed(self) -> None:
        self._index = None
        self.revision = next(REVISIONS)
        if self._rows.size > 2 * len(self._entries) + _COMPACT_SLACK:
            self._compact()

    def _compact(self) -> None:
        """Copy the live rows into a matrix of this store's own (amortised: it runs once the
        rows nobody uses outnumber the live ones)."""
        entries = list(self._entries.items())
        rows = Rows(self._rows.dim, capacity=2 * len(entries) + 64)
        old = self._rows.matrix
        rows.append(old[[e.row for _, e in entries]] if entries else old[:0])
        self._rows = rows
        self._entries = CowDict((i, e._replace(row=n)) for n, (i, e) in enumerate(entries))

    # -- reading ---------------------------------------------------------------------
    def count(self) -> int:
        return len(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._entries

    def query(
        self,
        text: str,
        k: int,
        *,
        where: Mapping[str, Any] | None = None,
        vector: Sequence[float] | None = None,
    ) -> list[Hit]:
        """The ``k`` best entries for ``text`` by the store's ``search`` (dense: the most
        similar first); ``vector`` is the query's embedding when the caller has it."""
        if k <= 0 or not self._entries:
            return []
        if self.lexical is not None:
            return search(self, self.search, text, k, where=where, vector=vector)
        return self.query_vector(
            self.embed([text])[0] if vector is None else vector, k, where=where
        )

    async def aquery(
        self,
        text: str,
        k: int,
        *,
        where: Mapping[str, Any] | None = None,
        vector: Sequence[float] | None = None,
    ) -> list[Hit]:
        """``query``, embedding and (for a large store) searching off the event loop."""
        if k <= 0 or not self._entries:
            return []
        if self.lexical is not None:
            return await asearch(self, self.search, text, k, where=where, vector=vector)
        if vector is None:
            [vector] = await self.aembed([text])
        return await self.aquery_vector(vector, k, where=where)

    async def aquery_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]:
        """``query_vector``, in a worker thread for a store of ``OFFLOAD_ROWS`` rows or more."""
        if len(self._entries) >= OFFLOAD_ROWS:
            return await asyncio.to_thread(self.query_vector, vector, k, where=where)
        return self.query_vector(vector, k, where=where)

    def query_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]:
        """The ``k`` entries most similar to ``vector``, most similar first."""
        test = compile_where(where) if where else None
        index = self._live()
        n = len(index.ids)
        if k <= 0 or n == 0:
            return []
        [query] = unit([list(vector)], self._rows.dim)
        scores = self._rows.scores(index.rows, query)
        hits: list[Hit] = []
        for position in self._ranked(scores, k if test is None else n):
            entry_id = index.ids[position]
            entry = self._entries[entry_id]
            meta = json.loads(entry.meta)
            if test is not None and not test(meta):
                continue
            hits.append(Hit(entry_id, entry.text, meta, float(scores[position])))
            if len(hits) == k:
                break
        return hits

    def dense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """``(id, cosine similarity)`` of the ``k`` entries most similar to ``vector``, most
        similar first, without reading their texts or metadata (unless ``where`` needs it)."""
        if where:
            return [(h.id, h.similarity) for h in self.query_vector(vector, k, where=where)]
        index = self._live()
        if k <= 0 or not len(index.ids):
            return []
        [query] = unit([list(vector)], self._rows.dim)
        scores = self._rows.scores(index.rows, query)
        return [(index.ids[p], float(scores[p])) for p in self._ranked(scores, k)]

    async def adense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """``dense_ranked``, in a worker thread for a store of ``OFFLOAD_ROWS`` rows or more."""
        if len(self._entries) >= OFFLOAD_ROWS:
            return await asyncio.to_thread(self.dense_ranked, vector, k, where=where)
        return self.dense_ranked(vector, k, where=where)

    def dense_scores(self, vector: Sequence[float], ids: Sequence[str]) -> dict[str, float]:
        """The cosine similarity of ``vector`` with each of ``ids`` (those in the store)."""
        known = [i for i in ids if i in self._entries]
        if not known:
            return {}
        [query] = unit([list(vector)], self._rows.dim)
        scores = self._rows.matrix[[self._entries[i].row for i in known]] @ query
        return {i: float(s) for i, s in zip(known, scores, strict=True)}

    @staticmethod
    def _ranked(scores: np.ndarray, k: int) -> np.ndarray:
        """Positions of the ``k`` best scores, best first, ties in insertion order."""
        if k < len(scores):
            kth = np.partition(scores, len(scores) - k)[len(scores) - k]
            chosen = np.flatnonzero(scores >= kth)
        else:
            chosen = np.arange(len(scores))
        return chosen[np.argsort(-scores[chosen], kind="stable")][:k]

    def _live(self) -> _Index:
        index = self._index
        if index is None:
            entries = self._entries
            index = _Index(
                tuple(entries), np.fromiter((e.row for e in entries.values()), dtype=np.int64)
            )
            self._index = index
        return index

    def get(self, ids: Sequence[str], *, embeddings: bool = False) -> list[Record]:
        """The entries with these ids, in the order asked; unknown ids are left out."""
        return [self._record(i, embeddings) for i in ids if i in self._entries]

    def all(self, *, embeddings: bool = False) -> list[Record]:
        """Every entry, oldest first."""
        return [self._record(i, embeddings) for i in self._entries]

    def texts(self) -> list[tuple[str, str]]:
        """``(id, text)`` of every entry, oldest first, without decoding any metadata."""
        return [(i, e.text) for i, e in self._entries.items()]

    def _record(self, entry_id: str, embeddings: bool) -> Record:
        entry = self._entries[entry_id]
        vector = self._rows.matrix[entry.row].tolist() if embeddings else None
        return Record(entry_id, entry.text, json.loads(entry.meta), vector)

    # -- forks and state ---------------------------------------------------------------
    def fork(self) -> VectorStore:
        """An independent store with the same entries, in O(1): the rows stay shared."""
        twin = VectorStore.__new__(VectorStore)
        twin.embedder, twin.prefix, twin.search = self.embedder, self.prefix, self.search
        twin.lexical = None if self.lexical is None else self.lexical.fork()
        twin.name = f"{self.prefix}-{uuid.uuid4().hex}"
        twin._rows, twin._entries = self._rows, self._entries.fork()
        twin._next_seq, twin._index, twin.revision = self._next_seq, self._index, self.revision
        return twin

    def __copy__(self) -> VectorStore:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> VectorStore:
        return self.fork()

    def save_state(self) -> dict[str, Any]:
        """Every entry, and the vectors as one base64 block of float32 rows (JSON values);
        a lexical or hybrid store adds its index's tokens under ``lexical``."""
        entries = list(self._entries.items())
        rows = self._rows.matrix[[e.row for _, e in entries]] if entries else np.zeros((0, 0))
        state = {
            "embedder": self.embedder.name,
            "records": [
                {"id": i, "text": e.text, "metadata": json.loads(e.meta)} for i, e in entries
            ],
            "vectors": vector_block(rows),
        }
        if self.lexical is not None:
            state["lexical"] = self.lexical.save_state()
        return state

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Replace the contents with exported entries (re-embedding any without a vector).

        Reads this version's states and older ones that give each record its ``embedding``.
        The whole state is checked before the contents change: a malformed record, vectors
        that cannot be read, are of the wrong size or hold values that are not finite numbers
        (NaN, infinities) raise ``StateError`` and leave the store as it was.
        """
        staged = VectorStore(self.embedder, prefix=self.prefix)
        try:
            ids, texts, metas, vectors = self._read_state(state)
        except StateError as exc:
            raise StoreStateError(str(exc)) from None
        try:
            staged.add(ids, texts, metas, embeddings=vectors)
            lexical = restored_lexical(
                self.search, state, [{"id": i, "text": t} for i, t in zip(ids, texts, strict=True)]
            )
        except VectorStoreError as exc:
            raise StoreStateError(
                f"the vector store state's 'records' are malformed ({exc})"
            ) from None
        self._entries, self._rows, self._next_seq = staged._entries, staged._rows, staged._next_seq
        self._index, self.revision = None, next(REVISIONS)
        self.lexical = lexical

    def _read_state(
        self, state: Any
    ) -> tuple[list[str], list[str], list[dict[str, Any]], list[Any]]:
        """The ids, texts, metadata and vectors of a saved state, every part checked."""
        owner = "vector store"
        state = state_object(state, owner)
        if state.get("embedder") not in (None, self.embedder.name):
            raise StateError(
                f"the state was saved with the '{state['embedder']}' embedder but this store "
                f"uses '{self.embedder.name}'; load it into a store with the same embedder"
            )
        records = state_value({"records": state.get("records", [])}, "records", list, owner)
        with state_part(owner, "records"):
            checked = [_Saved.model_validate(r) for r in records]
        vectors: list[Any] = [r.embedding for r in checked]
        block = state.get("vectors")
        if block is not None and not isinstance(block, Mapping):
            raise StateError(f"the {owner} state's 'vectors' is not an object; it is damaged")
        if isinstance(block, Mapping) and records:
            try:
                raw = np.frombuffer(base64.b64decode(str(block["base64"])), dtype="<f4")
            except (KeyError, ValueError) as exc:  # binascii.Error is a ValueError
                raise StateError(
                    f"the {owner} state's 'vectors' cannot be read ({exc}); it is damaged"
                ) from None
            if raw.size != len(records) * self._rows.dim:
                raise StateError(
                    f"the {owner} state's 'vectors' hold {raw.size} values for {len(records)} "
                    f"records of {self._rows.dim} dimensions; it is damaged, or from another "
                    "embedder"
                )
            vectors = list(raw.reshape(len(records), self._rows.dim))
        given = [v for v in vectors if v is not None]
        if given:
            with state_part(owner, "vectors"):
                matrix = np.asarray(given, dtype=np.float32)
                if matrix.ndim != 2 or matrix.shape[1] != self._rows.dim:
                    raise ValueError(f"vectors of shape {matrix.shape}, not {self._rows.dim}-long")
            if not np.isfinite(matrix).all():
                raise StateError(
                    f"the {owner} state's 'vectors' hold values that are not finite numbers "
                    "(NaN or infinite); it is damaged"
                )
        missing = [i for i, v in enumerate(vectors) if v is None]
        if missing:
            computed = self.embed([checked[i].text for i in missing])
            for i, vector in zip(missing, computed, strict=True):
                vectors[i] = vector
        ids = [r.id for r in checked]
        if len(set(ids)) != len(ids):
            raise StateError(f"the {owner} state's 'records' hold an id twice; it is damaged")
        return ids, [r.text for r in checked], [dict(r.metadata or {}) for r in checked], vectors


class StoreStateError(StateError, VectorStoreError):
    """A store's saved state that cannot be loaded (the store is unchanged)."""


class _Saved(BaseModel):
    """One record of a saved store (older states give its ``embedding`` with it)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    metadata: dict[str, Any] | None = None
    embedding: list[float] | None = None


def restored_lexical(
    search: SearchParams, state: Mapping[str, Any], records: Sequence[Mapping[str, Any]]
) -> LexicalIndex | None:
    """The lexical index a store with ``search`` gets from a saved ``state`` of ``records``
    (checked before anything is replaced; see ``LexicalIndex.restored``); None for dense."""
    if search.mode == "dense":
        return None
    saved = state.get("lexical")
    return LexicalIndex.restored(
        saved if isinstance(saved, Mapping) else None,
        [(str(r["id"]), str(r["text"])) for r in records],
    )


__all__ = [
    "OFFLOAD_ROWS",
    "REVISIONS",
    "Hit",
    "Record",
    "StoreStateError",
    "VectorStore",
    "VectorStoreError",
    "encode_metadata",
]
