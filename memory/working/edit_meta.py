"""What a memory tool call gives back: the new text and a report, or an error for the model.

A call that works returns a :class:`ToolResult`: the new memory and a :class:`ToolMeta` that
says how many hunks applied, how many lines changed and which sections were touched. A call
that cannot be carried out raises :class:`MemoryToolError`.

``changed_lines`` is worked out from the edit where the tool knows what it changed (lines
appended, deleted or spliced in one passage), so no call diffs the whole memory, except
``overwrite_memory``, which cannot know and diffs the old and new text line by line.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from cogarch.errors import CogarchError

from .document import DocumentSection, MemoryDocument


class MemoryToolError(CogarchError, ValueError):
    """A memory tool call that cannot be carried out; the message says how to fix the call."""


@dataclass(frozen=True)
class ToolMeta:
    """What a call did. ``changed_lines`` counts lines removed plus lines added."""

    applied_hunks: int = 0
    changed_lines: int = 0
    sections_touched: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ToolResult:
    """The memory after a call, and the report of what changed."""

    new_memory: str
    meta: ToolMeta

    def to_dict(self) -> dict[str, Any]:
        return {"new_memory": self.new_memory, "meta": asdict(self.meta)}


def tool_result(
    new_memory: str,
    *,
    before: MemoryDocument,
    after: MemoryDocument,
    changed_lines: int,
    applied: int,
    warnings: list[str],
) -> ToolResult:
    """The result of a call; ``before`` and ``after`` are the old and new memory, parsed."""
    meta = ToolMeta(
        applied_hunks=applied,
        changed_lines=changed_lines,
        sections_touched=touched_sections(before, after),
        warnings=warnings,
    )
    return ToolResult(new_memory=new_memory, meta=meta)


def unchanged_result(memory: str, doc: MemoryDocument, *, warnings: list[str]) -> ToolResult:
    """The result of a call that was skipped: same memory, nothing applied or changed."""
    return tool_result(memory, before=doc, after=doc, changed_lines=0, applied=0, warnings=warnings)


def text_changed_lines(old: str, new: str) -> int:
    """Lines removed plus lines added between two whole memory texts (a full line diff)."""
    if old == new:
        return 0
    return diff_changed_lines(old.split("\n"), new.split("\n"))


def edited_changed_lines(old: Sequence[str], new: Sequence[str]) -> int:
    """Lines removed plus lines added where ``new`` is ``old`` edited in one or a few places.

    The lines both start with and the lines both end with are skipped; only the rest, the
    edited passage, is diffed. Meant for a section body or the lines around a replacement.
    """
    size = min(len(old), len(new))
    start = 0
    while start < size and old[start] == new[start]:
        start += 1
    end = 0
    while end < size - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return diff_changed_lines(old[start : len(old) - end], new[start : len(new) - end])


def diff_changed_lines(old: Sequence[str], new: Sequence[str]) -> int:
    """Lines removed plus lines added in :class:`difflib.SequenceMatcher`'s line diff."""
    if not old or not new:
        return len(old) + len(new)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return sum(
        (i2 - i1) + (j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    )


def touched_sections(old: MemoryDocument, new: MemoryDocument) -> list[str]:
    """The titles of the sections whose body differs between ``old`` and ``new``."""

    def label(section: DocumentSection) -> str:
        return section.title or section.header.strip()

    if old.headers == new.headers:
        return [label(a) for a, b in zip(old.sections, new.sections, strict=True) if a != b]
    before = {s.header: s.body for s in old.sections}
    after = {s.header: s.body for s in new.sections}
    touched: list[str] = []
    for section in (*new.sections, *old.sections):
        name = label(section)
        if before.get(section.header) != after.get(section.header) and name not in touched:
            touched.append(name)
    return touched
