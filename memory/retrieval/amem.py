"""A-Mem: Zettelkasten-style notes that link to each other and evolve as new notes arrive.

Writing, for each ingested message: a model annotates the new note (keywords, context, tags;
structured output) with the last ``window`` messages as context; the ``neighbours`` nearest
notes are fetched and a second call decides whether the memory evolves: ``strengthen`` links
the new note to some of them (and may retag it), ``update_neighbor`` rewrites their context and
tags (they are re-embedded). When no valid evolution answer comes (after the structured
call's repairs and retries), the note is stored unevolved and ``stats["evolution_failed"]``
counts it, as A-Mem's library does. Neighbours are shown under small integer ids and mapped back; an
unknown id is ignored and counted in ``stats["ignored_links"]``. A note is embedded as its
content enriched with its context, keywords and tags, as A-Mem's retriever does.

Reading: top-k notes by embedding, optionally followed by the notes they link to, rendered for
the ``{notes_block}`` placeholder.

Ingests: only the user's messages (``ingest_roles``), as the Hangman paper's A-Mem agent does
(each turn it adds one note from the latest user message).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, Field, field_validator

from cogarch.core.memory import MemoryContext, MemoryItem, TurnRecord
from cogarch.errors import ModelCallError
from cogarch.models.messages import user

from .base import RetrievalModule
from .messages import LoggedMessage
from .params import RetrievalParams, Role
from .prompts import AMEM_EVOLVE, AMEM_NOTE, render_template
from .provenance import SOURCE_KEY, sources, union_ids
from .records import Hit
from .search import hit_item
from .staging import Staging


def _strings(value: Any) -> Any:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list):
        return [str(v) if isinstance(v, int | float) else v for v in value]
    return value


class NoteAnalysis(BaseModel):
    """The note-construction call's answer."""

    keywords: list[str] = Field(default_factory=list)
    context: str = "General"
    tags: list[str] = Field(default_factory=list)

    @field_validator("keywords", "tags", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        return _strings(value)


class Evolution(BaseModel):
    """The link and evolution call's answer."""

    should_evolve: bool = False
    actions: list[str] = Field(default_factory=list)
    suggested_connections: list[str] = Field(default_factory=list)
    tags_to_update: list[str] = Field(default_factory=list)
    new_context_neighborhood: list[str] = Field(default_factory=list)
    new_tags_neighborhood: list[list[str]] = Field(default_factory=list)

    @field_validator(
        "actions",
        "suggested_connections",
        "tags_to_update",
        "new_context_neighborhood",
        mode="before",
    )
    @classmethod
    def _split(cls, value: Any) -> Any:
        return _strings(value)


class AMemParams(RetrievalParams):
    window: int = Field(default=30, ge=1)
    top_k: int = Field(default=8, ge=1)
    ingest_roles: tuple[Role, ...] = Field(
        default=("user",),
        description="The reference A-Mem agent turns only the user's latest message into a "
        "note, so only the user's side by default.",
    )
    neighbours: int = Field(
        default=5, ge=1, description="Nearest notes shown to the link and evolution decision."
    )
    include_links: bool = Field(
        default=False, description="Also return the notes that the retrieved notes link to."
    )


class AMemMemory(RetrievalModule):
    """Linked, self-annotating notes (A-Mem)."""

    kind: ClassVar[str] = "amem"
    prompt_key: ClassVar[str] = "notes_block"
    Params: ClassVar[type[RetrievalParams]] = AMemParams
    params: AMemParams

    def _setup(self) -> None:
        self.store = self.new_store("notes")
        self.next_id = 1

    # ------------------------------------------------------------------ writing

    async def _write(self, turn: TurnRecord, new: list[LoggedMessage], ctx: MemoryContext) -> None:
        for message in new:
            await self.add_note(message, ctx)

    async def add_note(self, message: LoggedMessage, ctx: MemoryContext) -> str:
        """Annotate, link and evolve, then store one note; returns its id."""
        prompt = render_template(AMEM_NOTE, conversation=self.window_text(), content=message.text)
        analysis = await self.ask(ctx, [user(prompt)], NoteAnalysis)
        note: dict[str, Any] = {
            "content": message.text,
            "keywords": _clean(analysis.keywords),
            "tags": _clean(analysis.tags),
            "context": analysis.context.strip() or "General",
            "timestamp": message.time,
            "links": [],
            "turn": message.turn,
            "role": message.role,
            "evolutions": 0,
            SOURCE_KEY: list(message.source_ids),
        }
        hits = await self.store.aquery(message.text, self.params.neighbours)
        if hits:
            shown = {str(n): hit.id for n, hit in enumerate(hits)}
            listing = "\n".join(f"id {n}: {_describe(hit.metadata)}" for n, hit in enumerate(hits))
            prompt = render_template(AMEM_EVOLVE, note=_describe(note), neighbours=listing)
            try:
                decision = await self.ask(ctx, [user(prompt)], Evolution)
            except ModelCallError:
                # A-Mem stores the note unevolved when the evolution answer is unusable
                self.count("evolution_failed")
                decision = Evolution()
            evolved = self.evolve(note, hits, shown, decision)
            if evolved:
                ids, metas = [i for i, _ in evolved], [m for _, m in evolved]
                await self.store.aupdate(ids, [_document(m) for m in metas], metas)
        note_id = f"n{self.next_id}"
        self.next_id += 1
        await self.store.aadd([note_id], [_document(note)], [note])
        self.count("notes")
        return note_id

    def evolve(
        self, note: dict[str, Any], hits: list[Hit], shown: Mapping[str, str], decision: Evolution
    ) -> list[tuple[str, dict[str, Any]]]:
        """Apply a decision to the new note (its links and tags); returns the neighbours whose
        context or tags it changes, as ``(id, new metadata)``, for the caller to store."""
        evolved: list[tuple[str, dict[str, Any]]] = []
        if not decision.should_evolve:
            return evolved
        actions = {a.strip().lower() for a in decision.actions}
        if "strengthen" in actions:
            self.count("strengthen")
            for small in decision.suggested_connections:
                target = shown.get(small.strip())
                if target is None:
                    self.count("ignored_links")
                elif target not in note["links"]:
                    note["links"].append(target)
                    self.count("links")
            if _clean(decision.tags_to_update):
                note["tags"] = _clean(decision.tags_to_update)
        if "update_neighbor" in actions:
            self.count("update_neighbor")
            contexts = decision.new_context_neighborhood
            tag_lists = decision.new_tags_neighborhood
            for n, hit in enumerate(hits):
                meta = dict(hit.metadata)
                if n < len(contexts) and contexts[n].strip():
                    meta["context"] = contexts[n].strip()
                if n < len(tag_lists) and _clean(tag_lists[n]):
                    meta["tags"] = _clean(tag_lists[n])
                if (
                    meta["context"] != hit.metadata["context"]
                    or meta["tags"] != hit.metadata["tags"]
                ):
                    meta["evolutions"] = int(meta.get("evolutions", 0)) + 1
                    # the evolved context and tags come partly from the new note
                    meta[SOURCE_KEY] = union_ids(sources(meta), sources(note))
                    evolved.append((hit.id, meta))
                    self.count("neighbours_evolved")
        return evolved

    # ------------------------------------------------------------------ reading

    async def _search(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        hits = await self.store.aquery(query, self.params.top_k)
        items = [hit_item(h, h.metadata["content"]) for h in hits]
        if self.params.include_links:
            have = {item.id for item in items}
            linked = [
                link for h in hits for link in h.metadata.get("links", []) if link not in have
            ]
            for record in self.store.get(list(dict.fromkeys(linked))[: self.params.top_k]):
                fields = {**record.metadata, "linked": True}
                items.append(MemoryItem(record.id, record.metadata["content"], 0.0, fields))
        return items

    def _format(self, items: list[MemoryItem]) -> str:
        return "\n\n".join(_render_note(item.fields) for item in items)

    def notes(self) -> list[MemoryItem]:
        """Every note, oldest first (``fields`` holds keywords, tags, context, links...)."""
        return [
            MemoryItem(r.id, r.metadata["content"], 0.0, dict(r.metadata)) for r in self.store.all()
        ]

    def private_text(self) -> str:
        return self._format(self.notes())

    def _private_key(self) -> Hashable:
        return self.store.revision

    # ------------------------------------------------------------------ state

    def _save_own_state(self) -> dict[str, Any]:
        return {"store": self.store.save_state(), "next_id": self.next_id}

    def _load_own_state(self, staging: Staging) -> dict[str, Any]:
        return {"store": staging.store("store", "notes"), "next_id": staging.integer("next_id", 1)}


def _clean(values: list[str]) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in values if v and v.strip()))


def _document(note: Mapping[str, Any]) -> str:
    """The text a note is embedded as: content enriched with its annotations."""
    return (
        f"{note['content']}\ncontext: {note['context']}\n"
        f"keywords: {', '.join(note['keywords'])}\ntags: {', '.join(note['tags'])}"
    )


def _describe(note: Mapping[str, Any]) -> str:
    return json.dumps(
        {k: note[k] for k in ("content", "context", "keywords", "tags")}, ensure_ascii=False
    )


def _render_note(note: Mapping[str, Any]) -> str:
    keywords = ", ".join(note.get("keywords", [])) or "-"
    tags = ", ".join(note.get("tags", [])) or "-"
    return (
        f"- Content: {note.get('content', '')}\nKeywords: {keywords}\nTags: {tags}\n"
        f"Context: {note.get('context', '')}"
    )
