"""Rephrasings of a gold answer that mean the same, one per kind that applies; a fair judge
accepts every one:

- ``casing``: the answer in lower case (in upper case when it is lower case already);
- ``articles``: the answer without its articles (a, an, the; a capital A only where the
  answer starts);
- ``number_words``: the first whole number outside a date written in words (up to 999,999;
  not a year, a time or a percentage), else the first number word but "one" in digits;
- ``units``: a number's unit spelt the other way (``min`` / ``minutes``, ``km`` /
  ``kilometers``, ``$`` / ``dollars``...), or a bare number with the unit the question asks
  for ("How many vinyl records..." -> "42 vinyl records");
- ``list_order``: a list of two or more short items in reverse order;
- ``sentence``: the answer inside a short sentence ("Based on what you told me, the answer
  is ...").
"""

from __future__ import annotations

import re

from cogarch.core.judge_audit import AuditQuestion

from .numbers import NUMBER_WORD, date_spans, number_to_words, numbers, word_value
from .wrong import normalized

_ARTICLE = re.compile(r"^(?:The|A|An)\s+|\b(?:a|an|the|THE)\s+")
"""An article: lower case anywhere, capitalised only where the answer starts (so the letter
in "Plan A is" stays)."""
_UNITS: dict[str, tuple[str, str]] = {
    "minutes": ("min", "minutes"),
    "minute": ("min", "minutes"),
    "mins": ("minutes", "minutes"),
    "min": ("minutes", "minute"),
    "hours": ("hrs", "hr"),
    "hour": ("hr", "hr"),
    "hrs": ("hours", "hour"),
    "hr": ("hours", "hour"),
    "seconds": ("sec", "sec"),
    "second": ("sec", "sec"),
    "sec": ("seconds", "second"),
    "kilometers": ("km", "km"),
    "kilometres": ("km", "km"),
    "km": ("kilometers", "kilometer"),
    "kilograms": ("kg", "kg"),
    "kg": ("kilograms", "kilogram"),
    "pounds": ("lbs", "lb"),
    "lbs": ("pounds", "pound"),
    "miles": ("mi", "mi"),
    "percent": ("%", "%"),
    "%": ("percent", "percent"),
}
"""A unit after a number -> its other spelling (plural, singular for the number 1)."""
_AFTER = re.compile(r"\s?(%|[A-Za-z]+)\b|%")
_STOPS = [
    "do",
    "did",
    "does",
    "have",
    "has",
    "had",
    "is",
    "are",
    "was",
    "were",
    "will",
    "would",
    "can",
    "could",
    "should",
    "i",
    "you",
    "we",
    "they",
    "he",
    "she",
    "it",
    "my",
    "in",
    "on",
    "at",
    "of",
    "for",
    "this",
    "that",
    "the",
    "since",
    "between",
    "before",
    "after",
]
_HOW_MANY = re.compile(
    r"\bhow many ((?:[a-z]+ ){0,2}?[a-z]+?)(?= (?:" + "|".join(_STOPS) + r")\b|\?|$)", re.I
)
_IN_UNITS = re.compile(
    r"\bin (minutes|hours|seconds|days|weeks|months|years|km|kilometers|miles|dollars)\b", re.I
)
_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+")
SAME_KINDS = ("casing", "articles", "number_words", "units", "list_order", "sentence")
SENTENCE = "Based on what you told me, the answer is {answer}."


def same_casing(gold: str) -> str | None:
    return gold.lower() if gold != gold.lower() else gold.upper()


def same_without_articles(gold: str) -> str | None:
    return _ARTICLE.sub("", gold).strip() or None


def _is_year(text: str) -> bool:
    return len(text) == 4 and text.isdigit() and 1800 <= int(text) <= 2100


def same_number_words(gold: str) -> str | None:
    for found in numbers(gold):
        text = found.text.replace(",", "")
        before, after = gold[: found.start], gold[found.end :]
        if not text.isdigit() or _is_year(text) or int(text) > 999_999:
            continue
        if before.endswith((":", "$")) or after.startswith((":", "%")):
            continue
        return before + number_to_words(int(text)) + after
    if date_spans(gold):
        return None
    word = NUMBER_WORD.search(gold)
    if word is None or word.group(0).lower() == "one":  # "the blue one" is no number
        return None
    return gold[: word.start()] + str(word_value(word.group(0))) + gold[word.end() :]


def same_units(question: str, gold: str) -> str | None:
    for found in numbers(gold):
        before, after = gold[: found.start], gold[found.end :]
        value = found.text.replace(",", "")
        if before.endswith("$"):
            return before[:-1] + found.text + " dollars" + after
        unit = _AFTER.match(after)
        if unit is not None and unit.group(0).strip().lower() in _UNITS:
            plural, single = _UNITS[unit.group(0).strip().lower()]
            other = single if value == "1" else plural
            spaced = "" if other == "%" else " "
            return before + found.text + spaced + other + after[unit.end() :]
        if unit is not None and unit.group(0).strip().lower() == "dollars":
            return before + "$" + found.text + after[unit.end() :]
    bare = numbers(gold)
    if len(bare) == 1 and gold.strip() == bare[0].text:
        asked = _HOW_MANY.search(question) or _IN_UNITS.search(question)
        if asked is not None:
            return f"{gold.strip()} {asked.group(1).lower()}"
    return None


def same_list_order(gold: str) -> str | None:
    text = gold.strip().rstrip(".")
    if date_spans(text) or re.match(r"^(?:yes|no)\b", text, re.I):
        return None
    items = [i for i in _LIST_SPLIT.split(text) if i]
    if len(items) < 2 or any(len(i.split()) > 3 or not re.search(r"[A-Za-z]", i) for i in items):
        return None
    items.reverse()
    if " and " in text or ", and" in text:
        return ", ".join(items[:-1]) + " and " + items[-1]
    return ", ".join(items)


def same_sentence(gold: str) -> str:
    return SENTENCE.format(answer=gold.strip().rstrip("."))


def same_answers(q: AuditQuestion) -> list[tuple[str, str]]:
    """Every rephrasing of ``q``'s gold answer as ``(kind, answer)``, in the kinds' fixed
    order; none is the gold answer itself."""
    made = [
        ("casing", same_casing(q.gold)),
        ("articles", same_without_articles(q.gold)),
        ("number_words", same_number_words(q.gold)),
        ("units", same_units(q.question, q.gold)),
        ("list_order", same_list_order(q.gold)),
        ("sentence", same_sentence(q.gold)),
    ]
    out = []
    for kind, answer in made:
        if not answer or answer == q.gold:
            continue
        if kind != "casing" and normalized(answer) == normalized(q.gold):
            continue
        out.append((kind, answer))
    return out
