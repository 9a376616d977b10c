"""Perception: the environment's percept enters the workspace, and internal content reaches the
conscious node. Neither calls a model.

External perception is the turn's entry. The environment's observation is the turn's input, so
on arrival it notes the new observation; when it is visited again in the same turn, the motor
has held back an action that was not one (empty, outside the task or not admissible), and it
perceives that as the environment would answer it (Episodex's ALFWorld runs answered an
inadmissible action with "... is not in the list of admissible actions for the current
timestep"), without the action having reached the environment.

Internal perception relays what an internal specialist (focus, memory recall, the recording of
a lesson) produced into the conscious stream: it broadcasts one line naming what was
perceived; the content itself stays in its source's broadcast, which every prompt shows.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.affordances import split_input
from cogarch.memory.retrieval.base import clip

from ...conditions import action_rejected
from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace


class ExternalPerception(BaseSpecialist):
    kind: ClassVar[str] = "external_perception"
    reads = ("current_input", "actions", "visits")
    writes = ("broadcasts.<name>",)

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        current = split_input(ws.current_input)
        if action_rejected(ws):
            attempt = ws.actions[-1]
            if attempt.problem == "empty":
                note = "No action was given, so nothing was done."
            elif attempt.problem == "off_task":
                note = f'"{clip(attempt.proposed, 80)}" is not an action here; nothing was done.'
            else:
                note = (
                    f'The action "{attempt.proposed}" is not in the list of admissible actions '
                    "for the current timestep; nothing was done."
                )
            ws.broadcasts[self.name] = note
            return
        listed = current.actions
        count = "" if listed is None else f" with {len(listed)} admissible actions"
        ws.broadcasts[self.name] = f"A new observation arrived{count}."


class InternalPerception(BaseSpecialist):
    kind: ClassVar[str] = "internal_perception"
    reads = ("broadcasts",)
    writes = ("broadcasts.<name>",)

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        source: str = Field(description="The node whose output it perceives.")
        framing: str = Field(
            default="Perceived internally", description="How the percept is introduced."
        )

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        found = ws.broadcasts.get(p.source)
        if isinstance(found, str) and found.strip():
            ws.broadcasts[self.name] = f"{p.framing}: the output of {p.source} (above)."
        else:
            ws.broadcasts[self.name] = f"{p.framing}: nothing from {p.source} this turn."


__all__ = ["ExternalPerception", "InternalPerception"]
