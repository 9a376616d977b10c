"""Mem0 (its 1.0 beta behaviour): extracted facts kept current by ADD / UPDATE / DELETE / NONE.

Writing, after each turn: a model extracts facts (a JSON list) from the last ``window``
messages of the ingested roles; the ``search_k`` nearest stored memories of every fact are
gathered; a second call decides one operation per fact against them. The existing memories are
shown under small integer ids ("0", "1", ...) and mapped back, so the model cannot address a
memory that was not shown: an operation naming an unknown id is ignored and counted in
``stats["ignored_ops"]``. Reading: vector top-k for the query (the user's latest message),
rendered as ``- fact @ timestamp`` lines for the ``{memories}`` placeholder.

Ingests: the user's and the assistant's messages (``ingest_roles``), as the Hangman paper's
Mem0 agent does (it hands Mem0 its last m public messages of both roles). Facts come from the
user's messages only (``facts_from``), the assistant's being their context: mem0ai 1.0.x, called
with a user id, extracts them so (the library itself runs as ``mem0_lib``).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogarch.core.cow import CowList
from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord
from cogarch.models.messages import system, user

from .base import RetrievalModule
from .messages import LoggedMessage
from .params import RetrievalParams, Role
from .prompts import (
    MEM0_EXTRACT,
    MEM0_EXTRACT_INPUT,
    MEM0_UPDATE,
    MEM0_USER_FACTS,
    render_template,
)
from .provenance import SOURCE_KEY, ids_of, sources, union_ids
from .search import hit_item
from .staging import Staging

Event = Literal["ADD", "UPDATE", "DELETE", "NONE"]


class FactList(BaseModel):
    """The extraction call's answer."""

    facts: list[str] = Field(default_factory=list)


