"""Perception: the environment's percept enters the workspace, and internal content reaches the
conscious node. Neither calls a model.

External perception is the turn's entry. The environment's observation is the turn's input, so
on arrival it notes the new observation; when it is visited again in the same turn, the motor
has held back a hallucination (no action: empty, a refusal, several commands; or output
outside the task space), and it perceives that, without anything having reached the
environment. (An inadmissible command is an action: it reaches the environment, whose answer
is the next turn's observation.)

Internal perception relays what an internal specialist (focus, memory recall, the recording of
a lesson) produced into the conscious stream: it broadcasts one line naming what was
perceived; the content itself stays in its source's broadcast, which every prompt shows.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.memory.retrieval.messages import clip

from ...conditions import action_rejected
from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import scene

_NOTES = {
    "empty": "No action was given, so nothing was done.",
    "refusal": '"{}" declines to act; nothing was done. One action is required.',
    "several": "Several actions were given where one is required; nothing was done.",
    "off_task": '"{}" is not a command of this environment; nothing was done.',
    "unknown_name": '"{}" names nothing in this environment; nothing was done.',
    "inadmissible": '"{}" is not in the list of admissible actions; nothing was done.',
}
"""What external perception reports of a held-back proposal, by its problem."""


class ExternalPerception(BaseSpecialist):
    kind: ClassVar[str] = "external_perception"
    reads = ("acting.percept", "acting.actions", "visits")
    writes = ("broadcasts.<name>",)

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        if action_rejected(ws):
            attempt = ws.acting_part().actions[-1]
            note = _NOTES.get(attempt.problem or "", _NOTES["off_task"]).format(
                clip(attempt.proposed, 80)
            )
            ws.broadcasts[self.name] = note
            return
        listed = scene(ws).admissible
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
