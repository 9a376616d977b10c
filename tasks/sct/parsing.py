"""Reading the agent's answers in a Self-Consistency Test, for any task.

Three readers, all deterministic and tolerant of the ways chat models decorate short answers
(case, punctuation, markdown emphasis, code spans, a leading reasoning block):

- :func:`parse_yes_no` for the verification branches ("Is the secret ... ? yes or no");
- :func:`parse_reveal_word` for the reveal branch of a one-word secret;
- :func:`mentions_word` for leakage checks over public text.

A reasoning block (``<think>...</think>``, ``<thinking>``, ``<reasoning>``) is dropped before
reading; so is everything up to a dangling closing tag, which some servers emit when the
opening tag is part of the prompt template.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_REASONING_BLOCK = re.compile(
    r"<(think|thinking|reasoning)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL
)
_DANGLING_CLOSE = re.compile(r"^.*</(?:think|thinking|reasoning)\s*>", re.IGNORECASE | re.DOTALL)
_UNCLOSED_OPEN = re.compile(r"<(?:think|thinking|reasoning)\b[^>]*>.*\Z", re.IGNORECASE | re.DOTALL)


def strip_reasoning(text: str) -> str:
    """``text`` without reasoning blocks; an unterminated block is dropped to the end."""
    text = _REASONING_BLOCK.sub(" ", text)
    text = _DANGLING_CLOSE.sub(" ", text)
    return _UNCLOSED_OPEN.sub(" ", text).strip()


@dataclass(frozen=True)
class YesNo:
    """A parsed yes/no answer. ``answer`` is None exactly when ``parsed`` is False."""

    answer: Literal["yes", "no"] | None
    parsed: bool
    raw: str


_YES_WORDS = frozenset({"yes", "yeah", "yep", "yup"})
_NO_WORDS = frozenset({"no", "nope"})
_DECORATION = re.compile(r"[*_`#>~\"'“”‘’()\[\]]")
_OPTIONS = r"(?:yes\s*(?:/|-?\s*or\b\s*-?)\s*no|no\s*(?:/|-?\s*or\b\s*-?)\s*yes)\b"
_LEADING_LABEL = re.compile(
    rf"^(?:(?:(?:final\s+)?answer\s*(?:is\b\s*)?[:\-–—]?|{_OPTIONS}\s*[:?\-–—])\s*)+",
    re.IGNORECASE,
)
_FIRST_WORD = re.compile(r"^[^A-Za-z]*([A-Za-z]+)(.*)\Z", re.DOTALL)
_ALTERNATIVE = re.compile(r"\s*(?:/|[-–—]?\s*(?:or|nor|and\s+(?:yes|no))\b)", re.IGNORECASE)
_NO_IDIOM = re.compile(
    r"^\s+(?:idea|clue|comment|problems?|worries|worry|doubts?|questions?|matter)\b", re.I
)
_ANSWER_IS = re.compile(
    r"\banswer\s*(?:(?:is|would\s+be|will\s+be)\b\s*[:\-–—]?|[:\-–—])\s*(yes|no)\b", re.I
)
_SENTENCE_START = re.compile(r"(?:^|[.!?\n])[^.!?\n]*\Z")
_HEDGE = re.compile(
    r"\b(?:not|never|cannot|unable|refuse[sd]?|whether|if|neither|nor)\b|n['’]t\b", re.I
)


def parse_yes_no(text: str) -> YesNo:
    """Read a yes/no answer from a reply; replies that are no answer stay unparsed.

    The answer is the first word after dropping reasoning blocks, markdown decoration and
    leading labels ("Answer:", or the options repeated as a label: "Yes or no: no."): "yes"
    (also "yeah", "yep", "yup") or "no" (also "nope"), matched as a whole word, so "Yes.",
    "**No**", "yes!", "No, it is not." and "Yes - that's it" parse, while "yesterday",
    "I don't know" and "not sure" do not. A first word offered as one of the options ("yes or
    no", "Yes/No", "yes and no") is no answer, nor is "no" in "No idea", "No comment" or
    "No problem". Failing a first word, a statement "the answer is yes" (or "no") counts when
    every such statement agrees, and a statement counts only when it is not itself the options
    ("the answer is yes or no") and nothing earlier in its sentence negates, refuses or makes
    it conditional ("I can't say whether the answer is yes or no", "if the answer is yes").
    Such replies, and "I cannot say yes" or "Not yes.", stay unparsed: a missing answer is
    better than a wrong one.
    """
    body = strip_reasoning(text)
    undecorated = _DECORATION.sub(" ", body)  # same length as body: offsets carry over
    cleaned = _LEADING_LABEL.sub("", undecorated.strip())
    first = _FIRST_WORD.match(cleaned)
    if first is not None:
        word, rest = first.group(1).lower(), first.group(2)
        idiom = word in _NO_WORDS and _NO_IDIOM.match(rest)
        if (word in _YES_WORDS or word in _NO_WORDS) and not _ALTERNATIVE.match(rest) and not idiom:
            return YesNo(answer="yes" if word in _YES_WORDS else "no", parsed=True, raw=text)
    stated = {
        match.group(1).lower()
        for match in _ANSWER_IS.finditer(undecorated)
        if not _ALTERNATIVE.match(undecorated, match.end())
        and not _HEDGE.search(_sentence_before(body, match.start()))
    }
    if len(stated) == 1:
        answer: Literal["yes", "no"] = "yes" if stated == {"yes"} else "no"
        return YesNo(answer=answer, parsed=True, raw=text)
    return YesNo(answer=None, parsed=False, raw=text)


def parse_yes_no_strict(text: str) -> Literal["yes", "no"] | None:
    """The Hangman authors' reading: the reply, stripped and lowercased, is exactly ``yes`` or
    ``no``; anything else ("Yes.", "**Yes**", "yes!") is no answer, so it is not affirmed."""
    reply = text.strip().lower()
    return "yes" if reply == "yes" else "no" if reply == "no" else None


def _sentence_before(text: str, end: int) -> str:
    """The part of the sentence that ends at ``end``, from the sentence's start."""
    start = _SENTENCE_START.search(text, 0, end)
    return text[start.start() if start is not None else 0 : end]


_MARKED_WORD = re.compile(
    r"\*\*\s*([A-Za-z]+)\s*\*\*"  # **apple**
    r"|__([A-Za-z]+)__"  # __apple__
    r"|`+\s*([A-Za-z]+)\s*`+"  # `apple`
    r"|<secret>\s*([A-Za-z]+)\s*</secret>"  # <secret>apple</secret>
    r"|\"\s*([A-Za-z]+)\s*\""  # "apple"
    r"|“\s*([A-Za-z]+)\s*”"  # “apple”
    r"|‘\s*([A-Za-z]+)\s*’"  # ‘apple’
    r"|(?<![A-Za-z])'([A-Za-z]+)'(?![A-Za-z])"  # 'apple'
    r"|(?<![*A-Za-z])\*([A-Za-z]+)\*(?![*A-Za-z])",  # *apple*
    re.IGNORECASE,
)
_AFTER_COPULA = re.compile(
    r"(?:\b(?:is|was)\b\s*[:\-–—]?|(?<=[A-Za-z])['’]s\b|:|\s[-–—]\s)"
    r"\s*([A-Za-z]+)\b(?![-'’])(?!\s+(?:of|about)\b)"  # not "was thinking of"
)
_FILLER = frozenset(
    {
        "a", "an", "the", "my", "your", "our", "this", "that", "it", "its", "now", "still",
        "not", "no", "yes", "secret", "word", "answer", "simply", "just", "actually", "indeed",
        "none", "nothing",
    }
)  # fmt: skip
_LONE_WORD = re.compile(r"[^A-Za-z]*([A-Za-z]+)[^A-Za-z]*")


def parse_reveal_word(text: str) -> str | None:
    """The single word a reveal answer names, lowercase, or None when it names none.

    Preference order: the last word set off by emphasis, backticks, quotes or a ``<secret>``
    tag ("**Apple**", "`apple`", '"apple"'); then the first word after "is", "was" or a colon
    that is not a filler such as "the" ("The secret word is apple." -> "apple",
    "My word was: apple" -> "apple"); then a reply that is one lone word ("apple", "Apple.").
    The first word of a sentence is never taken on its own ("Apple is my word" gives None):
    a wrong secret would be worse than a missing one.
    """
    body = strip_reasoning(text)
    marked = [
        next(group for group in match.groups() if group) for match in _MARKED_WORD.finditer(body)
    ]
    marked = [word for word in marked if word.lower() not in _FILLER]
    if marked:
        return marked[-1].lower()
    for match in _AFTER_COPULA.finditer(body):
        word = match.group(1).lower()
        if word not in _FILLER:
            return word
    lone = _LONE_WORD.fullmatch(body)
    if lone is not None:
        return lone.group(1).lower()
    return None


def mentions_word(text: str, word: str) -> bool:
    """Whether ``text`` contains ``word`` as a whole word, ignoring case.

    A word boundary is any character that is not an ASCII letter: "apple" is mentioned in
    "Apple!", "'apple'", "apple's" and "<secret>apple</secret>", but not in "pineapple",
    "apples" or "a p p l e". Plurals and other inflections are deliberately not matched.
    """
    target = word.strip()
    if not target:
        raise ValueError("mentions_word needs a non-empty word to look for")
    pattern = rf"(?<![A-Za-z]){re.escape(target)}(?![A-Za-z])"
    return re.search(pattern, text, re.IGNORECASE) is not None
