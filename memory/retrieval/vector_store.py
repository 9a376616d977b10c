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
collection instead; what both do the same way (argument checks, search setting, fork
bookkeeping, the saved state) is ``store_base.BaseStore``.

A store made with a lexical or hybrid ``search`` (``search.SearchParams``) also keeps a BM25
index of its texts (``lexical.LexicalIndex``), written with every write, forked with the store
in O(1) and saved and loaded with it; ``query``/``aquery`` then search as the setting says.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from cogarch.core.cow import CowDict

from .embeddings import Embedder
from .records import REVISIONS, Hit, Record
from .rows import Rows, dots, unit
from .search import DENSE, SearchParams
from .store_base import Added, BaseStore, Changed
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


class VectorStore(BaseStore):
    """Add, update, delete, query, fork and export texts with their embeddings and metadata."""

    def __init__(
        self, embedder: Embedder, *, prefix: str = "cogarch", search: SearchParams = DENSE
    ) -> None:
        self._start(embedder, prefix, search)
        self._name = f"{self.prefix}-{uuid.uuid4().hex}"
        self._rows = Rows(int(embedder.dim))
        self._entries: CowDict[str, _Entry] = CowDict()
        self._index: _Index | None = None

    @property
    def name(self) -> str:
        """The store's unique name (its prefix and a fresh id)."""
        return self._name

    # -- writing ---------------------------------------------------------------------
    def _present(self, ids: list[str]) -> list[str]:
        return [i for i in ids if i in self._entries]

    def _insert(self, new: Added) -> None:
        first = self._rows.append(unit(new.vectors, self._rows.dim))
        for n, (entry_id, text, meta) in enumerate(
            zip(new.ids, new.texts, new.encoded, strict=True)
        ):
            self._entries[entry_id] = _Entry(first + n, new.first_seq + n, text, meta)

    def _replace(self, change: Changed) -> None:
        texts, encoded, vectors = change.texts, change.encoded, change.vectors
        first = None if vectors is None else self._rows.append(unit(vectors, self._rows.dim))
        for n, entry_id in enumerate(change.ids):
            old = self._entries[entry_id]
            self._entries[entry_id] = _Entry(
                old.row if first is None else first + n,
                old.seq,
                old.text if texts is None else str(texts[n]),
                old.meta if encoded is None else encoded[n],
            )

    def _remove(self, ids: list[str]) -> None:
        for entry_id in ids:
            del self._entries[entry_id]

    def _empty(self) -> None:
        self._entries = CowDict()
        self._rows = Rows(self._rows.dim)
        self._index = None

    def drop(self) -> None:
        """Empty the store and let its memory go (the store stays usable, empty)."""
        self.clear()

    def _changed(self) -> None:
        self._index = None
        super()._changed()
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

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._entries

    def _searches_off_loop(self) -> bool:
        return len(self._entries) >= OFFLOAD_ROWS

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

    def dense_scores(self, vector: Sequence[float], ids: Sequence[str]) -> dict[str, float]:
        """The cosine similarity of ``vector`` with each of ``ids`` (those in the store)."""
        known = [i for i in ids if i in self._entries]
        if not known:
            return {}
        [query] = unit([list(vector)], self._rows.dim)
        scores = dots(self._rows.matrix[[self._entries[i].row for i in known]], query)
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
    def _fork_entries(self, twin: VectorStore) -> None:
        """The rows stay shared; the entry map is copied on its first write."""
        twin._name = f"{self.prefix}-{uuid.uuid4().hex}"
        twin._rows, twin._entries, twin._index = self._rows, self._entries.fork(), self._index

    def _export(self) -> tuple[list[dict[str, Any]], np.ndarray]:
        entries = list(self._entries.items())
        rows = self._rows.matrix[[e.row for _, e in entries]] if entries else np.zeros((0, 0))
        return [{"id": i, "text": e.text, "metadata": json.loads(e.meta)} for i, e in entries], rows

    def _staging(self) -> VectorStore:
        return VectorStore(self.embedder, prefix=self.prefix)

    def _take(self, staged: BaseStore) -> None:
        assert isinstance(staged, VectorStore)
        self._entries, self._rows, self._next_seq = staged._entries, staged._rows, staged._next_seq
        self._index, self.revision = None, next(REVISIONS)
