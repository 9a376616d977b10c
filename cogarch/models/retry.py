"""Which failures are worth another attempt, and how long to wait before it."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import openai
from pydantic import BaseModel, ConfigDict, Field, StrictInt

MAX_DELAY_S = 600.0
"""Upper bound of every backoff delay setting, in seconds (ten minutes)."""


class RetryPolicy(BaseModel):
    """Exponential backoff: ``base_delay_s * 2**attempt``, capped, with full jitter.

    Delays are finite seconds in ``[0, MAX_DELAY_S]``; unknown keys are refused.
    """

    model_config = ConfigDict(extra="forbid")

    max_attempts: StrictInt = Field(
        default=4, ge=1, le=20, description="Attempts in all, the first included."
    )
    base_delay_s: float = Field(
        default=0.5,
        ge=0,
        le=MAX_DELAY_S,
        allow_inf_nan=False,
        description="Delay before the first retry, doubled each time.",
    )
    max_delay_s: float = Field(
        default=20.0,
        ge=0,
        le=MAX_DELAY_S,
        allow_inf_nan=False,
        description="Longest delay between attempts.",
    )

    def delay(self, attempt: int, rng: random.Random) -> float:
        return rng.uniform(0, min(self.max_delay_s, self.base_delay_s * 2**attempt))


def is_transient(exc: BaseException) -> bool:
    """Rate limits, timeouts, dropped connections, unreadable bodies and 5xx are transient."""
    if isinstance(exc, openai.RateLimitError | openai.APITimeoutError | openai.APIConnectionError):
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in (408, 429) or exc.status_code >= 500
    return isinstance(
        exc,
        asyncio.TimeoutError
        | TimeoutError
        | httpx.TransportError
        | ConnectionError
        | json.JSONDecodeError,
    )
