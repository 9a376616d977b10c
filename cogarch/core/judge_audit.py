"""What a task declares so that the judge behind its judged metric can be audited.

A task whose score is a judge's verdict on each answer (LongMemEval's accuracy, LoCoMo's J)
returns an :class:`AuditedJudge` from ``Task.audited_judge``: the questions the run asked, as
:class:`AuditQuestion` values (the question, its gold answer and what the task knows of its
context), and its judge's verdict on any answer to one of them, asked exactly as the task asks
it for a trial. The judge audit (``cogarch.experiments.judge_audit``) makes wrong answers and
rephrasings of the gold answer from these and measures how often the judge accepts and rejects
them; it needs nothing else of the task.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .records import TrialRecord


@dataclass(frozen=True)
class AuditQuestion:
    """One question of a run, as the audit perturbs its gold answer."""

    key: str
    """The question's id, stable across runs (LongMemEval's ``question_id``)."""
    question: str
    """The question as the agent was asked it."""
    gold: str
    """The gold answer the audit perturbs into wrong answers and rephrasings."""
    kind: str = ""
    """The question's type or category, shown beside its items in the report."""
    context: tuple[str, ...] = ()
    """Lines of the conversation the question is about (``Speaker: words`` or just the
    words): where other people and places are looked for."""
    superseded: tuple[str, ...] = ()
    """Answers that were true earlier and later updated, where the task knows them: each is a
    wrong answer now."""
    number_step: int = 1
    """How far a number is moved to make a wrong answer: 1, or more where the judge's rubric
    forgives an off-by-one count (LongMemEval's temporal-reasoning prompt does)."""


class AuditedJudge(ABC):
    """The judge of a task's judged metric, bound to the task's data."""

    metric: ClassVar[str]
    """The name of the metric the judge decides (as in the task's ``leaderboard``)."""

    @abstractmethod
    def questions(self, records: Sequence[TrialRecord]) -> list[AuditQuestion]:
        """The judged questions the run's complete ``records`` asked, each once, in a fixed
        order; questions the audit cannot perturb (an abstention's explanation, a rubric) are
        left out."""

    @abstractmethod
    async def verdict(
        self, model: Any, question: AuditQuestion, answer: str, seed: int
    ) -> tuple[bool, str]:
        """Whether the judge ``model`` (a ``cogarch.models.model.Model``) accepts ``answer``
        to ``question``, asked as the task asks it, and the judge's reply as text."""
