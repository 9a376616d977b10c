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

from cogarch.core.memory import MemoryItem

from .lexical import LexicalIndex, Scored, tokenize
from .records import Hit, Record, SearchDetail, SearchMode
from .where import compile_where

DETAIL_KEY = "search"
"""The key of a retrieved item's ``fields`` that holds its ``SearchDetail``."""


class SearchParams(BaseModel):
    """The ``search`` setting: which search finds records, and how hybrid search fuses."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

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
        le=10.0,
        description="hybrid: added to the fused score, times the share of the query's names and "
        "numbers found in the record (0: off).",
    )


DENSE = SearchParams()


class SearchableStore(Protocol):
    """What a store gives ``search`` (both kinds of store have it)."""

    lexical: LexicalIndex | None

    def get(self, ids: Sequence[str], *, embeddings: bool = False) -> list[Record]: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    async def aembed(self, texts: Sequence[str]) -> list[list[float]]: ...

    def dense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]: ...

    async def adense_ranked(
        self, vector: Sequence[float], k: int, *, where: Mapping[str, Any] | None = None
    ) -> list[tuple[str, float]]: ...

    def dense_scores(self, vector: Sequence[float], ids: Sequence[str]) -> dict[str, float]: ...


_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b([A-Z][a-z]+|\d+(?:[.,]\d+)*)\b")


_DENSE_DIGITS = 6
"""Digits of a cosine similarity that rank and fuse (ties beyond them are equal)."""


def names_and_numbers(text: str) -> set[str]:
    """The query's names and numbers as index tokens: capitalised words not opening a
    sentence, and numbers."""
    found = " ".join(m.group(1) for m in _NAME.finditer(text.strip()))
    return set(tokenize(found))


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
    index = store.lexical
    if k <= 0 or index is None or not len(index):
        return []
    dense: list[tuple[str, float]] = []
    if params.mode == "hybrid":
        if vector is None:
            [vector] = await store.aembed([text])
        dense = await store.adense_ranked(vector, max(k, params.candidates), where=where)
    return ranked(store, index, params, text, k, where=where, vector=vector, dense=dense)


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
    index = store.lexical
    if k <= 0 or index is None or not len(index):
        return []
    dense: list[tuple[str, float]] = []
    if params.mode == "hybrid":
        if vector is None:
            [vector] = store.embed([text])
        dense = store.dense_ranked(vector, max(k, params.candidates), where=where)
    return ranked(store, index, params, text, k, where=where, vector=vector, dense=dense)


def ranked(
    store: SearchableStore,
    index: LexicalIndex,
    params: SearchParams,
    text: str,
    k: int,
    *,
    where: Mapping[str, Any] | None,
    vector: Sequence[float] | None,
    dense: list[tuple[str, float]],
) -> list[Hit]:
    """The ``k`` best records: by BM25 alone, or fused with the ``dense`` ones (``(id,
    cosine similarity)`` of the dense search's candidates)."""
    pool = max(k, params.candidates) if params.mode == "hybrid" else k
    scored = index.scored(text)
    records: dict[str, Record] = {}
    lexical = _lexical(store, scored, pool, where, records)
    if params.mode == "lexical" or vector is None:
        details = {
            i: SearchDetail("lexical", s, None, None, n, s) for n, (i, s) in enumerate(lexical, 1)
        }
    else:
        details = _fused(store, index, scored, params, text, vector, dense, lexical)
    seq = index.seqs(details)
    order = sorted(details, key=lambda i: (-round(details[i].score, 9), seq[i]))[:k]
    wanted = [i for i in order if i not in records]
    records.update((r.id, r) for r in store.get(wanted))
    return [
        Hit(i, records[i].text, records[i].metadata, details[i].score, details[i])
        for i in order
        if i in records
    ]


def _lexical(
    store: SearchableStore,
    scored: Scored,
    n: int,
    where: Mapping[str, Any] | None,
    records: dict[str, Record],
) -> list[tuple[str, float]]:
    """The ``n`` best records by BM25 that pass ``where``, with their scores (the records
    read to test ``where`` are kept in ``records``)."""
    if not where:
        return scored.top(n)
    test = compile_where(where)
    ranked = scored.top(None)
    out: list[tuple[str, float]] = []
    step = max(n, 64)
    for start in range(0, len(ranked), step):
        chunk = ranked[start : start + step]
        for record, (_, score) in zip(store.get([i for i, _ in chunk]), chunk, strict=True):
            if test(record.metadata):
                records[record.id] = record
                out.append((record.id, score))
                if len(out) == n:
                    return out
    return out


def _fused(
    store: SearchableStore,
    index: LexicalIndex,
    scored: Scored,
    params: SearchParams,
    text: str,
    vector: Sequence[float],
    dense: list[tuple[str, float]],
    lexical: list[tuple[str, float]],
) -> dict[str, SearchDetail]:
    """Every pooled record's detail, its fused score included."""
    seq = index.seqs(i for i, _ in dense)
    dense = sorted(dense, key=lambda p: (-round(p[1], _DENSE_DIGITS), seq[p[0]]))
    dense_rank = {i: n for n, (i, _) in enumerate(dense, 1)}
    dense_score = dict(dense)
    lexical_rank = {i: n for n, (i, _) in enumerate(lexical, 1)}
    lexical_score = dict(lexical)
    pooled = list(dict.fromkeys([*dense_score, *lexical_score]))
    missing = [i for i in pooled if i not in dense_score]
    if missing:
        dense_score.update(store.dense_scores(vector, missing))
    # equal texts must score equally on every store: chromadb's distances differ in their last
    # bits between copies of a collection, so its cosines are cut to the digits ties use
    dense_score = {i: round(s, _DENSE_DIGITS) for i, s in dense_score.items()}
    others = [i for i in pooled if i not in lexical_score]
    if others:
        lexical_score.update(scored.of(others))
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
        names = names_and_numbers(text)
        if names:
            for i in pooled:
                shared = names.intersection(index.tokens(i))
                fused[i] += params.entity_boost * len(shared) / len(names)
    return {
        i: SearchDetail(
            "hybrid",
            fused[i],
            dense_rank.get(i),
            dense_score.get(i),
            lexical_rank.get(i),
            lexical_score.get(i, 0.0),
        )
        for i in pooled
    }


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


def hit_item(hit: Hit, text: str | None = None) -> MemoryItem:
    """A hit as a retrieved item: its text (or ``text``), similarity and :func:`hit_fields`."""
    return MemoryItem(
        hit.id, hit.text if text is None else text, round(hit.similarity, 6), hit_fields(hit)
    )
