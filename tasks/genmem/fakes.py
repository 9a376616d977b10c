"""A scripted reader for runs without a model: it answers from the words it was shown.

It finds the question (``Question: Q`` before the answer cue) and, among the lines of
dialogue in its prompt (``role: words`` lines, or JSON ``content`` values), the one sharing
most content words with the question; it replies with the value that line gives for the
question's kind (the capitalised name, number, job or colour the question does not already
name), or "Not mentioned." when no line shares a word. So a memory that shows the evidence
line scores on questions answered in one line, and no memory scores none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cogarch.models.fakes import CallInfo, PairsFn
from cogarch.tasks.memory_bench.overlap import best_line, content_words

from .families import COLOURS
from .words import JOBS

_QUESTION = re.compile(r"Question: (.*?)\n(?:Answer|Extracted)", re.S)
_CONTENT = re.compile(r'"content": "((?:[^"\\]|\\.)*)"')
_SPOKEN = re.compile(r"(?:^|\] )user: (.*)$", re.M)
_WORD = re.compile(r"[A-Za-z][a-z]+|\d+")


def _lines(text: str) -> list[str]:
    return _CONTENT.findall(text) + _SPOKEN.findall(text)


def _value(question: str, line: str) -> str:
    asked = set(question.lower().replace("?", " ").replace("'s", " ").split())
    words = [w for w in _WORD.findall(line) if w.lower() not in asked]
    if "job" in question or "living" in question:
        found = [w for w in words if w.lower() in JOBS]
    elif "colour" in question:
        found = [w for w in words if w.lower() in COLOURS]
    elif "number" in question:
        found = [w for w in words if w.isdigit()]
    else:
        found = [w for w in words[1:] if w[0].isupper() and w not in ("I", "My")]
    return found[0] if found else line


def reader(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """The value of the best-overlapping line, or "Not mentioned."."""
    text = "\n".join(t for _, t in pairs)
    asked = _QUESTION.findall(text)
    question = asked[-1] if asked else (pairs[-1][1] if pairs else "")
    lines = [line for line in _lines(text) if content_words(line) - {"answer", "only"}]
    best = best_line(re.sub(r"Answer with .*$", "", question), lines)
    return _value(question, best) if best else "Not mentioned."


FAKES: dict[str, PairsFn] = {"genmem.reader": reader}
