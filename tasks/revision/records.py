"""The revision task's own record types: its payload and its evaluation."""

from __future__ import annotations

from typing import Any, Literal

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import TaskPayload


class RevisionEvaluation(Evaluation):
    """A scenario's round checks in numbers: the TME paper's three counts, judged from the
    replies for every agent (``hallucinations``, ``confusions``, ``consistent_task``), and the
    further diagnostics. ``outcome`` is ``consistent`` when every round passed.

    Attributes:
        outcome: ``consistent`` when every round passed (its reply, and the task state where
            the agent exposes one), else ``inconsistent``.
    """

    scenario: str | None = None
    """The scenario played, by its catalogue name."""
    hallucinations: int | None = None
    """Rounds whose reply names a replaced or false value (the TME paper's hallucinations;
    the same count as ``stale_mentions``)."""
    confusions: int | None = None
    """``revise`` or ``check`` rounds whose reply leaves out a value the round asks for (the
    TME paper's confusions: a misread intent)."""
    consistent_task: int | None = None
    """1 when every reply passed its check, else 0 (the TME paper's consistent task; the task
    state is not consulted)."""
    rounds_passed: int | None = None
    """Rounds that passed: the reply, and the task state where the agent exposes one."""
    replies_ok: int | None = None
    """Rounds whose reply passed, whatever the task state said (compares agents with and
    without an inspectable state on the same footing)."""
    rounds: int | None = None
    """Rounds the scenario played."""
    final_summary_ok: bool | None = None
    """Whether the last round, the scenario's final summary, passed."""
    stale_mentions: int | None = None
    """Rounds whose reply names a value it must not (a replaced or false one)."""
    missing_mentions: int | None = None
    """Rounds whose reply leaves out a value it must name."""
    state_errors: int | None = None
    """Rounds where the agent's task state disagrees with the script (missing a current value
    or holding a replaced one); None when the agent exposes no task state."""
    total_memory_tokens: int | None = None
    """The memory the agent carried into its replies, in tokens, summed over the rounds; None
    when no round said."""

    def scenario_name(self) -> str | None:
        return self.scenario


class RevisionPayload(TaskPayload):
    """A revision scenario's round checks (the task's ``RevisionResult``, as JSON)."""

    kind: Literal["revision"] = "revision"
    version: int = 1
    revision: dict[str, Any]
    final_private_state: str | None = None
