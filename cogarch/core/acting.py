"""The typed channel for acting: what an agent perceives, the action it chooses, and the one
judge that turns a reply into that action.

A task whose agent acts in an environment (a text game) hands it a :class:`Percept` each
turn: the observation, the admissible actions, the goal, which game and step it is, and the
actions left under the step limit when the agent is told. An agent that acts
(``cogarch.core.host.Acting``) answers with an :class:`ActionChoice`; one that only answers
text (``Host.respond``) gets the percept rendered as text (``cogarch.core.affordances``) and
its reply is read by :func:`read_action`, the same judge an acting agent's motor uses.

The judge finds the command in a reply in the forms models write: ``ACTION: [go to desk 1]``
(the last marker wins), ``> go to desk 1`` (the last prompt line wins), a thought then
``Action: go to desk 1``, the command in quotes, backticks or bold, with a full stop, a line of
its own that is admissible (the last one), or exactly one admissible action written out inside
a sentence. That is what the reply proposes. What is sent is the proposal in the game's form:
lower case, blanks collapsed, ALFWorld 0.3's place command ``put X in/on Y`` (also ``put X in
Y``, ``into``, ``on``, ``onto``) read as 0.4's ``move X to Y``, and an admissible command given
in its admissible spelling. Only the last ``TAIL`` characters of a reply are read, and no
command is longer than ``LONGEST``.

Given the game's :class:`TaskSpace`, the judge also says what is wrong with the reply, in the
Episodex paper's two forms of hallucination (section 6.3: "missing output or deviation from
expected task space"):

- **no action**: an empty or silent reply (``empty``), a refusal to act (``refusal``), or
  several commands where one is required (``several``);
- **outside the task space**: text that is not a command of the game's grammar
  (``off_task``), or a command that names no object or receptacle of this game
  (``unknown_name``: nothing it names was in any observation or admissible action so far).

Anything else is an action, admissible or not: a well-formed command that the game does not
admit now goes to the environment, which answers it (in ALFWorld "Nothing happens.") and
counts the step, as the paper's runs show (its appendix A.2). Without a grammar, only the form
of a command is judged: one line of at most ``MAX_ACTION_WORDS`` words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
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
MAX_ACTION_WORDS = 12
"""Longer text is not one command (the longest ALFWorld command has 8 words)."""


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
        return None if self.actions is None else _allows(self.actions, action)


@dataclass(frozen=True)
class ActionChoice:
    """The action an agent chose on one turn, as read from its reply."""

    sent: str
    """The command sent to the environment, in the game's form (empty: none). A judged
    proposal that is no action holds what goes if the agent must act all the same."""
    proposed: str
    """What the reply proposed, as written (quotes and markers gone, case kept)."""
    reply: str = ""
    """The agent's public reply, as its dialogue shows it (judged: the command as the agent
    says it)."""
    problem: Problem | None = None
    """Why the proposal is not a valid action, when the agent judged it (None: it is, or it
    was not judged)."""
    admissible: bool | None = None
    """Whether the action is among the admissible actions (None: none were listed): a judged
    reply's proposal, else what is sent."""


_SLOT = "{}"


@dataclass(frozen=True)
class CommandGrammar:
    """A game's commands as templates; each ``{}`` is one slot naming a thing."""

    name: str
    templates: tuple[str, ...]
    _patterns: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        patterns = tuple(_compile(t) for t in self.templates)
        object.__setattr__(self, "_patterns", patterns)

    def parse(self, command: str) -> tuple[str, ...] | None:
        """The names the command's slots hold, or None when it fits no template."""
        text = normalize_action(command)
        for pattern in self._patterns:
            found = pattern.match(text)
            if found:
                return tuple(g.strip() for g in found.groups())
        return None

    def covers(self, actions: Sequence[str]) -> bool:
        """Whether every one of ``actions`` is a command of this grammar (and there is one)."""
        return bool(actions) and all(self.parse(a) is not None for a in actions)


def _compile(template: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in normalize_action(template).split(_SLOT)]
    return re.compile("^" + r"(.+?)".join(parts) + "$")


@dataclass(frozen=True)
class TaskSpace:
    """What a reply is judged against: the game's commands and the things it has named."""

    grammar: CommandGrammar | None = None
    """The game's commands (None: only the form of one command is asked)."""
    names: frozenset[str] = frozenset()
    """The things the game's texts have named so far, in lower case (empty: not checked)."""
    idle: str = "look"
    """Sent when an action must go and the reply gave none (where the admissible actions do
    not allow it, the first of them)."""


_MARKER = re.compile(r"ACTION\s*(?:\d+\s*)?[:=]\s*(?:\[([^\]\n]*)\]|([^\n]*))", re.IGNORECASE)
_PROMPTED = re.compile(r"(?m)^[ \t]*>(.*)$")
_THOUGHT = re.compile(r"(?i)^\s*[*_]*\s*(think|thought|reasoning|plan|observation)\b")
_PUT = re.compile(r"^put (?P<obj>.+?) (?:in/on|into|onto|in|on) (?P<recep>.+)$")
_BULLET = re.compile(r"^\s*(?:[-*]|\d+[.)])\s+")
_PUNCTUATION = re.compile(r"[^\w\s/-]")
_TIDY_WRAP = "\"'`*[]()<> \t"
_BRACKETED = re.compile(r"^\[([^\[\]]+)\]")
_GAME_WRAP = "[](){}<>\"'`*_ "
_LISTED = re.compile(r"^\s*(?:[-*>]|\d+[.)])\s+")
_JOINED = re.compile(r"\s*(?:;|,?\s*\band then\b|,?\s*\bthen\b|,?\s*\band\b|,)\s*")
_REFUSAL = re.compile(
    r"\b(?:cannot|can't|can not|won't|unable|impossible|unsolvable|not solvable|refuse|"
    r"sorry|no (?:valid |possible )?action|nothing (?:more |else )?(?:to do|i can do)|"
    r"give up|not possible)\b",
    re.IGNORECASE,
)


