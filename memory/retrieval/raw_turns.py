"""Raw-turn retrieval (the ACC paper's retrieval agent, and the reference point of the
extracting modules on long conversations): raw messages in, the top k raw messages out.

Writing: every ingested message is stored as it was said, one record each, in the module's
own vector store, keeping its turn, role, time and source ids; nothing is summarised,
extracted or merged, and no model is called. Reading: the ``top_k`` records most similar to
the query (the user's current input; with ``search: lexical`` or ``hybrid``, the best by BM25
or by both fused, see ``search``), best first, rendered as ``[t3.user] text`` lines (with
``tags`` off, ``- text``) for the ``{memories}`` placeholder. The ACC paper keeps retrieval at
the top 5 artifacts per turn to limit drift, hence ``top_k = 5``.

Ingests: the user's and the assistant's messages (``ingest_roles``): the paper's retrieval
agent stores prior interactions, so every turn goes in whole. Several turns taken in at once
(``ingest_many``, a benchmark's session) are embedded in one batch.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar

from pydantic import Field

from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord

from .base import RetrievalModule
from .messages import LoggedMessage, clip
from .params import RetrievalParams, Role
from .provenance import SOURCE_KEY
from .search import hit_item
from .staging import Staging


class RawTurnParams(RetrievalParams):
    top_k: int = Field(default=5, ge=1, description="k: raw messages retrieved per query.")
    ingest_roles: tuple[Role, ...] = Field(
        default=("user", "assistant"), description="Every turn is stored, both sides."
    )
    artifact_chars: int | None = Field(
        default=None, ge=20, description="Cut each message shown to this many characters."
    )
    tags: bool = Field(
        default=True, description="Show each message's turn and speaker (`[t3.user] text`)."
    )


class RawTurnMemory(RetrievalModule):
    """A vector store of raw messages; the block is the top k of them for the query."""

    kind: ClassVar[str] = "raw_turns"
    Params: ClassVar[type[RetrievalParams]] = RawTurnParams
    params: RawTurnParams

    def _setup(self) -> None:
        self.store = self.new_store("turns")
        self.next_id = 1

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        await self._store(new)

    async def ingest_many(self, turns: Sequence[TurnRecord], ctx: MemoryContext) -> dict[int, str]:
        """Log every turn, then store all their messages with one embedding call."""
        await self._store([m for t in turns for m in self.log_turn(t) or ()])
        return {}

    async def _store(self, new: list[LoggedMessage]) -> None:
        if not new:
            return
        ids = [f"m{self.next_id + n}" for n in range(len(new))]
        self.next_id += len(new)
        metas = [
            {"turn": m.turn, "role": m.role, "time": m.time, SOURCE_KEY: list(m.source_ids)}
            for m in new
        ]
        await self.store.aadd(ids, [m.text for m in new], metas)
        self.count("records", len(new))

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        if not query.strip() or not len(self.store):
            return []
        return [hit_item(h) for h in await self.store.aquery(query, self.params.top_k)]

    async def rank_all(self, ctx: MemoryContext) -> list[list[str]] | None:
        """Every stored message ranked for the latest query (assistant messages too: a
        benchmark whose corpus is the user's turns drops the others)."""
        records = {r.id: r for r in self.store.all()}
        order = await self.ranked_store(self.store, list(records))
        if order is None:
            return None
        return [list(records[i].metadata.get(SOURCE_KEY) or [i]) for i in order]

    def _label(self, meta: Mapping[str, Any]) -> str:
        if not self.params.tags:
            return "-"
        return f"[t{meta.get('turn')}.{meta.get('role')}]"

    def _format(self, items: list[MemoryItem]) -> str:
        return "\n".join(
            f"{self._label(i.fields)} {clip(i.text, self.params.artifact_chars)}" for i in items
        )

    def private_text(self) -> str:
        return "\n".join(f"{self._label(r.metadata)} {r.text}" for r in self.store.all())

    def _private_key(self) -> Hashable:
        return self.store.revision

    def _save_own_state(self) -> dict[str, Any]:
        return {"store": self.store.save_state(), "next_id": self.next_id}

    def _load_own_state(self, staging: Staging) -> dict[str, Any]:
        return {"store": staging.store("store", "turns"), "next_id": staging.integer("next_id", 1)}
