"""What an agent keeps only because it acts in an environment: the turn's percept and the
action it chose, every proposal and focus activation, and the turns the step budget ended.

It is the workspace's ``acting`` part (``Workspace.acting``), forked and saved with it, and
only an agent that acts has one: it begins with the first turn taken on a percept
(``Agent.act``), which keeps the percept as it came, or with the first specialist that acts on
a turn taken as text, which has the text read back once (``Workspace.percept``). A text-only
agent never parses its input. ``history`` gives the game so far as typed pairs, built from the
dialogue's actions and the observations kept with them.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import asdict, dataclass, field
from typing import Any, Self

from cogarch.core.acting import ActionChoice, Percept
from cogarch.core.cow import CowList, fork_value

from .actions import ActionAttempt, FocusActivation


@dataclass
class ActingState:
    """The acting part of an agent's workspace."""

    percept: Percept | None = None
    """This turn's percept: the task's (``Agent.act``) or the turn's text read back (None:
    not read yet)."""
    choice: ActionChoice | None = None
    """The action this turn chose, in the environment's form, set by the node that acted
    (None: the turn's reply is read as the action)."""
    actions: CowList[ActionAttempt] = field(default_factory=CowList)
    """Every action a motor proposed, over the whole trial, sent or held back."""
    focus_log: CowList[FocusActivation] = field(default_factory=CowList)
    """Every run of a focus node that records its activations, over the whole trial."""
    budget_ends: CowList[tuple[int, int]] = field(default_factory=CowList)
    """(episode, turn) of every turn the step budget ended (the responder made to reply)."""
    observations: CowList[str | None] = field(default_factory=CowList)
    """Per user message of the dialogue, in order, its observation when it listed admissible
    actions (None: the message is all observation); cleared and trimmed with the dialogue."""
    scene: Any = field(default=None, compare=False)
    """This turn's view of the environment, built once by the first specialist that needs it
    (an immutable value; not saved)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _GROWING and not isinstance(value, CowList):
            value = CowList(value)
        object.__setattr__(self, name, value)

    def begin_turn(self, percept: Percept | None) -> None:
        self.percept = percept
        self.choice = None
        self.scene = None

    def took_in(self, percept: Percept | None) -> None:
        """A user message joined the dialogue (the turn's input, or a turn taken in), with
        its percept (None: never read, all observation)."""
        seen = None if percept is None or percept.actions is None else percept.observation
        self.observations.append(seen)

    def observed(self, inputs: list[str]) -> list[str]:
        """The observations of the dialogue's user messages ``inputs``: each message's own
        text where it listed no admissible actions."""
        kept: list[str | None] = list(self.observations)[-len(inputs) :] if inputs else []
        missing: list[str | None] = [None] * (len(inputs) - len(kept))
        kept = missing + kept  # a state saved before they were kept had none
        return [text if found is None else found for found, text in zip(kept, inputs, strict=True)]

    def history(self, actions: list[str], inputs: list[str]) -> list[tuple[str, str]]:
        """(action, observation that followed) for the dialogue's earlier ``actions``, given
        its earlier user messages ``inputs``, then this turn's percept."""
        current = self.percept.observation if self.percept is not None else ""
        return list(zip(actions, [*self.observed(inputs), current][1:], strict=False))

    def trim(self, inputs: int) -> None:
        """Keep the observations of the latest ``inputs`` user messages (a trimmed dialogue)."""
        self.observations = CowList(list(self.observations)[-inputs:] if inputs else [])

    def new_episode(self) -> None:
        self.observations = CowList()

    def fork(self) -> Self:
        twin = copy.copy(self)
        for f in dataclasses.fields(self):
            object.__setattr__(twin, f.name, fork_value(getattr(self, f.name)))
        return twin

    def save_state(self) -> dict[str, Any]:
        data = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        del data["scene"]
        return data

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> ActingState:
        """The state ``save_state()`` described; an earlier version's workspace, which kept
        these fields itself, reads as well."""
        return cls(
            percept=_percept(data.get("percept")),
            choice=ActionChoice(**data["choice"]) if data.get("choice") else None,
            actions=CowList(ActionAttempt(**a) for a in data.get("actions", [])),
            focus_log=CowList(FocusActivation(**f) for f in data.get("focus_log", [])),
            budget_ends=CowList(tuple(b) for b in data.get("budget_ends", [])),
            observations=CowList(data.get("observations", [])),
        )


SHAPES: dict[str, type | tuple[type, ...]] = {
    "actions": list,
    "focus_log": list,
    "budget_ends": list,
    "observations": list,
}
"""What each saved growing part of the acting state is."""

_GROWING = ("actions", "focus_log", "budget_ends", "observations")


def _percept(data: dict[str, Any] | None) -> Percept | None:
    if not data:
        return None
    actions = data.get("actions")
    return Percept(**{**data, "actions": tuple(actions) if actions is not None else None})


def _plain(value: Any) -> Any:
    if isinstance(value, CowList):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return copy.deepcopy(value)
