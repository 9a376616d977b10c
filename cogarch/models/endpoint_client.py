"""The chat client of ``openai`` and ``local`` providers: one JSON POST per call, no SDK.

AutoGen's OpenAI client builds each request through the OpenAI SDK (typed transforms, option
models, a full HTTP client) and each answer into SDK models: several milliseconds of CPU per
call, which at dozens of calls in flight is what bounds a run on one event loop. This client
sends the same request and reads the same answer with a fraction of that:

- the messages and tools are converted by AutoGen's own functions (so the body is the one its
  client sends: system messages merged, user messages named by their source), and the body is
  ``model``, ``stream: false``, the messages, the tools (``tool_choice: auto``) and the
  call's arguments, ``extra_body`` merged in;
- it goes over :class:`~cogarch.models.http_pool.HttpPool` with the SDK's headers (the API
  key as a bearer token, ``OPENAI_ORG_ID`` / ``OPENAI_PROJECT_ID`` when set) and a deadline of
  ``timeout`` seconds;
- failures are raised as the SDK raises them (``RateLimitError``, ``InternalServerError``,
  ``BadRequestError``... with the SDK's messages; ``APITimeoutError``, ``APIConnectionError``;
  ``json.JSONDecodeError`` for a body that is not JSON), so retries and their messages are
  unchanged (:mod:`cogarch.models.retry`);
- the answer becomes a ``CreateResult`` as AutoGen's client makes it (tool calls, finish
  reason, ``reasoning_content`` as the thought, logprobs, usage), and the prompt tokens the
  server served from its cache are reported to the call's capture
  (:mod:`cogarch.models.prompt_cache`).
"""

from __future__ import annotations

import json
import os
import platform
import warnings
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import Any, Literal, cast

import httpx
import openai
from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (
    ChatCompletionTokenLogprob,
    CreateResult,
    LLMMessage,
    ModelFamily,
    ModelInfo,
    RequestUsage,
    SystemMessage,
    TopLogprob,
)
from autogen_core.tools import Tool, ToolSchema

# AutoGen's own conversions (the package is pinned), so that requests stay what they were
from autogen_ext.models._utils.normalize_stop_reason import normalize_stop_reason
from autogen_ext.models._utils.parse_r1_content import parse_r1_content
from autogen_ext.models.openai._openai_client import (
    convert_tool_choice,
    convert_tools,
    normalize_name,
    to_oai_type,
)
from pydantic import BaseModel

from cogarch.models import prompt_cache
from cogarch.models.counted_client import CountedClient
from cogarch.models.http_pool import ConnectionLost, HttpPool
from cogarch.models.response_format import response_format_for

COMPLETIONS_PATH = "/chat/completions"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
"""Where the OpenAI SDK sends requests when neither the config nor ``OPENAI_BASE_URL`` says."""

_STATUS_ERRORS: dict[int, type[openai.APIStatusError]] = {
    400: openai.BadRequestError,
    401: openai.AuthenticationError,
    403: openai.PermissionDeniedError,
    404: openai.NotFoundError,
    409: openai.ConflictError,
    422: openai.UnprocessableEntityError,
    429: openai.RateLimitError,
}


_NOT_BODY = frozenset({"extra_headers", "extra_query", "timeout", "stream"})
"""Request options of the SDK that are not body fields."""


def _version() -> str:
    try:
        return metadata.version("cogarch")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown"


def request_headers(api_key: str) -> dict[str, str]:
    """The headers of every request: the SDK's authorisation and content headers."""
    headers = {
        "Authorization": f"Bearer {api_key}",
        "Accept": "application/json",
        "Accept-Encoding": "gzip, deflate",
        "Content-Type": "application/json",
        "User-Agent": f"cogarch/{_version()} (Python {platform.python_version()})",
    }
    if organization := os.environ.get("OPENAI_ORG_ID"):
        headers["OpenAI-Organization"] = organization
    if project := os.environ.get("OPENAI_PROJECT_ID"):
        headers["OpenAI-Project"] = project
    return headers


