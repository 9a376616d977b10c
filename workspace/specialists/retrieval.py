"""The retrieval-memory specialist: feeds a retrieval baseline's block to the responder.

Placed before the responder, each turn it

1. ingests the completed turns its memory module has not seen yet (the agent keeps them as
   in ``ws.turns``; the last turn index each module took in is kept in ``ws.ingested``, so a
   forked agent resumes where it was forked);
2. retrieves for the current input's question (``query: question``, as the ready-made agents
   set it: the text after its last ``Question:`` label, without the answer cue; see
   ``query.search_query``) or for the whole input (``query: input``, the default);
3. broadcasts the rendered block under the module's name and under the placeholder of the
   module's prompt (``memories`` or ``notes_block``), which the responder's prompt then shows.

The module's own model calls use the module's ``provider`` when it has one, otherwise this
specialist's provider (the agent's default).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cogarch import tracing

from ..specialist import BaseSpecialist, StepContext
from ..workspace import IngestFailure, Workspace
from .query import QueryMode, search_query


class RetrievalMemory(BaseSpecialist):
    """Ingest finished turns into a memory module, retrieve for the input, broadcast the block."""

    kind: ClassVar[str] = "retrieval"
    reads = ("current_input", "turns", "ingested", "memory")
    writes = ("broadcasts", "ingested", "ingest_failures", "memory")

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
        query: QueryMode = Field(
            default="input",
            description="What the memory searches for: 'question' (the input's question, the "
            "text after its last 'Question:' label without the answer cue, so a prompt's "
            "instructions do not steer the search; an input without that label as it is; "
            "what the ready-made agents use) or 'input' (the whole input: the default, so that "
            "a spec which names neither keeps the meaning of the runs made with it).",
        )

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        name = self.params.memory
        module = ctx.memory_module(name)
        module.use_provider(self.provider)
        mctx = ctx.memory_context(f"memory:{module.kind}")
        done = ws.ingested.get(name, 0)
        pending = []
        for record in reversed(ws.turns):  # the turns not yet taken in are the latest ones
            if record.index <= done:
                break
            pending.append(record)
        if pending:
            pending.reverse()
            with tracing.memory_operation("create_memory", name, module.kind, len(pending)):
                failed = await module.ingest_many(pending, mctx)
            # a turn the module's own model gave nothing usable for is not stored, as a
            # failed extraction would leave it in the reference systems
            ws.ingest_failures.extend(IngestFailure(name, i, e) for i, e in failed.items())
            ws.ingested[name] = pending[-1].index
        query = search_query(ws.current_input, self.params.query)
        with tracing.memory_operation("search_memory", name, module.kind) as span:
            found = await module.retrieve(query, mctx)
            tracing.record_search(span, query, found)
        block = module.render(self.params.budget_tokens)
        ws.broadcasts[name] = block
        key = self.params.placeholder or getattr(module, "prompt_key", None)
        if key:
            ws.broadcasts[key] = block
