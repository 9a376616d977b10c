"""The actions an environment allows this turn, written into the agent's input and read back.

A task whose agent acts in an environment (a text game, say) appends the admissible actions to
each observation in one fixed form; specialists that plan with the environment's affordances,
or check that an action is allowed before it is taken, read them back with :func:`split_input`.
Both sides use this module, so the form is defined once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

HEADER = "Admissible actions:"
REMAINING = re.compile(r"^Actions remaining: (\d+) of (\d+)\.?$")
"""The line giving the environment's action limit and the actions left under it."""


@dataclass(frozen=True)
class ActionInput:
    """A turn's input split into the observation and the actions it allows."""

    observation: str
    actions: tuple[str, ...] | None
    """The admissible actions, in the order given; None when the input lists none."""
    remaining: int | None = None
    """The actions left before the environment's limit (None: the input does not say)."""
    limit: int | None = None
    """The environment's action limit (None: the input does not say)."""

    def allows(self, action: str) -> bool | None:
        """Whether ``action`` is admissible (case and spacing aside); None when unknown."""
        if self.actions is None:
            return None
        wanted = normalize_action(action)
        return any(normalize_action(a) == wanted for a in self.actions)


def normalize_action(action: str) -> str:
    """An action as compared: lower case, single spaces, no surrounding blanks."""
    return " ".join(action.lower().split())


def format_input(
    observation: str,
    actions: Sequence[str],
    *,
    remaining: int | None = None,
    limit: int | None = None,
) -> str:
    """The observation followed by the admissible actions, one per line; with ``remaining``
    and ``limit``, a line between them gives the actions left under the limit."""
    listed = "\n".join(f"- {a}" for a in actions)
    left = ""
    if remaining is not None and limit is not None:
        left = f"Actions remaining: {remaining} of {limit}.\n\n"
    return f"{observation.rstrip()}\n\n{left}{HEADER}\n{listed}"


def split_input(text: str) -> ActionInput:
    """Read back what :func:`format_input` wrote; other text is all observation."""
    head, found, tail = text.rpartition(f"\n{HEADER}\n")
    if not found:
        if text.startswith(f"{HEADER}\n"):
            head, tail = "", text[len(HEADER) + 1 :]
        else:
            return ActionInput(text, None)
    actions = tuple(line[2:].strip() for line in tail.splitlines() if line.startswith("- "))
    head = head.rstrip()
    before, _, last = head.rpartition("\n\n")
    left = REMAINING.match(last.strip())
    if left is None:
        return ActionInput(head, actions)
    return ActionInput(before.rstrip(), actions, int(left.group(1)), int(left.group(2)))


__all__ = ["HEADER", "REMAINING", "ActionInput", "format_input", "normalize_action", "split_input"]
