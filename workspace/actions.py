"""Actions an agent proposes in an environment, the ones it holds back, and its focus loop.

An agent that acts (a motor node) reads one action out of its model's text with
:func:`read_action` and judges it against the admissible actions of the turn's input
(:mod:`cogarch.workspace.affordances`). A proposal is a *hallucination* when it is empty, is
not one command (several lines, or more words than any command has: text outside the task),
or is not among the admissible actions the input lists. Every proposal is kept on the
workspace as an :class:`ActionAttempt`; every run of a focus node as a
:class:`FocusActivation`, which later learns whether the next proposal was admissible.
:func:`focus_summary` counts them per episode, for a task's per-game record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from cogarch.core.affordances import ActionInput, normalize_action

from .sanitize import public_text

Problem = Literal["empty", "off_task", "inadmissible"]
"""Why a proposal is not an action: none given, not one command, not admissible."""

FocusReason = Literal["empty", "off_task", "inadmissible", "chosen"]
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
    """Whether that next proposal was a valid action (admissible where the input lists the
    admissible actions); None until there is one."""


@dataclass(frozen=True, slots=True)
class FocusSummary:
    """An episode's focus loop: how often it ran and how often the next action was valid."""

    activations: int
    recovered: int
    """Activations whose next proposed action was admissible."""
    failed: int
    """Activations whose next proposed action was again not an action."""
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


def _tidy(text: str) -> str:
    lines = [line.strip().strip(_WRAP).rstrip(".").strip(_WRAP) for line in text.splitlines()]
    return "\n".join(" ".join(line.split()) for line in lines if line)


def judge_action(action: str, allowed: ActionInput) -> tuple[Problem | None, bool | None]:
    """What is wrong with ``action`` (None when nothing), and whether it is admissible."""
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
        recovered=sum(f.next_admissible is True for f in chosen),
        failed=sum(f.next_admissible is False for f in chosen),
        pending=sum(f.next_admissible is None for f in chosen),
    )


__all__ = [
    "MAX_ACTION_WORDS",
    "ActionAttempt",
    "FocusActivation",
    "FocusReason",
    "FocusSummary",
    "Problem",
    "focus_summary",
    "judge_action",
    "one_line",
    "read_action",
]
