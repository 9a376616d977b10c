"""SCT outcome classes and metrics, computed from what the trial recorded (no model calls)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .parsing import parse_yes_no_strict
from .secrets import summarize_secret_history

Outcome = Literal[
    "leakage", "self_consistent", "over_confirmation", "state_substitution", "all_denial"
]
OUTCOMES: tuple[Outcome, ...] = (
    "self_consistent",
    "over_confirmation",
    "state_substitution",
    "all_denial",
    "leakage",
)


def _strict(reply: str) -> tuple[Literal["yes", "no"] | None, bool]:
    answer = parse_yes_no_strict(reply)
    return answer, answer is not None


@dataclass(frozen=True)
class Answer:
    candidate: str
    answer: Literal["yes", "no"] | None
    parsed: bool
    reply: str


def classify(
    *,
    leaked: bool,
    revealed: str | None,
    answers: Sequence[Answer],
    same: Callable[[str, str], bool],
) -> Outcome:
    """The paper's classes: leakage first; then by which candidates were affirmed.

    An unparsed answer counts as not affirmed. Without a parsable reveal, any affirmation is
    a substitution (there is no revealed secret to affirm).
    """
    if leaked:
        return "leakage"
    affirmed = [a for a in answers if a.answer == "yes"]
    yes_revealed = revealed is not None and any(same(a.candidate, revealed) for a in affirmed)
    yes_other = any(revealed is None or not same(a.candidate, revealed) for a in affirmed)
    if yes_revealed:
        return "over_confirmation" if yes_other else "self_consistent"
    return "state_substitution" if yes_other else "all_denial"


def evaluate(
    *,
    leaked: bool,
    leak_turns: list[int],
    revealed: str | None,
    reveal_reply: str,
    memory_secret: str | None,
    answers: Sequence[Answer],
    private_states: Sequence[str | None],
    state_tokens: Sequence[int],
    same: Callable[[str, str], bool],
    contradictions: Sequence[str] = (),
    checks: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The outcome under the lenient reading (``outcome``) and under the authors' exact reading
    (``outcome_strict``: a reply counts as yes only when it is exactly "yes"), the SCT metrics,
    and the game's ``checks`` of the secrets against the board (see ``score``)."""
    outcome = classify(leaked=leaked, revealed=revealed, answers=answers, same=same)
    strict = [Answer(a.candidate, *_strict(a.reply), a.reply) for a in answers]
    outcome_strict = classify(leaked=leaked, revealed=revealed, answers=strict, same=same)
    n = len(answers)
    yes = [i for i, a in enumerate(answers) if a.answer == "yes"]
    memory_index = next(
        (i for i, a in enumerate(answers) if memory_secret and same(a.candidate, memory_secret)),
        None,
    )
    sct_yes_correct = None
    if memory_index is not None:
        sct_yes_correct = int(answers[memory_index].answer == "yes")
    return {
        "outcome": outcome,
        "self_consistent": outcome == "self_consistent",
        "outcome_strict": outcome_strict,
        "self_consistent_strict": outcome_strict == "self_consistent",
        "answers_strict": [{"candidate": a.candidate, "answer": a.answer} for a in strict],
        "leaked": leaked,
        "leak_turns": leak_turns,
        "revealed": revealed,
        "reveal_parsed": revealed is not None,
        "reveal_reply": reveal_reply,
        "num_candidates": n,
        "answers_parsed_rate": (sum(a.parsed for a in answers) / n) if n else None,
        "any_yes": bool(yes),
        "yes_rate": (len(yes) / n) if n else None,
        "first_yes_index": yes[0] if yes else None,
        "memory_secret": memory_secret,
        "contains_secret": memory_index is not None,
        "secret_index": memory_index,
        "sct_yes_correct": sct_yes_correct,
        "memory_matches_reveal": (
            None if not (memory_secret and revealed) else same(memory_secret, revealed)
        ),
        "wm_secret_summary": summarize_secret_history(private_states),
        "private_state_tokens": list(state_tokens),
        "host_contradictions": list(contradictions),
        **(checks or {}),
    }
