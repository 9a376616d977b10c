"""The memory-updater answer of the scripted fake hosts and patients, in whichever tool set the
updater's prompt allows, so fakes exercise every memory strategy."""

from __future__ import annotations

import json
from collections.abc import Sequence

UPDATER_MARKER = "You are a memory updater"


def allowed_strategy(messages: Sequence[tuple[str, str]]) -> str:
    """The strategy whose tools the updater prompt lists (``overwrite`` when unclear)."""
    system = "\n".join(text for role, text in messages if role == "system")
    guide = system.rsplit("Allowed tools:", 1)[-1]
    if "append_in_memory" in guide:
        return "append_delete"
    if "patch_memory" in guide:
        return "patch_replace"
    return "overwrite"


def memory_tool_call(
    messages: Sequence[tuple[str, str]], *, goal: str, fact: str, note: str = ""
) -> str:
    """One tool-call JSON that records ``fact`` (e.g. the secret) in Facts and Knowledge."""
    strategy = allowed_strategy(messages)
    if strategy == "append_delete":
        call = {
            "name": "append_in_memory",
            "arguments": {"section_title": "Facts and Knowledge", "lines": [fact]},
        }
    elif strategy == "patch_replace":
        patch = (
            "*** Begin Patch\n*** Update Memory\n@@ section: Facts and Knowledge\n"
            f"+ {fact}\n*** End Patch"
        )
        call = {"name": "patch_memory", "arguments": {"patch": patch, "explanation": "record"}}
    else:
        memory = (
            f"## 1. Goals and Plans\n{goal}\n\n## 2. Facts and Knowledge\n{fact}\n\n"
            f"## 3. Active Notes\n{note}"
        )
        call = {"name": "overwrite_memory", "arguments": {"new_memory": memory}}
    return json.dumps(call)
