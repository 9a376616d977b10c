"""What every vector store does the same way, whatever holds its entries.

``BaseStore`` checks the arguments of every write, embeds with the store's embedder, keeps the
lexical index of a lexical or hybrid store in step with the entries, routes ``query`` through
the store's ``search`` setting, forks (the shared bookkeeping; the entries fork as the kind
says), and saves and loads the one state shape both kinds share (``store_state``): a state is
read, checked and staged in a new in-process store before the contents are swapped, so a
malformed state leaves the store as it was.

A kind of store (``VectorStore`` in process, ``ChromaVectorStore`` over chromadb) supplies
where the entries live: the ``_insert``/``_replace``/``_remove``/``_empty`` writes, the reads
(``get``, ``all``, ``texts``, ``count``, ``query_vector``, ``dense_ranked``,
``dense_scores``), ``_fork_entries``, ``_export`` and ``_take``.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Self

import numpy as np

from cogarch.core.state import StateError

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
from .rows import vector_block
from .search import SearchParams, asearch, search
from .store_state import StoreStateError, embedder_version, read_saved, restored_lexical


class Added(NamedTuple):
    """Checked new entries for ``_insert``, numbered in insertion order from ``first_seq``."""

    ids: list[str]
    texts: list[str]
    metas: list[dict[str, Any]]
    encoded: list[str]
    """The metadata as JSON text."""
    vectors: Sequence[Sequence[float]]
    first_seq: int


class Changed(NamedTuple):
    """A checked update for ``_replace``: new texts and their vectors and/or new metadata."""

    ids: list[str]
    texts: Sequence[str] | None
    metas: Sequence[Mapping[str, Any]] | None
    encoded: list[str] | None
    vectors: Sequence[Sequence[float]] | None


class BaseStore(ABC):
    """Add, update, delete, query, fork and export texts with their embeddings and metadata."""

    WRITES_OFF_LOOP: ClassVar[bool] = False
    """Whether ``aadd`` runs the write in a worker thread (the write itself is slow)."""

    embedder: Embedder
    search: SearchParams
    lexical: LexicalIndex | None
    prefix: str
    revision: int
    _next_seq: int

    def _start(self, embedder: Embedder, prefix: str, search: SearchParams) -> None:
        """Set what every store holds (called first by each kind's ``__init__``)."""
        self.embedder = embedder
        self.search = search
        self.lexical = None if search.mode == "dense" else LexicalIndex()
        """The BM25 index of a lexical or hybrid store (see ``search``); None for dense."""
        self.prefix = safe_prefix(prefix)
        self._next_seq = 1
        self.revision = next(REVISIONS)
        """Changes with every write, to a number no other store's content ever had (a fork
        keeps its original's until it writes), so it can key a cache of derived values."""

    @property
    @abstractmethod
    def name(self) -> str:
        """The store's unique name."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, embedder={self.embedder!r})"

    # -- embedding -------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed in one batch with this store's embedder."""
        return self.embedder.embed(list(texts))

    async def aembed(self, texts: Sequence[str]) -> list[list[float]]:
        """``embed``, in a worker thread unless the embedder is cheap for this many texts."""
        return await embed_off_loop(self.embedder, list(texts))

    # -- writing ---------------------------------------------------------------------
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
        self._insert(Added(ids, texts, metas, encoded, vectors, self._next_seq))
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
        """``add``, embedding the texts off the event loop (and writing there too for a kind
        whose writes are slow, ``WRITES_OFF_LOOP``)."""
        vectors = await self.aembed(texts) if texts else []
        if self.WRITES_OFF_LOOP:
            await asyncio.to_thread(self.add, ids, texts, metadatas, embeddings=vectors)
        else:
            self.add(ids, texts, metadatas, embeddings=vectors)

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
        vectors = None
        if texts is not None:
            vectors = self.embed(texts) if embeddings is None else embeddings
        self._replace(Changed(ids, texts, metadatas, encoded, vectors))
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
        ids = list(ids)
        gone = self._present(ids) if ids else []
        if not gone:
            return
        self._remove(gone)
        if self.lexical is not None:
            self.lexical.delete(gone)
        self._changed()

    def clear(self) -> None:
        """Remove every entry."""
        self._empty()
        if self.lexical is not None:
            self.lexical = LexicalIndex()
        self.revision = next(REVISIONS)

    @abstractmethod
    def drop(self) -> None:
        """Let the entries go (see each kind for whether the store stays usable)."""

    def _changed(self) -> None:
        """After a write: a new ``revision`` (a kind may tidy its entries here too)."""
        self.revision = next(REVISIONS)

    @abstractmethod
    def _present(self, ids: list[str]) -> list[str]:
        """Those of ``ids`` the store holds."""

    @abstractmethod
    def _insert(self, new: Added) -> None:
        """Store checked new entries."""

    @abstractmethod
    def _replace(self, change: Changed) -> None:
        """Replace the texts and vectors and/or the metadata of existing entries."""

    @abstractmethod
    def _remove(self, ids: list[str]) -> None:
        """Remove entries the store holds."""

    @abstractmethod
    def _empty(self) -> None:
        """Remove every entry (the lexical index and ``revision`` are done by ``clear``)."""

    # -- reading ---------------------------------------------------------------------
    @abstractmethod
    def count(self) -> int: ...

    def __len__(self) -> int:
        return self.count()

    @abstractmethod
    def __contains__(self, entry_id: object) -> bool: ...

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
        if k <= 0 or not len(self):
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
        """``query``, embedding and (for a slow search) searching off the event loop."""
        if k <= 0 or not len(self):
            return []
        if self.lexical is not None:
            return await asearch(self, self.search, text, k, where=where, vector=vector)
        if vector is None:
            [vector] = await self.aembed([text])
        return await self.aquery_vector(vector, k, where=where)

    def _searches_off_loop(self) -> bool:
        """Whether a search is slow enough to run in a worker thread."""
        return True

    @abstractmethod
    def query_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]:
        """The ``k`` entries most similar to ``vector``, most similar first."""

    async def aquery_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]:
        """``query_vector``, in a worker thread when the search is slow."""
        if self._searches_off_loop():
            return await asyncio.to_thread(self.query_vector, vector, k, where=where)
        return self.query_vector(vector, k, where=where)

    @abstractmethod
    def dense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """``(id, cosine similarity)`` of the ``k`` entries most similar to ``vector``, most
        similar first, without reading their texts or metadata."""

    async def adense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """``dense_ranked``, in a worker thread when the search is slow."""
        if self._searches_off_loop():
            return await asyncio.to_thread(self.dense_ranked, vector, k, where=where)
        return self.dense_ranked(vector, k, where=where)

    @abstractmethod
    def dense_scores(self, vector: Sequence[float], ids: Sequence[str]) -> dict[str, float]:
        """The cosine similarity of ``vector`` with each of ``ids`` (those in the store)."""

    @abstractmethod
    def get(self, ids: Sequence[str], *, embeddings: bool = False) -> list[Record]:
        """The entries with these ids, in the order asked; unknown ids are left out."""

    @abstractmethod
    def all(self, *, embeddings: bool = False) -> list[Record]:
        """Every entry, oldest first."""

    @abstractmethod
    def texts(self) -> list[tuple[str, str]]:
        """``(id, text)`` of every entry, oldest first."""

    # -- forks and state ---------------------------------------------------------------
    def fork(self) -> Self:
        """An independent store with the same entries, in O(1) (see each kind for how)."""
        twin = type(self).__new__(type(self))
        twin.embedder, twin.prefix, twin.search = self.embedder, self.prefix, self.search
        twin.lexical = None if self.lexical is None else self.lexical.fork()
        twin._next_seq, twin.revision = self._next_seq, self.revision
        self._fork_entries(twin)
        return twin

    @abstractmethod
    def _fork_entries(self, twin: Self) -> None:
        """Give the new ``twin`` this store's entries, in O(1)."""

    def __copy__(self) -> Self:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.fork()

    def save_state(self) -> dict[str, Any]:
        """Every entry, and the vectors as one base64 block of float32 rows (JSON values);
        a lexical or hybrid store adds its index's tokens under ``lexical``. Either kind of
        store loads the other's state."""
        records, vectors = self._export()
        state = {
            "embedder": self.embedder.name,
            "records": records,
            "vectors": vector_block(vectors),
        }
        if (version := embedder_version(self.embedder)) is not None:
            state["embedder_version"] = version
        if self.lexical is not None:
            state["lexical"] = self.lexical.save_state()
        return state

    @abstractmethod
    def _export(self) -> tuple[list[dict[str, Any]], np.ndarray | list[list[float]]]:
        """Every entry as ``{id, text, metadata}``, oldest first, and their vectors."""

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Replace the contents with exported entries (re-embedding any without a vector).

        Reads either kind's states, this version's and older ones that give each record its
        ``embedding``. The whole state is checked before the contents change: a malformed
        record, vectors that cannot be read, are of the wrong size or hold values that are not
        finite numbers (NaN, infinities), a malformed lexical index raise ``StateError`` and
        leave the store as it was.
        """
        try:
            ids, texts, metas, vectors = read_saved(
                state,
                self.embedder.name,
                int(self.embedder.dim),
                self.embed,
                version=embedder_version(self.embedder),
            )
        except StateError as exc:
            raise StoreStateError(str(exc)) from None
        staged = self._staging()
        try:
            staged.add(ids, texts, metas, embeddings=vectors)
        except VectorStoreError as exc:
            raise StoreStateError(
                f"the vector store state's 'records' are malformed ({exc})"
            ) from None
        try:
            lexical = restored_lexical(
                self.search, state, [{"id": i, "text": t} for i, t in zip(ids, texts, strict=True)]
            )
        except VectorStoreError as exc:
            raise StoreStateError(
                f"the vector store state's 'lexical' is malformed ({exc})"
            ) from None
        self._take(staged)
        self.lexical = lexical

    @abstractmethod
    def _staging(self) -> BaseStore:
        """A new, empty, dense in-process store with this store's embedder, that a state is
        loaded into before it replaces the contents."""

    @abstractmethod
    def _take(self, staged: BaseStore) -> None:
        """Replace the contents with those of ``staged`` (from ``_staging``, now loaded)."""
