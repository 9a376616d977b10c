"""Raw-turn retrieval: every ingested message is stored as it was said, one record each.

The reference point for the extracting modules: no model calls on the way in, each message
embedded as one record that keeps its source ids; a query returns the ``top_k`` most similar
messages, rendered as ``- text`` lines for the ``{memories}`` placeholder.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord

from .base import LoggedMessage, RetrievalModule, RetrievalParams
from .provenance import SOURCE_KEY


class RawTurnMemory(RetrievalModule):
    """Each ingested message as one embedded record; top-k by similarity."""

    kind: ClassVar[str] = "raw_turns"
    prompt_key: ClassVar[str] = "memories"

    def _setup(self) -> None:
        self.store = self.new_store("turns")
        self.next_id = 1

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        if not new:
            return
        ids = [f"t{self.next_id + n}" for n in range(len(new))]
        self.next_id += len(new)
        metas = [
            {"turn": m.turn, "role": m.role, "time": m.time, SOURCE_KEY: list(m.source_ids)}
            for m in new
        ]
        self.store.add(ids, [m.text for m in new], metas)
        self.count("records", len(new))

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        return [
            MemoryItem(h.id, h.text, round(h.similarity, 6), dict(h.metadata))
            for h in self.store.query(query, self.params.top_k)
        ]

    def _format(self, items: list[MemoryItem]) -> str:
        return "\n".join(f"- {item.text}" for item in items)

    def private_text(self) -> str:
        return "\n".join(f"- {r.text}" for r in self.store.all())

    def _dump(self) -> dict[str, Any]:
        return {"store": self.store.state(), "next_id": self.next_id}

    def _restore(self, data: Mapping[str, Any]) -> None:
        self.store = self.restored_store(self.store, "turns", data.get("store", {}))
        self.next_id = int(data.get("next_id", 1))


__all__ = ["RawTurnMemory", "RetrievalParams"]
