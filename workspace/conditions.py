"""Edge conditions by short name: a transition graph's edge ``a -> b [when: name]`` is taken
when the named predicate holds for the workspace. Any import path ``module:name`` to a
``(Workspace) -> bool`` function works as well."""

from __future__ import annotations

from collections.abc import Callable

from cogarch.registry import Registry, takes_positional

from .workspace import Workspace

Predicate = Callable[[Workspace], bool]

PREDICATES: Registry[Predicate] = Registry("edge condition", check=takes_positional(1))
PREDICATES.register("always", lambda ws: True)
PREDICATES.register("has_reply", lambda ws: ws.reply is not None)
PREDICATES.register("no_reply", lambda ws: ws.reply is None)
PREDICATES.register("first_turn", lambda ws: ws.turn == 1)
PREDICATES.register("later_turn", lambda ws: ws.turn > 1)
PREDICATES.register("is_question", lambda ws: ws.current_input.rstrip().endswith("?"))
PREDICATES.register("not_question", lambda ws: not ws.current_input.rstrip().endswith("?"))


def action_rejected(ws: Workspace) -> bool:
    """This turn's last proposed action was held back and no focus node has answered it yet."""
    acting = ws.acting
    if acting is None or not acting.actions:
        return False
    last = len(acting.actions) - 1
    attempt = acting.actions[last]
    if attempt.turn != ws.turn or attempt.sent is not None:
        return False
    return not any(f.attempt == last for f in acting.focus_log)


PREDICATES.register("action_rejected", action_rejected)
