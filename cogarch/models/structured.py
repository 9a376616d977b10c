"""Structured output: ask with a JSON schema, validate with pydantic, repair, then retry."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from autogen_core.models import LLMMessage
from pydantic import BaseModel, ValidationError

from cogarch.core.model import ChatModel, Completion
from cogarch.errors import ModelCallError
from cogarch.models.messages import assistant, user

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def extract_json(text: str) -> Any:
    """The JSON value in a model's text: fenced, bare, or embedded in prose.

    Repairs the common slips of small models (code fences, prose around the value, trailing
    commas). Raises ``ValueError`` when no JSON value can be recovered.
    """
    candidates = [m.strip() for m in _FENCE.findall(text)] + [text.strip()]
    for opener, closer in (("{", "}"), ("[", "]")):
        start, end = text.find(opener), text.rfind(closer)
        if 0 <= start < end:
            candidates.append(text[start : end + 1])
    for candidate in candidates:
        for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            try:
                return json.loads(attempt)
            except ValueError:
                continue
    raise ValueError("no JSON value found in the text")


@dataclass(frozen=True)
class Structured(Generic[T]):
    """A validated answer of a structured model call, with the completions it took."""

    value: T
    """The answer, validated as the output model asked for."""
    completions: tuple[Completion, ...]
    """Every completion the call took, the accepted one last (their token counts)."""
    repaired: bool
    """Whether an answer had to be asked again (or its JSON mended) before it validated."""


async def structured(
    model: ChatModel,
    messages: Sequence[LLMMessage],
    output_type: type[T],
    *,
    caller: str,
    seed: int | None = None,
    attempts: int = 3,
    max_tokens: int | None = None,
) -> Structured[T]:
    """Return a validated ``output_type`` instance.

    Each failed attempt is shown to the model with the validation error, so the next answer
    can fix it. Raises ``ModelCallError`` when every attempt fails.
    """
    history = list(messages)
    completions: list[Completion] = []
    error = ""
    for _ in range(attempts):
        completion = await model.complete(
            history, caller=caller, seed=seed, response_schema=output_type, max_tokens=max_tokens
        )
        completions.append(completion)
        try:
            value = output_type.model_validate(extract_json(completion.content))
        except (ValueError, ValidationError) as exc:
            error = str(exc)
            history += [
                assistant(completion.content),
                user(
                    f"That answer was not valid: {error[:800]}\n"
                    "Reply again with ONLY a JSON value that matches the schema."
                ),
            ]
            continue
        return Structured(value, tuple(completions), repaired=len(completions) > 1)
    raise ModelCallError(
        f"provider '{model.provider}' gave no valid {output_type.__name__} in {attempts} "
        f"attempts; last error: {error[:300]}"
    )
