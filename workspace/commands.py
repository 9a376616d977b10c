"""The task spaces of text games a motor judges its replies against: their command grammars,
by name, and the things a game's texts name.

A grammar (``cogarch.core.acting.CommandGrammar``) is a list of command templates (``take {}
from {}``), registered by short name in :data:`GRAMMARS`. ``household`` is ALFWorld's (and its
0.3 ``put`` form). ``auto`` picks the first grammar that covers every admissible action of the
turn; where none does (or the turn lists none), only the form of a command is judged (see
:func:`cogarch.core.acting.read_action`, the one judge of a reply).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from cogarch.core.acting import CommandGrammar
from cogarch.registry import Registry

_NAME = re.compile(r"\b([a-z][a-z-]*) (\d+)\b")

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


def grammar_for(actions: Sequence[str] | None, choice: str | None) -> CommandGrammar | None:
    """The grammar a motor judges against: the one named, or with ``auto`` the first
    registered grammar that covers the admissible ``actions`` (None: form only)."""
    if choice is None:
        return None
    if choice != AUTO:
        return GRAMMARS.get(choice)
    if not actions:
        return None
    for name in GRAMMARS.names():
        grammar = GRAMMARS.get(name)
        if grammar.covers(actions):
            return grammar
    return None


def names_in(texts: Iterable[str]) -> frozenset[str]:
    """The things a game's texts name (``cabinet 1``, ``desklamp 2``), in lower case."""
    return frozenset(
        f"{m.group(1)} {m.group(2)}" for text in texts for m in _NAME.finditer(text.lower())
    )
