"""Inspect's model as a cogarch provider: each call of cogarch's ``Model`` is one generate of
Inspect's model (messages, tools, response schema, temperature, token limit and seed carried
over), the answer comes back with its tool calls, reasoning and usage, and cogarch's
metering and response cache apply. Played by Inspect's offline mock model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autogen_core.tools import ToolSchema
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ContentReasoning,
    ContentText,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from pydantic import BaseModel

from cogarch.bridges.inspect.model import inspect_model
from cogarch.models.cache import ResponseCache
from cogarch.models.messages import system, user
from cogarch.models.metering import Meter

from .conftest import INSPECT_WARNINGS

pytestmark = INSPECT_WARNINGS

TOOL: ToolSchema = {
    "name": "remember",
    "description": "Keep a note.",
    "parameters": {"type": "object", "properties": {"note": {"type": "string"}}, "required": []},
}


class Answer(BaseModel):
    word: str


class Recorder:
    """Plays Inspect's model: answers from a list, and keeps what each generate was given."""

    def __init__(self, *outputs: ModelOutput) -> None:
        self.outputs = list(outputs)
        self.seen: list[tuple[list[ChatMessage], list[ToolInfo], GenerateConfig]] = []

    def __call__(
        self, messages: list[ChatMessage], tools: list[ToolInfo], _: ToolChoice, config: Any
    ) -> ModelOutput:
        self.seen.append((messages, tools, config))
        return self.outputs[len(self.seen) - 1]


def mock(recorder: Recorder) -> Any:
    return get_model("mockllm/model", custom_outputs=recorder, memoize=False)


async def test_a_call_carries_over_and_is_metered_and_cached(tmp_path: Path) -> None:
    answer = ModelOutput.from_content("mockllm/model", '{"word": "crane"}')
    answer.usage = ModelUsage(input_tokens=11, output_tokens=4, input_tokens_cache_read=3)
    recorder = Recorder(answer)
    model = inspect_model(mock(recorder), provider="inspect", cache=ResponseCache(tmp_path))
    assert model.fake  # Inspect's mock model answers in-process
    meter = Meter()
    messages = [system("You host Hangman."), user("Is there an e?")]
    with meter.active():
        first, again = [
            await model.complete(
                messages,
                caller="responder",
                seed=7,
                response_schema=Answer,
                tools=[TOOL],
                temperature=0.5,
                max_tokens=50,
            )
            for _ in range(2)
        ]
    assert first.content == again.content == '{"word": "crane"}'
    assert len(recorder.seen) == 1  # the second, seeded the same, came from cogarch's cache
    sent, tools, config = recorder.seen[0]
    assert [m.role for m in sent] == ["system", "user"]
    assert sent[1].text == "Is there an e?"
    assert [t.name for t in tools] == ["remember"]
    assert list(tools[0].parameters.properties) == ["note"]
    assert (config.temperature, config.max_tokens, config.seed) == (0.5, 50, 7)
    assert config.response_schema is not None and config.response_schema.name == "Answer"
    assert (first.usage.prompt_tokens, first.usage.completion_tokens) == (11, 4)
    assert first.usage.cached_prompt_tokens == 3
    usage = meter.usage()
    assert (usage.model_calls, usage.cache_hits) == (2, 1)
    assert usage.by_caller["responder"]["calls"] == 2


async def test_tool_calls_and_reasoning_come_back() -> None:
    calling = ModelOutput.for_tool_call("mockllm/model", "remember", {"note": "secret: crane"})
    thinking = ModelOutput.from_message(
        ChatMessageAssistant(
            content=[ContentReasoning(reasoning="I chose crane."), ContentText(text="Yes.")]
        )
    )
    recorder = Recorder(calling, thinking)
    model = inspect_model(mock(recorder), provider="inspect", cache=None)
    called = await model.complete([user("Pick a word.")], caller="responder", tools=[TOOL])
    assert [(c.name, c.arguments) for c in called.tool_calls] == [
        ("remember", {"note": "secret: crane"})
    ]
    said = await model.complete([user("Is there an r?")], caller="responder")
    assert (said.content, said.thought) == ("Yes.", "I chose crane.")


async def test_no_tokenizer_is_needed_for_the_mock_models_usage() -> None:
    """The mock model counts the prompt itself when its answer has no usage; with the bridge
    it counts with cogarch's offline estimate (tiktoken's would download an encoding)."""
    recorder = Recorder(ModelOutput.from_content("mockllm/model", "Yes."))
    model = inspect_model(mock(recorder), provider="inspect", cache=None)
    said = await model.complete([user("Is there an a in the word?")], caller="responder")
    assert said.content == "Yes." and said.usage.prompt_tokens > 0