class EndpointClient(CountedClient):
    """An OpenAI-compatible endpoint's chat completions (see the module).

    Args:
        model: The model name sent with every request.
        base_url: The endpoint (``…/v1``); None: ``OPENAI_BASE_URL``, else OpenAI's.
        api_key: Sent as the bearer token.
        timeout: Seconds one request may take, connection included.
        model_info: AutoGen's capability flags (``multiple_system_messages`` false or absent:
            consecutive system messages are merged into one, as AutoGen's client does).
    """

    def __init__(
        self,
        model: str,
        base_url: str | None,
        api_key: str,
        *,
        timeout: float,
        model_info: ModelInfo,
    ) -> None:
        super().__init__()
        url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        self.model = model
        self.timeout = timeout
        self.info = model_info
        self.pool = HttpPool(url, request_headers(api_key))

    def __repr__(self) -> str:
        return f"EndpointClient(model={self.model!r}, base_url={self.pool.base_url!r})"

    @property
    def model_info(self) -> ModelInfo:
        return self.info

    async def close(self) -> None:
        await self.pool.aclose()

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
        """One chat completion.

        Raises:
            openai.APIStatusError: The endpoint answered with an error status (its subclass
                names which, as the SDK's do).
            openai.APITimeoutError: No whole answer within ``timeout`` seconds.
            openai.APIConnectionError: The connection failed or broke.
            json.JSONDecodeError: A successful answer whose body is not JSON.
        """
        body = self.body(messages, tools, tool_choice, json_output, extra_create_args)
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        try:
            answer = await self.pool.post(COMPLETIONS_PATH, data, self.timeout)
        except TimeoutError:
            raise openai.APITimeoutError(request=self._request()) from None
        except ConnectionLost as exc:
            raise openai.APIConnectionError(request=self._request()) from exc
        if not 200 <= answer.status < 300:
            raise self._status_error(answer.status, answer.headers, answer.body)
        reply = json.loads(answer.body)
        prompt_cache.report(prompt_cache.cached_prompt_tokens_of(reply))
        result = self.result(reply)
        self._count(result.usage)
        return result

    def body(
        self,
        messages: Sequence[LLMMessage],
        tools: Sequence[Tool | ToolSchema],
        tool_choice: Tool | Literal["auto", "required", "none"],
        json_output: bool | type[BaseModel] | None,
        extra_create_args: Mapping[str, Any],
    ) -> dict[str, Any]:
        """The request body AutoGen's client would send for the same call."""
        family = self.info.get("family", ModelFamily.UNKNOWN)
        if not self.info.get("multiple_system_messages", False):
            messages = _merged_system_messages(messages)
        converted = [
            item for m in messages for item in to_oai_type(m, model=self.model, model_family=family)
        ]
        body: dict[str, Any] = {"model": self.model, "stream": False, "messages": converted}
        if tools:
            body["tools"] = convert_tools(tools)
            body["tool_choice"] = convert_tool_choice(tool_choice)
        extra: Mapping[str, Any] = {}
        for key, value in extra_create_args.items():
            if key == "extra_body":
                extra = value
            elif key in _NOT_BODY:
                raise ValueError(
                    f"'{key}' is not sent by this client; put extra fields in 'extra_body'"
                )
            else:
                body[key] = value
        if json_output is True:
            body["response_format"] = {"type": "json_object"}
        elif json_output is False:
            body["response_format"] = {"type": "text"}
        elif json_output is not None:
            body["response_format"] = response_format_for(json_output)
        body.update(extra)
        return body

    def result(self, reply: Mapping[str, Any]) -> CreateResult:
        """An answer's ``CreateResult``, read as AutoGen's client reads the SDK's model."""
        choice = reply["choices"][0]
        message = choice.get("message") or {}
        usage_of = reply.get("usage") or {}
        usage = RequestUsage(
            prompt_tokens=usage_of.get("prompt_tokens") or 0,
            completion_tokens=usage_of.get("completion_tokens") or 0,
        )
        thought: str | None = None
        content: str | list[FunctionCall]
        if message.get("function_call") is not None:
            raise ValueError(
                "the endpoint answered with a 'function_call', which is deprecated and not "
                "supported; ask for tools instead"
            )
        calls = message.get("tool_calls")
        if calls:
            if message.get("content"):
                thought = message["content"]
            content = [_function_call(call) for call in calls]
            finish_reason: str | None = "tool_calls"
        else:
            finish_reason = choice.get("finish_reason")
            content = message.get("content") or ""
            reasoning = message.get("reasoning_content")
            if reasoning is not None:
                thought = reasoning
        if (
            isinstance(content, str)
            and self.info.get("family") == ModelFamily.R1
            and thought is None
        ):
            thought, content = parse_r1_content(content)
        return CreateResult(
            finish_reason=normalize_stop_reason(finish_reason),
            content=content,
            usage=usage,
            cached=False,
            logprobs=_logprobs(choice.get("logprobs")),
            thought=thought,
        )

    def _request(self) -> Any:
        # the request the SDK's errors carry (without the authorisation header)
        return httpx.Request("POST", self.pool.url(COMPLETIONS_PATH))

    def _status_error(
        self, status: int, headers: Mapping[str, str], content: bytes
    ) -> openai.APIStatusError:
        """The SDK's error for an error status: its class, message and body."""
        message = f"Error code: {status}"
        text = content.decode("utf-8", "replace").strip()
        body: Any = text
        try:
            body = json.loads(text)
        except ValueError:
            pass
        else:
            error = body.get("error", body) if isinstance(body, Mapping) else None
            said = error.get("message") if isinstance(error, Mapping) else None
            if isinstance(said, str) and said:
                message += f" - {said}"
        data = body.get("error", body) if isinstance(body, Mapping) else body
        response = httpx.Response(
            status, headers=dict(headers), content=content, request=self._request()
        )
        cls = _STATUS_ERRORS.get(status)
        if cls is None:
            cls = openai.InternalServerError if status >= 500 else openai.APIStatusError
        return cls(message, response=cast(Any, response), body=data)


