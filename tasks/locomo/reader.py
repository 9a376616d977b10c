"""A scripted fake reader for LoCoMo runs without a model.

It answers the question of the last message from the text it was shown (system prompt and
history): the words after the speaker of the line that shares most words with the question,
or "Not mentioned in the conversation" when no line shares a content word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cogarch.models.fakes import CallInfo

_WORD = re.compile(r"[a-z0-9']+")
_QUESTION = re.compile(r"Question: (.*?)(?: Use DATE| Select the correct| Short answer:)", re.S)
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "of",
        "to",
        "in",
        "on",
        "is",
        "was",
        "did",
        "does",
        "do",
        "what",
        "when",
        "where",
        "who",
        "how",
        "why",
    ]
)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def reader(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """The best-overlapping line's words, or an abstention."""
    asked = pairs[-1][1] if pairs else ""
    found = _QUESTION.search(asked)
    question = _words(found.group(1) if found else asked)
    lines = [line for _, text in pairs[:-1] for line in text.splitlines() if ": " in line]
    best, overlap = "", 0
    for line in lines:
        shared = len(question & _words(line))
        if shared > overlap:
            best, overlap = line, shared
    if not best:
        return "Not mentioned in the conversation"
    return best.split(": ", 1)[1].strip()


READERS = {"reader": reader}

__all__ = ["READERS", "reader"]
