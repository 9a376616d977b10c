"""Planning: proposes the next action, with one of the paper's two planning prompts.

``style: simple`` is the paper's basic planning prompt (the proposal is the action and nothing
else); ``style: affordances`` adds the paper's principles about the environment's affordances
(admissible actions, the action limit, probabilistic search, no repeated or wasteful actions)
and ends in ``ACTION: [...]``. Both see the task, the belief state, the past episodes and
concepts in context, the game so far, the observation with its admissible actions, and what
this turn brought (ideas, the focus replay). The proposal goes to the motor, which acts.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from autogen_core.models import LLMMessage
from pydantic import Field

from cogarch.models.messages import system, user
from cogarch.tokens import count_tokens

from ...prompts import resolve_prompt
from ...sanitize import public_text
from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import SituationParams, situation


class ActionPlanner(BaseSpecialist):
    kind: ClassVar[str] = "action_planner"
    reads = ("acting.percept", "dialogue", "broadcasts", "memory")
    writes = ("broadcasts.<name>", "memory_tokens")

    class Params(SituationParams):
        style: Literal["simple", "affordances"] = Field(
            default="simple", description="The paper's planning prompt: simple or affordances."
        )
        prompt: str | None = Field(
            default=None, description="A prompt name or text instead of the style's prompt."
        )
        max_tokens: int = Field(default=256, ge=8)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        seen = situation(ws, ctx, p, self.name)
        prompt = resolve_prompt(p.prompt or f"episodex_planning_{p.style}")
        messages: list[LLMMessage] = [
            system(prompt),
            user(seen.text() + "\n\nPropose the next action."),
        ]
        carried = [seen.belief or "", seen.episodes or "", seen.concepts or ""]
        carried += [f"{a} -> {o}" for a, o in seen.history]
        ws.memory_tokens = sum(count_tokens(text) for text in carried)
        completion = await self.model(ctx).complete(
            messages, caller=self.name, seed=ctx.seed, max_tokens=p.max_tokens
        )
        ws.broadcasts[self.name] = public_text(completion.content)
