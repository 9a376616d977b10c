"""Keeps private blocks out of public text, whatever a model writes.

A private block opens at ``<NAME`` (any case, spaces allowed after ``<``, any attributes or
none, and whatever follows the name: ``<secretapple`` with its ``>`` forgotten opens one too)
for one of the :data:`PRIVATE_TAGS`, and runs to the close tag that brings the count of
open private tags back to zero, or to the end of the text when there is none: nested and
overlapping blocks are removed whole, and an unclosed one hides everything after it. The
open tag's own end (``>``) is never looked for, so no attribute can end it early. Blocks are
removed until none is left; then a close tag with no open tag before it hides everything
before it too (its open tag went missing, e.g. into reasoning split off the reply, or a
chat template that opens ``<think>`` in the prompt). Both repeat until the text is stable, so
tags that only form once a block is cut out (``<sec<secret></secret>ret>``) are removed too.
"""

from __future__ import annotations

import re

PRIVATE_TAGS = (
    "think",
    "thinking",
    "working_memory",
    "private_state",
    "secret",
    "private_reasoning",
)

_NAME = "|".join(sorted(PRIVATE_TAGS, key=len, reverse=True))
_TAG = re.compile(
    rf"""<\s*(?P<close>/)?\s*(?:{_NAME})(?(close)(?:[^<>"']|"[^"<]*"|'[^'<]*'|["'])*>?)""",
    re.IGNORECASE,
)
"""An open tag's start, or a close tag through its ``>`` (quoted attribute values may hold one;
when it is missing, up to the next ``<``: whatever a broken close tag holds stays private)."""


def _one_pass(text: str, *, drop_stray: bool) -> str:
    kept: list[str] = []
    depth = 0
    start = 0  # where the public text resumes
    for match in _TAG.finditer(text):
        closing = match.group("close") is not None
        if depth == 0:
            if closing and not drop_stray:
                continue
            kept = [] if closing else [*kept, text[start : match.start()]]
            start = match.end()
            depth = 0 if closing else 1
            continue
        depth += -1 if closing else 1
        if depth == 0:
            start = match.end()
    if depth == 0:
        kept.append(text[start:])
    return "".join(kept)


def public_text(text: str) -> str:
    """Remove reasoning, memory and ``<secret>`` blocks (an unclosed block runs to the end)."""
    while True:
        cleaned = _one_pass(text, drop_stray=False)
        if cleaned == text:
            cleaned = _one_pass(text, drop_stray=True)
            if cleaned == text:
                return cleaned.strip()
        text = cleaned
