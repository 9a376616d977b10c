"""Scripted fakes for LongMemEval runs without a model: a reader and a judge.

The reader answers the question of the prompt (``Question: Q`` before the answer cue) from
the text it was shown (history chats as JSON or lines, or a memory block): the turn that
shares most content words with the question, or a plain "not mentioned" when none shares one.
The judge reads the official judge prompt: for an abstention question it says yes when the
response says the information is missing; otherwise yes when the response holds the correct
answer (or the rubric's words), case aside.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from cogarch.models.fakes import CallInfo, PairsFn
from cogarch.tasks.memory_bench.overlap import best_line, content_words

NOT_MENTIONED = "The chat history does not mention this, so I don't know."
_QUESTION = re.compile(r"Question: (.*?)\n(?:Answer|Extracted)", re.S)
_CONTENT = re.compile(r'"content": ("(?:[^"\\]|\\.)*")')
_SPOKEN = re.compile(r"^(?:- |\[t\d+\.\w+\] )?(?:\[[^\]]*\] )?(?:user|assistant): ", re.I)
_JUDGED = re.compile(
    r"\n\n(?:Correct Answer|Rubric|Explanation): (?P<gold>.*?)\n\nModel Response: "
    r"(?P<response>.*?)\n\n(?:Is|Does) the model",
    re.S,
)
MISSING = (
    "not mention",
    "don't know",
    "do not know",
    "no information",
    "not enough",
    "unanswerable",
)


def _said(texts: Sequence[str]) -> list[str]:
    """Every turn of ``texts``: JSON ``content`` values, and ``role: words`` lines."""
    out: list[str] = []
    for text in texts:
        for raw in _CONTENT.findall(text):
            try:
                out.append(str(json.loads(raw)))
            except ValueError:
                continue
        out += [_SPOKEN.sub("", line) for line in text.splitlines() if _SPOKEN.match(line)]
    return out


def reader(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """The best-overlapping turn, or a plain "not mentioned"."""
    texts = [text for _, text in pairs]
    asked = _QUESTION.findall("\n".join(texts))
    question = asked[-1] if asked else (texts[-1] if texts else "")
    best = best_line(question, _said(texts))
    return best.strip() or NOT_MENTIONED


def judge(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo | None = None) -> str:
    """ "Yes." or "No." for one official judge prompt."""
    prompt = pairs[-1][1] if pairs else ""
    found = _JUDGED.search(prompt)
    if found is None:
        return "No."
    response = found["response"].lower()
    if "unanswerable" in prompt:
        return "Yes." if any(m in response for m in MISSING) else "No."
    gold = found["gold"].strip().lower()
    if gold and gold in response:
        return "Yes."
    words = content_words(gold)
    return "Yes." if words and words <= content_words(response) else "No."


FAKES: dict[str, PairsFn] = {"longmemeval.reader": reader, "longmemeval.judge": judge}
