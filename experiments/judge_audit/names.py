"""People and places named in a conversation: capitalised words a speaker writes inside a
sentence (a word capitalised only where a sentence starts is not taken for a name), and the
speakers' names of ``Speaker: words`` lines."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .numbers import MONTHS, WEEKDAYS

_NAME = re.compile(r"[A-Z][a-z]+(?:['’-][A-Za-z]+)*(?: [A-Z][a-z]+(?:['’-][A-Za-z]+)*)*")
_SPEAKER = re.compile(r"^(?:\[[^\]]*\]\s*)?([A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?):\s")
_ENDS = '.!?;:"“(\n'
"""What a sentence may start after (spaces aside)."""
NOT_NAMES = frozenset(
    [*MONTHS, *WEEKDAYS, "I", "I'm", "I've", "I'd", "I'll", "OK", "Okay", "Hi", "Hey", "Mr",
     "Mrs", "Ms", "Dr", "Yes", "No", "Thanks", "Thank", "Oh", "Wow", "Sure", "Well", "So",
     "The", "A", "An", "And", "But", "Or", "It", "It's", "That", "This", "What", "User",
     "Assistant", "God", "Internet", "English", "Great", "Good", "Also", "Just"]
)  # fmt: skip


def _possessive(name: str) -> str:
    for ending in ("'s", "’s"):
        if name.endswith(ending):
            return name[: -len(ending)]
    return name


def _trimmed(name: str) -> str | None:
    """``name`` without leading words that are no names ("The Lisbon" -> "Lisbon")."""
    words = name.split(" ")
    while words and words[0] in NOT_NAMES:
        words.pop(0)
    kept = _possessive(" ".join(words))
    return kept if kept and kept not in NOT_NAMES else None


def conversation_names(lines: Iterable[str]) -> list[str]:
    """The names of ``lines``, each once, in the order first met."""
    found: dict[str, None] = {}
    for line in lines:
        speaker = _SPEAKER.match(line)
        if speaker is not None and (name := _trimmed(speaker.group(1))) is not None:
            found.setdefault(name)
        body = line[speaker.end() :] if speaker is not None else line
        for m in _NAME.finditer(body):
            before = body[max(0, m.start() - 40) : m.start()].rstrip(" \t")
            if not before or before[-1] in _ENDS:
                rest = m.group(0).split(" ", 1)
                if len(rest) == 1:
                    continue
                candidate = rest[1]  # the first word starts the sentence; the others may be a name
            else:
                candidate = m.group(0)
            if (name := _trimmed(candidate)) is not None:
                found.setdefault(name)
    return list(found)


def names_in(text: str, known: Iterable[str]) -> list[str]:
    """The names of ``known`` that ``text`` holds as whole words, longest first."""
    return [
        n
        for n in sorted(set(known), key=lambda n: (-len(n), n))
        if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", text)
    ]


def capitalised(text: str) -> list[str]:
    """Every run of capitalised words of ``text`` that may be a name, wherever it stands."""
    return [n for m in _NAME.finditer(text) if (n := _trimmed(m.group(0))) is not None]


def replace_name(text: str, name: str, other: str) -> str:
    return re.sub(rf"(?<![\w]){re.escape(name)}(?![\w])", other, text)
