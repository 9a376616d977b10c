"""Choosing the questions a run plays: by ids, by type, by count, and a sample that keeps the
types' proportions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .data import QUESTION_TYPES, LongMemEvalDataError, Question


def stratified(questions: Sequence[Question], count: int, seed: int) -> list[Question]:
    """``count`` questions drawn with ``seed`` so that each type keeps its share (largest
    remainders round), file order kept."""
    if count >= len(questions):
        return list(questions)
    sizes = Counter(q.question_type for q in questions)
    quotas = {t: count * n / len(questions) for t, n in sizes.items()}
    taken = {t: int(q) for t, q in quotas.items()}
    rest = count - sum(taken.values())
    for t in sorted(quotas, key=lambda t: (-(quotas[t] - taken[t]), t))[:rest]:
        taken[t] += 1
    rng = random.Random(seed)
    chosen: set[str] = set()
    for t in sorted(sizes):
        ids = [q.question_id for q in questions if q.question_type == t]
        chosen.update(rng.sample(ids, taken[t]))
    return [q for q in questions if q.question_id in chosen]


def select_questions(
    questions: Sequence[Question],
    *,
    ids: Sequence[str] = (),
    types: Sequence[str] = (),
    count: int | None = None,
    proportional: bool = False,
    seed: int = 0,
) -> list[Question]:
    """The questions named (``ids``, file order kept), of the ``types`` named, then the first
    ``count`` of them (or a sample of ``count`` keeping the types' proportions)."""
    unknown = [t for t in types if t not in QUESTION_TYPES]
    if unknown:
        raise LongMemEvalDataError(
            f"question type {unknown[0]!r} is not one of LongMemEval's: {', '.join(QUESTION_TYPES)}"
        )
    chosen = list(questions)
    if ids:
        known = {q.question_id for q in chosen}
        missing = [i for i in ids if i not in known]
        if missing:
            raise LongMemEvalDataError(
                f"the data file has no question {', '.join(map(repr, missing[:5]))}; give ids "
                "of its question_id field"
            )
        wanted = set(ids)
        chosen = [q for q in chosen if q.question_id in wanted]
    if types:
        chosen = [q for q in chosen if q.question_type in types]
    if not chosen:
        raise LongMemEvalDataError("no question of the data file matches the selection")
    if count is not None:
        chosen = stratified(chosen, count, seed) if proportional else chosen[:count]
    return chosen
