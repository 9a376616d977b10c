"""Exact scoring after a stated normalisation; no judge is needed.

Normalisation: lower case; a comma between digits dropped ("1,650" is "1650"); ordinal
endings dropped ("14th" is "14"); every other character that is not a letter or a digit
becomes a space; number words to digits ("twenty-one" is "21", up to 99); month
abbreviations to month names ("Mar" is "march"); leading zeros dropped ("03" is "3");
articles (a, an, the) dropped; spaces collapsed.

A reply to an answerable question is correct when its normalised text contains one of the
accepted variants as whole words and none of the question's rival values (the values its
hard negatives state: a reader that lists every candidate is not right). A reply to an
abstention question is correct when it says the information is missing (one of
``ABSTAINING``); a reply that abstains on an answerable question contains no variant and so
is wrong.
"""

from __future__ import annotations

import re

from cogarch.words import MONTHS, SMALL_NUMBERS, TENS

_UNITS = SMALL_NUMBERS
_TENS = TENS
_MONTHS = {m[:3]: m for m in MONTHS}
_MONTHS["sept"] = "september"
ABSTAINING = (
    "not mentioned",
    "never mentioned",
    "not mention",
    "no mention",
    "not stated",
    "not specified",
    "not provided",
    "no information",
    "not enough information",
    "don t know",
    "do not know",
    "unknown",
    "cannot be determined",
    "can t be determined",
    "not sure",
    "no record",
    "does not say",
    "doesn t say",
)
"""Phrases (normalised) by which a reply says the information is missing."""


def _number_words(words: list[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        if w in _UNITS:
            value = _UNITS.index(w)
            if out and out[-1].isdigit() and int(out[-1]) % 10 == 0 and 20 <= int(out[-1]) <= 90:
                out[-1] = str(int(out[-1]) + value) if value < 10 else out[-1]
                if value >= 10:
                    out.append(str(value))
                continue
            out.append(str(value))
        elif w in _TENS:
            out.append(str(20 + 10 * _TENS.index(w)))
        else:
            out.append(w)
    return out


def normalise(text: str) -> str:
    """``text`` normalised as the module docstring states."""
    text = text.lower()
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    text = re.sub(r"\b(\d+)(st|nd|rd|th)\b", r"\1", text)
    words = re.sub(r"[^a-z0-9]+", " ", text).split()
    words = _number_words(words)
    words = [_MONTHS.get(w, w) for w in words]
    words = [str(int(w)) if w.isdigit() else w for w in words]
    return " ".join(w for w in words if w not in ("a", "an", "the"))


def _has(haystack: str, needle: str) -> bool:
    return bool(needle) and f" {needle} " in f" {haystack} "


def abstains(reply: str) -> bool:
    said = normalise(reply)
    return any(_has(said, p) for p in ABSTAINING)


def is_correct(
    reply: str, variants: tuple[str, ...], rivals: tuple[str, ...], abstention: bool
) -> bool:
    """Whether ``reply`` is right by the rule of the module docstring."""
    if abstention:
        return abstains(reply)
    said = normalise(reply)
    if any(_has(said, normalise(r)) for r in rivals):
        return False
    return any(_has(said, normalise(v)) for v in variants)
