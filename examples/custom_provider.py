"""A model provider of your own, written outside the framework: plain Python functions answer.

A provider kind is a class: its ``Params`` model (a ``ProviderSettings`` with the fields the
kind needs) validates the run config's entry, and ``client`` gives the chat client the
framework's ``Model`` sends each call to. Here the client is a plain Python function that
reads the conversation (``[{"role": ..., "content": ...}, ...]``) and returns the reply, so
the run needs no model server. The framework's ``Model`` still meters, caches, retries and
traces every call. Nothing in the framework is edited for it. From the repository root:

    cogarch run examples/custom_provider.yaml
    cogarch report runs/custom_provider
    cogarch view runs/custom_provider --export runs/custom_provider/site

The run config names the class by the file's path, relative to the config file:

    providers:
      halving: {kind: custom_provider.py:FunctionProvider, function: halving}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import ClassVar

from autogen_core.models import ChatCompletionClient
from pydantic import Field, field_validator

from cogarch.models import Provider, ProviderSettings, pairs_model

Messages = list[dict[str, str]]
_RANGE = re.compile(r"from (-?\d+) to (-?\d+)")
_NUMBER = re.compile(r"-?\d+")


def _narrowed(messages: Messages) -> tuple[int, int]:
    """The range the conversation leaves open: the opener's, cut by each "Higher."/"Lower."."""
    low, high = 1, 100
    said: int | None = None
    for message in messages:
        text = message["content"]
        if message["role"] == "assistant":
            found = _NUMBER.search(text)
            said = int(found.group()) if found else None
        elif message["role"] == "user":
            if (opener := _RANGE.search(text)) is not None:
                low, high = int(opener.group(1)), int(opener.group(2))
            elif said is not None and text.startswith("Higher"):
                low = max(low, said + 1)
            elif said is not None and text.startswith("Lower"):
                high = min(high, said - 1)
    return low, high


def halving(messages: Messages) -> str:
    """Guesses the middle of the range still open: it finds any number within log2(range)+1."""
    low, high = _narrowed(messages)
    return f"I guess {(low + high) // 2}."


def counting(messages: Messages) -> str:
    """Counts up from the bottom of the range, one number a turn, whatever it is told."""
    low, _ = _narrowed(messages[:2])
    guesses = sum(m["role"] == "assistant" for m in messages)
    return str(low + guesses)


FUNCTIONS: dict[str, Callable[[Messages], str]] = {"halving": halving, "counting": counting}
"""The functions a ``FunctionProvider`` may answer with, by the name its config gives."""


class FunctionConfig(ProviderSettings):
    """A ``FunctionProvider``'s entry in a run config: which function answers, and the fields
    every provider has (temperature, max_tokens, retry...)."""

    function: str = Field(description=f"The function that answers: {', '.join(FUNCTIONS)}.")
    signature: str = Field(default="", description="Text put after every reply.")

    @field_validator("function")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in FUNCTIONS:
            raise ValueError(f"unknown function '{value}'; choose one of {', '.join(FUNCTIONS)}")
        return value


class FunctionProvider(Provider):
    """A provider whose answers come from a plain Python function, in this process."""

    Params: ClassVar[type[ProviderSettings]] = FunctionConfig
    offline = True  # no request leaves the process
    config: FunctionConfig

    @property
    def served(self) -> str:
        return f"function:{self.config.function}"

    @property
    def where(self) -> str:
        return "a Python function"

    def client(self, replica: int) -> ChatCompletionClient:
        function = FUNCTIONS[self.config.function]
        signature = self.config.signature

        def reply(pairs: Sequence[tuple[str, str]], seed: int, call: object) -> str:
            messages = [{"role": role, "content": text} for role, text in pairs]
            return function(messages) + signature

        return pairs_model(reply)
