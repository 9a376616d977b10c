"""What a vector store holds and hands out, whichever kind keeps the entries.

``Record`` is a stored entry and ``Hit`` a query result. Metadata may hold any JSON value;
keys starting with ``_`` are reserved. ``REVISIONS`` numbers every write of every store of the
process, so a store's ``revision`` names its content uniquely (a cache key no other content
ever has).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, NamedTuple

from cogarch.errors import CogarchError

REVISIONS = itertools.count(1)
"""Store revisions: unique across every store of the process."""


class VectorStoreError(CogarchError):
    """A store operation named an entry that does not exist, or one that already exists."""


@dataclass(frozen=True)
class Record:
    """One stored entry. ``embedding`` is filled only when asked for."""

    id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)
    embedding: list[float] | None = None


SearchMode = Literal["dense", "lexical", "hybrid"]


@dataclass(frozen=True)
class SearchDetail:
    """Why a record came back: its rank and score by each search, and the fused score."""

    mode: SearchMode
    score: float
    dense_rank: int | None = None
    dense_score: float | None = None
    lexical_rank: int | None = None
    lexical_score: float | None = None

    def as_fields(self) -> dict[str, Any]:
        return asdict(self)


class _HitFields(NamedTuple):
    id: str
    text: str
    metadata: dict[str, Any]
    similarity: float


class Hit(_HitFields):
    """A query result; unpacks as ``(id, text, metadata, similarity)``. ``similarity`` is
    the score hits are ranked by (cosine similarity, BM25 or fused); ``detail`` (not part of
    the tuple) says how a lexical or hybrid search found it, None for a dense search."""

    detail: SearchDetail | None = None

    def __new__(
        cls,
        id: str,
        text: str,
        metadata: dict[str, Any],
        similarity: float,
        detail: SearchDetail | None = None,
    ) -> Hit:
        hit = super().__new__(cls, id, text, metadata, similarity)
        if detail is not None:
            hit.detail = detail
        return hit


def safe_prefix(prefix: str) -> str:
    """``prefix`` as the start of a store's name (letters, digits, ``._-``; at most 64)."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", prefix).strip("-._") or "store"
    return cleaned[:64]


def encode_metadata(metadata: Mapping[str, Any]) -> str:
    """Metadata as JSON text; reserved (``_``) keys and values JSON cannot hold are refused."""
    for key in metadata:
        if not isinstance(key, str) or key.startswith("_"):
            raise VectorStoreError(f"metadata key '{key}' is reserved (keys starting with '_')")
    try:
        return json.dumps(dict(metadata), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise VectorStoreError(f"metadata must hold JSON values only ({exc})") from None


def checked_add(
    store: str,
    ids: Sequence[str],
    texts: Sequence[str],
    metadatas: Sequence[Mapping[str, Any]] | None,
    present: Callable[[list[str]], Iterable[str]],
) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """The arguments of an ``add`` to store ``store`` as lists, after the checks every store
    makes: one text and one metadata per id, no id twice, none ``present`` already."""
    ids, texts = list(ids), list(texts)
    metas = [dict(m) for m in metadatas] if metadatas is not None else [{} for _ in ids]
    if not (len(ids) == len(texts) == len(metas)):
        raise VectorStoreError(
            f"add got {len(ids)} ids, {len(texts)} texts and {len(metas)} metadatas; "
            "give one of each per entry"
        )
    if len(set(ids)) != len(ids):
        raise VectorStoreError("add got the same id twice in one call")
    existing = sorted(present(ids)) if ids else []
    if existing:
        raise VectorStoreError(
            f"ids already in store '{store}': {', '.join(existing[:5])}; "
            "use update() to change them"
        )
    return ids, texts, metas


def checked_update(
    store: str,
    ids: Sequence[str],
    texts: Sequence[str] | None,
    metadatas: Sequence[Mapping[str, Any]] | None,
    present: Callable[[list[str]], Iterable[str]],
) -> list[str]:
    """The ids of an ``update`` of store ``store`` as a list, after the checks every store
    makes: one text and one metadata (when given) per id, every id ``present``."""
    ids = list(ids)
    if not ids:
        return ids
    if texts is not None and len(texts) != len(ids):
        raise VectorStoreError(f"update got {len(texts)} texts for {len(ids)} ids")
    if metadatas is not None and len(metadatas) != len(ids):
        raise VectorStoreError(f"update got {len(metadatas)} metadatas for {len(ids)} ids")
    found = set(present(ids))
    missing = [i for i in ids if i not in found]
    if missing:
        raise VectorStoreError(
            f"cannot update ids not in store '{store}': {', '.join(missing[:5])}"
        )
    return ids
