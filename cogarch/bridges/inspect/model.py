"""Inspect's model as a cogarch provider: an AutoGen client over Inspect's model API.

The client turns each call of cogarch's :class:`~cogarch.models.model.Model` (its messages,
tools, response schema, temperature, token limit and seed) into one ``generate`` of Inspect's
model, and the answer back. Wrapped in a ``Model``, the call keeps everything cogarch adds:
metering by caller, the response cache of seeded calls, retries, spans. Inspect in turn logs
the call in the sample's transcript and applies its own limits and generate config.

Inspect estimates tokens with ``tiktoken`` in places (its mock model does for every answer),
and ``tiktoken`` downloads its encodings on first use; the bridge gives the model's API
cogarch's offline estimate instead (:func:`cogarch.tokens.count_tokens`), so no tokenizer is
ever fetched.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (
    AssistantMessage,
    CreateResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    RequestUsage,
    SystemMessage,
    UserMessage,
)
from autogen_core.tools import Tool, ToolSchema
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    ContentReasoning,
    GenerateConfig,
    ModelOutput,
    ResponseSchema,
)
from inspect_ai.model import Model as InspectModel
from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.tool import ToolCall, ToolInfo, ToolParams
from inspect_ai.util import JSONSchema
from pydantic import BaseModel

from cogarch.models import prompt_cache
from cogarch.models.cache import ResponseCache
from cogarch.models.counted_client import CountedClient
from cogarch.models.messages import as_pairs
from cogarch.models.model import Model
from cogarch.tokens import count_tokens

OFFLINE_MODELS = ("mockllm",)
"""Inspect's model providers that answer in-process: cogarch counts them as fakes (the test
suite's guard against real model calls lets them through)."""

_FINISH: Mapping[str, Literal["stop", "length", "function_calls", "content_filter", "unknown"]] = {
    "stop": "stop",
    "max_tokens": "length",
    "model_length": "length",
    "tool_calls": "function_calls",
    "content_filter": "content_filter",
}


async def _offline_estimate(text: str) -> int:
    return max(1, count_tokens(text))


def keep_tokenizer_offline(model: InspectModel) -> None:
    """Give ``model``'s API cogarch's offline token estimate in place of ``tiktoken``'s."""
    model.api.count_text_tokens = _offline_estimate  # type: ignore[method-assign]


def inspect_messages(messages: Sequence[LLMMessage]) -> list[ChatMessage]:
    """cogarch's (AutoGen's) messages as Inspect's."""
    out: list[ChatMessage] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            out.append(ChatMessageSystem(content=message.content))
        elif isinstance(message, UserMessage):
            content = message.content
            out.append(ChatMessageUser(content=content if isinstance(content, str) else ""))
        elif isinstance(message, AssistantMessage):
            if isinstance(message.content, str):
                out.append(ChatMessageAssistant(content=message.content))
                continue
            calls = [
                ToolCall(id=c.id, function=c.name, arguments=_arguments(c.arguments))
                for c in message.content
            ]
            out.append(ChatMessageAssistant(content=message.thought or "", tool_calls=calls))
        elif isinstance(message, FunctionExecutionResultMessage):
            out += [
                ChatMessageTool(content=r.content, tool_call_id=r.call_id, function=r.name)
                for r in message.content
            ]
        else:  # pragma: no cover - every LLMMessage kind is handled above
            out.append(ChatMessageUser(content=as_pairs([message])[0][1]))
    return out


