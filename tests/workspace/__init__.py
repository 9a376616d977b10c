"""Fake models shared by the workspace tests.

``Brain`` plays every model role of the ready-made agents at once, recognising each role by
its system prompt: the responder answers, the memory updater returns valid tool-call JSON for
the strategy named in its prompt, the Autonomous responder calls a memory tool once and then
answers, the planner writes a plan and the router returns routing JSON. Every call is kept
with its role, so tests can look at exactly what each role was shown.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from autogen_core.models import LLMMessage, SystemMessage

from cogarch.models import CallInfo, FakeReply, FunctionModel, Model, Providers, as_pairs
from cogarch.workspace import Agent, build_agent, load_agent_spec

SECRET = "zebra"
"""Every fake reply hides this word in a ``<secret>`` block; it must never reach the user."""

ROLE_PREFIXES = (
    ("router", "You are the conscious router"),
    ("updater", "You are a memory updater"),
    ("planner", "You plan privately"),
    (
        "autonomous",
        "You are a helpful assistant. You have access to a private working memory "
        "that you can read and modify",
    ),
)


def role_of(messages: Sequence[LLMMessage]) -> str:
    first = messages[0]
    text = first.content if isinstance(first, SystemMessage) else ""
    for role, prefix in ROLE_PREFIXES:
        if text.startswith(prefix):
            return role
    return "responder"


def working_memory_in(prompt: str) -> str:
    match = re.search(r"<working_memory> (.*?) </working_memory>", prompt, re.DOTALL)
    assert match is not None, "the prompt shows no working memory"
    return match.group(1)


def strategy_in(prompt: str) -> str:
    guide = prompt.rsplit("Allowed tools:", 1)[-1]
    if "overwrite_memory(" in guide:
        return "overwrite"
    if "append_in_memory(" in guide:
        return "append_delete"
    assert "patch_memory(" in guide, "the prompt lists no memory tools"
    return "patch_replace"


def memory_edit(strategy: str, memory: str, note: str) -> tuple[str, dict[str, Any]]:
    """A valid call of the strategy's tools that adds ``note`` to the Active Notes."""
    if strategy == "overwrite":
        return "overwrite_memory", {"new_memory": memory.rstrip("\n") + f"\n- {note}\n"}
    if strategy == "append_delete":
        return "append_in_memory", {"section_title": "Active Notes", "lines": [f"- {note}"]}
    patch = (
        f"*** Begin Patch\n*** Update Memory\n@@ section: Active Notes\n+ - {note}\n*** End Patch"
    )
    return "patch_memory", {"patch": patch, "explanation": "record the turn"}


def call_json(name: str, arguments: dict[str, Any]) -> str:
    return json.dumps({"name": name, "arguments": arguments})


@dataclass
class Brain:
    """A ``FunctionModel`` function playing every role; see the module docstring."""

    route: Sequence[str] = ("focus", "planner", "responder")
    """The router's answers within one turn, in order (the last one repeats)."""
    think_tags: bool = False
    """Put the responder's reasoning in ``<think>`` tags in the content, not the thought field."""
    reply: Callable[[int, str], str] | None = None
    calls: list[tuple[str, list[LLMMessage]]] = field(default_factory=list)
    _turn_routes: Counter[str] = field(default_factory=Counter)
    _replies: int = 0
    _notes: int = 0

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str | FakeReply:
        role = role_of(messages)
        self.calls.append((role, list(messages)))
        pairs = as_pairs(messages)
        if role == "router":
            current = pairs[-1][1].split("\n\n")[0]
            step = self._turn_routes[current]
            self._turn_routes[current] += 1
            return json.dumps({"next": self.route[min(step, len(self.route) - 1)]})
        if role == "planner":
            return "Plan: answer briefly."
        if role == "updater":
            return call_json(*self._edit(pairs[0][1]))
        if role == "autonomous":
            return self._autonomous(pairs, info)
        return self._answer(pairs[-1][1])

    def of(self, role: str) -> list[list[LLMMessage]]:
        """The message lists of every call made in ``role``, in order."""
        return [messages for r, messages in self.calls if r == role]

    def _edit(self, prompt: str) -> tuple[str, dict[str, Any]]:
        self._notes += 1
        return memory_edit(strategy_in(prompt), working_memory_in(prompt), f"note {self._notes}")

    def _autonomous(self, pairs: list[tuple[str, str]], info: CallInfo) -> str | FakeReply:
        """One memory edit (native or JSON, as the call allows), then the answer."""
        last_role, last_text = pairs[-1]
        if last_role == "tool" or last_text.startswith("Tool results:"):  # the edit is done
            return self._answer(_current_input(pairs))
        prompt = pairs[0][1]
        strategy = _strategy_of(info.tools) if info.tools else strategy_in(prompt)
        self._notes += 1
        name, arguments = memory_edit(strategy, working_memory_in(prompt), f"note {self._notes}")
        if info.tools:
            return FakeReply(tool_calls=((name, arguments),))
        return call_json(name, arguments)

    def _answer(self, current: str) -> FakeReply:
        self._replies += 1
        n = self._replies
        text = self.reply(n, current) if self.reply else f"answer {n} <secret>{SECRET}</secret>"
        thought = f"thinking {n}"
        if self.think_tags:
            return FakeReply(content=f"<think>{thought}</think>{text}")
        return FakeReply(content=text, thought=thought)


def _strategy_of(tools: Sequence[str]) -> str:
    for strategy, tool in (
        ("overwrite", "overwrite_memory"),
        ("append_delete", "append_in_memory"),
        ("patch_replace", "patch_memory"),
    ):
        if tool in tools:
            return strategy
    raise AssertionError(f"no memory tool among {tools}")


def _current_input(pairs: list[tuple[str, str]]) -> str:
    """The last user message that is not a tool result."""
    for role, text in reversed(pairs):
        if role == "user" and not text.startswith(("Tool results:", "Your tool call")):
            return text
    raise AssertionError("no user message")


def providers(
    fn: Callable[[Sequence[LLMMessage], CallInfo], Any],
) -> tuple[Providers, FunctionModel]:
    """Providers with one fake model, registered as ``fake``."""
    client = FunctionModel(fn)
    found = Providers()
    found.register("fake", Model(client, provider="fake", model="fake", fake=True))
    return found, client


def make_agent(name: str, brain: Any, **params: Any) -> Agent:
    """A ready-made agent on the ``fake`` provider."""
    found, _ = providers(brain)
    return build_agent(load_agent_spec(name, params or None), found.get, provider="fake")