class MemoryOp(BaseModel):
    """One decided operation; ``id`` is one of the small ids shown to the model."""

    id: str = ""
    text: str = ""
    event: Event
    old_memory: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _id_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int | float) else value

    @field_validator("event", mode="before")
    @classmethod
    def _event_case(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value


class UpdatePlan(BaseModel):
    """The update call's answer."""

    memory: list[MemoryOp] = Field(default_factory=list)


class Mem0Params(RetrievalParams):
    window: int = Field(default=10, ge=1)
    top_k: int = Field(default=10, ge=1)
    ingest_roles: tuple[Role, ...] = Field(
        default=("user", "assistant"),
        description="The reference Mem0 agent passes its window of user and assistant messages "
        "to Mem0's add, so both sides by default.",
    )
    search_k: int = Field(
        default=5, ge=1, description="Nearest existing memories fetched for each new fact."
    )
    facts_from: Literal["user", "all"] = Field(
        default="user",
        description="Whose messages facts come from. 'user': the user's only (the assistant's "
        "are context), as mem0ai 1.0.x extracts them for a user id, which is how the Hangman "
        "paper's wrapper calls it; 'all': every message in the window.",
    )


class Mem0Memory(RetrievalModule):
    """Fact memory with model-decided ADD / UPDATE / DELETE / NONE operations."""

    kind: ClassVar[str] = "mem0"
    prompt_key: ClassVar[str] = "memories"
    Params: ClassVar[type[RetrievalParams]] = Mem0Params
    params: Mem0Params

    def _setup(self) -> None:
        self.store = self.new_store("facts")
        self.next_id = 1
        self.events: CowList[dict[str, Any]] = CowList()
        """Every applied operation, in order (what Mem0 keeps in its history table)."""

    # ------------------------------------------------------------------ writing

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        if not new:
            return
        today = self.now().date().isoformat()
        extracted = await self.ask(
            ctx,
            [
                system(self.extraction_prompt(today)),
                user(render_template(MEM0_EXTRACT_INPUT, conversation=self.window_text())),
            ],
            FactList,
        )
        facts = list(dict.fromkeys(f.strip() for f in extracted.facts if f.strip()))
        if not facts:
            return
        self.count("facts_extracted", len(facts))
        neighbours: dict[str, str] = {}
        vectors = dict(zip(facts, await self.store.aembed(facts), strict=True))
        for vector in vectors.values():
            for hit in await self.store.aquery_vector(vector, self.params.search_k):
                neighbours.setdefault(hit.id, hit.text)
        shown = {str(n): entry_id for n, entry_id in enumerate(neighbours)}
        existing = [{"id": small, "text": neighbours[real]} for small, real in shown.items()]
        prompt = render_template(
            MEM0_UPDATE,
            existing=json.dumps(existing, ensure_ascii=False, indent=1) if existing else "[]",
            facts=json.dumps(facts, ensure_ascii=False, indent=1),
        )
        plan = await self.ask(ctx, [user(prompt)], UpdatePlan)
        written = {op.text.strip() for op in plan.memory if op.event in ("ADD", "UPDATE")}
        fresh = sorted(t for t in written if t and t not in vectors)
        vectors.update(zip(fresh, await self.store.aembed(fresh), strict=True))
        self.apply(plan, shown, turn.index, ids_of(self.messages), vectors=vectors)

    def extraction_prompt(self, today: str) -> str:
        """The fact extraction call's system prompt (with the user-only rule when facts come
        from the user's messages alone)."""
        prompt = render_template(MEM0_EXTRACT, today=today)
        if self.params.facts_from == "user":
            head, sep, tail = prompt.rpartition("\n\nReturn ONLY JSON")
            prompt = f"{head}\n\n{MEM0_USER_FACTS}{sep}{tail}"
        return prompt

    def apply(
        self,
        plan: UpdatePlan,
        shown: Mapping[str, str],
        turn: int,
        source_ids: list[str] | None = None,
        *,
        vectors: Mapping[str, Sequence[float]] | None = None,
    ) -> None:
        """Carry out the operations; ``shown`` maps the small ids back to stored ids.

        ``source_ids`` are the ids of the messages the facts were extracted from: an added
        memory keeps them, an updated one keeps the union of its own and them. ``vectors``
        holds embeddings already computed, by text (the others are embedded here).
        """
        known = vectors or {}

        def embedding(text: str) -> list[Sequence[float]] | None:
            return [known[text]] if text in known else None

        new_sources = list(source_ids or [])
        stamp = self.now().isoformat()
        deleted: set[str] = set()
        for op in plan.memory:
            if op.event == "NONE":
                self.count("none")
                continue
            text = op.text.strip()
            if op.event == "ADD":
                if not text:
                    self.count("ignored_ops")
                    continue
                entry_id = f"m{self.next_id}"
                self.next_id += 1
                meta = {
                    "created_at": stamp,
                    "updated_at": stamp,
                    "turn": turn,
                    SOURCE_KEY: new_sources,
                }
                self.store.add([entry_id], [text], [meta], embeddings=embedding(text))
                self._log(turn, "ADD", entry_id, text, None)
                continue
            real = shown.get(op.id.strip())
            current = self.store.get([real]) if real is not None and real not in deleted else []
            if not current or (op.event == "UPDATE" and not text):
                self.count("ignored_ops")
                continue
            old = current[0]
            if op.event == "UPDATE":
                merged = union_ids(sources(old.metadata), new_sources)
                meta = {**old.metadata, "updated_at": stamp, "turn": turn, SOURCE_KEY: merged}
                self.store.update([old.id], [text], [meta], embeddings=embedding(text))
                self._log(turn, "UPDATE", old.id, text, old.text)
            else:
                self.store.delete([old.id])
                deleted.add(old.id)
                self._log(turn, "DELETE", old.id, None, old.text)

    def _log(
        self, turn: int, event: Event, entry_id: str, text: str | None, old: str | None
    ) -> None:
        self.count(event.lower())
        self.events.append({"turn": turn, "event": event, "id": entry_id, "text": text, "old": old})

    # ------------------------------------------------------------------ reading

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        return [hit_item(h) for h in await self.store.aquery(query, self.params.top_k)]

    def _format(self, items: list[MemoryItem]) -> str:
        return "\n".join(_line(item.text, item.fields) for item in items)

    def memories(self) -> list[MemoryItem]:
        """Every stored memory, oldest first."""
        return [MemoryItem(r.id, r.text, 0.0, dict(r.metadata)) for r in self.store.all()]

    def private_text(self) -> str:
        return self._format(self.memories())

    def _private_key(self) -> Hashable:
        return self.store.revision

    # ------------------------------------------------------------------ state

    def _save_own_state(self) -> dict[str, Any]:
        return {
            "store": self.store.save_state(),
            "next_id": self.next_id,
            "events": list(self.events),
        }

    def _load_own_state(self, staging: Staging) -> dict[str, Any]:
        return {
            "store": staging.store("store", "facts"),
            "next_id": staging.integer("next_id", 1),
            "events": CowList(e.model_dump() for e in staging.items("events", _LoggedEvent)),
        }


class _LoggedEvent(BaseModel):
    """One change to the facts, as the module logs it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    turn: int
    event: Event
    id: str
    text: str | None
    old: str | None


def _line(text: str, fields: Mapping[str, Any]) -> str:
    stamp = fields.get("updated_at") or fields.get("created_at")
    return f"- {text} @ {stamp}" if stamp else f"- {text}"
