"""The Inspect scorer of a cogarch trial and the task's success rate with its interval.

A sample's score is its trial's outcome class (``failed`` for a trial that failed, its status
for a task that measures rather than classifies), with the task's typed evaluation in the
score's metadata and the verdict in words as its explanation. It is read from the trial
record the solver keeps in the sample's store, so ``inspect score`` rescores a log alone.

The metrics are the ones ``cogarch run``'s table prints: the success rate over the rated
trials (complete, and not left out by the task, as an SCT trial that asked fewer candidates
than requested is) with its 95% Wilson interval.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from cogarch.core.records import TrialRecord
from cogarch.experiments.tables.summary import wilson_interval
from cogarch.experiments.viewer.explain import explain
from cogarch.tasks.registry import TASKS

RECORD_KEY = "cogarch:record"
"""Where the solver keeps the trial's record (its JSON) in the sample's store."""
FAILED = "failed"
"""The score of a trial that failed before its task could rate it."""


def score_of(record: TrialRecord) -> Score:
    """The score of one trial record."""
    evaluation = record.evaluation
    outcome = evaluation.outcome if record.status == "complete" else None
    value = outcome or (FAILED if record.status == "failed" else record.status)
    unrated = evaluation.unrated_reason() if record.status == "complete" else None
    succeeded = record.succeeded if unrated is None else None
    metadata: dict[str, Any] = {
        "status": record.status,
        "outcome": outcome,
        "success": succeeded,
        "success_outcome": record.scoring.success,
        "unrated_reason": unrated,
        "evaluation_type": type(evaluation).__name__,
        "evaluation": evaluation.model_dump(mode="json"),
        "error": record.error.model_dump(mode="json") if record.error else None,
    }
    return Score(
        value=value,
        answer=evaluation.final_answer() if record.status == "complete" else None,
        explanation=" ".join(explain(record)),
        metadata=metadata,
    )


def _rated(scores: list[SampleScore]) -> list[bool]:
    found = [(s.score.metadata or {}).get("success") for s in scores]
    return [bool(x) for x in found if x is not None]


@metric
def success_rate() -> Metric:
    """The share of rated trials that reached the task's success outcome (0 when none is
    rated)."""

    def compute(scores: list[SampleScore]) -> Value:
        rated = _rated(scores)
        return sum(rated) / len(rated) if rated else 0.0

    return compute


@metric
def success_ci_low() -> Metric:
    """The lower end of the success rate's 95% Wilson interval."""

    def compute(scores: list[SampleScore]) -> Value:
        rated = _rated(scores)
        return wilson_interval(sum(rated), len(rated))[0]

    return compute


@metric
def success_ci_high() -> Metric:
    """The upper end of the success rate's 95% Wilson interval."""

    def compute(scores: list[SampleScore]) -> Value:
        rated = _rated(scores)
        return wilson_interval(sum(rated), len(rated))[1]

    return compute


@metric
def rated() -> Metric:
    """How many trials the success rate is over."""

    def compute(scores: list[SampleScore]) -> Value:
        return len(_rated(scores))

    return compute


@scorer(metrics=[success_rate(), success_ci_low(), success_ci_high(), rated()])
def trial_outcome(task: str) -> Scorer:
    """The Inspect scorer of a cogarch task: each sample scored by its trial's outcome class.

    Args:
        task: The cogarch task whose classes the record is read into (a short name, an import
            path or an absolute file path).

    Returns:
        The scorer, with the success rate, its interval and the rated share as metrics.

    Raises:
        UnknownNameError: When ``task`` names no task.
    """
    types = TASKS.get(task).record_types()

    async def score(state: TaskState, target: Target) -> Score:
        data = state.store.get(RECORD_KEY)
        if data is None:
            return Score(value=FAILED, explanation="The sample holds no cogarch trial record.")
        return score_of(TrialRecord.read(data, types))

    return score
