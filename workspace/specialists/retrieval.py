"""The retrieval-memory specialist: feeds a retrieval baseline's block to the responder.

Placed before the responder, each turn it

1. ingests the completed turns its memory module has not seen yet (the agent keeps them as
   ``TurnRecord`` s in ``ws.private["turns"]``; the last turn index each module took in is kept
   in ``ws.private["retrieval_ingested"]``, so a forked agent resumes where it was forked);
2. retrieves for the current input;
3. broadcasts the rendered block under the module's name and under the placeholder of the
   module's prompt (``memories`` or ``notes_block``), which the responder's prompt then shows.

The module's own model calls use the module's ``provider`` when it has one, otherwise this
specialist's provider (the agent's default).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.memory import TurnRecord
from cogarch.errors import ModelCallError

from ..specialist import Specialist, StepContext
from ..workspace import Workspace

INGESTED_KEY = "retrieval_ingested"


class RetrievalMemory(Specialist):
    """Ingest finished turns into a memory module, retrieve for the input, broadcast the block."""

    kind: ClassVar[str] = "retrieval"
    reads = ("current_input", "private.turns", "memory")
    writes = ("broadcasts", "private.retrieval_ingested", "memory")

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        memory: str = Field(description="Name of the agent's memory module to drive.")
        budget_tokens: int | None = Field(
            default=None, ge=1, description="Cut the rendered block to this many tokens."
        )
        placeholder: str | None = Field(
            default=None,
            description="Broadcast key for the prompt placeholder; default: the module's own "
            "(memories, or notes_block for A-Mem).",
        )

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        name = self.params.memory
        module = ctx.memory_module(name)
        use_provider = getattr(module, "use_provider", None)
        if callable(use_provider):
            use_provider(self.provider)
        mctx = ctx.memory_context(f"memory:{module.kind}")
        ingested: dict[str, int] = ws.private.setdefault(INGESTED_KEY, {})
        turns: list[TurnRecord] = ws.private.get("turns", [])
        for record in turns:
            if record.index > ingested.get(name, 0):
                try:
                    await module.ingest(record, mctx)
                except ModelCallError as exc:
                    # the module's own model gave nothing usable: the turn is not stored,
                    # as a failed extraction would leave it in the reference systems
                    failures = ws.private.setdefault("retrieval_failures", [])
                    failures.append({"memory": name, "turn": record.index, "error": str(exc)})
                ingested[name] = record.index
        await module.retrieve(ws.current_input, mctx)
        block = module.render(self.params.budget_tokens)
        ws.broadcasts[name] = block
        key = self.params.placeholder or getattr(module, "prompt_key", None)
        if key:
            ws.broadcasts[key] = block

    def describe(self) -> dict[str, object]:
        return {**super().describe(), **self.params.model_dump(exclude_defaults=True)}


__all__ = ["INGESTED_KEY", "RetrievalMemory"]
