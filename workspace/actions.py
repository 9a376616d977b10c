"""Actions an agent proposes in an environment, the ones it holds back, and its focus loop.

An agent that acts (a motor node) reads one action out of its model's text with
:func:`read_action`; :mod:`cogarch.workspace.commands` judges it against the game's task space
(the Episodex paper's two forms of hallucination: no action, or output outside the task
space). A well-formed command that is merely not admissible is an action: the environment
answers it. Every proposal is kept on the workspace as an :class:`ActionAttempt`; every run of
a focus node as a :class:`FocusActivation`, which later learns what the agent did next.
:func:`focus_summary` counts them per episode, for a task's per-game record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from cogarch.core.affordances import ActionInput, normalize_action

from .sanitize import public_text

Problem = Literal["empty", "refusal", "several", "off_task", "unknown_name", "inadmissible"]
"""Why a proposal is not an action. No action: ``empty`` (nothing, or silence), ``refusal``
(the model declines to act), ``several`` (more than one command where one is required).
Outside the task space: ``off_task`` (not a command of the game's grammar), ``unknown_name``
(a command naming no object or receptacle of this game). ``inadmissible`` is what earlier
versions held back (a command not among the admissible ones); it is read from their trial
files, never given now."""

NO_ACTION: tuple[Problem, ...] = ("empty", "refusal", "several")
OUTSIDE_TASK: tuple[Problem, ...] = ("off_task", "unknown_name")

FocusReason = Literal[
    "empty", "refusal", "several", "off_task", "unknown_name", "inadmissible", "chosen"
]
"""What started a focus loop: a held-back proposal's problem, or the router's own choice."""

MAX_ACTION_WORDS = 12
"""Longer text is not one command (the longest ALFWorld command has 8 words)."""

_MARKER = re.compile(r"ACTION\s*:\s*(?:\[([^\]\n]*)\]|([^\n]*))", re.IGNORECASE)
_WRAP = "\"'`*[]()<> \t"
_PUNCTUATION = re.compile(r"[^\w\s/-]")


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


def read_action(text: str, allowed: ActionInput) -> str:
    """The one action in a model's text.

    Private blocks are dropped first. The last ``ACTION: [...]`` marker wins; without one, the
    whole text is the action, unless one of its lines is itself an admissible action, or
    exactly one admissible action is written out inside it (a model that wraps the command in
    a sentence). Quotes, brackets and a final full stop around the action go, and blanks
    collapse.
    """
    clean = public_text(text)
    marked = _MARKER.findall(clean)
    if marked:
        bracketed, rest = marked[-1]
        return _tidy(bracketed or rest)
    whole = _tidy(clean)
    if allowed.actions is None or allowed.allows(whole):
        return whole
    for line in clean.splitlines():
        candidate = _tidy(re.sub(r"^\s*(?:[-*]|\d+[.)])\s+", "", line))
        if candidate and allowed.allows(candidate):
            return candidate
    flat = f" {normalize_action(_PUNCTUATION.sub(' ', clean))} "
    named = [a for a in allowed.actions if f" {normalize_action(a)} " in flat]
    if len(named) == 1:
        return named[0]
    return whole


def marked_actions(text: str) -> list[str]:
    """Every ``ACTION: [...]`` marker's action in the text, in order (blank ones left out)."""
    found = (_tidy(bracketed or rest) for bracketed, rest in _MARKER.findall(public_text(text)))
    return [a for a in found if a]


def _tidy(text: str) -> str:
    lines = [line.strip().strip(_WRAP).rstrip(".").strip(_WRAP) for line in text.splitlines()]
    return "\n".join(" ".join(line.split()) for line in lines if line)


def _valid(activation: FocusActivation) -> bool | None:
    if activation.next_valid is not None or activation.next_action is None:
        return activation.next_valid
    return activation.next_admissible  # a record of an earlier version


def judge_action(action: str, allowed: ActionInput) -> tuple[Problem | None, bool | None]:
    """What is wrong with ``action`` (None when nothing), and whether it is admissible, by the
    strict rule of earlier versions (a command not admissible is ``inadmissible``); a motor
    judges with :func:`cogarch.workspace.commands.judge_reply`."""
    admissible = allowed.allows(action)
    if not action.strip():
        return "empty", admissible
    if "\n" in action.strip() or len(action.split()) > MAX_ACTION_WORDS:
        return "off_task", admissible
    if admissible is False:
        return "inadmissible", admissible
    return None, admissible


def one_line(action: str, limit: int = 200) -> str:
    """An action as sent: its first line, at most ``limit`` characters."""
    first = action.strip().splitlines()[0] if action.strip() else ""
    return first[:limit].strip()


def focus_summary(log: list[FocusActivation], episode: int | None = None) -> FocusSummary:
    """Counts over ``log`` (an agent's ``Workspace.focus_log``), one episode's when given."""
    chosen = [f for f in log if episode is None or f.episode == episode]
    return FocusSummary(
        activations=len(chosen),
        recovered=sum(_valid(f) is True for f in chosen),
        failed=sum(_valid(f) is False for f in chosen),
        pending=sum(_valid(f) is None for f in chosen),
    )


__all__ = [
    "MAX_ACTION_WORDS",
    "NO_ACTION",
    "OUTSIDE_TASK",
    "ActionAttempt",
    "FocusActivation",
    "FocusReason",
    "FocusSummary",
    "Problem",
    "focus_summary",
    "judge_action",
    "marked_actions",
    "one_line",
    "read_action",
]
