"""The Autonomous agent's responder: it decides itself whether to edit its working memory.

Each turn the model sees the Autonomous prompt with the current working memory, the public
dialogue and the new user message, and may call the memory tools of the memory's strategy
(``overwrite``, ``append_delete`` or ``patch_replace``) before it answers. Every tool result,
or the tool's error message, goes back to the model and the loop continues, for at most
``max_iterations`` model calls; if the model is still calling tools then, one last call
without tools asks for the reply. Whatever text is not a tool call is the final reply.

``tool_mode`` says how calls arrive:

- ``native``: the tools are offered as functions and only native tool calls count;
- ``json``: the prompt explains the format ``{"name": ..., "arguments": {...}}`` (or a list
  of such objects) and calls are parsed from the reply text;
- ``auto``: both; native calls when the model made any, else JSON parsed from the text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from autogen_core import FunctionCall
from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResult,
    FunctionExecutionResultMessage,
    LLMMessage,
)
from autogen_core.tools import ToolSchema
from pydantic import BaseModel, ConfigDict, Field

from cogarch import tracing
from cogarch.core.model import Completion
from cogarch.memory.working.edit_meta import MemoryToolError
from cogarch.memory.working.module import WorkingMemory
from cogarch.memory.working.tool_calls import parse_tool_calls
from cogarch.models.messages import assistant, system, user

from ..sanitize import public_text
from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace
from .context import dialogue_messages, filled_prompt, history_tokens

ToolMode = Literal["native", "json", "auto"]

JSON_PROTOCOL = """

How to call your memory tools:

- To call a tool, reply with ONLY a JSON object {{"name": "<tool_name>", "arguments": {{...}}}}, \
or a JSON list of such objects to make several calls, and no other text.
- The result of each call (or its error) comes back to you; then call tools again or answer.
- When you are ready to answer, reply with plain text and no JSON: that text is your final \
reply, and it is the only thing the user sees.
- You have at most {iterations} replies per turn; after that you must answer.

