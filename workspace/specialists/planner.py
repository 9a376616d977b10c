"""A planner: writes a short private plan for the turn into the workspace."""

from __future__ import annotations

from typing import ClassVar

from autogen_core.models import LLMMessage
from pydantic import BaseModel, ConfigDict, Field

from cogarch.models.messages import system, user

from ..sanitize import public_text
from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace
from .context import system_prompt, transcript_text

PLANNER_PROMPT = (
    "You plan privately for an assistant. In at most three short lines, say what the reply to "
    "the user's latest message must achieve and which facts it must respect.\n{focus}"
)


class Planner(BaseSpecialist):
    kind: ClassVar[str] = "planner"
    reads = ("dialogue", "current_input", "broadcasts")
    writes = ("broadcasts.<name>",)

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        prompt: str = PLANNER_PROMPT
        history: int | None = Field(default=6, ge=0)
        max_tokens: int = Field(default=128, ge=1)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        messages: list[LLMMessage] = [
            system(system_prompt(p.prompt, ws, ctx)),
            user(transcript_text(ws, p.history) + "\n\nWrite the plan."),
        ]
        completion = await self.model(ctx).complete(
            messages, caller=self.name, seed=ctx.seed, max_tokens=p.max_tokens
        )
        ws.broadcasts[self.name] = public_text(completion.content)
