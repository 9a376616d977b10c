"""Record long-term memory: keeps the learning node's lesson for the conceptual memory.

The lesson is noted with its game, step and turn; if the game is won, the abstraction that
makes concepts from the game's belief sequence sees it too. No model is called.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from cogarch import tracing

from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import SituationParams, conceptual_of, episodic_of


class RecordConcept(BaseSpecialist):
    kind: ClassVar[str] = "record_concept"
    reads = ("broadcasts", "memory")
    writes = ("broadcasts.<name>", "memory")

    class Params(SituationParams):
        source: str = Field(default="learning", description="The node whose lesson it records.")

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        lesson = ws.broadcasts.get(p.source)
        conceptual = conceptual_of(ctx, p, self.name)
        if conceptual is None or p.concepts is None:
            ws.broadcasts[self.name] = "Nothing recorded (no conceptual memory)."
            return
        if not isinstance(lesson, str) or not lesson.strip():
            ws.broadcasts[self.name] = f"Nothing recorded (no lesson from {p.source})."
            return
        episodic = episodic_of(ctx, p, self.name)
        game = episodic.game
        episode = game.episode if game is not None else ws.episode
        step = episodic.step_of(ws.turn)
        with tracing.memory_operation("create_memory", p.concepts, conceptual.kind, 1):
            conceptual.note(lesson, episode=episode, step=step, turn=ws.turn)
        ws.broadcasts[self.name] = f"Recorded for consolidation: {lesson}"