def _arguments(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError:
        return {"arguments": raw}
    return value if isinstance(value, dict) else {"arguments": value}


def inspect_tools(tools: Sequence[Tool | ToolSchema]) -> list[ToolInfo]:
    out = []
    for tool in tools:
        schema: Mapping[str, Any] = tool.schema if isinstance(tool, Tool) else tool
        parameters = dict(schema.get("parameters") or {"type": "object", "properties": {}})
        out.append(
            ToolInfo(
                name=schema["name"],
                description=schema.get("description", ""),
                parameters=ToolParams.model_validate(parameters),
            )
        )
    return out


def generate_config(args: Mapping[str, Any]) -> GenerateConfig:
    """The generate config of one call's arguments (cogarch's ``extra_create_args``)."""
    config: dict[str, Any] = {}
    for key in ("temperature", "max_tokens", "seed"):
        if args.get(key) is not None:
            config[key] = args[key]
    if args.get("extra_body"):
        config["extra_body"] = dict(args["extra_body"])
    response_format = args.get("response_format")
    if isinstance(response_format, Mapping) and response_format.get("type") == "json_schema":
        spec = response_format["json_schema"]
        config["response_schema"] = ResponseSchema(
            name=spec["name"], json_schema=JSONSchema.model_validate(spec["schema"])
        )
    return GenerateConfig(**config)


def create_result(output: ModelOutput) -> CreateResult:
    """Inspect's answer as AutoGen's: text or tool calls, reasoning, usage, finish reason."""
    message = output.message
    thought = (
        "\n".join(
            c.reasoning for c in message.content if isinstance(c, ContentReasoning) and c.reasoning
        )
        if isinstance(message.content, list)
        else ""
    )
    usage = output.usage
    prompt = usage.input_tokens if usage is not None else 0
    completion = usage.output_tokens if usage is not None else count_tokens(message.text)
    if usage is not None:
        prompt_cache.report(usage.input_tokens_cache_read)
    finish = _FINISH.get(output.stop_reason, "unknown")
    content: str | list[FunctionCall] = message.text
    if message.tool_calls:
        content = [
            FunctionCall(id=c.id, name=c.function, arguments=json.dumps(c.arguments))
            for c in message.tool_calls
        ]
        finish = "function_calls"
    return CreateResult(
        finish_reason=finish,
        content=content,
        usage=RequestUsage(prompt_tokens=prompt, completion_tokens=completion),
        cached=False,
        thought=thought or None,
    )


class InspectChatClient(CountedClient):
    """An AutoGen chat client whose every ``create`` is one ``generate`` of Inspect's model."""

    def __init__(self, model: InspectModel) -> None:
        super().__init__()
        self.model = model

    async def create(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = [],
        tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> CreateResult:
        output = await self.model.generate(
            inspect_messages(messages),
            tools=inspect_tools(tools),
            config=generate_config(extra_create_args),
        )
        if output.error:
            raise RuntimeError(f"Inspect's model {self.model} failed: {output.error}")
        result = create_result(output)
        self._count(result.usage)
        return result

    async def close(self) -> None:
        """Inspect owns its model and closes it when the eval ends."""
        return None


ANSWER_SETTINGS = (
    "temperature",
    "top_p",
    "top_k",
    "max_tokens",
    "seed",
    "stop_seqs",
    "frequency_penalty",
    "presence_penalty",
    "logit_bias",
    "system_message",
    "reasoning_effort",
    "reasoning_tokens",
    "extra_body",
)
"""Inspect's generate settings that change an answer (not how it is fetched): they are part
of the endpoint's name in cogarch's response-cache key, so a cached answer is never served
to a call made under other settings."""


def settings_digest(model: InspectModel) -> str:
    """A short hash of the answer settings of Inspect's ``model`` in the running eval (its own
    config merged with the eval's, as Inspect merges them for its active model)."""
    config = model.config.merge(active_generate_config())
    settings = {key: getattr(config, key, None) for key in ANSWER_SETTINGS}
    blob = json.dumps(settings, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def inspect_model(model: InspectModel, *, provider: str, cache: ResponseCache | None) -> Model:
    """cogarch's model over an Inspect model.

    The generate config that applies is Inspect's, overridden only by what a call sets itself
    (the temperature of a sampled candidate, say).

    Args:
        model: The Inspect model.
        provider: The provider name its calls are metered under.
        cache: Where seeded calls are cached, or None for no cache.

    Returns:
        The :class:`~cogarch.models.Model` that sends each call to ``model``.
    """
    keep_tokenizer_offline(model)
    name = str(model)
    where = model.api.base_url or name
    return Model(
        InspectChatClient(model),
        provider=provider,
        model=name,
        cache=cache,
        endpoint=f"inspect:{where}#{settings_digest(model)}",
        fake=name.split("/")[0] in OFFLINE_MODELS,
    )
