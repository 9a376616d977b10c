"""LongMemEval's judge as the judge audit asks it (``cogarch.core.judge_audit``).

Every judged question the run asked is audited but abstention questions (their gold answer is
an explanation of why no answer exists) and single-session-preference ones (a rubric). Each
question's context is the words of its evidence sessions. A temporal-reasoning question's
numbers are moved by 2 for a wrong answer, since its official prompt forgives an off-by-one
count. A knowledge-update question whose gold answer holds a number knows its older value:
the first number, other than the gold one, of the evidence turns (``has_answer``) of its
evidence sessions before the latest; the gold answer with that number is the older answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cogarch.core.judge_audit import AuditedJudge, AuditQuestion
from cogarch.core.records import TrialRecord
from cogarch.models.model import Model

from .data import Question
from .judge import judge
from .records import LongMemEvalPayload

_NUMBER = re.compile(r"(?<![\w.,:])\d+(?:[:.]\d+)*(?![\w:])(?!\.\d)")
"""A number as a knowledge update changes it: 42, 2.5, or a time such as 25:50."""
SKIPPED_TYPES = ("single-session-preference",)


def superseded(question: Question) -> tuple[str, ...]:
    """The gold answer with its number as it was before the update (see the module)."""
    if question.question_type != "knowledge-update":
        return ()
    gold = question.gold
    now = _NUMBER.search(gold)
    if now is None:
        return ()
    evidence = [s for s in question.in_date_order() if s.session_id in question.answer_session_ids]
    for session in reversed(evidence[:-1]):
        for turn in session.turns:
            if not turn.has_answer:
                continue
            for m in _NUMBER.finditer(turn.content):
                if m.group(0) != now.group(0):
                    return (gold[: now.start()] + m.group(0) + gold[now.end() :],)
    return ()


class LongMemEvalAuditedJudge(AuditedJudge):
    """The official judge prompts, asked of the audit's answers."""

    metric = "accuracy"

    def __init__(self, questions: Sequence[Question]) -> None:
        self._questions = {q.question_id: q for q in questions}

    def questions(self, records: Sequence[TrialRecord]) -> list[AuditQuestion]:
        asked = {
            r.payload.question_id
            for r in records
            if isinstance(r.payload, LongMemEvalPayload) and r.payload.verdict is not None
        }
        out = []
        for q in self._questions.values():
            if q.question_id not in asked or q.abstention or q.question_type in SKIPPED_TYPES:
                continue
            wanted = set(q.answer_session_ids)
            context = tuple(
                t.content for s in q.sessions if s.session_id in wanted for t in s.turns
            )
            out.append(
                AuditQuestion(
                    key=q.question_id,
                    question=q.question,
                    gold=q.gold,
                    kind=q.question_type,
                    context=context,
                    superseded=superseded(q),
                    number_step=2 if q.question_type == "temporal-reasoning" else 1,
                )
            )
        return out

    async def verdict(
        self, model: Model, question: AuditQuestion, answer: str, seed: int
    ) -> tuple[bool, str]:
        return await judge(model, self._questions[question.key], answer, seed)
