"""One structured model call of a memory module (:func:`ask_model`, public in
:mod:`cogarch.memory`): its prompt and request, answered by a provider's model, metered under
the context's caller with the context's seed; and the other shapes a model gives a list answer
in, read as the one its schema asks for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from autogen_core.models import LLMMessage
from pydantic import BaseModel

from cogarch.core.memory import MemoryContext
from cogarch.models.messages import system, user
from cogarch.models.structured import Structured, structured

T = TypeVar("T", bound=BaseModel)


async def ask_model(
    ctx: MemoryContext,
    provider: str,
    prompt: str,
    request: str,
    output: type[T],
    *,
    attempts: int = 3,
    max_tokens: int | None = None,
) -> Structured[T]:
    """Ask ``provider``'s model for a validated ``output``, as a memory module's own call.

    The call is metered, traced and cached under ``ctx.caller`` (``memory:<kind>`` when the
    agent or a specialist drives the module), with the trial's seed, so a fake provider can
    script it by caller (``callers: {"memory:<kind>": ...}``). An answer that does not
    validate is shown to the model with the error and asked again.

    Args:
        ctx: The context the module was handed (``ingest``, ``retrieve``...).
        provider: The provider to ask, usually ``params.provider_or(lent, missing=...)`` of
            :class:`ModelCallParams`.
        prompt: The system message.
        request: The user message.
        output: The pydantic model the answer must validate as (its JSON schema is sent as
            the response format).
        attempts: How many answers to ask for at most before giving up.
        max_tokens: The longest answer, in tokens (None: the provider's default).

    Returns:
        The validated answer (``.value``), every completion it took (``.completions``, with
        their token counts) and whether a repair was needed (``.repaired``).

    Raises:
        ModelCallError: When no attempt gave a valid answer, or the model could not be
            reached.
        UnknownNameError: When ``provider`` names no provider of the run.
    """
    messages: list[LLMMessage] = [system(prompt), user(request)]
    return await structured(
        ctx.model(provider),
        messages,
        output,
        caller=ctx.caller,
        seed=ctx.seed,
        attempts=attempts,
        max_tokens=max_tokens,
    )


def listed(data: Any, key: str, item: Callable[[Any], Any], *, single: str | None = None) -> Any:
    """``data`` as ``{key: [...]}`` when a model gave it as a bare list or (when an item has
    the key ``single``) as one item alone, each item passed through ``item``; anything else
    as it is, for the schema to judge."""
    if isinstance(data, list):
        data = {key: data}
    elif single is not None and isinstance(data, dict) and single in data and key not in data:
        data = {key: [data]}
    if isinstance(data, dict) and isinstance(data.get(key), list):
        data = {**data, key: [item(i) for i in data[key]]}
    return data
