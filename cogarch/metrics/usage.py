"""The metrics every task has: what a trial spent (model calls, tokens, wall time), by the
short names a config attaches them by (``metrics: [tokens]``); fewer is better."""

from __future__ import annotations

from cogarch.core.metric import metric
from cogarch.core.records import TrialRecord


@metric(direction="lower")
def model_calls(record: TrialRecord) -> int:
    """Model calls the trial made, response-cache hits included."""
    return record.usage.model_calls


@metric(direction="lower")
def prompt_tokens(record: TrialRecord) -> int:
    """Prompt tokens the trial sent."""
    return record.usage.prompt_tokens


@metric(direction="lower")
def completion_tokens(record: TrialRecord) -> int:
    """Completion tokens the trial received."""
    return record.usage.completion_tokens


@metric(direction="lower")
def tokens(record: TrialRecord) -> int:
    """Prompt and completion tokens of the trial."""
    return record.usage.prompt_tokens + record.usage.completion_tokens


@metric(direction="lower")
def memory_calls(record: TrialRecord) -> int:
    """Model calls the trial's memory modules made (callers ``memory:...``)."""
    return sum(
        int(row.get("calls") or 0)
        for caller, row in record.usage.by_caller.items()
        if caller.startswith("memory:")
    )


@metric(direction="lower")
def seconds(record: TrialRecord) -> float | None:
    """The trial's wall time in seconds."""
    return record.metadata.duration_s
