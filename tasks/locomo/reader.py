"""A scripted fake reader for LoCoMo runs without a model.

It answers the question of the last message from the text it was shown (system prompt and
history): the words after the speaker of the line that shares most words with the question,
or "Not mentioned in the conversation" when no line shares a content word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cogarch.models.fakes import CallInfo
from cogarch.tasks.memory_bench.overlap import best_line

_QUESTION = re.compile(r"Question: (.*?)(?: Use DATE| Select the correct| Short answer:)", re.S)


def reader(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """The best-overlapping line's words, or an abstention."""
    asked = pairs[-1][1] if pairs else ""
    found = _QUESTION.search(asked)
    question = found.group(1) if found else asked
    lines = [line for _, text in pairs[:-1] for line in text.splitlines() if ": " in line]
    best = best_line(question, lines)
    if not best:
        return "Not mentioned in the conversation"
    return best.split(": ", 1)[1].strip()


READERS = {"reader": reader}
