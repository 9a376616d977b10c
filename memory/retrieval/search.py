"""How a store finds records for a query: dense, lexical (BM25) or both fused.

``SearchParams`` is the ``search`` setting of every retrieval module (and of a store). With
``mode: dense`` (the default) a store searches exactly as it always has, keeps no lexical index
and hands out hits without search details, so earlier runs replay unchanged.

``lexical``: the records ranked by BM25 (``lexical``), best first, ties in insertion order.

``hybrid``: the ``candidates`` best records by each search are pooled; every pooled record gets
both its exact scores (its cosine similarity to the query, its BM25 score, 0 when it shares no
token). With ``fusion: minmax`` (the default) each score is min-max normalised over the pool
and the fused score is ``dense_weight * dense + (1 - dense_weight) * lexical``; with ``fusion:
rrf`` it is reciprocal rank fusion, ``2 dense_weight / (rrf_k + dense rank) + 2 (1 -
dense_weight) / (rrf_k + lexical rank)`` (a rank past a list's end adds nothing). An
``entity_boost`` above 0 adds that much times the share of the query's names and numbers
(capitalised words inside a sentence, numbers) that a record's text contains.

Each hit of a lexical or hybrid search carries its ``SearchDetail``: its rank (1-based, None
outside that search's candidates) and score by each search, and the fused score.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from .lexical import LexicalIndex
from .records import Hit, Record, SearchDetail, SearchMode
from .where import compile_where

DETAIL_KEY = "search"
"""The key of a retrieved item's ``fields`` that holds its ``SearchDetail``."""


