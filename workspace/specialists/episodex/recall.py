"""Retrieve memory: brings what long-term memory holds for this game into the workspace.

It asks the episodic memory for the past episodes drawn for the game and the conceptual memory
for its cluster representatives (both ``retrieve``, which never draws twice for one game), and
broadcasts an index of them (each episode's goal, outcome and final belief; each concept with
the size of its cluster) for internal perception 3, and then the idea or learning node, to
work from. No model is called.
"""

from __future__ import annotations

from typing import ClassVar

from cogarch import tracing
from cogarch.memory.retrieval.messages import clip

from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import SituationParams, conceptual_of, episodic_of


class Recall(BaseSpecialist):
    kind: ClassVar[str] = "recall"
    reads = ("memory",)
    writes = ("broadcasts.<name>",)

    class Params(SituationParams):
        pass

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        episodic = episodic_of(ctx, p, self.name)
        conceptual = conceptual_of(ctx, p, self.name)
        task = episodic.game.task if episodic.game is not None else ws.current_input
        mctx = ctx.memory_context(self.name)
        lines = []
        with tracing.memory_operation("search_memory", p.memory, episodic.kind) as span:
            tracing.record_search(span, task, await episodic.retrieve(task, mctx))
        for episode in episodic.drawn():
            outcome = {True: "won", False: "lost", None: "ended"}[episode.won]
            last = clip(episode.beliefs[-1].text, 200) if episode.beliefs else "(no beliefs)"
            lines.append(
                f"- episode {episode.id} ({outcome} in {episode.steps} steps), goal "
                f"{episode.label}; its final belief: {last}"
            )
        if conceptual is not None and p.concepts is not None and conceptual.params.enabled:
            with tracing.memory_operation("search_memory", p.concepts, conceptual.kind) as span:
                concepts = await conceptual.retrieve(task, mctx)
                tracing.record_search(span, task, concepts)
            for item in concepts:
                size = item.fields["cluster_size"]
                lines.append(f"- concept {item.id} (stands for {size}): {item.text}")
        ws.broadcasts[self.name] = (
            "Recalled from long-term memory:\n" + "\n".join(lines)
            if lines
            else "Long-term memory holds nothing for this game yet."
        )


__all__ = ["Recall"]
