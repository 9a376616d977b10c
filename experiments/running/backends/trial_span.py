"""The root span of one trial, opened by the backend that runs it, on the driver.

Opened when the trial starts (past the backend's concurrency gate, so queueing is not timed)
and closed with what the record says: its outcome, or the error that failed it. Whatever the
worker records (turns, steps, model calls, memory operations, branches) is a child of it,
whether the worker runs in this process or is a Ray task (see ``carrier`` and ``adopt`` on
:class:`cogarch.tracing.Tracer`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from cogarch import tracing
from cogarch.core.backend import TrialSpec
from cogarch.core.records import TrialRecord
from cogarch.tracing import AttributeValue, Span


def trial_span(spec: TrialSpec) -> AbstractContextManager[Span]:
    """The span of ``spec``'s trial, or :data:`cogarch.tracing.NO_SPAN` while tracing is off."""
    if tracing.current_tracer() is None:
        return tracing.NO_SPAN
    kind = spec.task
    attributes: dict[str, AttributeValue] = {
        "cogarch.run": spec.run_name,
        "cogarch.task": kind,
        "cogarch.agent": spec.agent,
        "cogarch.trial.index": spec.index,
        "cogarch.trial.seed": spec.seed,
    }
    return tracing.span(f"trial {kind}", attributes)


def record_trial(span: Span, record: TrialRecord) -> None:
    """The trial's status and outcome; a failed trial's span carries its error."""
    if not span.is_recording():
        return
    attributes: dict[str, Any] = {"cogarch.trial.status": record.status}
    if record.evaluation.outcome is not None:
        attributes["cogarch.trial.outcome"] = record.evaluation.outcome
    attributes["cogarch.trial.model_calls"] = record.usage.model_calls
    if record.error is not None:
        attributes[tracing.ERROR_TYPE] = record.error.type
    span.set_attributes(attributes)
    tracer = tracing.current_tracer()
    if record.error is not None and tracer is not None:
        tracer.fail(span, record.error.type, record.error.message)
