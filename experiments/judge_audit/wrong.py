"""Wrong answers made from a gold answer and its question's context, one per kind that
applies, each the gold answer changed in one way a careful judge must reject:

- ``number``: every number outside a date, in digits or words, moved up by the question's
  step (1, or 2 where the task's rubric forgives an off-by-one count);
- ``date``: the first date moved a week (a month for a month and year alone);
- ``weekday``: a weekday named without a date, as the next day;
- ``other_name``: the first person or place of the conversation the answer names, as another
  one the conversation names and the question does not (chosen by seed);
- ``negation``: a yes/no (or true/false) answer as its opposite, alone;
- ``older_value``: the first answer the task knows was true before it was updated.
"""

from __future__ import annotations

import random
import re

from cogarch.core.judge_audit import AuditQuestion

from .names import capitalised, conversation_names, names_in, replace_name
from .numbers import (
    NUMBER_WORD,
    WEEKDAY,
    date_spans,
    moved_number,
    next_weekday,
    number_to_words,
    numbers,
    shifted_date,
    word_value,
)

_YES_NO = re.compile(
    r"^\s*((?:likely|probably|definitely|maybe|most likely)\s+)?(yes|no|true|false)\b", re.I
)
WRONG_KINDS = ("number", "date", "weekday", "other_name", "negation", "older_value")
_OPPOSITE = {"yes": "no", "no": "yes", "true": "false", "false": "true"}


def _same_case(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    return word.capitalize() if model[0].isupper() else word


def wrong_number(gold: str, step: int) -> str | None:
    """Every number of ``gold`` outside its dates, in digits or in words, moved up by
    ``step``: an answer that lists an accepted alternative ("7 days; 8 is also acceptable")
    stays wrong."""
    dates = date_spans(gold)
    spans = [(f.start, f.end, moved_number(f.text, step)) for f in numbers(gold)]
    for word in NUMBER_WORD.finditer(gold):
        if not any(d.start <= word.start() < d.end for d in dates):
            moved = number_to_words(word_value(word.group(0)) + step)
            spans.append((word.start(), word.end(), _same_case(word.group(0), moved)))
    if not spans:
        return None
    for start, end, text in sorted(spans, reverse=True):
        gold = gold[:start] + text + gold[end:]
    return gold


def wrong_date(gold: str) -> str | None:
    for found in date_spans(gold):
        if (moved := shifted_date(found.text)) is not None:
            return gold[: found.start] + moved + gold[found.end :]
    return None


def wrong_weekday(gold: str) -> str | None:
    if date_spans(gold):
        return None
    m = WEEKDAY.search(gold)
    if m is None:
        return None
    return gold[: m.start()] + next_weekday(m.group(0)) + gold[m.end() :]


def wrong_name(q: AuditQuestion, rng: random.Random) -> str | None:
    """The gold answer with its first name replaced by another name of the conversation."""
    context = "\n".join(q.context)
    known = conversation_names(q.context)
    said = [n for n in names_in(q.gold, [*known, *capitalised(q.gold)]) if _said(n, context)]
    if not said:
        return None
    name = said[0]
    gold_words = set(q.gold.casefold().split())
    others = [
        n
        for n in known
        if n.casefold() not in q.gold.casefold()
        and not names_in(q.question, [n])
        and not set(n.casefold().split()) & gold_words
    ]
    if not others:
        return None
    return replace_name(q.gold, name, rng.choice(sorted(others)))


def _said(name: str, context: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", context) is not None


def wrong_negation(gold: str) -> str | None:
    m = _YES_NO.match(gold)
    if m is None:
        return None
    word = m.group(2)
    return (m.group(1) or "").lstrip() + _same_case(word, _OPPOSITE[word.lower()])


def wrong_answers(q: AuditQuestion, seed: int) -> list[tuple[str, str]]:
    """Every wrong answer of ``q`` as ``(kind, answer)``, in the kinds' fixed order."""
    rng = random.Random(f"{seed}:{q.key}:other_name")
    older = next((s for s in q.superseded if normalized(s) != normalized(q.gold)), None)
    made = [
        ("number", wrong_number(q.gold, q.number_step)),
        ("date", wrong_date(q.gold)),
        ("weekday", wrong_weekday(q.gold)),
        ("other_name", wrong_name(q, rng)),
        ("negation", wrong_negation(q.gold)),
        ("older_value", older),
    ]
    return [
        (kind, answer)
        for kind, answer in made
        if answer and normalized(answer) != normalized(q.gold)
    ]


def normalized(text: str) -> str:
    """``text`` folded for comparison: lower case, punctuation as spaces, spaces collapsed."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())
