"""Shared fakes for the memory tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from autogen_core.models import LLMMessage

from cogarch.core.memory import MemoryContext
from cogarch.models import CallInfo, FunctionModel, Model, as_pairs
from cogarch.workspace import build_agent, load_agent_spec


class FakeLLM:
    """Answers each structured call by its schema name; records every prompt it was shown."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers
        self.prompts: list[tuple[str, str]] = []

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        text = "\n".join(t for _, t in as_pairs(messages))
        schema = (info.response_format or {}).get("json_schema", {}).get("name", "reply")
        self.prompts.append((schema, text))
        answer = self.answers[schema]
        value = answer(text) if callable(answer) else answer
        return value if isinstance(value, str) else json.dumps(value)

    def of(self, schema: str) -> list[str]:
        return [text for name, text in self.prompts if name == schema]


def context(llm: FakeLLM, seed: int = 7) -> MemoryContext:
    """A memory context whose every provider is ``llm``."""
    model = Model(FunctionModel(llm), provider="fake", model="fake", fake=True)
    return MemoryContext(model=lambda name: model, seed=seed)


async def second_reply_prompt(llm: FakeLLM, agent: str, first: str, second: str) -> str:
    """What ready-made ``agent`` (hash embeddings, every model ``llm``) shows its responder
    when it replies to ``second``, after ``first``."""
    model = Model(FunctionModel(llm), provider="fake", model="fake", fake=True)
    built = build_agent(
        load_agent_spec(agent, {"embedder": "hash"}), lambda name: model, provider="fake"
    )
    await built.respond(first)
    await built.respond(second)
    return llm.of("reply")[1]
