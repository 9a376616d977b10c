"""The task space of a text game: which text is one command of the game, and what it names.

The Episodex paper (section 6.3) fires its focus loop "when hallucination is detected, either
via missing output or deviation from expected task space". A motor reads its model's reply
with :func:`judge_reply`, which tells the two forms apart from an action:

- **no action**: an empty or silent reply (``empty``), a refusal to act (``refusal``), or
  several commands where one is required (``several``);
- **outside the task space**: text that is not a command of the game's grammar
  (``off_task``), or a command that names no object or receptacle of this game
  (``unknown_name``: nothing it names was in any observation or admissible action of the game
  so far).

Anything else is an action, admissible or not: a well-formed command that the game does not
admit now ("go to shelf 1" while at shelf 1) goes to the environment, which answers it (in
ALFWorld "Nothing happens.") and counts the step, as the paper's runs show (its appendix A.2).

A grammar is a list of command templates (``take {} from {}``), registered by short name in
:data:`GRAMMARS`. ``household`` is ALFWorld's (and its 0.3 ``put`` form). ``auto`` picks the
first grammar that covers every admissible action of the turn's input; where none does (or the
input lists none), only the form of a command is checked: one line of at most
``MAX_ACTION_WORDS`` words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from cogarch.core.acting import Problem, marked_actions, normalize_action, read_action
from cogarch.core.affordances import ActionInput
from cogarch.registry import Registry

from .actions import MAX_ACTION_WORDS
from .sanitize import public_text

_SLOT = "{}"
_NAME = re.compile(r"\b([a-z][a-z-]*) (\d+)\b")
_BULLET = re.compile(r"^\s*(?:[-*>]|\d+[.)])\s+")
_JOINED = re.compile(r"\s*(?:;|,?\s*\band then\b|,?\s*\bthen\b|,?\s*\band\b|,)\s*")
_REFUSAL = re.compile(
    r"\b(?:cannot|can't|can not|won't|unable|impossible|unsolvable|not solvable|refuse|"
    r"sorry|no (?:valid |possible )?action|nothing (?:more |else )?(?:to do|i can do)|"
    r"give up|not possible)\b",
    re.IGNORECASE,
)


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

    def covers(self, actions: Iterable[str]) -> bool:
        """Whether every one of ``actions`` is a command of this grammar (and there is one)."""
        listed = list(actions)
        return bool(listed) and all(self.parse(a) is not None for a in listed)


def _compile(template: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in normalize_action(template).split(_SLOT)]
    return re.compile("^" + r"(.+?)".join(parts) + "$")


GRAMMARS: Registry[CommandGrammar] = Registry("command grammar", lazy=False)
HOUSEHOLD = CommandGrammar(
    "household",
    (
        "look",
        "inventory",
        "help",
        "go to {}",
        "open {}",
        "close {}",
        "take {} from {}",
        "move {} to {}",
        "put {} in/on {}",
        "put {} into {}",
        "put {} onto {}",
        "put {} in {}",
        "put {} on {}",
        "use {}",
        "heat {} with {}",
        "cool {} with {}",
        "clean {} with {}",
        "slice {} with {}",
        "examine {}",
    ),
)
"""ALFWorld's commands (0.4; ``put X in/on Y`` is 0.3's form of ``move X to Y``)."""
GRAMMARS.register("household", HOUSEHOLD)

AUTO = "auto"


def grammar_for(allowed: ActionInput, choice: str | None) -> CommandGrammar | None:
    """The grammar a motor judges against: the one named, or with ``auto`` the first
    registered grammar that covers the input's admissible actions (None: form only)."""
    if choice is None:
        return None
    if choice != AUTO:
        return GRAMMARS.get(choice)
    if not allowed.actions:
        return None
    for name in GRAMMARS.names():
        grammar = GRAMMARS.get(name)
        if grammar.covers(allowed.actions):
            return grammar
    return None


def names_in(texts: Iterable[str]) -> frozenset[str]:
    """The things a game's texts name (``cabinet 1``, ``desklamp 2``), in lower case."""
    return frozenset(
        f"{m.group(1)} {m.group(2)}" for text in texts for m in _NAME.finditer(text.lower())
    )


