"""Structured output through the model layer on the embedded model."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field

from cogarch.models import Meter, Providers, system, user
from cogarch.models.structured import structured

pytestmark = pytest.mark.e2e


class Guess(BaseModel):
    model_config = ConfigDict(extra="forbid")

    letter: str = Field(min_length=1, max_length=1)
    confident: bool


async def test_a_json_schema_request_returns_schema_valid_json() -> None:
    model = Providers().get("local")
    meter = Meter()
    with meter.active():
        result = await structured(
            model,
            [
                system("You answer with JSON only."),
                user("Pick one lowercase letter for a Hangman guess and say if you are confident."),
            ],
            Guess,
            caller="e2e",
            seed=7,
            max_tokens=64,
        )
    assert isinstance(result.value, Guess)
    assert meter.model_calls >= 1
    await model.aclose()
