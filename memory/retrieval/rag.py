"""Retrieval-augmented memory (the ACC paper's retrieval agent): raw turns in, top-k raw out.

Writing: every ingested message is stored as it was said, one artifact per message, in the
module's own vector store (id ``t<turn>.<role>``); nothing is summarised, extracted or merged.
Reading: the ``top_k`` artifacts most similar to the query (the user's current input), best
first, rendered as ``[t3.user] text`` lines for the ``{memories}`` placeholder. The ACC paper
keeps retrieval at the top 5 artifacts per turn to limit drift, hence ``top_k = 5``.

Ingests: the user's and the assistant's messages (``ingest_roles``): the paper's retrieval
agent stores prior interactions, so every turn goes in whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field

from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord

from .base import LoggedMessage, RetrievalModule, RetrievalParams, Role, clip


class RagParams(RetrievalParams):
    top_k: int = Field(default=5, ge=1, description="k: raw artifacts retrieved per query.")
    ingest_roles: tuple[Role, ...] = Field(
        default=("user", "assistant"), description="Every turn is stored, both sides."
    )
    artifact_chars: int | None = Field(
        default=None, ge=20, description="Cut each artifact shown to this many characters."
    )


class RagMemory(RetrievalModule):
    """A vector store of raw messages; the block is the top-k of them for the query."""

    kind: ClassVar[str] = "rag"
    Params: ClassVar[type[RetrievalParams]] = RagParams
    params: RagParams

    def _setup(self) -> None:
        self.store = self.new_store("artifacts")

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        if new:
            self.store.add(
                [f"t{m.turn}.{m.role}" for m in new],
                [m.text for m in new],
                [{"turn": m.turn, "role": m.role, "time": m.time} for m in new],
            )
            self.count("stored", len(new))

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        if not query.strip() or not len(self.store):
            return []
        return [
            MemoryItem(h.id, h.text, round(h.similarity, 6), dict(h.metadata))
            for h in self.store.query(query, self.params.top_k)
        ]

    def _format(self, items: list[MemoryItem]) -> str:
        return "\n".join(f"[{i.id}] {clip(i.text, self.params.artifact_chars)}" for i in items)

    def private_text(self) -> str:
        return "\n".join(f"[{r.id}] {r.text}" for r in self.store.all())

    def _dump(self) -> dict[str, Any]:
        return {"store": self.store.state()}

    def _restore(self, data: Mapping[str, Any]) -> None:
        self.store = self.restored_store(self.store, "artifacts", data.get("store", {}))


__all__ = ["RagMemory", "RagParams"]
