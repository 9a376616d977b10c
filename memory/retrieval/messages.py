"""What a retrieval module's ingest window holds: each message logged with its turn and time
on the turn clock; and the helpers that show and restore what it retrieved."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.memory import MemoryItem

from .params import Role

Clock = Callable[[], datetime]

TURN_CLOCK_START = datetime(2025, 1, 6, 9, 0, 0)
"""Turn clock origin (a Monday): turn ``n`` happens ``n`` minutes later."""


class LoggedMessage(BaseModel):
    """An ingested message with the turn it belongs to and its timestamp (ISO 8601)."""

    model_config = ConfigDict(extra="forbid")

    role: Role
    text: str
    turn: int
    time: str
    source_ids: list[str] = Field(default_factory=list)

    @property
    def when(self) -> datetime:
        return datetime.fromisoformat(self.time)


def clip(text: str, limit: int | None) -> str:
    """``text`` cut to ``limit`` characters with ``...`` when it was longer."""
    if limit is None or len(text) <= limit:
        return text
    return text[:limit].rstrip() + "..."


def saved_item(saved: Any) -> MemoryItem:
    """A retrieved entry as saved (``asdict`` of a :class:`MemoryItem`)."""
    if not isinstance(saved, Mapping) or set(saved) != {"id", "text", "score", "fields"}:
        raise ValueError("a retrieved entry has id, text, score and fields")
    if not isinstance(saved["id"], str) or not isinstance(saved["text"], str):
        raise TypeError("a retrieved entry's id and text are texts")
    if not isinstance(saved["fields"], Mapping):
        raise TypeError("a retrieved entry's fields are an object")
    return MemoryItem(saved["id"], saved["text"], float(saved["score"]), dict(saved["fields"]))