@dataclass(frozen=True)
class Verdict:
    """A reply read as one action: the action, what is wrong with it, whether admissible."""

    action: str
    """The command read from the reply (the first of several; empty when there is none)."""
    problem: Problem | None
    """The hallucination the reply is (None: it is an action, admissible or not)."""
    admissible: bool | None
    """Whether the input's admissible actions include it (None: the input lists none)."""


def judge_reply(
    reply: str,
    allowed: ActionInput,
    grammar: CommandGrammar | None = None,
    names: frozenset[str] | None = None,
) -> Verdict:
    """Read one action out of ``reply`` and judge it against the game's task space:
    ``grammar`` (None: only one line of at most ``MAX_ACTION_WORDS`` words is asked) and the
    ``names`` of things seen in the game so far (None or empty: not checked)."""
    text = public_text(reply)
    if not text.strip():
        return Verdict("", "empty", allowed.allows(""))
    marked = marked_actions(text)
    if marked:
        return _judge_lines(marked, text, allowed, grammar, names, marked=True)
    if re.search(r"ACTION\s*:", text, re.IGNORECASE) and not _command_lines(text, grammar):
        return Verdict("", "empty", allowed.allows(""))
    joined = _joined(text, grammar)
    if joined:
        return Verdict(joined[0], "several", allowed.allows(joined[0]))
    lines = _command_lines(text, grammar) if "\n" in text.strip() else []
    if lines:  # thoughts and commands on lines of their own: the commands count
        return _judge_lines(lines, text, allowed, grammar, names)
    action = read_action(text, allowed.actions).proposed
    if allowed.allows(action):
        return Verdict(action, None, True)
    lines = [_BULLET.sub("", line).strip() for line in action.splitlines() if line.strip()]
    if len(lines) > 1:
        return _judge_lines(lines, text, allowed, grammar, names)
    return _judge_one(action, text, allowed, grammar, names)


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
    lines = (_BULLET.sub("", line).strip().rstrip(".") for line in text.splitlines())
    return [line for line in lines if line and grammar.parse(line) is not None]


def _judge_lines(
    lines: list[str],
    text: str,
    allowed: ActionInput,
    grammar: CommandGrammar | None,
    names: frozenset[str] | None,
    *,
    marked: bool = False,
) -> Verdict:
    """Several candidate lines (each an ``ACTION:`` marker's when ``marked``): one command
    among them is the action, more are several."""
    if grammar is None:
        commands = lines if marked or len(lines) == 1 else []
    else:
        commands = [line for line in lines if grammar.parse(line) is not None]
    distinct = list(dict.fromkeys(normalize_action(c) for c in commands))
    if len(distinct) > 1:
        return Verdict(commands[0], "several", allowed.allows(commands[0]))
    if len(distinct) == 1:
        return _judge_one(commands[-1], text, allowed, grammar, names)
    whole = "\n".join(lines)
    problem: Problem = "refusal" if _REFUSAL.search(text) else "off_task"
    return Verdict(whole, problem, allowed.allows(whole))


def _judge_one(
    action: str,
    text: str,
    allowed: ActionInput,
    grammar: CommandGrammar | None,
    names: frozenset[str] | None,
) -> Verdict:
    admissible = allowed.allows(action)
    if admissible:
        return Verdict(action, None, True)
    if grammar is None:
        if "\n" in action.strip() or len(action.split()) > MAX_ACTION_WORDS:
            problem: Problem = "refusal" if _REFUSAL.search(text) else "off_task"
            return Verdict(action, problem, admissible)
        return Verdict(action, None, admissible)
    slots = grammar.parse(action)
    if slots is None:
        problem = "refusal" if _REFUSAL.search(text) else "off_task"
        return Verdict(action, problem, admissible)
    if names and slots and not any(normalize_action(s) in names for s in slots):
        return Verdict(action, "unknown_name", admissible)
    return Verdict(action, None, admissible)
