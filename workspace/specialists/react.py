"""A ReAct-style responder (the TME paper's baseline): thought, action, observation, in a loop.

Each turn the model sees the whole public history (linear context, as ReAct concatenates it),
its own notes and this turn's scratchpad, and answers with one JSON step
``{"thought": ..., "action": ..., "input": ...}``. Its actions work on the workspace:

- ``search_history``: the earlier dialogue lines that share a content word with ``input``
  (the last ``search_hits`` of them) come back as the observation;
- ``write_note``: ``input`` is added to the agent's notes, kept across turns in
  ``ws.private["<name>.notes"]`` and shown in every later prompt;
- ``answer``: ``input`` is the reply to the user, and the turn ends.

After ``max_steps`` steps without an answer one more call asks for the answer. A reply that is
not a readable step is taken as the answer itself (a model that ignores the format answers
directly). The memory footprint is the history and the notes the prompt carries.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from autogen_core.models import LLMMessage
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cogarch.models.messages import system, user
from cogarch.models.structured import extract_json

from ..sanitize import public_text
from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace
from .context import dialogue_messages, filled_prompt, history_tokens

Action = Literal["search_history", "write_note", "answer"]

REACT_PROMPT = """You are a helpful assistant that reasons and acts step by step (ReAct). \
The conversation so far is above the user's latest message. Work in steps; each step is ONE \
JSON object {"thought": "...", "action": "...", "input": "..."} and nothing else.
Actions:
- "search_history": input is a few words; you get the earlier lines of the conversation that \
mention them.
- "write_note": input is a short fact to remember for later turns (kept in your notes).
- "answer": input is your complete reply to the user; this ends your turn.
Your notes from earlier turns:
{notes}"""

FINAL_STEP = (
    'Step budget spent. Reply now with {"thought": "...", "action": "answer", "input": ...}.'
)
_WORD = re.compile(r"[a-z0-9]{3,}")


class ReactStep(BaseModel):
    model_config = ConfigDict(extra="ignore", title="ReactStep")
    thought: str = ""
    action: Action
    input: str = ""


class ReAct(BaseSpecialist):
    """Thought / action / observation over the workspace until it answers."""

    kind: ClassVar[str] = "react"
    reads = ("dialogue", "current_input", "private")
    writes = ("reply", "private.<name>.notes", "broadcasts.<name>")

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        prompt: str = Field(default=REACT_PROMPT, description="A prompt name or the prompt text.")
        history: int | None = Field(default=None, ge=0, description="Last m public messages.")
        max_steps: int = Field(default=4, ge=1, le=12, description="Steps before it must answer.")
        search_hits: int = Field(default=5, ge=1)
        max_tokens: int | None = Field(default=None, ge=1)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        notes: list[str] = ws.private.setdefault(f"{self.name}.notes", [])
        shown = "\n".join(f"- {n}" for n in notes) or "(none)"
        prompt, carried = filled_prompt(p.prompt, ws, ctx, extra={"notes": shown})
        dialogue = dialogue_messages(ws, p.history)
        ws.memory_tokens = carried + history_tokens(dialogue[:-1])
        scratch: list[str] = []
        taken: list[str] = []
        reply: str | None = None
        for n in range(1, p.max_steps + 2):
            request = FINAL_STEP if n > p.max_steps else None
            step, text = await self._next(prompt, dialogue, scratch, request, ctx)
            if step is None:
                reply = text
                break
            taken.append(f"{step.action}: {step.input}"[:200])
            scratch.append(f"Thought {n}: {step.thought}\nAction {n}: {step.action}[{step.input}]")
            if step.action == "answer" or n > p.max_steps:
                reply = step.input or step.thought
                break
            scratch.append(f"Observation {n}: {self._observe(step, ws, notes)}")
        ws.reply = public_text(reply or "")
        ws.broadcasts[self.name] = "; ".join(taken)

    async def _next(
        self,
        prompt: str,
        dialogue: list[LLMMessage],
        scratch: list[str],
        request: str | None,
        ctx: StepContext,
    ) -> tuple[ReactStep | None, str]:
        last = "\n\n".join([str(dialogue[-1].content), *scratch, *([request] if request else [])])
        messages = [system(prompt), *dialogue[:-1], user(last)]
        completion = await self.model(ctx).complete(
            messages,
            caller=self.name,
            seed=ctx.seed,
            response_schema=ReactStep,
            max_tokens=self.params.max_tokens,
        )
        try:
            return ReactStep.model_validate(extract_json(completion.content)), completion.content
        except (ValueError, ValidationError):
            return None, completion.content

    def _observe(self, step: ReactStep, ws: Workspace, notes: list[str]) -> str:
        if step.action == "write_note":
            notes.append(step.input.strip())
            return "noted"
        words = set(_WORD.findall(step.input.lower()))
        lines = [
            f"{m.role}: {m.content}"
            for m in ws.dialogue
            if words & set(_WORD.findall(m.content.lower()))
        ]
        return "\n".join(lines[-self.params.search_hits :]) or "no earlier line mentions that"
