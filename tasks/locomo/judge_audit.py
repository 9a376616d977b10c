"""LoCoMo's LLM judge (J) as the judge audit asks it (``cogarch.core.judge_audit``).

Every judged question of the conversations the run played is audited (categories 1-4, the
ones the judge labels), keyed ``SAMPLE_ID#INDEX`` by its place in the file. Its context is the
conversation's turns as ``Speaker: words`` lines, so the speakers and the people and places
they name are the other names a wrong answer may give. LoCoMo records no superseded answers.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.core.judge_audit import AuditedJudge, AuditQuestion
from cogarch.core.records import TrialRecord
from cogarch.models.model import Model

from .data import Conversation, select_questions
from .questions import judge_label
from .records import LocomoPayload
from .scoring import CATEGORIES, gold_answer


class LocomoAuditedJudge(AuditedJudge):
    """The task's judge prompt, asked of the audit's answers."""

    metric = "j"

    def __init__(self, conversations: Sequence[Conversation], categories: Sequence[int]) -> None:
        self._conversations = list(conversations)
        self._categories = list(categories)

    def questions(self, records: Sequence[TrialRecord]) -> list[AuditQuestion]:
        played = {
            r.payload.sample_id
            for r in records
            if isinstance(r.payload, LocomoPayload)
            and any(a.judge is not None for a in r.payload.answers)
        }
        out: list[AuditQuestion] = []
        for conv in self._conversations:
            if conv.sample_id not in played:
                continue
            context = tuple(f"{t.speaker}: {t.text}" for t in conv.turns())
            for index, qa in enumerate(conv.qa):
                if qa not in select_questions([qa], self._categories) or qa["category"] == 5:
                    continue
                out.append(
                    AuditQuestion(
                        key=f"{conv.sample_id}#{index}",
                        question=str(qa["question"]),
                        gold=gold_answer(qa),
                        kind=CATEGORIES[int(qa["category"])],
                        context=context,
                    )
                )
        return out

    async def verdict(
        self, model: Model, question: AuditQuestion, answer: str, seed: int
    ) -> tuple[bool, str]:
        label = await judge_label(model, question.question, question.gold, answer, seed)
        return label == "CORRECT", label
