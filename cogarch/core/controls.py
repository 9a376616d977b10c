"""Control agents: the reference points a task declares to read its agents' scores against.

A score alone says little: a memory at 60% is excellent if the reader with no memory gets 10%
and the reader shown only the evidence 65%, and poor if the full history gets 60% too. A task
names its controls by role (:data:`CONTROL_ROLES`), each an agent spec with its parameters; a
run or a suite adds them with ``controls: true`` (or a list of roles), on the same reader,
judge and seed as the agents they frame, and marks their trials as controls so a leaderboard
keeps them out of its ranking.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

ControlRole = Literal["no_memory", "full_history", "oracle", "lower_bound", "upper_bound"]
"""``no_memory``: the reader given the question alone; ``full_history``: the reader given the
whole history cut to its window; ``oracle``: the reader given only the evidence the task
knows (the task feeds such an agent nothing else: see ``TrialContext.control``);
``lower_bound`` and ``upper_bound``: the bounds a task's paper reports (the SCTs' vanilla and
private chain-of-thought agents)."""

CONTROL_ROLES: tuple[str, ...] = get_args(ControlRole)


class ControlAgent(BaseModel):
    """One control of a task: the agent spec that plays the role, and its parameters."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    agent: str = Field(description="A ready-made agent name (or an agent spec's path).")
    params: dict[str, Any] = Field(default_factory=dict, description="Agent spec parameters.")
    description: str = Field(default="", description="What the control shows the reader.")
