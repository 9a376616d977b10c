"""The candidate secrets asked about after the fork of a Hangman Self-Consistency Test.

Every candidate except the agent's own secrets must be indistinguishable from the secret given
the public dialogue, so it must satisfy the :class:`~tasks.hangman.rules.Constraints`. The
set is built in this order, deduplicated, and then shuffled with the trial's ``rng`` so the
secret's position says nothing:

1. the word the agent revealed in the reveal branch (if any);
2. the secret found in the agent's private memory (if any, and different);
3. the most frequent vocabulary words admitted by the constraints;
4. when those run short, words proposed by a helper model (the Appendix F candidate prompt),
   each checked against the same rules; rejected proposals are recorded with the reason.

The agent's own secrets are kept even when they break the constraints (that is a finding,
not a reason to drop them) and even when they alone exceed ``n``. They come from model output,
so they are read leniently ("Apple.", "**apple**", "the word is apple" all give "apple"); one
that names no single word is left out and listed in ``unusable_secrets``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Literal

from cogarch.core.player import Propose

from ..sct.parsing import parse_reveal_word, strip_reasoning
from .rules import Constraints
from .vocabulary import Vocabulary

CandidateOrigin = Literal["revealed", "memory", "vocabulary", "model"]

_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Rejection:
    """A model proposal left out of the set, and why."""

    word: str
    reason: str


@dataclass
class CandidateSet:
    """The candidates in asking order, where each came from, and what could not be filled.

    ``shortfall`` is how many candidates are missing to reach the requested size;
    ``unusable_secrets`` lists a revealed or memory secret that named no single word.
    """

    words: list[str]
    sources: dict[str, CandidateOrigin]
    rejected_proposals: list[Rejection] = field(default_factory=list)
    shortfall: int = 0
    unusable_secrets: list[Rejection] = field(default_factory=list)


def _secret(value: str | None, what: str, unusable: list[Rejection]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string or None, got {value!r}")
    word = value.strip().lower()
    if _WORD.fullmatch(word):
        return word
    parsed = parse_reveal_word(value)
    if parsed is None:
        unusable.append(Rejection(value, f"the {what} names no single word of letters a-z"))
    return parsed


async def build_candidates(
    *,
    constraints: Constraints,
    n: int,
    rng: random.Random,
    revealed: str | None,
    memory_secret: str | None,
    propose: Propose | None = None,
    vocabulary: Vocabulary | None = None,
) -> CandidateSet:
    """Build and shuffle ``n`` candidates (see the module docstring for the order).

    ``propose(k)`` is awaited at most once, with ``k`` the number of words still missing; it
    should ask a helper model with the candidate-generation prompt and return its words
    (:func:`parse_word_list` reads the model's answer). Proposals are not required to be in the
    vocabulary: when it ran short, every admissible vocabulary word is already in the set.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int (the number of candidates), got {n!r}")
    words: list[str] = []
    sources: dict[str, CandidateOrigin] = {}

    def add(word: str, source: CandidateOrigin) -> None:
        words.append(word)
        sources[word] = source

    unusable: list[Rejection] = []
    revealed_word = _secret(revealed, "revealed secret", unusable)
    memory_word = _secret(memory_secret, "memory secret", unusable)
    if revealed_word is not None:
        add(revealed_word, "revealed")
    if memory_word is not None and memory_word not in sources:
        add(memory_word, "memory")

    missing = n - len(words)
    if missing > 0:
        limit = missing + len(words)
        for word in constraints.consistent_words(limit, vocabulary=vocabulary):
            if len(words) >= n:
                break
            if word not in sources:
                add(word, "vocabulary")

    rejected: list[Rejection] = []
    missing = n - len(words)
    if missing > 0 and propose is not None:
        for proposal in await propose(missing):
            word = proposal.strip().lower() if isinstance(proposal, str) else ""
            if not _WORD.fullmatch(word):
                rejected.append(Rejection(str(proposal), "not a single word of letters a-z"))
            elif word in sources:
                rejected.append(Rejection(word, "duplicate"))
            elif not constraints.admits(word):
                rejected.append(Rejection(word, "inconsistent with the public constraints"))
            elif len(words) >= n:
                rejected.append(Rejection(word, "surplus"))
            else:
                add(word, "model")

    rng.shuffle(words)
    return CandidateSet(
        words=words,
        sources=sources,
        rejected_proposals=rejected,
        shortfall=max(0, n - len(words)),
        unusable_secrets=unusable,
    )


_FENCE = re.compile(r"```[A-Za-z]*\s*|```")
_QUOTED = re.compile(r"\"([^\"\n]+)\"|'([^'\n]+)'")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*([A-Za-z]+)\s*$", re.MULTILINE)


def parse_word_list(text: str) -> list[str]:
    """The words of a model's JSON-array answer, lowercase, stripped, deduplicated, in order.

    Tolerates reasoning blocks, code fences and surrounding prose: the first bracketed span
    that parses as a JSON array is used (non-string items are skipped); failing that, the
    quoted strings inside the first ``[...]``; failing that, a bulleted or numbered list of
    single words. Returns an empty list when nothing looks like a list.
    """
    body = _FENCE.sub(" ", strip_reasoning(text))
    items: list[str] | None = None
    for start in (m.start() for m in re.finditer(r"\[", body)):
        end = body.find("]", start)
        while end != -1:
            try:
                value = json.loads(body[start : end + 1])
            except json.JSONDecodeError:
                end = body.find("]", end + 1)
                continue
            if isinstance(value, list):
                items = [item for item in value if isinstance(item, str)]
            break
        if items is not None:
            break
    if items is None:
        bracket = re.search(r"\[([^\]]*)\]?", body)
        if bracket is not None:
            items = [a or b for a, b in _QUOTED.findall(bracket.group(1))]
    if not items:
        items = _LIST_ITEM.findall(body)
    seen: dict[str, None] = {}
    for item in items:
        word = item.strip().lower()
        if word:
            seen.setdefault(word, None)
    return list(seen)
