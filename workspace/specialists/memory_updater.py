"""The memory updater: edits a working memory through its tools after the public reply."""

from __future__ import annotations

from typing import Any, ClassVar

from autogen_core.models import LLMMessage
from pydantic import BaseModel, ConfigDict, Field

from cogarch import tracing
from cogarch.errors import ModelCallError
from cogarch.memory.working.edit_meta import MemoryToolError
from cogarch.memory.working.module import WorkingMemory
from cogarch.memory.working.tool_calls import parse_tool_calls
from cogarch.models.messages import assistant, system, user

from ..prompts import fill, resolve_prompt
from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace
from .context import transcript_text

FEEDBACK_CHARS = 1200
"""How much of a failed answer is shown back to the model with its error."""

UPDATE_REQUEST = "Update the working memory now. Return ONLY the JSON tool call(s)."


class MemoryUpdater(BaseSpecialist):
    """Asks for tool-call JSON; an invalid answer or a failing tool is shown back and retried.

    All calls of one answer are applied to a scratch copy first, so a failure part-way leaves
    the memory exactly as it was.
    """

    kind: ClassVar[str] = "memory_updater"
    reads = ("dialogue", "current_input", "reply", "thought", "memory")
    writes = ("memory",)

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        memory: str = "working_memory"
        prompt: str = "workflow_updater"
        dialogue_window: int | None = Field(default=6, ge=0)
        max_attempts: int = Field(default=3, ge=1, le=10)
        constrained: bool = Field(
            default=True, description="Send the tool-call JSON schema as the response format."
        )
        max_tokens: int | None = Field(default=None, ge=1)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        module = ctx.memory_of(p.memory, WorkingMemory, self.name)
        prompt = fill(
            resolve_prompt(p.prompt),
            {
                "tool_guide": module.tool_guide(),
                "working_memory": module.text,
                "dialogue": transcript_text(ws, p.dialogue_window, include_current=False),
                "thinking": ws.thought or "",
                "response": ws.reply or "",
            },
        )
        messages: list[LLMMessage] = [
            system(prompt),
            user(f"User: {ws.current_input}\n\n{UPDATE_REQUEST}"),
        ]
        schema = module.tool_call_schema() if p.constrained else None
        errors: list[str] = []
        for _ in range(p.max_attempts):
            try:
                completion = await self.model(ctx).complete(
                    messages,
                    caller=self.name,
                    seed=ctx.seed,
                    response_schema=schema,
                    max_tokens=p.max_tokens,
                )
            except ModelCallError as exc:
                # the memory stays as it was this turn; the dialogue goes on
                errors.append(str(exc))
                break
            try:
                found = [(c.name, c.arguments) for c in completion.tool_calls] or [
                    (c.name, c.arguments) for c in parse_tool_calls(completion.content)
                ]
                calls: list[tuple[str, dict[str, Any]]] = []
                for name, arguments in found:
                    if not isinstance(arguments, dict):
                        raise MemoryToolError(f"arguments of '{name}' must be a JSON object")
                    calls.append((name, arguments))
                with tracing.memory_operation("update_memory", p.memory, module.kind, len(calls)):
                    module.apply_all(calls)
            except MemoryToolError as exc:
                errors.append(str(exc))
                shown = completion.content or "(no content)"
                if len(shown) > FEEDBACK_CHARS:
                    shown = shown[:FEEDBACK_CHARS] + " ...(cut)"
                messages += [
                    assistant(shown),
                    user(f"The tool call failed: {exc}\nFix it and return ONLY the JSON."),
                ]
                continue
            ws.broadcasts[self.name] = {"applied": len(calls), "errors": errors}
            return
        ws.broadcasts[self.name] = {"applied": 0, "errors": errors}
