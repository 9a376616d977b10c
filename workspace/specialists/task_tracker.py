"""The task tracker (TME): classify the input's intents, update the task graph, broadcast the
relevant subgraph. It runs before the responder, which then sees the subgraph (through the
memory placeholder or the broadcast) instead of the transcript."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch import tracing
from cogarch.memory.task_graph.module import TaskMemory

from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace


class TaskTracker(BaseSpecialist):
    """One TRIM step per turn on the agent's ``task_graph`` memory module."""

    kind: ClassVar[str] = "task_tracker"
    reads = ("current_input", "memory")
    writes = ("memory", "broadcasts")

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")

        memory: str = Field(default="tasks", description="Name of the task_graph memory module.")
        broadcast: str | None = Field(
            default=None, description="Broadcast key of the subgraph text; the memory name."
        )

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        module = ctx.memory_of(p.memory, TaskMemory, self.name)
        with tracing.memory_operation("update_memory", p.memory, module.kind) as span:
            report = await module.observe(
                ws.current_input, ws.turn, ctx.memory_context(self.name), provider=self.provider
            )
            span.set_attribute(tracing.MEMORY_RECORDS, len(report.intents))
        ws.broadcasts[p.broadcast or p.memory] = module.render()