Allowed tools: {guide}"""

NATIVE_TOO = "\n- You may also call the tools as functions instead of writing JSON."

RETRY_NOTE = "Fix the call, or answer in plain text if you are done with the memory."

NO_CALL_NOTE = "No tool was called. Reply to the user now, in plain text."

FINAL_REQUEST = (
    "You have used all your memory-tool calls for this turn. Write your reply to the user now, "
    "as plain text, with no tool call and no JSON."
)


@dataclass
class ToolLog:
    """What one turn's tool use did; broadcast under the specialist's name."""

    calls: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    model_calls: int = 0
    forced_reply: bool = False

    def as_broadcast(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "errors": self.errors,
            "model_calls": self.model_calls,
            "forced_reply": self.forced_reply,
        }


@dataclass(frozen=True)
class _Call:
    id: str
    name: str
    arguments: dict[str, Any] | str


class ToolResponder(BaseSpecialist):
    """Answers the user and edits the working memory through its strategy's tools."""

    kind: ClassVar[str] = "tool_responder"
    reads = ("dialogue", "current_input", "memory")
    writes = ("reply", "thought", "memory", "broadcasts.<name>")

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        memory: str = Field(default="working_memory", description="The working memory to edit.")
        prompt: str = Field(default="autonomous", description="A prompt name or the prompt text.")
        tool_mode: ToolMode = "auto"
        max_iterations: int = Field(
            default=4, ge=1, le=20, description="Model calls that may use tools, per turn."
        )
        history: int | None = Field(default=None, ge=0, description="Last m public messages.")
        memory_budget: int | None = Field(default=None, ge=1)
        max_tokens: int | None = Field(default=None, ge=1)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        module = self._working_memory(ctx)
        tools = native_tool_schemas(module) if p.tool_mode != "json" else []
        conversation: list[LLMMessage] = dialogue_messages(ws, p.history)
        carried = self._filled_prompt(ws, ctx, module)[1]
        ws.memory_tokens = carried + history_tokens(conversation[:-1])
        log = ToolLog()
        thoughts: list[str] = []
        reply: str | None = None
        for _ in range(p.max_iterations):
            messages = [system(self._system_prompt(ws, ctx, module)), *conversation]
            completion = await self.model(ctx).complete(
                messages, caller=self.name, seed=ctx.seed, tools=tools, max_tokens=p.max_tokens
            )
            log.model_calls += 1
            if completion.thought:
                thoughts.append(completion.thought)
            outcome = self._handle(completion, module, log)
            if isinstance(outcome, str):
                reply = outcome
                break
            conversation += outcome
        if reply is None:
            reply = await self._forced_reply(ws, ctx, module, conversation, log, thoughts)
        ws.thought = "\n".join(thoughts) or None
        ws.reply = public_text(reply)
        ws.broadcasts[self.name] = log.as_broadcast()

    def _handle(
        self, completion: Completion, module: WorkingMemory, log: ToolLog
    ) -> str | list[LLMMessage]:
        """The final reply text, or the messages that carry out the calls and their results."""
        mode = self.params.tool_mode
        if mode != "json" and completion.tool_calls:
            calls = [
                _Call(c.id or f"call_{log.model_calls}_{i}", c.name, c.arguments)
                for i, c in enumerate(completion.tool_calls)
            ]
            return self._run_native(calls, completion, module, log)
        if mode == "native":
            return completion.content
        try:
            parsed = parse_tool_calls(completion.content)
        except MemoryToolError as exc:
            if not looks_like_tool_call(completion.content):
                return completion.content
            log.errors.append(str(exc))
            return [
                assistant(completion.content, source=self.name),
                user(f"Your tool call could not be read: {exc}\n{RETRY_NOTE}"),
            ]
        if not parsed:  # "[]": the model chose to make no edit
            return [assistant(completion.content, source=self.name), user(NO_CALL_NOTE)]
        calls = [
            _Call(f"json_{log.model_calls}_{i}", c.name, c.arguments) for i, c in enumerate(parsed)
        ]
        return self._run_json(calls, completion, module, log)

    async def _forced_reply(
        self,
        ws: Workspace,
        ctx: StepContext,
        module: WorkingMemory,
        conversation: list[LLMMessage],
        log: ToolLog,
        thoughts: list[str],
    ) -> str:
        """The budget is spent: one call without tools that asks for the reply."""
        log.forced_reply = True
        messages = [
            system(self._system_prompt(ws, ctx, module)),
            *conversation,
            user(FINAL_REQUEST),
        ]
        completion = await self.model(ctx).complete(
            messages, caller=self.name, seed=ctx.seed, max_tokens=self.params.max_tokens
        )
        log.model_calls += 1
        if completion.thought:
            thoughts.append(completion.thought)
        text = completion.content
        if completion.tool_calls or (looks_like_tool_call(text) and _parses_as_calls(text)):
            log.errors.append("the reply after the tool budget was another tool call (not run)")
            return ""
        return completion.content

    def _run_native(
        self, calls: list[_Call], completion: Completion, module: WorkingMemory, log: ToolLog
    ) -> list[LLMMessage]:
        request = AssistantMessage(
            content=[
                FunctionCall(id=c.id, name=c.name, arguments=_arguments_text(c.arguments))
                for c in calls
            ],
            thought=completion.thought or completion.content or None,
            source=self.name,
        )
        results = []
        for call in calls:
            text, ok = self._apply(module, call, log)
            results.append(
                FunctionExecutionResult(
                    content=text, name=call.name, call_id=call.id, is_error=not ok
                )
            )
        return [request, FunctionExecutionResultMessage(content=results)]

    def _run_json(
        self, calls: list[_Call], completion: Completion, module: WorkingMemory, log: ToolLog
    ) -> list[LLMMessage]:
        lines = [f"[{call.name}] {self._apply(module, call, log)[0]}" for call in calls]
        return [
            assistant(completion.content, source=self.name),
            user("Tool results:\n" + "\n".join(lines)),
        ]

    def _apply(self, module: WorkingMemory, call: _Call, log: ToolLog) -> tuple[str, bool]:
        """Run one call on the memory; a failing call leaves the memory as it was."""
        entry: dict[str, Any] = {"tool": call.name, "arguments": call.arguments}
        try:
            if not isinstance(call.arguments, dict):
                raise MemoryToolError(
                    f"{call.name}: the arguments must be a JSON object, got "
                    f"{str(call.arguments)[:120]!r}"
                )
            store = self.params.memory
            with tracing.memory_operation("update_memory", store, module.kind, 1):
                result = module.apply(call.name, call.arguments)
        except MemoryToolError as exc:
            log.errors.append(str(exc))
            log.calls.append({**entry, "ok": False, "error": str(exc)})
            return f"Error: {exc}", False
        log.calls.append({**entry, "ok": True, "error": None})
        return _result_text(result.to_dict().get("meta", {})), True

    def _filled_prompt(
        self, ws: Workspace, ctx: StepContext, module: WorkingMemory
    ) -> tuple[str, int]:
        p = self.params
        memory = {"working_memory": module.render(p.memory_budget)}
        return filled_prompt(p.prompt, ws, ctx, p.memory_budget, memory)

    def _system_prompt(self, ws: Workspace, ctx: StepContext, module: WorkingMemory) -> str:
        p = self.params
        prompt = self._filled_prompt(ws, ctx, module)[0]
        if p.tool_mode == "native":
            return prompt
        protocol = JSON_PROTOCOL.format(iterations=p.max_iterations, guide=module.tool_guide())
        if p.tool_mode == "auto":
            head, sep, guide = protocol.partition("\n\nAllowed tools:")
            protocol = head + NATIVE_TOO + sep + guide
        return prompt + protocol

    def _working_memory(self, ctx: StepContext) -> WorkingMemory:
        return ctx.memory_of(self.params.memory, WorkingMemory, self.name)

    def describe(self) -> dict[str, object]:
        return {**super().describe(), **self.params.model_dump(exclude_defaults=True)}


def native_tool_schemas(module: WorkingMemory) -> list[ToolSchema]:
    """The memory's allowed tools as AutoGen ``ToolSchema`` s."""
    return [
        {"name": s["name"], "description": s["description"], "parameters": s["parameters"]}
        for s in module.tool_schemas()
    ]


def looks_like_tool_call(text: str) -> bool:
    """Text that is meant as a tool call (and must not be published if it cannot be read)."""
    stripped = public_text(text)
    if '"name"' not in stripped:
        return False
    return stripped.startswith(("{", "[", "```")) or '"arguments"' in stripped


def _parses_as_calls(text: str) -> bool:
    try:
        return bool(parse_tool_calls(text))
    except MemoryToolError:
        return False


def _arguments_text(arguments: dict[str, Any] | str) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def _result_text(meta: dict[str, Any]) -> str:
    parts = [f"OK: the working memory was updated ({meta.get('changed_lines', 0)} lines changed"]
    touched = meta.get("sections_touched") or []
    if touched:
        parts.append(f" in {', '.join(str(s) for s in touched)}")
    parts.append("); the system prompt now shows the new memory.")
    warnings = meta.get("warnings") or []
    if warnings:
        parts.append(" Warnings: " + " ".join(str(w) for w in warnings))
    return "".join(parts)
