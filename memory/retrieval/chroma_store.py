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
in-process store does; what both kinds do the same way is ``store_base.BaseStore``.
"""

from __future__ import annotations

import math
import os
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from .chroma_collection import Collection, decode, drop_collection, encode
from .embeddings import Embedder
from .records import REVISIONS, Hit, Record
from .rows import dots
from .search import DENSE, SearchParams
from .store_base import Added, BaseStore, Changed
from .vector_store import VectorStore

_TIE_SLACK = 16
_TIE_DIGITS = 6
"""Scores equal to this many digits count as ties (HNSW distances carry float noise)."""


class ChromaVectorStore(BaseStore):
    """The ``VectorStore`` interface over a chromadb collection (see the module docstring).

    ``path=None`` keeps the collection in memory; a directory keeps it on disk.
    """

    WRITES_OFF_LOOP = True
    """chromadb's insert costs about a millisecond per entry."""

    def __init__(
        self,
        embedder: Embedder,
        *,
        path: str | os.PathLike[str] | None = None,
        prefix: str = "cogarch",
        search: SearchParams = DENSE,
    ) -> None:
        self._start(embedder, prefix, search)
        self.path = None if path is None else os.fspath(path)
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
        self._col.size = None
        for start in range(0, len(records), self._col.batch):
            chunk = records[start : start + self._col.batch]
            chroma.add(
                ids=[r.id for _, r in chunk],
                documents=[r.text for _, r in chunk],
                embeddings=[r.embedding for _, r in chunk],
                metadatas=[encode(r.metadata, seq) for seq, r in chunk],
            )

    # -- writing ---------------------------------------------------------------------
    def _present(self, ids: list[str]) -> list[str]:
        return list(self._col.chroma.get(ids=ids, include=[])["ids"])

    def _insert(self, new: Added) -> None:
        self._own()
        seqs = range(new.first_seq, new.first_seq + len(new.ids))
        rows = zip(seqs, new.ids, new.texts, new.metas, new.vectors, strict=True)
        self._put([(seq, Record(i, t, m, list(v))) for seq, i, t, m, v in rows])

    def _replace(self, change: Changed) -> None:
        ids, texts, metadatas, vectors = change.ids, change.texts, change.metas, change.vectors
        args: dict[str, Any] = {"ids": ids}
        if texts is not None and vectors is not None:
            args["documents"] = list(texts)
            args["embeddings"] = [list(v) for v in vectors]
        if metadatas is not None:
            current = {r.id: (seq, r) for seq, r in self._fetch(ids, embeddings=False)}
            new_metas = []
            for entry_id, meta in zip(ids, metadatas, strict=True):
                seq, record = current[entry_id]
                new = encode(meta, seq)
                # chromadb merges metadata on update; None removes the keys that are gone.
                new.update({k: None for k in record.metadata if k not in new})
                new_metas.append(new)
            args["metadatas"] = new_metas
        self._own().update(**args)

    def _remove(self, ids: list[str]) -> None:
        collection = self._own()
        self._col.size = None
        collection.delete(ids=ids)

    def _empty(self) -> None:
        if self._col.holders > 1:
            self._release()
            self._hold(Collection(self.embedder, self.path, self.prefix))
            return
        chroma = self._col.chroma
        self._col.size = None
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
        return self._col.count()

    def __contains__(self, entry_id: object) -> bool:
        return isinstance(entry_id, str) and bool(
            self._col.chroma.get(ids=[entry_id], include=[])["ids"]
        )

    def _nearest(
        self, vector: Sequence[float], n: int, where: Mapping[str, Any] | None, include: list[str]
    ) -> Any:
        """chromadb's ``n`` nearest entries to ``vector`` that match ``where``."""
        return self._col.chroma.query(
            query_embeddings=[list(vector)],
            n_results=n,
            where=dict(where) if where else None,
            include=include,
        )

    def dense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """``(id, cosine similarity)`` of the ``k`` entries most similar to ``vector``, most
        similar first, ties in insertion order as in the in-process store (so a fork ranks as
        its trunk does), without reading their texts."""
        if k <= 0:
            return []
        n = min(max(2 * k, k + _TIE_SLACK), self.count())
        if n <= 0:
            return []
        result = self._nearest(vector, n, where, ["metadatas", "distances"])
        ranked = []
        for entry_id, raw, distance in zip(
            result["ids"][0], result["metadatas"][0], result["distances"][0], strict=True
        ):
            score = 1.0 - float(distance)
            ranked.append((-round(score, _TIE_DIGITS), decode(raw)[1], entry_id, score))
        ranked.sort(key=lambda r: (r[0], r[1]))
        return [(entry_id, score) for _, _, entry_id, score in ranked[:k]]

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
            query_norm = math.sqrt(float(dots(query[None, :], query)[0]))
            for record in self.get(missed, embeddings=True):
                row = np.asarray(record.embedding, dtype=np.float64)[None, :]
                norm = math.sqrt(float(dots(row, row[0])[0])) * query_norm
                found[record.id] = float(dots(row, query)[0]) / norm if norm > 0 else 0.0
        return found

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
        result = self._nearest(vector, n, where, ["documents", "metadatas", "distances"])
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
    def _fork_entries(self, twin: ChromaVectorStore) -> None:
        """The twin reads the same collection (copy-on-write, see the module)."""
        twin.path = self.path
        twin._hold(self._col)

    def _export(self) -> tuple[list[dict[str, Any]], list[list[float]]]:
        records = self.all(embeddings=True)
        return [{"id": r.id, "text": r.text, "metadata": r.metadata} for r in records], [
            r.embedding or [] for r in records
        ]

    def _staging(self) -> VectorStore:
        return VectorStore(self.embedder, prefix=self.prefix)

    def _take(self, staged: BaseStore) -> None:
        records = staged.all(embeddings=True)
        self.lexical = None  # the staged index replaces it once the entries are in
        self.clear()
        self._next_seq = 1
        self.add(
            [r.id for r in records],
            [r.text for r in records],
            [r.metadata for r in records],
            embeddings=[r.embedding or [] for r in records],
        )