def read_action(
    reply: str, actions: Sequence[str] | None = None, space: TaskSpace | None = None
) -> ActionChoice:
    """The one action in ``reply``, read against the admissible actions.

    Without a ``space`` the reply is not judged (the environment answers whatever it
    proposes); with one it is, and a choice that is no action sends, if it must, its
    proposal's first line (the first of several) or the space's ``idle`` action.

    Args:
        reply: The agent's reply (public text: a model's private blocks are removed).
        actions: The admissible actions, or None when the task does not list them.
        space: The task's action space, to judge the reply against.

    Returns:
        The choice: ``proposed`` as the reply writes it, ``sent`` in the game's form.
    """
    listed = tuple(actions) if actions is not None else None
    if space is not None:
        return _judged(reply, listed, space)
    return _read(reply, listed)


def _read(reply: str, listed: tuple[str, ...] | None) -> ActionChoice:
    proposed = _proposed(reply[-TAIL:], listed)
    sent = _game_form(proposed, listed or ())
    admissible = None if listed is None else sent in listed
    return ActionChoice(sent=sent, proposed=proposed, reply=reply, admissible=admissible)


def _judged(text: str, listed: tuple[str, ...] | None, space: TaskSpace) -> ActionChoice:
    """The proposal, what is wrong with it, and what it sends (if it must)."""
    action, problem = _judge(text, listed, space)
    said = action
    if problem is not None:  # what goes if it must: its first line, else the idle action
        said = one_line(action) if problem not in ("empty", "refusal") else ""
        if not said:
            said = listed[0] if listed and not _allows(listed, space.idle) else space.idle
    admissible = None if listed is None else _allows(listed, action)
    sent = _read(said, listed).sent
    return ActionChoice(sent, proposed=action, reply=said, problem=problem, admissible=admissible)


def one_line(action: str, limit: int = 200) -> str:
    """An action as sent: its first line, at most ``limit`` characters."""
    first = action.strip().splitlines()[0] if action.strip() else ""
    return first[:limit].strip()


def _judge(
    text: str, listed: tuple[str, ...] | None, space: TaskSpace
) -> tuple[str, Problem | None]:
    grammar = space.grammar
    if not text.strip():
        return "", "empty"
    marked = [_tidy((bracketed or rest)[:LONGEST]) for bracketed, rest in _MARKER.findall(text)]
    if any(marked):
        return _judge_lines([a for a in marked if a], text, listed, space, marked=True)
    if marked and not _command_lines(text, grammar):  # markers with nothing in them
        return "", "empty"
    joined = _joined(text, grammar)
    if joined:
        return joined[0], "several"
    lines = _command_lines(text, grammar) if "\n" in text.strip() else []
    if lines:  # thoughts and commands on lines of their own: the commands count
        return _judge_lines(lines, text, listed, space)
    action = _proposed(text[-TAIL:], listed)
    if listed is not None and _allows(listed, action):
        return action, None
    lines = [_LISTED.sub("", line).strip() for line in action.splitlines() if line.strip()]
    if len(lines) > 1:
        return _judge_lines(lines, text, listed, space)
    return _judge_one(action, text, listed, space)


def _joined(text: str, grammar: CommandGrammar | None) -> list[str]:
    """The commands of a one-line reply that joins several ("go to desk 1, then open it")."""
    if grammar is None or "\n" in text.strip():
        return []
    parts = [p.strip(" .") for p in _JOINED.split(normalize_action(text))]
    parts = [p for p in parts if p]
    if len(parts) > 1 and all(grammar.parse(p) is not None for p in parts):
        return parts
    return []


def _command_lines(text: str, grammar: CommandGrammar | None) -> list[str]:
    if grammar is None:
        return []
    lines = (_LISTED.sub("", line).strip().rstrip(".") for line in text.splitlines())
    return [line for line in lines if line and grammar.parse(line) is not None]


def _judge_lines(
    lines: list[str],
    text: str,
    listed: tuple[str, ...] | None,
    space: TaskSpace,
    *,
    marked: bool = False,
) -> tuple[str, Problem | None]:
    """Several candidate lines (each an ``ACTION:`` marker's when ``marked``): one command
    among them is the action, more are several."""
    grammar = space.grammar
    if grammar is None:
        commands = lines if marked or len(lines) == 1 else []
    else:
        commands = [line for line in lines if grammar.parse(line) is not None]
    distinct = list(dict.fromkeys(normalize_action(c) for c in commands))
    if len(distinct) > 1:
        return commands[0], "several"
    if len(distinct) == 1:
        return _judge_one(commands[-1], text, listed, space)
    return "\n".join(lines), _refused_or_off(text)


def _judge_one(
    action: str, text: str, listed: tuple[str, ...] | None, space: TaskSpace
) -> tuple[str, Problem | None]:
    if listed is not None and _allows(listed, action):
        return action, None
    grammar = space.grammar
    if grammar is None:
        if "\n" in action.strip() or len(action.split()) > MAX_ACTION_WORDS:
            return action, _refused_or_off(text)
        return action, None
    slots = grammar.parse(action)
    if slots is None:
        return action, _refused_or_off(text)
    if space.names and slots and not any(normalize_action(s) in space.names for s in slots):
        return action, "unknown_name"
    return action, None


def _refused_or_off(text: str) -> Problem:
    return "refusal" if _REFUSAL.search(text) else "off_task"


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
