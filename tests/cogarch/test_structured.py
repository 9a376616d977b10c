"""Structured output: extract and repair JSON, validate with pydantic, retry with the error."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from pydantic import BaseModel, Field

from cogarch.errors import ModelCallError
from cogarch.models import Model, ScriptedModel, user
from cogarch.models.structured import extract_json, structured
from cogarch.testing import Step, allowing_model_requests
from tests.cogarch import LiveModels


class Update(BaseModel):
    secret: str = Field(min_length=1)
    guesses: list[str]


ASK = [user("Update your memory as JSON.")]


@pytest.fixture
async def live(_no_real_models: None) -> AsyncIterator[LiveModels]:
    """Real clients against local fault servers; requests allowed for these tests only."""
    with allowing_model_requests():
        async with LiveModels() as models:
            yield models


def scripted(*replies: str) -> tuple[Model, ScriptedModel]:
    client = ScriptedModel(list(replies))
    return Model(client, provider="script", model="scripted", fake=True), client


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('Here you go:\n```\n{"a": [1, 2]}\n```\nAnything else?', {"a": [1, 2]}),
        ('Sure! The update is {"a": {"b": "c"}} as requested.', {"a": {"b": "c"}}),
        ('{"a": 1, "b": [1, 2,],}', {"a": 1, "b": [1, 2]}),
        ("The list: [1, 2, 3,] done", [1, 2, 3]),
        ("  42  ", 42),
    ],
)
def test_extract_json_repairs_common_slips(text: str, expected: object) -> None:
    assert extract_json(text) == expected


@pytest.mark.parametrize("text", ["", "no json here", '{"a": ', "{'a': 1}"])
def test_extract_json_refuses_what_it_cannot_recover(text: str) -> None:
    with pytest.raises(ValueError, match="no JSON value"):
        extract_json(text)


async def test_a_valid_answer_validates_at_once() -> None:
    model, client = scripted('Here: ```json\n{"secret": "APPLE", "guesses": ["e",],}\n```')
    result = await structured(model, ASK, Update, caller="memory")
    assert result.value == Update(secret="APPLE", guesses=["e"])
    assert not result.repaired
    assert len(result.completions) == 1
    assert len(client.calls) == 1


async def test_an_invalid_answer_is_shown_to_the_model(live: LiveModels) -> None:
    bad = '{"secret": "", "guesses": "e"}'
    good = json.dumps({"secret": "APPLE", "guesses": ["e"]})
    server = live.serve([Step("ok", content=bad), Step("ok", content=good)])
    result = await structured(live.model(server), ASK, Update, caller="memory", seed=4)
    assert result.value.secret == "APPLE"
    assert result.repaired
    assert [c.content for c in result.completions] == [bad, good]
    first, second = server.bodies
    assert first["response_format"]["json_schema"]["name"] == "Update"
    assert second["response_format"] == first["response_format"]
    assert second["seed"] == 4
    retry_turns = second["messages"][len(first["messages"]) :]
    assert [m["role"] for m in retry_turns] == ["assistant", "user"]
    assert retry_turns[0]["content"] == bad
    feedback = retry_turns[1]["content"]
    assert feedback.startswith("That answer was not valid")
    assert "secret" in feedback and "guesses" in feedback  # the fields that failed


async def test_unparsable_text_is_retried_too() -> None:
    model, client = scripted("I cannot answer in JSON.", '{"secret": "PLANT", "guesses": []}')
    result = await structured(model, ASK, Update, caller="memory")
    assert result.value.secret == "PLANT"
    assert "no JSON value" in str(client.calls[1][-1].content)


async def test_all_attempts_invalid_raise_model_call_error(live: LiveModels) -> None:
    server = live.serve(["empty", Step("ok", content="nope"), Step("ok", content='{"x": 1}')])
    with pytest.raises(ModelCallError) as info:
        await structured(live.model(server, name="tiny"), ASK, Update, caller="memory")
    message = str(info.value)
    assert "provider 'tiny' gave no valid Update in 3 attempts" in message
    assert "secret" in message  # the last validation error
    assert server.hits == 3


async def test_attempts_is_respected() -> None:
    model, client = scripted("x", "y")
    with pytest.raises(ModelCallError, match="in 2 attempts"):
        await structured(model, ASK, Update, caller="memory", attempts=2)
    assert len(client.calls) == 2


async def test_call_failures_propagate_instead_of_counting_as_answers(live: LiveModels) -> None:
    good = '{"secret": "CRANE", "guesses": ["a"]}'
    server = live.serve(["429", "400", Step("ok", content=good)])
    model = live.model(server)
    with pytest.raises(ModelCallError, match="rejected the request"):
        await structured(model, ASK, Update, caller="memory")
    assert server.served == ["429", "400"]  # the 429 retried below, then a hard failure
    result = await structured(model, ASK, Update, caller="memory")
    assert result.value.secret == "CRANE"
    assert [c.usage.attempts for c in result.completions] == [1]
