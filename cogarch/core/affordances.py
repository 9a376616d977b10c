"""A percept as text: the observation, then the admissible actions, in one fixed form.

A task whose agent acts in an environment (a text game, say) hands an agent that acts its
:class:`~cogarch.core.acting.Percept` as is; an agent that only answers text gets it rendered
by :func:`render` (:func:`format_input`), and a scripted model, an old trial file or an agent
that acts on a turn taken as text reads it back with :func:`split_input`. Both sides use this
module, so the form is defined once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .acting import Percept

HEADER = "Admissible actions:"
REMAINING = re.compile(r"^Actions remaining: (\d+) of (\d+)\.?$")
"""The line giving the environment's action limit and the actions left under it."""


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


def render(percept: Percept) -> str:
    """The percept as an agent that reads text sees it (:func:`format_input`; the observation
    alone when it lists no actions)."""
    if percept.actions is None:
        return percept.observation
    return format_input(
        percept.observation, percept.actions, remaining=percept.remaining, limit=percept.limit
    )


def split_input(text: str) -> Percept:
    """Read back what :func:`format_input` wrote, as a percept that knows no goal, game or
    step; other text is all observation."""
    head, found, tail = text.rpartition(f"\n{HEADER}\n")
    if not found:
        if text.startswith(f"{HEADER}\n"):
            head, tail = "", text[len(HEADER) + 1 :]
        else:
            return Percept(text, None)
    actions = tuple(line[2:].strip() for line in tail.splitlines() if line.startswith("- "))
    head = head.rstrip()
    before, _, last = head.rpartition("\n\n")
    left = REMAINING.match(last.strip())
    if left is None:
        return Percept(head, actions)
    return Percept(before.rstrip(), actions, int(left.group(1)), int(left.group(2)))
