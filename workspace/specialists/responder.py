"""The responder: the only specialist whose text reaches the user."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.models.messages import system

from ..prompts import ELICIT_REASONING
from ..sanitize import public_text
from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace
from .context import dialogue_messages, filled_prompt, history_tokens


class Responder(BaseSpecialist):
    """Answers the current input from the system prompt, memory placeholders and history.

    ``reasoning`` decides what happens to the model's reasoning trace: ``discard`` (vanilla),
    ``private`` (kept across turns and shown back as the model's own earlier thoughts), or
    ``public`` (prepended to the reply, as public chain of thought).
    """

    kind: ClassVar[str] = "responder"
    reads = ("dialogue", "current_input", "memory", "broadcasts", "reasoning")
    writes = ("reply", "thought", "reasoning", "broadcasts.<name>")

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        prompt: str = Field(default="vanilla", description="A prompt name or the prompt text.")
        reasoning: Literal["discard", "private", "public"] = "discard"
        elicit_reasoning: bool = Field(
            default=False, description="Ask a non-reasoning model to think in <think> tags."
        )
        history: int | None = Field(default=None, ge=0, description="Last m public messages.")
        past_affordances: bool = Field(
            default=True,
            description="Show earlier inputs with the admissible actions an environment listed "
            "with them (off: only the current input lists them).",
        )
        memory_budget: int | None = Field(default=None, ge=1)
        max_tokens: int | None = Field(default=None, ge=1)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        prompt, carried = filled_prompt(p.prompt, ws, ctx, p.memory_budget)
        if p.elicit_reasoning or p.reasoning == "public":
            prompt += ELICIT_REASONING
        thoughts = None
        if p.reasoning == "private":
            thoughts = ws.reasoning
        dialogue = dialogue_messages(ws, p.history, thoughts, p.past_affordances)
        ws.memory_tokens = carried + history_tokens(dialogue[:-1])
        messages = [system(prompt), *dialogue]
        completion = await self.model(ctx).complete(
            messages, caller=self.name, seed=ctx.seed, max_tokens=p.max_tokens
        )
        thought = completion.thought
        reply = public_text(completion.content)
        if p.reasoning == "public" and thought:
            reply = f"{public_text(thought)}\n\n{reply}".strip()
        if p.reasoning == "private":
            ws.reasoning[ws.turn] = thought or ""
        ws.thought = thought
        ws.reply = reply
        ws.broadcasts[self.name] = reply
