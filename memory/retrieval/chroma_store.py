"""The vector store over a chromadb collection (in memory, or on disk under a directory).

Same interface and metadata rules as the in-process ``VectorStore``; what differs is where the
entries live. Each collection's name carries a fresh unique id, so two trials or two branches
never write to the same collection by accident (chromadb shares one in-memory system per
process). Collections are created with cosine space and an explicit embedding function around
our embedder (chromadb's default one would try to download a model); vectors are always
computed by our embedder, one batch per call, and passed to chromadb explicitly. Metadata
scalars are stored as chromadb metadata (so ``where`` filters work on them); lists, dicts and
``None`` as JSON text, decoded on read.

A fork is O(1): it reads the same collection. The collection is copy-on-write: a store that
writes while another store still reads its collection first copies the entries into a new one
of its own (the others never see the write); a store that holds its collection alone writes
in place. An in-memory collection is deleted once no store holds it; one on disk stays until
every store holding it calls ``drop``.

With a lexical or hybrid ``search`` the store keeps a BM25 index beside the collection, as the
in-process store does (see ``vector_store``).
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from .chroma_collection import Collection, decode, drop_collection, encode
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
from .search import DENSE, SearchParams, asearch, search

_TIE_SLACK = 16
_TIE_DIGITS = 6
"""Scores equal to this many digits count as ties (HNSW distances carry float noise)."""


class ChromaVectorStore:
    """The ``VectorStore`` interface over a chromadb collection (see the module docstring).

    ``path=None`` keeps the collection in memory; a directory keeps it on disk.
    """

    def __init__(
        self,
        embedder: Embedder,
        *,
        path: str | os.PathLike[str] | None = None,
        prefix: str = "cogarch",
        search: SearchParams = DENSE,
    ) -> None:
        self.embedder = embedder
        self.search = search
        self.lexical = None if search.mode == "dense" else LexicalIndex()
        """The BM25 index of a lexical or hybrid store (see ``search``); None for dense."""
        self.path = None if path is None else os.fspath(path)
        self.prefix = safe_prefix(prefix)
        self._next_seq = 1
        self.revision = next(REVISIONS)
        """Changes with every write, to a number no other store's content ever had (a fork
        keeps its original's until it writes), so it can key a cache of derived values."""
        self._hold(Collection(embedder, self.path, self.prefix))

    def _hold(self, collection: Collection) -> None:
        collection.hold()
        self._col = collection
        self._release = weakref.finalize(self, collection.release)
        self._release.atexit = False

    @property
    def name(self) -> str:
        """The name of the chromadb collection the store reads now."""
        return self._col.name

    def __repr__(self) -> str:
        return f"ChromaVectorStore(name={self.name!r}, embedder={self.embedder!r})"

    def _own(self) -> Any:
        """The collection to write to: copied first while another store still reads it."""
        self.revision = next(REVISIONS)
        if self._col.holders > 1:
            records = self._fetch(None, embeddings=True)
            self._release()  # the old collection loses this holder
            self._hold(Collection(self.embedder, self.path, self.prefix))
            self._put(sorted(records, key=lambda p: p[0]))
        return self._col.chroma

    def _put(self, records: list[tuple[int, Record]]) -> None:
        chroma = self._col.chroma
        for start in range(0, len(records), self._col.batch):
            chunk = records[start : start + self._col.batch]
            chroma.add(
                ids=[r.id for _, r in chunk],
                documents=[r.text for _, r in chunk],
                embeddings=[r.embedding for _, r in chunk],
                metadatas=[encode(r.metadata, seq) for seq, r in chunk],
            )

    # -- embedding -------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embedder.embed(list(texts))

    async def aembed(self, texts: Sequence[str]) -> list[list[float]]:
        return await embed_off_loop(self.embedder, list(texts))

    # -- writing ---------------------------------------------------------------------
    def _present(self, ids: list[str]) -> list[str]:
        return list(self._col.chroma.get(ids=ids, include=[])["ids"])

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
        for meta in metas:
            encode_metadata(meta)
        vectors = [list(v) for v in embeddings] if embeddings is not None else self.embed(texts)
        if len(vectors) != len(ids):
            raise VectorStoreError(f"add got {len(vectors)} embeddings for {len(ids)} ids")
        self._own()
        seqs = range(self._next_seq, self._next_seq + len(ids))
        self._next_seq += len(ids)
        self._put(
            [
                (seq, Record(i, t, m, list(v)))
                for seq, i, t, m, v in zip(seqs, ids, texts, metas, vectors, strict=True)
            ]
        )
        if self.lexical is not None:
            self.lexical.add(ids, texts)

    async def aadd(
        self,
        ids: Sequence[str],
        texts: Sequence[str],
        metadatas: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        """``add``, off the event loop: chromadb's insert costs about a millisecond per entry."""
        vectors = await self.aembed(texts) if texts else []
        await asyncio.to_thread(self.add, ids, texts, metadatas, embeddings=vectors)

    def update(
        self,
        ids: Sequence[str],
        texts: Sequence[str] | None = None,
        metadatas: Sequence[Mapping[str, Any]] | None = None,
        *,
        embeddings: Sequence[Sequence[float]] | None = None,
    ) -> None:
        """Replace the text (re-embedded) and/or the whole metadata of existing entries."""
        current = {r.id: (seq, r) for seq, r in self._fetch(list(ids), embeddings=False)}
        ids = checked_update(self.name, ids, texts, metadatas, lambda asked: current)
        if not ids:
            return
        args: dict[str, Any] = {"ids": ids}
        if texts is not None:
            args["documents"] = list(texts)
            args["embeddings"] = (
                self.embed(texts) if embeddings is None else [list(v) for v in embeddings]
            )
        if metadatas is not None:
            encoded = []
            for entry_id, meta in zip(ids, metadatas, strict=True):
                seq, record = current[entry_id]
                new = encode(meta, seq)
                # chromadb merges metadata on update; None removes the keys that are gone.
                new.update({k: None for k in record.metadata if k not in new})
                encoded.append(new)
            args["metadatas"] = encoded
        self._own().update(**args)
        if texts is not None and self.lexical is not None:
            self.lexical.update(ids, [str(t) for t in texts])

    async def aupdate(
        self,
        ids: Sequence[str],
        texts: Sequence[str] | None = None,
        metadatas: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        vectors = await self.aembed(texts) if texts else None
        self.update(ids, texts, metadatas, embeddings=vectors)

    def delete(self, ids: Sequence[str]) -> None:
        """Remove entries; ids not in the store are ignored."""
        ids = list(ids)
        if ids and self._col.chroma.get(ids=ids, include=[])["ids"]:
            self._own().delete(ids=ids)
            if self.lexical is not None:
                self.lexical.delete(ids)

    def clear(self) -> None:
        self.revision = next(REVISIONS)
        if self.lexical is not None:
            self.lexical = LexicalIndex()
        if self._col.holders > 1:
            self._release()
            self._hold(Collection(self.embedder, self.path, self.prefix))
            return
        chroma = self._col.chroma
        ids = chroma.get(include=[])["ids"]
        for start in range(0, len(ids), self._col.batch):
            chroma.delete(ids=ids[start : start + self._col.batch])

    def drop(self) -> None:
        """Let go of the collection, deleting it (an on-disk one too) when no other store
        holds it. The store is unusable afterwards."""
        self._release()
        if self._col.holders <= 0:
            drop_collection(self.path, self._col.name)

    # -- reading ---------------------------------------------------------------------
    def count(self) -> int:
        return int(self._col.chroma.count())

    def __len__(self) -> int:
        return self.count()

    def __contains__(self, entry_id: object) -> bool:
        return isinstance(entry_id, str) and bool(
            self._col.chroma.get(ids=[entry_id], include=[])["ids"]
        )

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
        if self.lexical is not None:
            return await asearch(self, self.search, text, k, where=where, vector=vector)
        if vector is None:
            [vector] = await self.aembed([text])
        return await self.aquery_vector(vector, k, where=where)

    def dense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """``(id, cosine similarity)`` of the ``k`` entries most similar to ``vector``, most
        similar first (ties in chromadb's order), without reading their texts or metadata."""
        n = min(k, self.count())
        if n <= 0:
            return []
        result = self._col.chroma.query(
            query_embeddings=[list(vector)],
            n_results=n,
            where=dict(where) if where else None,
            include=["distances"],
        )
        return [
            (i, 1.0 - float(d))
            for i, d in zip(result["ids"][0], result["distances"][0], strict=True)
        ]

    async def adense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        return await asyncio.to_thread(self.dense_ranked, vector, k, where=where)

    def dense_scores(self, vector: Sequence[float], ids: Sequence[str]) -> dict[str, float]:
        """The cosine similarity of ``vector`` with each of ``ids`` (those in the store)."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        result = self._col.chroma.query(
            query_embeddings=[list(vector)], ids=ids, n_results=len(ids), include=["distances"]
        )
        found = {
            i: 1.0 - float(d) for i, d in zip(result["ids"][0], result["distances"][0], strict=True)
        }
        missed = [i for i in ids if i not in found]  # should the index leave any out
        if missed:
            import numpy as np

            query = np.asarray(vector, dtype=np.float64)
            for record in self.get(missed, embeddings=True):
                row = np.asarray(record.embedding, dtype=np.float64)
                norm = float(np.linalg.norm(row) * np.linalg.norm(query))
                found[record.id] = float(row @ query) / norm if norm > 0 else 0.0
        return found

    async def aquery_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]:
        return await asyncio.to_thread(self.query_vector, vector, k, where=where)

    def query_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]:
        if k <= 0:
            return []
        # chromadb orders equal distances arbitrarily: ask for more than k, then rank ties in
        # insertion order as the in-process store does, so a fork answers as its trunk would
        n = min(max(2 * k, k + _TIE_SLACK), self.count())
        if n <= 0:
            return []
        result = self._col.chroma.query(
            query_embeddings=[list(vector)],
            n_results=n,
            where=dict(where) if where else None,
            include=["documents", "metadatas", "distances"],
        )
        ranked = []
        for entry_id, text, raw, distance in zip(
            result["ids"][0],
            result["documents"][0],
            result["metadatas"][0],
            result["distances"][0],
            strict=True,
        ):
            meta, seq = decode(raw)
            score = 1.0 - float(distance)
            ranked.append((-round(score, _TIE_DIGITS), seq, Hit(entry_id, text or "", meta, score)))
        ranked.sort(key=lambda r: (r[0], r[1]))
        return [hit for _, _, hit in ranked[:k]]

    def get(self, ids: Sequence[str], *, embeddings: bool = False) -> list[Record]:
        """The entries with these ids, in the order asked; unknown ids are left out."""
        found = {r.id: r for _, r in self._fetch(list(ids), embeddings=embeddings)}
        return [found[i] for i in ids if i in found]

    def all(self, *, embeddings: bool = False) -> list[Record]:
        """Every entry, oldest first."""
        return [r for _, r in sorted(self._fetch(None, embeddings=embeddings), key=lambda p: p[0])]

    def texts(self) -> list[tuple[str, str]]:
        """``(id, text)`` of every entry, oldest first."""
        return [(r.id, r.text) for r in self.all()]

    def _fetch(self, ids: list[str] | None, *, embeddings: bool) -> list[tuple[int, Record]]:
        """``(insertion number, record)`` pairs in chromadb's order."""
        if ids is not None and not ids:
            return []
        include = ["documents", "metadatas"] + (["embeddings"] if embeddings else [])
        result = self._col.chroma.get(ids=ids, include=include)
        vectors = result.get("embeddings") if embeddings else None
        out = []
        for n, entry_id in enumerate(result["ids"]):
            meta, seq = decode(result["metadatas"][n])
            vector = None if vectors is None else [float(x) for x in vectors[n]]
            out.append((seq, Record(entry_id, result["documents"][n] or "", meta, vector)))
        return out

    # -- forks and state ---------------------------------------------------------------
    def fork(self) -> ChromaVectorStore:
        """A store reading the same collection, in O(1) (copy-on-write, see the module)."""
        twin = ChromaVectorStore.__new__(ChromaVectorStore)
        twin.embedder, twin.path, twin.prefix = self.embedder, self.path, self.prefix
        twin.search = self.search
        twin.lexical = None if self.lexical is None else self.lexical.fork()
        twin._next_seq, twin.revision = self._next_seq, self.revision
        twin._hold(self._col)
        return twin

    def __copy__(self) -> ChromaVectorStore:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> ChromaVectorStore:
        return self.fork()

    def save_state(self) -> dict[str, Any]:
        """Every entry, and the vectors as one base64 block of float32 rows (JSON values), as
        the in-process store saves them (either kind loads the other's state)."""
        records = self.all(embeddings=True)
        state = {
            "embedder": self.embedder.name,
            "records": [{"id": r.id, "text": r.text, "metadata": r.metadata} for r in records],
            "vectors": vector_block([r.embedding or [] for r in records]),
        }
        if self.lexical is not None:
            state["lexical"] = self.lexical.save_state()
        return state

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Replace the contents with exported entries (from either kind of store)."""
        from .vector_store import StoreStateError, VectorStore, restored_lexical

        staged = VectorStore(self.embedder)
        staged.load_state(state)  # checks the embedder, decodes or recomputes the vectors
        records = staged.all(embeddings=True)
        try:
            lexical = restored_lexical(
                self.search, state, [{"id": r.id, "text": r.text} for r in records]
            )
        except VectorStoreError as exc:
            raise StoreStateError(
                f"the vector store state's 'lexical' is malformed ({exc})"
            ) from None
        self.lexical = None  # the staged index replaces it once the entries are in
        self.clear()
        self._next_seq = 1
        self.add(
            [r.id for r in records],
            [r.text for r in records],
            [r.metadata for r in records],
            embeddings=[r.embedding or [] for r in records],
        )
        self.lexical = lexical


__all__ = ["ChromaVectorStore"]
