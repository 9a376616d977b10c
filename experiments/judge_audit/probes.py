"""The audit's items: a seeded sample of the run's judged questions, and for each every wrong
answer (``wrong``) and every rephrasing (``same``) its gold answer allows."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cogarch.core.judge_audit import AuditQuestion

from .same import same_answers
from .wrong import normalized, wrong_answers

Expected = Literal["reject", "accept"]


class Probe(BaseModel):
    """One answer the judges are asked about, and what a fair judge says of it: ``reject``
    for a wrong answer (its acceptance is a false positive), ``accept`` for a rephrasing of
    the gold answer (its rejection is a false negative)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    """``QUESTION_KEY/KIND``: one probe per kind and question."""
    question_key: str
    question_kind: str
    question: str
    gold: str
    kind: str
    answer: str
    expected: Expected


def sample(questions: Sequence[AuditQuestion], count: int | None, seed: int) -> list[AuditQuestion]:
    """``count`` of ``questions`` (all when None or more than there are), drawn by ``seed``,
    in their own order."""
    if count is None or count >= len(questions):
        return list(questions)
    chosen = set(random.Random(seed).sample(range(len(questions)), count))
    return [q for i, q in enumerate(questions) if i in chosen]


def probes_of(question: AuditQuestion, seed: int) -> list[Probe]:
    """The wrong answers then the rephrasings of ``question``; a wrong answer that reads as
    one of its rephrasings (case and punctuation aside) is left out."""
    same = same_answers(question)
    kept = {normalized(a) for _, a in same}
    wrong = [(k, a) for k, a in wrong_answers(question, seed) if normalized(a) not in kept]
    made: list[tuple[str, str, Expected]] = [(k, a, "reject") for k, a in wrong]
    made += [(k, a, "accept") for k, a in same]
    return [
        Probe(
            id=f"{question.key}/{kind}",
            question_key=question.key,
            question_kind=question.kind,
            question=question.question,
            gold=question.gold,
            kind=kind,
            answer=answer,
            expected=expected,
        )
        for kind, answer, expected in made
    ]


def make_probes(
    questions: Sequence[AuditQuestion], count: int | None, seed: int
) -> tuple[list[AuditQuestion], list[Probe]]:
    """The sampled questions and every probe of them."""
    chosen = sample(questions, count, seed)
    keys = [q.key for q in chosen]
    if len(set(keys)) != len(keys):
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        raise ValueError(f"the task gave question key {repeated[0]!r} more than once")
    return chosen, [p for q in chosen for p in probes_of(q, seed)]
