"""A memory module of your own, written outside the framework: keyword notes.

Every completed turn becomes one short note (the first line of what the user said, then the
first line of the answer, clipped to ``note_chars``); the module keeps the latest
``max_notes`` of them. For each new message it retrieves the ``top_k`` notes that share the
most words with it, and a prompt shows those under the module's name (``{notes}`` in a
responder's prompt, for a module named ``notes`` in the agent spec). What the module keeps
privately, which the SCT snapshots at its fork, is every note.

What every module brings is here: validated ``Params``, ``ingest`` / ``retrieve`` /
``render``, an O(1) ``fork`` and a ``save_state`` that ``load_state`` restores, all or
nothing. Nothing in the framework is edited for it: ``custom_memory_agent.yaml`` names it by
its file's path and ``custom_memory.yaml`` runs that agent on the Hangman SCT with fake
models. From the repository root:

    cogarch run examples/custom_memory.yaml
    cogarch report runs/custom_memory
    cogarch view runs/custom_memory --export runs/custom_memory/site
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core import (
    CowList,
    MemoryContext,
    MemoryItem,
    MemoryModule,
    TurnRecord,
    count_tokens,
    state_items,
)

_WORD = re.compile(r"[a-z]{3,}")


class NotesParams(BaseModel):
    """The module's settings, read from its entry under the agent spec's ``memory:``."""

    model_config = ConfigDict(extra="forbid", frozen=True)  # frozen: forks share it

    max_notes: int = Field(default=20, ge=1, description="Notes kept; the oldest go first.")
    top_k: int = Field(default=3, ge=1, description="Notes retrieved for a message.")
    note_chars: int = Field(default=120, ge=20, description="The longest note, in characters.")


class Note(BaseModel):
    """One turn's note; frozen, so forks share notes and never change one in place."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    turn: int
    text: str = Field(min_length=1)

    def words(self) -> set[str]:
        return set(_WORD.findall(self.text.lower()))


def first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


class NotesMemory(MemoryModule):
    """Keyword notes: one per completed turn, the latest ``max_notes`` kept."""

    kind: ClassVar[str] = "notes"
    Params: ClassVar[type[NotesParams]] = NotesParams

    def __init__(self, params: NotesParams | None = None) -> None:
        self.params = params or NotesParams()
        # The default fork() goes attribute by attribute: a CowList forks in O(1), a tuple of
        # frozen notes and the frozen params are shared; nothing else may be mutable.
        self.notes: CowList[Note] = CowList()
        self.found: tuple[Note, ...] = ()
        """What the latest ``retrieve`` returned (replaced, never edited)."""

    async def ingest(self, turn: TurnRecord, ctx: MemoryContext) -> None:
        said = f"user: {first_line(turn.user)} | me: {first_line(turn.assistant)}"
        self.notes.append(Note(turn=turn.index, text=said[: self.params.note_chars]))
        if len(self.notes) > self.params.max_notes:
            del self.notes[0]  # after a fork, the first such write copies this fork's list once

    async def retrieve(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        wanted = set(_WORD.findall(query.lower()))
        scored = [(len(wanted & note.words()), note) for note in self.notes]
        ranked = sorted((s for s in scored if s[0]), key=lambda s: (-s[0], -s[1].turn))
        self.found = tuple(note for _, note in ranked[: self.params.top_k])
        return self.retrieved()

    def retrieved(self) -> list[MemoryItem]:
        return [MemoryItem(f"turn-{n.turn}", n.text, fields={"turn": n.turn}) for n in self.found]

    def render(self, budget_tokens: int | None = None) -> str:
        """The retrieved notes, most relevant first, as many as fit ``budget_tokens``."""
        lines = ["Notes from earlier turns:"] + [f"- {n.text}" for n in self.found]
        while budget_tokens is not None and count_tokens("\n".join(lines)) > budget_tokens:
            lines.pop()
        return "\n".join(lines) if len(lines) > 1 else ""

    def private_text(self) -> str:
        return "\n".join(f"[turn {n.turn}] {n.text}" for n in self.notes)

    def save_state(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "notes": [n.model_dump() for n in self.notes],
            "found": [n.model_dump() for n in self.found],
        }

    def load_state(self, state: dict[str, Any]) -> None:
        """Validate the whole state, then swap it in: a state of another kind or a malformed
        note raises ``StateError`` naming it and leaves the module as it was."""
        state = self.check_state_kind(state)
        notes = state_items(state, "notes", Note, "notes")
        found = state_items(state, "found", Note, "notes")
        self.notes = CowList(notes[-self.params.max_notes :])  # the module's own limit
        self.found = tuple(found[: self.params.top_k])
