"""The qualification gate Q(a, CCS_{t-1}, x_t): which recalled artifacts may reach commitment.

The ACC paper separates recall from commitment but leaves the gate undefined. Here a gate is
any callable ``gate(candidate, context) -> GateDecision | bool`` registered by short name in
``GATES`` (or given as an import path ``"package.module:function"``).

The default gate, ``"default"`` (also ``"relevance_safety"``), qualifies an artifact when all
three hold:

1. **Relevant**: its similarity to the recall query (the current input joined with the
   committed goal) is at least the threshold.
2. **Not an injection**: its text matches none of the prompt-injection patterns below (for
   example "ignore the previous instructions", "you are now", "override the policy").
3. **Not contradicting a committed constraint**: for every constraint of the previous state
   that is a prohibition ("no X", "never X", "do not X", "avoid X", "must not X", ...), the
   artifact does not contain, in a sentence without a negation of its own, the prohibited
   action (the first content word after the negation) together with one of the other content
   words of that phrase (when the phrase has any). Words are compared by a crude stem.
   Constraints that are not prohibitions ("only read-only checks") are not tested.

These are heuristics with known blind spots (paraphrased injections, prohibitions phrased
positively); the gate is pluggable so a stricter one can be swapped in by name.
Other registered gates: ``"similarity"`` (rule 1 only), ``"all"`` (every recalled artifact
qualifies: recall without a gate) and ``"none"`` (nothing qualifies: no recall).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.errors import ConfigError
from cogarch.registry import Registry, takes_positional

from .ccs import ARTIFACT_ID, CCS

ArtifactSource = Literal["user", "assistant", "tool", "document"]


class Artifact(BaseModel):
    """External evidence kept outside the CCS; the CCS may only cite its ``id``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=ARTIFACT_ID.pattern)
    text: str
    turn: int = Field(ge=0)
    source: ArtifactSource = "user"


@dataclass(frozen=True)
class Candidate:
    """A recalled artifact and its similarity to the recall query (cosine, -1..1)."""

    artifact: Artifact
    similarity: float


@dataclass(frozen=True)
class GateContext:
    """What a gate may look at besides the artifact: CCS_{t-1}, x_t and the threshold."""

    state: CCS
    current_input: str
    threshold: float


@dataclass(frozen=True)
class GateDecision:
    qualified: bool
    reason: str


Gate = Callable[[Candidate, GateContext], "GateDecision | bool"]

_INJECTION: Final[tuple[re.Pattern[str], ...]] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\bignore\b.{0,40}\b(instructions?|constraints?|rules?|polic(y|ies)|guidance|above)\b",
        r"\b(disregard|override|bypass|forget)\b.{0,40}"
        r"\b(instructions?|constraints?|rules?|polic(y|ies)|guardrails?|previous|prior|above)\b",
        r"\byou are now\b",
        r"\bnew (system )?instructions?\b",
        r"\bsystem prompt\b",
        r"\bdeveloper mode\b",
        r"\bjailbreak",
        r"\bno longer (bound|required) to\b",
        r"\bpretend (that )?(you|the) (are|have|constraints?)\b",
    )
)
_NEGATION = re.compile(
    r"\b(no|never|not|don't|do not|does not|must not|mustn't|cannot|can't|avoid|without|"
    r"forbid(?:den)?|prohibit(?:ed)?)\b",
    re.IGNORECASE,
)
_LIMIT = re.compile(r"\s*(more|less|fewer|later|earlier|longer|greater|than)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z0-9'-]*")
_SENTENCE = re.compile(r"(?<=[.!?;\n])\s+")
_STOP_WORDS = (
    "a an the of to in on at for from by with and or any all be is are was were this that "
    "these those it its into during until unless before after while about our your their "
    "more than other others one ever use using make"
)
_STOP: Final[frozenset[str]] = frozenset(_STOP_WORDS.split())


