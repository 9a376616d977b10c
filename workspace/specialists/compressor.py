"""The compressor: commits the agent's Compressed Cognitive State (ACC) and broadcasts it.

Placement follows the ACC paper's control loop (Algorithm 1 and its ReAct pattern): the state
CCS_t is committed *before* the reasoning step, and the responder conditions on CCS_t and the
current input instead of the transcript. The interaction signal x_t is therefore this turn's
user input together with the previous turn's reply (the agent's own commitments, which no
state has absorbed yet), and the previous exchange is persisted as evidence at the start of the
next turn, which is equivalent to storing it at the end of its own turn.

``when: after`` is the other reading of the paper (section 3.3: "the completed turn is then
treated as the interaction signal"): the compressor runs after the responder on the completed
exchange, and the responder of the next turn sees that state. Put it after the responder in
the graph (``responder -> compressor``) when you choose it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch import tracing
from cogarch.core.memory import MemoryContext, TurnRecord
from cogarch.errors import ConfigError
from cogarch.memory.compressed.module import CompressorMemory, InteractionSignal

from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace


class Compressor(BaseSpecialist):
    """Recall, qualify and commit the next CCS; write its rendering into ``ws.broadcasts``."""

    kind: ClassVar[str] = "compressor"
    reads = ("current_input", "dialogue", "reply", "memory")
    writes = ("memory", "broadcasts")

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")

        memory: str = Field(default="ccs", description="Name of the agent's ccs memory module.")
        when: Literal["before", "after"] = Field(
            default="before", description="Commit before the responder (default) or after it."
        )
        broadcast: str | None = Field(
            default=None, description="Broadcast key of the rendered state; the memory name."
        )

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        module = ctx.memory_of(p.memory, CompressorMemory, self.name)
        mctx = ctx.memory_context(self.name)
        previous = _previous_turn(ws)
        if p.when == "before":
            if previous is not None:
                self._persist(module, previous)
            signal = InteractionSignal(
                ws.turn, ws.current_input, earlier_reply=previous.assistant if previous else None
            )
            await self._commit(module, signal, mctx)
        else:
            if ws.reply is None:
                raise ConfigError(
                    f"compressor '{self.name}' is set to run after the responder but this turn "
                    "has no reply yet; add the edge 'responder -> compressor' or use "
                    "'when: before'"
                )
            signal = InteractionSignal(ws.turn, ws.current_input, reply=ws.reply)
            await self._commit(module, signal, mctx)
            self._persist(module, TurnRecord(ws.turn, ws.current_input, ws.reply, ws.thought))
        ws.broadcasts[p.broadcast or p.memory] = module.render()

    async def _commit(
        self, module: CompressorMemory, signal: InteractionSignal, ctx: MemoryContext
    ) -> None:
        """Commit the next compressed state (one record: the state replaces the last)."""
        with tracing.memory_operation("update_memory", self.params.memory, module.kind, 1):
            await module.commit(signal, ctx, provider=self.provider)

    def _persist(self, module: CompressorMemory, turn: TurnRecord) -> None:
        """Store the exchange's artifacts (the span counts those actually added)."""
        with tracing.memory_operation("create_memory", self.params.memory, module.kind) as span:
            before = len(module.store.artifacts()) if span.is_recording() else 0
            module.persist(turn)
            if span.is_recording():
                span.set_attribute(tracing.MEMORY_RECORDS, len(module.store.artifacts()) - before)


def _previous_turn(ws: Workspace) -> TurnRecord | None:
    """The last completed exchange of the public dialogue, if there is one."""
    if len(ws.dialogue) < 2:
        return None
    asked, answered = ws.dialogue[-2], ws.dialogue[-1]
    if asked.role != "user" or answered.role != "assistant":
        return None
    return TurnRecord(ws.turn - 1, asked.content, answered.content)
