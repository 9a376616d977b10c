"""Idea and learning: one model call each, over the same view of the game as planning.

The idea node proposes a concrete way forward, which planning reads next. The learning node
states one general lesson from the game so far, which the record node then keeps for the
conceptual memory (concepts are only abstracted from it if the game is won).
"""

from __future__ import annotations

from typing import ClassVar

from autogen_core.models import LLMMessage
from pydantic import Field

from cogarch.models.messages import system, user

from ...prompts import resolve_prompt
from ...sanitize import public_text
from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import SituationParams, situation


class _Reflection(BaseSpecialist):
    ask: ClassVar[str] = ""
    reads = ("acting.percept", "dialogue", "broadcasts", "memory")
    writes = ("broadcasts.<name>",)

    class Params(SituationParams):
        prompt: str = Field(default="", description="A prompt name or text.")
        max_tokens: int = Field(default=96, ge=8)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        messages: list[LLMMessage] = [
            system(resolve_prompt(p.prompt)),
            user(situation(ws, ctx, p, self.name).text() + f"\n\n{self.ask}"),
        ]
        completion = await self.model(ctx).complete(
            messages, caller=self.name, seed=ctx.seed, max_tokens=p.max_tokens
        )
        ws.broadcasts[self.name] = public_text(completion.content) or "(nothing)"


class Idea(_Reflection):
    kind: ClassVar[str] = "idea"
    ask: ClassVar[str] = "Propose one idea."

    class Params(_Reflection.Params):
        prompt: str = Field(default="episodex_idea", description="A prompt name or text.")

    params: Params


class Learning(_Reflection):
    kind: ClassVar[str] = "learning"
    ask: ClassVar[str] = "State one lesson."

    class Params(_Reflection.Params):
        prompt: str = Field(default="episodex_learning", description="A prompt name or text.")

    params: Params