def _merged_system_messages(messages: Sequence[LLMMessage]) -> Sequence[LLMMessage]:
    """Consecutive system messages as one (joined by newlines), where AutoGen's client merges
    them for models that read only one; system messages apart from each other are refused."""
    merged: list[LLMMessage] = []
    first = last = -1
    text = ""
    for index, message in enumerate(messages):
        if isinstance(message, SystemMessage):
            if first == -1:
                first = index
            elif last + 1 != index:
                raise ValueError(
                    "system messages apart from each other need a model whose model_info "
                    "sets multiple_system_messages: true"
                )
            text += message.content + "\n"
            last = index
        else:
            merged.append(message)
    text = text.rstrip()
    if text:
        merged.insert(first, SystemMessage(content=text))
    return merged


def _function_call(call: Mapping[str, Any]) -> FunctionCall:
    function = call.get("function") or {}
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        warnings.warn(
            f"the endpoint sent tool call arguments that are not a string ({arguments!r}); "
            "they are sent on as JSON",
            stacklevel=3,
        )
        arguments = json.dumps(arguments)
    return FunctionCall(
        id=str(call.get("id")), arguments=arguments, name=normalize_name(function["name"])
    )


def _logprobs(logprobs: Any) -> list[ChatCompletionTokenLogprob] | None:
    content = logprobs.get("content") if isinstance(logprobs, Mapping) else None
    if not content:
        return None
    return [
        ChatCompletionTokenLogprob(
            token=x["token"],
            logprob=x["logprob"],
            top_logprobs=[
                TopLogprob(logprob=y["logprob"], bytes=y.get("bytes"))
                for y in x.get("top_logprobs") or []
            ],
            bytes=x.get("bytes"),
        )
        for x in content
    ]
