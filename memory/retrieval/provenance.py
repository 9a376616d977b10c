"""Provenance: every stored entry keeps the source ids (dialog ids) it was made from.

Entries keep them in their metadata under ``source_ids``; an entry made from several messages
keeps the ids of all of them, and an entry rewritten from others (an update, a merge, an
evolved neighbour) keeps the union of its own and theirs, oldest first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

SOURCE_KEY = "source_ids"


class _HasSources(Protocol):
    @property
    def source_ids(self) -> list[str]: ...


def union_ids(*groups: Iterable[str]) -> list[str]:
    """The ids of every group, each once, in first-seen order."""
    return list(dict.fromkeys(str(i) for group in groups for i in group))


def ids_of(messages: Iterable[_HasSources]) -> list[str]:
    """The union of the source ids of ``messages``."""
    return union_ids(*(m.source_ids for m in messages))


def sources(metadata: Mapping[str, Any]) -> list[str]:
    """The source ids an entry's metadata holds (none for entries stored before provenance)."""
    return [str(i) for i in metadata.get(SOURCE_KEY, [])]
