"""One structured model call of a memory module: its prompt and request, answered by a provider's
model, metered under the context's caller with the context's seed; and the other shapes a
model gives a list answer in, read as the one its schema asks for."""

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
    attempts: int,
    max_tokens: int | None = None,
) -> Structured[T]:
    """``prompt`` as the system message and ``request`` as the user's, answered by
    ``provider``'s model as a validated ``output`` (repaired, retried up to ``attempts``
    times); ``ModelCallError`` when every attempt fails."""
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
