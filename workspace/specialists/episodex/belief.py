"""The conscious node of Episodex: it keeps the agent's belief state and is where the walk turns.

Each time an external percept arrives (the turn's observation, or the feedback on an action
held back), it writes an updated belief state with one model call and stores it in the
episodic memory (and the conceptual memory, which learns from won games' beliefs); the belief
state is the episodic memory's private text, so it is the agent's private state turn by turn.
Coming back from an internal loop (focus, memory) it writes nothing new. The router then asks
the chooser model which successor acts next.

At the first turn of a game it begins the game in both memories: the task is read from the
observation, past episodes are drawn and concepts consolidated, in the background, before any
belief is written (the paper's "unconscious" processes at the start of each task).
"""

from __future__ import annotations

from typing import ClassVar

from autogen_core.models import LLMMessage
from pydantic import Field

from cogarch import tracing
from cogarch.memory.long_term.conceptual import ConceptualMemory
from cogarch.memory.long_term.episodic import EpisodicMemory
from cogarch.models.messages import system, user

from ...prompts import resolve_prompt
from ...sanitize import public_text
from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import SituationParams, conceptual_of, episodic_of, scene, situation


class BeliefConscious(BaseSpecialist):
    kind: ClassVar[str] = "belief"
    reads = ("acting.percept", "dialogue", "broadcasts", "visits", "memory")
    writes = ("broadcasts.<name>", "memory")

    class Params(SituationParams):
        prompt: str = Field(default="episodex_belief", description="A prompt name or text.")
        perception: str = Field(
            default="external_perception",
            description="The node whose percepts call for a new belief state.",
        )
        max_tokens: int = Field(default=200, ge=16)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        episodic = episodic_of(ctx, p, self.name)
        conceptual = conceptual_of(ctx, p, self.name)
        game = episodic.game
        if game is None or game.episode != ws.episode:
            await self._begin_game(ws, ctx, episodic, conceptual)
        written = sum(b.turn == ws.turn for b in episodic.beliefs)
        if ws.visits.get(p.perception, 0) <= written:
            return  # back from an internal loop: nothing new was perceived
        messages: list[LLMMessage] = [
            system(resolve_prompt(p.prompt)),
            user(situation(ws, ctx, p, self.name).text() + "\n\nWrite the updated belief state."),
        ]
        completion = await self.model(ctx).complete(
            messages, caller=self.name, seed=ctx.seed, max_tokens=p.max_tokens
        )
        text = public_text(completion.content).strip()
        if not text:
            ws.broadcasts[self.name] = "(no new belief state)"
            return
        with tracing.memory_operation("create_memory", p.memory, episodic.kind, 1):
            belief = episodic.write_belief(text, ws.turn)
        if conceptual is not None and p.concepts is not None:
            with tracing.memory_operation("create_memory", p.concepts, conceptual.kind, 1):
                conceptual.take_belief(belief)
        ws.broadcasts[self.name] = text

    async def _begin_game(
        self,
        ws: Workspace,
        ctx: StepContext,
        episodic: EpisodicMemory,
        conceptual: ConceptualMemory | None,
    ) -> None:
        """Open the game in both memories: past episodes drawn, concepts consolidated."""
        p = self.params
        task = scene(ws).goal
        mctx = ctx.memory_context(self.name)
        with tracing.memory_operation("search_memory", p.memory, episodic.kind) as span:
            episodic.begin_episode(ws.episode, task, ws.turn, mctx)
            if span.is_recording():
                tracing.record_search(span, task, await episodic.retrieve(task, mctx))
        if conceptual is not None and p.concepts is not None:
            conceptual.use_provider(self.provider)
            with tracing.memory_operation("search_memory", p.concepts, conceptual.kind) as span:
                conceptual.begin_episode(ws.episode, task, mctx)
                if span.is_recording():
                    tracing.record_search(span, task, await conceptual.retrieve(task, mctx))
