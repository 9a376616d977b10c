"""Agent Framework's chat-client interface over a cogarch model.

An Agent Framework agent asks its chat client for each reply; :class:`CogarchChatClient`
answers through a cogarch :class:`~cogarch.core.model.ChatModel`, so the agent's calls get
cogarch's metering, response cache, retries and seeds, and a scripted fake (a Hangman host,
say) can play the model: :func:`scripted_chat_client` wraps any ``(pairs, seed, call) ->
reply`` function, :func:`fake_chat_client` one of the package's fakes by the name a ``kind:
fake`` provider gives it (``hangman.honest``).

The client passes on text only: the agent's instructions (as one system message, the way
Agent Framework's own clients place them), then every message's text by role. Tool results
are shown as user text; the model's tool calls are not passed back (cogarch's models answer
in text).
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from typing import Any

from agent_framework import (
    BaseChatClient,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    FunctionInvocationLayer,
    Message,
    ResponseStream,
    prepend_instructions_to_messages,
)
from autogen_core.models import LLMMessage

from cogarch.core.model import ChatModel
from cogarch.models.fakes import PairsFn, pairs_model
from cogarch.models.messages import as_pairs, assistant, system, user
from cogarch.models.model import Model
from cogarch.models.providers import FakeTable
from cogarch.tasks.fakes import task_fakes
from cogarch.workspace.fakes import agent_fakes

SCRIPTED_PROVIDER = "scripted"
"""The provider name of the model behind a scripted chat client (what usage is metered
under)."""


def to_llm_messages(messages: Sequence[Message], instructions: Any = None) -> list[LLMMessage]:
    """Agent Framework messages (after the agent's ``instructions``) as cogarch's model
    messages; messages without text are left out."""
    shown = prepend_instructions_to_messages(list(messages), instructions)
    out: list[LLMMessage] = []
    for message in shown:
        text = message.text
        if not text:
            continue
        role = str(message.role)
        if role == "system":
            out.append(system(text))
        elif role == "assistant":
            out.append(assistant(text))
        else:  # user, tool results: the model reads them as what it was told
            out.append(user(text))
    return out


class CogarchChatClient(FunctionInvocationLayer[Any], BaseChatClient[Any]):
    """A chat client whose replies come from a cogarch model.

    ``seed`` is sent with every call that does not set its own (``options={"seed": ...}``),
    so a trial's calls are seeded as cogarch seeds its own agents' (and a seeded fake keeps
    its secret across them); ``caller`` is what the calls are metered under.

    Args:
        model: The cogarch model that answers.
        seed: The seed of every call that sets none (None: unseeded).
        caller: What the calls are metered under.
        **kwargs: Passed on to Agent Framework's ``BaseChatClient``.
    """

    OTEL_PROVIDER_NAME = "cogarch"

    def __init__(
        self,
        model: ChatModel,
        *,
        seed: int | None = None,
        caller: str = "agent",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.model = model
        self.seed = seed
        self.caller = caller
        self.calls: list[list[tuple[str, str]]] = []
        """Every call's messages as ``(role, text)`` pairs, oldest first (what the model saw)."""

    def _inner_get_response(
        self,
        *,
        messages: Sequence[Message],
        stream: bool,
        options: Mapping[str, Any],
        **kwargs: Any,
    ) -> Awaitable[ChatResponse] | ResponseStream[ChatResponseUpdate, ChatResponse]:
        if stream:

            async def updates() -> Any:
                response = await self._answer(messages, options)
                yield ChatResponseUpdate(
                    role="assistant", contents=[Content.from_text(response.text)]
                )

            return ResponseStream(updates(), finalizer=ChatResponse.from_updates)
        return self._answer(messages, options)

    async def _answer(
        self, messages: Sequence[Message], options: Mapping[str, Any]
    ) -> ChatResponse:
        prompt = to_llm_messages(messages, options.get("instructions"))
        self.calls.append(as_pairs(prompt))
        seed = options.get("seed", self.seed)
        completion = await self.model.complete(
            prompt,
            caller=self.caller,
            seed=seed,
            temperature=options.get("temperature"),
            max_tokens=options.get("max_tokens"),
        )
        return ChatResponse(
            messages=[Message(role="assistant", contents=[completion.content])],
            model=self.model.model,
            finish_reason="stop",
        )


def scripted_chat_client(
    fn: PairsFn, *, seed: int | None = 0, caller: str = "agent"
) -> CogarchChatClient:
    """A chat client played by a scripted fake.

    Args:
        fn: The fake, ``fn(pairs, seed, call) -> reply`` (see :func:`cogarch.models.pairs_model`).
        seed: The seed of its calls.
        caller: The caller its calls are metered under.

    Returns:
        The Agent Framework chat client.
    """
    model = Model(pairs_model(fn), provider=SCRIPTED_PROVIDER, model="scripted", fake=True)
    return CogarchChatClient(model, seed=seed, caller=caller)


def package_fakes() -> FakeTable:
    """The package's scripted fakes by short name (the tasks' and the agents' own)."""
    return agent_fakes(task_fakes())


def fake_chat_client(
    name: str, *, seed: int | None = 0, caller: str = "agent"
) -> CogarchChatClient:
    """A chat client played by one of the package's fakes.

    Args:
        name: The fake, named as a ``kind: fake`` provider names it (``hangman.honest``), or
            by import path (``my_fakes:host``).
        seed: The seed of its calls.
        caller: The caller its calls are metered under.

    Returns:
        The Agent Framework chat client.

    Raises:
        UnknownNameError: When ``name`` names no fake.
    """
    return scripted_chat_client(package_fakes().get(name), seed=seed, caller=caller)
