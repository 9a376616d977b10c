"""The tool guide shown to the model: one entry per memory tool with an example call."""

from __future__ import annotations

import json


def _example(name: str, **arguments: object) -> str:
    return "  " + json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


GUIDES: dict[str, str] = {
    "overwrite_memory": (
        "- overwrite_memory(new_memory: str): replace the whole memory. Write the complete "
        "memory and keep the three headers.\n"
        + _example(
            "overwrite_memory",
            new_memory="## 1. Goals and Plans\n- Ship v1 by Sept 15\n\n"
            "## 2. Facts and Knowledge\n- Release owner: Dana\n\n"
            "## 3. Active Notes\n- Hypothesis: caching is the bottleneck\n",
        )
    ),
    "append_in_memory": (
        "- append_in_memory(section_title: str, lines: list[str]): add lines at the end of a "
        "section.\n"
        + _example(
            "append_in_memory",
            section_title="Active Notes",
            lines=["- Evidence: slow cache reads"],
        )
    ),
    "delete_from_memory": (
        "- delete_from_memory(section_title: str, lines: list[str]): delete lines of a section."
        " List markers, case and spacing are ignored; a target of 8+ characters deletes every "
        "line containing it, a shorter one only an equal line.\n"
        + _example(
            "delete_from_memory",
            section_title="Active Notes",
            lines=["Evidence: slow cache reads"],
        )
    ),
    "patch_memory": (
        "- patch_memory(patch: str, explanation: str, expected_hunks?: int, "
        "expected_changes?: int, options?: {strict_context, normalize_whitespace, "
        "case_sensitive}): edit lines by context. Each hunk starts with '@@ section: <Title>'; "
        "'-' deletes a line, '+' inserts one, other lines are unchanged context that must "
        "match the memory. After the sign write the line as it is, list marker included "
        "('- - old item', '+ - new item'). Re-applying a patch changes nothing.\n"
        + _example(
            "patch_memory",
            patch="*** Begin Patch\n*** Update Memory\n@@ section: Active Notes\n"
            "- - Hypothesis: caching is the bottleneck\n"
            "+ - Hypothesis (confirmed): caching is the bottleneck\n*** End Patch",
            explanation="Mark the hypothesis as confirmed",
        )
    ),
    "replace_in_memory": (
        "- replace_in_memory(old_string: str, new_string: str, explanation: str, "
        "section_title?: str, expected_replacements?: int = 1, pre_context?: str, "
        "post_context?: str, options?: {...}): replace an exact text span; add "
        "pre_context/post_context (text right before/after it) when it occurs more than once.\n"
        + _example(
            "replace_in_memory",
            section_title="Facts and Knowledge",
            old_string="Release owner: Dana",
            new_string="Release owner: Dana (backup: Lee)",
            explanation="Add the backup owner",
        )
    ),
}
"""Per tool: its signature, what it does, and one example call (task-neutral on purpose:
small models copy example content into their memory)."""
