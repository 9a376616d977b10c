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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

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


class Hit(NamedTuple):
    """A query result; unpacks as ``(id, text, metadata, similarity)``."""

    id: str
    text: str
    metadata: dict[str, Any]
    similarity: float


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


__all__ = ["REVISIONS", "Hit", "Record", "VectorStoreError", "encode_metadata", "safe_prefix"]
