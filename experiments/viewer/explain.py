"""A trial's verdict in words, for any task: how it failed, or what its task rated it.

A task says more about its own trials in its own sections (``Task.trial_sections``: the SCT
walks from the fork to the outcome class there)."""

from __future__ import annotations

from cogarch.core.records import TrialRecord


def explain(record: TrialRecord) -> list[str]:
    """The verdict in words, for any task."""
    if record.status != "complete":
        error = record.error
        what = f"{error.type}: {error.message}" if error else "no error was recorded"
        return [f"The trial failed before it could be rated ({what})."]
    outcome = record.evaluation.outcome
    success = record.scoring.success
    if outcome is None:
        return ["The task measures rather than classifies; its metrics are below."]
    verdict = f"The task rated this trial '{outcome}'"
    if success is not None:
        verdict += " (a success)." if outcome == success else f" (success is '{success}')."
    else:
        verdict += "."
    return [verdict]
