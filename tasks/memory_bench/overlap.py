"""Word overlap, the reading of the scripted fake readers: the line of what an agent was
shown that shares most content words with the question."""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[a-z0-9']+")
STOP_WORDS = frozenset(
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


def content_words(text: str) -> set[str]:
    """The lower-cased words of ``text`` longer than two letters, stop words left out."""
    return {w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and len(w) > 2}


def best_line(question: str, lines: Iterable[str]) -> str:
    """The first of ``lines`` sharing most content words with ``question`` ("" when none
    shares one)."""
    wanted = content_words(question)
    best, overlap = "", 0
    for line in lines:
        shared = len(wanted & content_words(line))
        if shared > overlap:
            best, overlap = line, shared
    return best