class SearchParams(BaseModel):
    """The ``search`` setting: which search finds records, and how hybrid search fuses."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: SearchMode = Field(
        default="dense",
        description="'dense' (embedding similarity, the default), 'lexical' (BM25 over the "
        "same records) or 'hybrid' (both, fused).",
    )
    fusion: Literal["minmax", "rrf"] = Field(
        default="minmax",
        description="hybrid: fuse min-max normalised scores ('minmax') or reciprocal ranks "
        "('rrf').",
    )
    dense_weight: float = Field(
        default=0.5, ge=0.0, le=1.0, description="hybrid: the dense search's share of the fusion."
    )
    candidates: int = Field(
        default=100,
        ge=1,
        description="hybrid: records taken from each search into the pool that is fused (at "
        "least the number asked for).",
    )
    rrf_k: int = Field(default=60, ge=1, description="fusion 'rrf': the rank offset.")
    entity_boost: float = Field(
        default=0.0,
        ge=0.0,
        description="hybrid: added to the fused score, times the share of the query's names and "
        "numbers found in the record (0: off).",
    )


DENSE = SearchParams()


class SearchableStore(Protocol):
    """What a store gives ``search`` (both kinds of store have it)."""

    lexical: LexicalIndex | None

    def get(self, ids: Sequence[str], *, embeddings: bool = False) -> list[Record]: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    def query_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]: ...

    async def aembed(self, texts: Sequence[str]) -> list[list[float]]: ...

    async def aquery_vector(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[Hit]: ...

    def dense_scores(self, vector: Sequence[float], ids: Sequence[str]) -> dict[str, float]: ...


_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b([A-Z][a-z]+|\d+(?:[.,]\d+)*)\b")
_WORD = re.compile(r"\w+(?:[.,]\d+)*")


def names_and_numbers(text: str) -> set[str]:
    """Capitalised words not opening a sentence, and numbers, lowercased."""
    return {m.group(1).lower() for m in _NAME.finditer(text.strip())}


async def asearch(
    store: SearchableStore,
    params: SearchParams,
    text: str,
    k: int,
    *,
    where: Mapping[str, Any] | None = None,
    vector: Sequence[float] | None = None,
) -> list[Hit]:
    """The ``k`` best records of ``store`` for ``text`` by a lexical or hybrid search
    (embedding the query, when ``vector`` is not given, and the dense search off the loop)."""
    dense: list[Hit] = []
    if params.mode == "hybrid" and k > 0 and store.lexical is not None and len(store.lexical):
        if vector is None:
            [vector] = await store.aembed([text])
        dense = await store.aquery_vector(vector, max(k, params.candidates), where=where)
    return ranked(store, params, text, k, where=where, vector=vector, dense=dense)


def search(
    store: SearchableStore,
    params: SearchParams,
    text: str,
    k: int,
    *,
    where: Mapping[str, Any] | None = None,
    vector: Sequence[float] | None = None,
) -> list[Hit]:
    """``asearch``, on this thread."""
    dense: list[Hit] = []
    if params.mode == "hybrid" and k > 0 and store.lexical is not None and len(store.lexical):
        if vector is None:
            [vector] = store.embed([text])
        dense = store.query_vector(vector, max(k, params.candidates), where=where)
    return ranked(store, params, text, k, where=where, vector=vector, dense=dense)


def ranked(
    store: SearchableStore,
    params: SearchParams,
    text: str,
    k: int,
    *,
    where: Mapping[str, Any] | None,
    vector: Sequence[float] | None,
    dense: list[Hit],
) -> list[Hit]:
    """The ``k`` best records: by BM25 alone, or fused with the ``dense`` hits."""
    index = store.lexical
    if k <= 0 or index is None or not len(index):
        return []
    pool = max(k, params.candidates) if params.mode == "hybrid" else k
    lexical = _lexical(store, index, text, pool, where)
    if params.mode == "lexical" or vector is None:
        return [
            Hit(r.id, r.text, r.metadata, s, SearchDetail("lexical", s, None, None, n, s))
            for n, (r, s) in enumerate(lexical, 1)
        ]
    return _fused(store, index, params, text, vector, k, dense, lexical)


def _lexical(
    store: SearchableStore,
    index: LexicalIndex,
    text: str,
    n: int,
    where: Mapping[str, Any] | None,
) -> list[tuple[Record, float]]:
    """The ``n`` best records by BM25 that pass ``where``, with their scores."""
    ranked = index.ranked(text)
    test = compile_where(where) if where else None
    out: list[tuple[Record, float]] = []
    step = n if test is None else max(n, 64)
    for start in range(0, len(ranked), step):
        chunk = ranked[start : start + step]
        records = store.get([i for i, _ in chunk])
        for record, (_, score) in zip(records, chunk, strict=True):
            if test is None or test(record.metadata):
                out.append((record, score))
                if len(out) == n:
                    return out
    return out


def _fused(
    store: SearchableStore,
    index: LexicalIndex,
    params: SearchParams,
    text: str,
    vector: Sequence[float],
    k: int,
    dense: list[Hit],
    lexical: list[tuple[Record, float]],
) -> list[Hit]:
    records: dict[str, tuple[str, dict[str, Any]]] = {h.id: (h.text, h.metadata) for h in dense}
    dense_rank = {h.id: n for n, h in enumerate(dense, 1)}
    dense_score = {h.id: h.similarity for h in dense}
    lexical_rank = {r.id: n for n, (r, _) in enumerate(lexical, 1)}
    lexical_score = {r.id: s for r, s in lexical}
    for record, _ in lexical:
        records.setdefault(record.id, (record.text, record.metadata))
    missing = [i for i in records if i not in dense_score]
    if missing:
        dense_score.update(store.dense_scores(vector, missing))
    others = [i for i in records if i not in lexical_score]
    if others:
        lexical_score.update(index.score_of(text, others))
    pooled = list(records)
    if params.fusion == "minmax":
        dn = _minmax([dense_score.get(i, 0.0) for i in pooled])
        ln = _minmax([lexical_score.get(i, 0.0) for i in pooled])
        w = params.dense_weight
        fused = {i: w * d + (1 - w) * lx for i, d, lx in zip(pooled, dn, ln, strict=True)}
    else:
        w, c = params.dense_weight, params.rrf_k
        fused = {
            i: (2 * w / (c + dense_rank[i]) if i in dense_rank else 0.0)
            + (2 * (1 - w) / (c + lexical_rank[i]) if i in lexical_rank else 0.0)
            for i in pooled
        }
    if params.entity_boost > 0:
        wanted = names_and_numbers(text)
        if wanted:
            for i in pooled:
                words = {w.lower() for w in _WORD.findall(records[i][0])}
                fused[i] += params.entity_boost * len(wanted & words) / len(wanted)
    order = sorted(pooled, key=lambda i: (-round(fused[i], 9), index.seq(i)))[:k]
    return [
        Hit(
            i,
            records[i][0],
            records[i][1],
            fused[i],
            SearchDetail(
                "hybrid",
                fused[i],
                dense_rank.get(i),
                dense_score.get(i),
                lexical_rank.get(i),
                lexical_score.get(i, 0.0),
            ),
        )
        for i in order
    ]


def passes(hit: Hit, threshold: float) -> bool:
    """Whether a hit's cosine similarity reaches ``threshold``: its dense score in a hybrid
    search, its similarity in a dense one; a lexical search has none, so every hit passes."""
    if hit.detail is None:
        return hit.similarity >= threshold
    return hit.detail.dense_score is None or hit.detail.dense_score >= threshold


def _minmax(values: list[float]) -> list[float]:
    lo, hi = min(values), max(values)
    if hi <= lo:
        return [0.0 for _ in values]
    return [(v - lo) / (hi - lo) for v in values]


def hit_fields(hit: Hit) -> dict[str, Any]:
    """A hit's metadata as a retrieved item's ``fields``, with its search detail (if any)
    under ``search``."""
    fields = dict(hit.metadata)
    if hit.detail is not None:
        fields[DETAIL_KEY] = hit.detail.as_fields()
    return fields


__all__ = [
    "DENSE",
    "DETAIL_KEY",
    "SearchDetail",
    "SearchMode",
    "SearchParams",
    "asearch",
    "hit_fields",
    "names_and_numbers",
    "passes",
    "ranked",
    "search",
]
