"""The typed channel for acting: what an agent perceives, the action it chooses, and the one
reader that turns a reply into that action.

A task whose agent acts in an environment (a text game) hands it a :class:`Percept` each
turn: the observation, the admissible actions, the goal, which game and step it is, and the
actions left under the step limit when the agent is told. An agent that acts
(``cogarch.core.host.Acting``) answers with an :class:`ActionChoice`; one that only answers
text (``Host.respond``) gets the percept rendered as text (``cogarch.core.affordances``) and
its reply is read by :func:`read_action`, the same reader an acting agent's motor uses.

The reader finds the command in a reply in the forms models write: ``ACTION: [go to desk 1]``
(the last marker wins), ``> go to desk 1`` (the last prompt line wins), a thought then
``Action: go to desk 1``, the command in quotes, backticks or bold, with a full stop, a line of
its own that is admissible (the last one), or exactly one admissible action written out inside
a sentence. That is what the reply proposes. What is sent is the proposal in the game's form:
lower case, blanks collapsed, ALFWorld 0.3's place command ``put X in/on Y`` (also ``put X in
Y``, ``into``, ``on``, ``onto``) read as 0.4's ``move X to Y``, and an admissible command given
in its admissible spelling. Only the last ``TAIL`` characters of a reply are read, and no
command is longer than ``LONGEST``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Problem = Literal["empty", "refusal", "several", "off_task", "unknown_name", "inadmissible"]
"""Why a proposal is not an action. No action: ``empty`` (nothing, or silence), ``refusal``
(the model declines to act), ``several`` (more than one command where one is required).
Outside the task space: ``off_task`` (not a command of the game's grammar), ``unknown_name``
(a command naming no object or receptacle of this game). ``inadmissible`` is what earlier
versions held back (a command not among the admissible ones); it is read from their trial
files, never given now."""

TAIL = 20_000
"""The end of a reply that is read (a command comes last)."""
LONGEST = 300
"""No command is longer: a marked, prompted or single line is cut to it."""


def normalize_action(action: str) -> str:
    """An action as compared: lower case, single spaces, no surrounding blanks."""
    return " ".join(action.lower().split())


@dataclass(frozen=True)
class Percept:
    """What an acting agent perceives on one turn of an environment."""

    observation: str
    actions: tuple[str, ...] | None
    """The admissible actions, in the order given; None when the environment lists none."""
    remaining: int | None = None
    """The actions left before the environment's limit (None: the agent is not told)."""
    limit: int | None = None
    """The environment's action limit (None: the agent is not told)."""
    goal: str | None = None
    """What the game asks (None: not known apart from the observation)."""
    game: int | None = None
    """The game of the trial, from 0 (None: not known)."""
    step: int | None = None
    """The actions taken so far in this game (None: not known)."""
    step_budget: int | None = None
    """The most specialist steps the agent may take on this turn before it must act, when the
    task limits them (what is left of a game's transition budget); None: the agent's own."""

    def allows(self, action: str) -> bool | None:
        """Whether ``action`` is admissible (case and spacing aside); None when unknown."""
        if self.actions is None:
            return None
        wanted = normalize_action(action)
        return any(normalize_action(a) == wanted for a in self.actions)


@dataclass(frozen=True)
class ActionChoice:
    """The action an agent chose on one turn, as read from its reply."""

    sent: str
    """The command sent to the environment, in the game's form (empty: none)."""
    proposed: str
    """What the reply proposed, as written (quotes and markers gone, case kept)."""
    reply: str = ""
    """The agent's public reply, as its dialogue shows it."""
    problem: Problem | None = None
    """Why the proposal is not a valid action, when the agent judged it (None: it is, or it
    was not judged)."""
    admissible: bool | None = None
    """Whether ``sent`` is among the admissible actions (None: none were listed)."""


_MARKER = re.compile(r"ACTION\s*(?:\d+\s*)?[:=]\s*(?:\[([^\]\n]*)\]|([^\n]*))", re.IGNORECASE)
_PROMPTED = re.compile(r"(?m)^[ \t]*>(.*)$")
_THOUGHT = re.compile(r"(?i)^\s*[*_]*\s*(think|thought|reasoning|plan|observation)\b")
_PUT = re.compile(r"^put (?P<obj>.+?) (?:in/on|into|onto|in|on) (?P<recep>.+)$")
_BULLET = re.compile(r"^\s*(?:[-*]|\d+[.)])\s+")
_PUNCTUATION = re.compile(r"[^\w\s/-]")
_TIDY_WRAP = "\"'`*[]()<> \t"
_BRACKETED = re.compile(r"^\[([^\[\]]+)\]")
_GAME_WRAP = "[](){}<>\"'`*_ "


def read_action(reply: str, actions: Sequence[str] | None = None) -> ActionChoice:
    """The one action in ``reply``, given the admissible ``actions`` (None: not listed).

    Give public text (a model's private blocks removed). The choice's ``proposed`` is the
    command as the reply writes it; ``sent`` the same in the game's form; ``problem`` is left
    for the caller's judgement (``cogarch.workspace.commands.judge_reply``).
    """
    listed = tuple(actions) if actions is not None else None
    proposed = _proposed(reply[-TAIL:], listed)
    sent = _game_form(proposed, listed or ())
    admissible = None if listed is None else sent in listed
    return ActionChoice(sent=sent, proposed=proposed, reply=reply, admissible=admissible)


def marked_actions(text: str) -> list[str]:
    """Every ``ACTION: [...]`` marker's action in the text, in order (blank ones left out)."""
    found = (_tidy((bracketed or rest)[:LONGEST]) for bracketed, rest in _MARKER.findall(text))
    return [a for a in found if a]


def _proposed(text: str, actions: tuple[str, ...] | None) -> str:
    marked = _MARKER.findall(text)
    if marked:
        bracketed, rest = marked[-1]
        return _tidy((bracketed or rest)[:LONGEST])
    prompted = [p for p in _PROMPTED.findall(text) if p.strip()]
    if prompted:
        return _tidy(prompted[-1][:LONGEST])
    whole = _tidy(text)
    if actions is None or _allows(actions, whole):
        return whole
    for line in reversed(text.splitlines()):
        candidate = _tidy(_BULLET.sub("", line)[:LONGEST])
        if candidate and _allows(actions, candidate):
            return candidate
    flat = f" {normalize_action(_PUNCTUATION.sub(' ', text))} "
    named = [a for a in actions if f" {normalize_action(a)} " in flat]
    if len(named) == 1:
        return named[0]
    return whole


def _allows(actions: tuple[str, ...], action: str) -> bool:
    wanted = normalize_action(action)
    return any(normalize_action(a) == wanted for a in actions)


def _tidy(text: str) -> str:
    lines = [
        line.strip().strip(_TIDY_WRAP).rstrip(".").strip(_TIDY_WRAP) for line in text.splitlines()
    ]
    return "\n".join(" ".join(line.split()) for line in lines if line)


def _game_form(proposed: str, actions: Sequence[str]) -> str:
    """The proposal as the game takes it: its admissible spelling when it is admissible; of
    several lines, the last one that is admissible (thoughts aside), else the last line."""
    known = {normalize_action(a): a for a in actions}
    lines = [line for line in proposed.splitlines() if line.strip()]
    if len(lines) > 1:
        lines = list(reversed([line for line in lines if not _THOUGHT.match(line)] or lines))
    candidates = [_to_current(_clean(line[:LONGEST])) for line in lines]
    for found in candidates:
        if found in known:
            return known[found]
    return candidates[0] if candidates else ""


def _clean(text: str) -> str:
    text = text.strip()
    bracketed = _BRACKETED.match(text)
    if bracketed:  # "[go to desk 1] (the desk is closest)"
        text = bracketed.group(1)
    while text and (text[0] in _GAME_WRAP or text[-1] in _GAME_WRAP + ".!;,"):
        text = text.strip(_GAME_WRAP).rstrip(".!;,")
    return " ".join(text.lower().split())


def _to_current(command: str) -> str:
    put = _PUT.match(command)
    if put:
        return f"move {put['obj']} to {put['recep']}"
    return command
