"""Wrong answers made from a gold answer and its question's context, one per kind that
applies, each the gold answer changed in one way a careful judge must reject:

- ``number``: every number outside a date, in digits or words, moved up by the question's
  step (1, or 2 where the task's rubric forgives an off-by-one count);
- ``date``: every date moved a week (a month for a month and year alone);
- ``weekday``: every weekday of an answer that names no date, as the next day;
- ``other_name``: the first person or place of the conversation the answer names, as another
  one the conversation names and the question does not (chosen by seed);
- ``negation``: a yes/no (or true/false) answer as its opposite, alone;
- ``older_value``: the first answer the task knows was true before it was updated.
"""

from __future__ import annotations

import random
import re
from decimal import Decimal

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
    ``step`` (by a multiple of it when that would land on another number the answer lists):
    an answer that lists an accepted alternative ("7 days; 8 is also acceptable") stays
    wrong."""
    dates = date_spans(gold)
    found: list[tuple[int, int, Decimal | int, str]] = [
        (f.start, f.end, Decimal(f.text.replace(",", "")), f.text) for f in numbers(gold)
    ]
    for word in NUMBER_WORD.finditer(gold):
        if not any(d.start <= word.start() < d.end for d in dates):
            found.append((word.start(), word.end(), word_value(word.group(0)), word.group(0)))
    if not found:
        return None
    values = {value for _, _, value, _ in found}
    move = step
    while any(value + move in values for value in values):
        move += step
    spans = [
        (start, end, moved_number(text, move))
        if isinstance(value, Decimal)
        else (start, end, _same_case(text, number_to_words(value + move)))
        for start, end, value, text in found
    ]
    return _replaced(gold, spans)


def wrong_date(gold: str) -> str | None:
    """Every date of ``gold`` moved a week (a month without a day), or by as many weeks as
    it takes not to land on another date the answer lists."""
    dates = [d for d in date_spans(gold) if shifted_date(d.text) is not None]
    if not dates:
        return None
    said = {normalized(d.text) for d in dates}
    for times in range(1, 60):
        moved = [(d.start, d.end, shifted_date(d.text, times) or d.text) for d in dates]
        if not any(normalized(text) in said for _, _, text in moved):
            return _replaced(gold, moved)
    return None


def wrong_weekday(gold: str) -> str | None:
    """Every weekday of an answer that names no date moved a day, or as many days as it
    takes not to land on another weekday the answer lists."""
    if date_spans(gold):
        return None
    days = list(WEEKDAY.finditer(gold))
    named = {d.group(0).capitalize() for d in days}
    for shift in range(1, 7):
        moved = [(d.start(), d.end(), next_weekday(d.group(0), shift)) for d in days]
        if days and not any(text.capitalize() in named for _, _, text in moved):
            return _replaced(gold, moved)
    return None


def _replaced(text: str, spans: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


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
