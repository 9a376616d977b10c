"""The memory-updater answer of the scripted fake hosts and patients, and the message they answer.

A fake knows it is asked by a memory updater from the call itself (``call.role``, which the
model layer fills with the asking specialist's kind), never from the prompt's wording. It
answers in the tool set the call allows (the tool names of the response format or the native
tools), so fakes exercise every memory strategy.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypeGuard

from cogarch.models.fakes import CallInfo

MEMORY_UPDATER = "memory_updater"
"""The specialist kind of the memory updater, as it arrives in ``CallInfo.role``."""

_STRATEGY_TOOLS = (("append_delete", "append_in_memory"), ("patch_replace", "patch_memory"))


def last_user(messages: Sequence[tuple[str, str]]) -> str:
    """The last user message of a fake's dialogue ("" when there is none)."""
    return next((text for role, text in reversed(messages) if role == "user"), "")


def is_memory_update(call: CallInfo | None) -> TypeGuard[CallInfo]:
    return call is not None and call.role == MEMORY_UPDATER


def allowed_strategy(call: CallInfo, messages: Sequence[tuple[str, str]] = ()) -> str:
    """The strategy whose tools the call allows (``overwrite`` when unclear).

    The tool names come from the call's response format or native tools; an unconstrained
    updater (neither) is read by the tool names its system prompt lists.
    """
    names: Sequence[str] = (*call.tools, *call.schema_names())
    if not names:
        names = [tool for _, tool in _STRATEGY_TOOLS if _listed(tool, messages)]
    for strategy, tool in _STRATEGY_TOOLS:
        if tool in names:
            return strategy
    return "overwrite"


def _listed(tool: str, messages: Sequence[tuple[str, str]]) -> bool:
    return any(role == "system" and f"{tool}(" in text for role, text in messages)


def memory_tool_call(
    call: CallInfo,
    messages: Sequence[tuple[str, str]],
    *,
    goal: str,
    fact: str,
    note: str = "",
) -> str:
    """One tool-call JSON that records ``fact`` (e.g. the secret) in Facts and Knowledge."""
    strategy = allowed_strategy(call, messages)
    if strategy == "append_delete":
        payload = {
            "name": "append_in_memory",
            "arguments": {"section_title": "Facts and Knowledge", "lines": [fact]},
        }
    elif strategy == "patch_replace":
        patch = (
            "*** Begin Patch\n*** Update Memory\n@@ section: Facts and Knowledge\n"
            f"+ {fact}\n*** End Patch"
        )
        payload = {"name": "patch_memory", "arguments": {"patch": patch, "explanation": "record"}}
    else:
        memory = (
            f"## 1. Goals and Plans\n{goal}\n\n## 2. Facts and Knowledge\n{fact}\n\n"
            f"## 3. Active Notes\n{note}"
        )
        payload = {"name": "overwrite_memory", "arguments": {"new_memory": memory}}
    return json.dumps(payload)
