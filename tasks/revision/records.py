"""The revision task's own record types: its payload and its evaluation."""

from __future__ import annotations

from typing import Any, Literal

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import TaskPayload


class RevisionEvaluation(Evaluation):
    """A scenario's round checks in numbers: the TME paper's three counts, judged from the
    replies for every agent (``hallucinations``, ``confusions``, ``consistent_task``), and the
    further diagnostics. ``outcome`` is ``consistent`` when every round passed."""

    scenario: str | None = None
    hallucinations: int | None = None
    confusions: int | None = None
    consistent_task: int | None = None
    rounds_passed: int | None = None
    replies_ok: int | None = None
    rounds: int | None = None
    final_summary_ok: bool | None = None
    stale_mentions: int | None = None
    missing_mentions: int | None = None
    state_errors: int | None = None
    """None when the agent exposes no task state."""
    total_memory_tokens: int | None = None

    def scenario_name(self) -> str | None:
        return self.scenario


class RevisionPayload(TaskPayload):
    """A revision scenario's round checks (the task's ``RevisionResult``, as JSON)."""

    kind: Literal["revision"] = "revision"
    version: int = 1
    revision: dict[str, Any]
    final_private_state: str | None = None