def injection_match(text: str) -> str | None:
    """The first prompt-injection phrase found in ``text``, or None."""
    for pattern in _INJECTION:
        match = pattern.search(text)
        if match:
            return match.group(0)
    return None


def stem(word: str) -> str:
    """A crude stem: strip one common suffix, keep at most five letters."""
    word = word.lower().strip("'-")
    for suffix in ("ing", "ed", "es", "e", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:5]


def _content_stems(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) >= 3]


def prohibition(constraint: str) -> tuple[str, frozenset[str]] | None:
    """``(action stem, other stems)`` of a prohibition constraint, or None if it is not one."""
    for match in _NEGATION.finditer(constraint):
        rest = constraint[match.end() :]
        if _LIMIT.match(rest):  # "no more than 120 words" is a limit, not a prohibition
            continue
        stems = _content_stems(rest)
        if stems:
            return stems[0], frozenset(stems[1:]) - {stems[0]}
    return None


def contradicted_constraint(text: str, constraints: Iterable[str]) -> str | None:
    """The first committed prohibition that ``text`` recommends breaking, or None."""
    rules = [(c, p) for c in constraints if (p := prohibition(c)) is not None]
    if not rules:
        return None
    for sentence in _SENTENCE.split(text):
        if _NEGATION.search(sentence):
            continue
        stems = set(_content_stems(sentence))
        for constraint, (action, others) in rules:
            if action in stems and (not others or stems & others):
                return constraint
    return None


def relevance_and_safety(candidate: Candidate, ctx: GateContext) -> GateDecision:
    """The documented default gate (see the module docstring)."""
    if candidate.similarity < ctx.threshold:
        return GateDecision(
            False, f"similarity {candidate.similarity:.2f} below threshold {ctx.threshold:.2f}"
        )
    phrase = injection_match(candidate.artifact.text)
    if phrase is not None:
        return GateDecision(False, f"looks like a prompt injection ('{phrase}')")
    broken = contradicted_constraint(candidate.artifact.text, ctx.state.constraints)
    if broken is not None:
        return GateDecision(False, f"contradicts committed constraint '{broken}'")
    return GateDecision(True, f"relevant (similarity {candidate.similarity:.2f}) and safe")


def similarity_only(candidate: Candidate, ctx: GateContext) -> GateDecision:
    ok = candidate.similarity >= ctx.threshold
    relation = "at or above" if ok else "below"
    return GateDecision(
        ok, f"similarity {candidate.similarity:.2f} {relation} threshold {ctx.threshold:.2f}"
    )


def accept_all(candidate: Candidate, ctx: GateContext) -> GateDecision:
    return GateDecision(True, "every recalled artifact qualifies")


def reject_all(candidate: Candidate, ctx: GateContext) -> GateDecision:
    return GateDecision(False, "recall is switched off")


GATES: Registry[Gate] = Registry("qualification gate", check=takes_positional(2))
GATES.register("default", relevance_and_safety)
GATES.register("relevance_safety", relevance_and_safety)
GATES.register("similarity", similarity_only)
GATES.register("all", accept_all)
GATES.register("none", reject_all)


def qualify(
    gate: Gate, candidates: Iterable[Candidate], ctx: GateContext
) -> list[tuple[Candidate, GateDecision]]:
    """Run ``gate`` on every candidate; a plain ``bool`` answer gets a generic reason."""
    decisions: list[tuple[Candidate, GateDecision]] = []
    for candidate in candidates:
        answer = gate(candidate, ctx)
        if isinstance(answer, bool):
            answer = GateDecision(answer, "custom gate " + ("accepted" if answer else "rejected"))
        elif not isinstance(answer, GateDecision):
            raise ConfigError(
                f"qualification gate {getattr(gate, '__name__', gate)!r} returned "
                f"{type(answer).__name__}; a gate must return a GateDecision or a bool"
            )
        decisions.append((candidate, answer))
    return decisions
