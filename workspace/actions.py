"""Actions an agent proposes in an environment, the ones it holds back, and its focus loop.

An agent that acts (a motor node) has one action read out of its model's text and judged
against the game's task space by :func:`cogarch.core.acting.read_action` (the Episodex paper's
two forms of hallucination: no action, or output outside the task space). A well-formed
command that is merely not admissible is an action: the environment answers it. Every
proposal is kept on the workspace as an :class:`ActionAttempt`; every run of a focus node as
a :class:`FocusActivation`, which later learns what the agent did next. :func:`focus_summary`
counts them per episode, for a task's per-game record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cogarch.core.acting import Problem

FocusReason = Literal[
    "empty", "refusal", "several", "off_task", "unknown_name", "inadmissible", "chosen"
]
"""What started a focus loop: a held-back proposal's problem, or the router's own choice."""


@dataclass(frozen=True, slots=True)
class ActionAttempt:
    """One action a motor proposed: what it read, what was wrong, what was sent."""

    episode: int
    turn: int
    proposed: str
    """The action read from the model's text (empty when there was none)."""
    problem: Problem | None
    """Why the proposal is not a valid action; None when it is."""
    admissible: bool | None
    """Whether the input's admissible actions include it; None when the input lists none."""
    sent: str | None
    """The action that became the turn's reply, or None when the proposal was held back."""
    forced: bool = False
    """The step budget was spent: the motor had to act now, and this proposal ended the turn."""


@dataclass(frozen=True, slots=True)
class FocusActivation:
    """One run of a focus node, and what the agent proposed next."""

    episode: int
    turn: int
    reason: FocusReason
    attempt: int | None
    """Index in ``Workspace.actions`` of the held-back proposal it answered (None: chosen)."""
    next_action: str | None = None
    """The next action proposed after it (None until there is one)."""
    next_admissible: bool | None = None
    """Whether that next proposal was admissible (None until there is one, or when the input
    lists no admissible actions). Earlier versions set it to whether it was a valid action."""
    next_valid: bool | None = None
    """Whether that next proposal was an action (no hallucination; an inadmissible command
    is one); None until there is one."""
    next_sent: str | None = None
    """The action sent after it (None while the next proposal was held back again)."""
    ended_by_budget: bool = False
    """The turn's step budget ran out before the agent recovered: the motor had to act."""


@dataclass(frozen=True, slots=True)
class FocusSummary:
    """An episode's focus loop: how often it ran and how often the next action was valid."""

    activations: int
    recovered: int
    """Activations whose next proposal was an action (admissible or not)."""
    failed: int
    """Activations whose next proposal was again not an action."""
    pending: int
    """Activations not followed by any proposal (the turn or the trial ended first)."""


def _valid(activation: FocusActivation) -> bool | None:
    if activation.next_valid is not None or activation.next_action is None:
        return activation.next_valid
    return activation.next_admissible  # a record of an earlier version


def focus_summary(log: list[FocusActivation], episode: int | None = None) -> FocusSummary:
    """Counts over ``log`` (an agent's ``Workspace.acting.focus_log``), one episode's when given."""
    chosen = [f for f in log if episode is None or f.episode == episode]
    return FocusSummary(
        activations=len(chosen),
        recovered=sum(_valid(f) is True for f in chosen),
        failed=sum(_valid(f) is False for f in chosen),
        pending=sum(_valid(f) is None for f in chosen),
    )
