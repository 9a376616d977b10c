"""How models see the memory tools: JSON schemas, prompt guides, and call dispatch.

A model asks for an edit either through native function calling (the schemas from
:func:`tool_schemas`) or by writing JSON in its reply (read with
:func:`memory.working.tool_calls.parse_tool_calls`). Either way the call goes through
:func:`apply_tool_call`, which checks the tool name and the
arguments and runs the tool. Every mistake in a call raises :class:`MemoryToolError` with a
message for the model; the memory text passed in is never changed.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cogarch.errors import UnknownNameError

from .edit_meta import MemoryToolError, ToolResult
from .line_edits import append_in_memory, delete_from_memory
from .overwrite import overwrite_memory
from .patch import patch_memory
from .replace import replace_in_memory
from .tool_guide import GUIDES

STRATEGIES: dict[str, tuple[str, ...]] = {
    "overwrite": ("overwrite_memory",),
    "append_delete": ("append_in_memory", "delete_from_memory"),
    "patch_replace": ("patch_memory", "replace_in_memory"),
}
"""The paper's three update strategies and the tools each one allows."""

TOOL_ALIASES: dict[str, str] = {"deletes_from_memory": "delete_from_memory"}
"""Other names models use for a tool (the paper's appendix spells one of them so)."""

_TOOLS: dict[str, Callable[..., ToolResult]] = {
    "overwrite_memory": overwrite_memory,
    "append_in_memory": append_in_memory,
    "delete_from_memory": delete_from_memory,
    "patch_memory": patch_memory,
    "replace_in_memory": replace_in_memory,
}

_SECTION = (
    'Section title: "Goals and Plans", "Facts and Knowledge" or "Active Notes" '
    "(the number and '## ' may be left out)."
)


def _options(strict: bool, normalize: bool) -> dict[str, Any]:
    def flag(default: bool, text: str) -> dict[str, Any]:
        return {"type": "boolean", "default": default, "description": text}

    return {
        "type": "object",
        "description": "Matching options.",
        "properties": {
            "strict_context": flag(strict, "Require exact, unambiguous anchoring."),
            "normalize_whitespace": flag(normalize, "Collapse runs of spaces when matching."),
            "case_sensitive": flag(True, "Match letter case exactly."),
        },
        "additionalProperties": False,
    }


def _schema(
    name: str, description: str, properties: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    parameters = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return {"name": name, "description": description, "parameters": parameters}


_STRING = {"type": "string"}
_LINES = {"type": "array", "items": {"type": "string"}}

TOOL_SCHEMAS: dict[str, dict[str, Any]] = {
    "overwrite_memory": _schema(
        "overwrite_memory",
        "Overwrite the whole working memory with new content. Returns the new memory.",
        {"new_memory": {**_STRING, "description": "The complete new working memory text."}},
        ["new_memory"],
    ),
    "append_in_memory": _schema(
        "append_in_memory",
        "Append one or more lines at the end of a section of the working memory.",
        {
            "section_title": {**_STRING, "description": _SECTION},
            "lines": {**_LINES, "description": "Lines to append, one string per line."},
        },
        ["section_title", "lines"],
    ),
    "delete_from_memory": _schema(
        "delete_from_memory",
        "Delete lines from a section of the working memory. Matching ignores list markers, "
        "case and spacing; a target of 8+ characters removes every line containing it, a "
        "shorter one only a line equal to it.",
        {
            "section_title": {**_STRING, "description": _SECTION},
            "lines": {**_LINES, "description": "The lines to remove, as they appear."},
        },
        ["section_title", "lines"],
    ),
    "patch_memory": _schema(
        "patch_memory",
        "Apply a context-based patch (no line numbers). Each hunk starts with "
        "'@@ section: <Title>'; lines starting with '-' are deleted, lines starting with '+' "
        "are inserted, other lines are unchanged context (1-3 lines) that anchor the edit. "
        "Wrap the hunks in '*** Begin Patch' / '*** Update Memory' ... '*** End Patch'. "
        "Fails with a diagnostic if a section or target is missing or ambiguous; re-applying "
        "the same patch changes nothing.",
        {
            "patch": {**_STRING, "description": "The patch text."},
            "explanation": {**_STRING, "description": "One sentence: the intent of the change."},
            "expected_hunks": {
                "type": "integer",
                "minimum": 0,
                "description": "Number of hunks you intend; the call fails if it differs.",
            },
            "expected_changes": {
                "type": "integer",
                "minimum": 0,
                "description": "Number of '+' and '-' lines; the call fails if it differs.",
            },
            "options": _options(strict=False, normalize=True),
        },
        ["patch", "explanation"],
    ),
    "replace_in_memory": _schema(
        "replace_in_memory",
        "Replace an exact text span of the working memory. Scope it with section_title and "
        "add pre_context/post_context (text right before/after the target) to pin it down. "
        "Replaces exactly expected_replacements occurrences (default 1) and fails if the "
        "target is missing or matches a different number of places.",
        {
            "old_string": {**_STRING, "description": "Exact text to replace."},
            "new_string": {**_STRING, "description": "Exact replacement text."},
            "explanation": {**_STRING, "description": "One sentence: the intent of the change."},
            "section_title": {**_STRING, "description": "Optional. " + _SECTION},
            "expected_replacements": {
                "type": "integer",
                "minimum": 1,
                "default": 1,
                "description": "How many occurrences to replace.",
            },
            "pre_context": {**_STRING, "description": "Unchanged text right before the target."},
            "post_context": {**_STRING, "description": "Unchanged text right after the target."},
            "options": _options(strict=True, normalize=False),
        },
        ["old_string", "new_string", "explanation"],
    ),
}
"""OpenAI function schemas (name, description, parameters); ``current_memory`` is injected."""

_RUNTIME_OPTIONAL = {"explanation"}  # asked of the model, but a call without it still runs


def strategy_tools(strategy: str) -> tuple[str, ...]:
    """The tool names a strategy allows ("append/delete" and "append-delete" also work)."""
    key = re.sub(r"[\s/\-]+", "_", strategy.strip().lower()) if isinstance(strategy, str) else ""
    if key not in STRATEGIES:
        raise UnknownNameError(
            f"unknown memory update strategy {strategy!r}; valid strategies: "
            + ", ".join(STRATEGIES)
        )
    return STRATEGIES[key]


def tool_schemas(strategy: str) -> list[dict[str, Any]]:
    """The function schemas (name, description, parameters) of a strategy's tools."""
    return [copy.deepcopy(TOOL_SCHEMAS[name]) for name in strategy_tools(strategy)]


def tool_call_schema(strategy: str) -> dict[str, Any]:
    """A JSON schema allowing one call of any of a strategy's tools (for constrained decoding)."""
    options = [
        {
            "type": "object",
            "properties": {
                "name": {"type": "string", "enum": [schema["name"]]},
                "arguments": schema["parameters"],
            },
            "required": ["name", "arguments"],
        }
        for schema in tool_schemas(strategy)
    ]
    body: dict[str, Any] = options[0] if len(options) == 1 else {"anyOf": options}
    return {"title": "MemoryToolCall", **body}


def tool_guide(strategy: str) -> str:
    """A short description of the allowed tools with one example call each, for a prompt."""
    return "\n".join(GUIDES[name] for name in strategy_tools(strategy))


def canonical_tool_name(name: object, allowed: Sequence[str] | None = None) -> str:
    """The tool ``name`` refers to (aliases and a ``functions.`` prefix are accepted)."""
    if not isinstance(name, str):
        raise MemoryToolError(f"The tool name must be a string, got {name!r}.")
    key = _name_key(name)
    choices = [_name_key(a) for a in allowed] if allowed is not None else list(_TOOLS)
    if key not in _TOOLS or key not in choices:
        where = "is not available here" if key in _TOOLS else "is not a memory tool"
        raise MemoryToolError(
            f"Tool '{name}' {where}. Use one of: {', '.join(choices) or '(none)'}."
        )
    return key


def _name_key(name: str) -> str:
    key = name.strip().removeprefix("functions.").strip().lower()
    return TOOL_ALIASES.get(key, key)


def apply_tool_call(
    current_memory: str,
    name: str,
    arguments: Mapping[str, Any] | str,
    *,
    allowed: Sequence[str] | None = None,
) -> ToolResult:
    """Check a tool call and run it on ``current_memory``.

    ``arguments`` may be a mapping or its JSON text. ``allowed`` restricts the tools (for
    example ``STRATEGIES["append_delete"]``). Raises :class:`MemoryToolError` for an unknown
    or disallowed tool, missing, unknown or mistyped arguments, and any failure of the tool.
    """
    tool = canonical_tool_name(name, allowed)
    schema = TOOL_SCHEMAS[tool]["parameters"]
    properties: dict[str, Any] = schema["properties"]
    args = _argument_mapping(tool, arguments)
    unknown = [key for key in args if key not in properties]
    if unknown:
        note = " (current_memory is supplied automatically)" if "current_memory" in unknown else ""
        raise MemoryToolError(
            f"{tool}: unknown argument(s) {', '.join(map(repr, unknown))}{note}. "
            f"Expected: {signature(tool)}."
        )
    kwargs = {
        key: _coerce(tool, key, value, properties[key])
        for key, value in args.items()
        if value is not None
    }
    missing = [k for k in schema["required"] if k not in kwargs and k not in _RUNTIME_OPTIONAL]
    if missing:
        raise MemoryToolError(
            f"{tool}: missing argument(s) {', '.join(map(repr, missing))}. "
            f"Expected: {signature(tool)}."
        )
    return _TOOLS[tool](current_memory, **kwargs)


def signature(tool: str) -> str:
    """``"append_in_memory(section_title: str, lines: list[str])"`` for messages and guides."""
    schema = TOOL_SCHEMAS[tool]["parameters"]
    names = {"string": "str", "integer": "int", "array": "list[str]", "object": "object"}
    parts = []
    for key, prop in schema["properties"].items():
        optional = "" if key in schema["required"] else "?"
        parts.append(f"{key}{optional}: {names[prop['type']]}")
    return f"{tool}({', '.join(parts)})"


def _argument_mapping(tool: str, arguments: object) -> dict[Any, Any]:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            raise MemoryToolError(
                f"{tool}: the arguments are not valid JSON. Expected an object for "
                f"{signature(tool)}."
            ) from None
    if not isinstance(arguments, Mapping):
        raise MemoryToolError(
            f"{tool}: the arguments must be a JSON object, got {type(arguments).__name__}. "
            f"Expected: {signature(tool)}."
        )
    return dict(arguments)


def _coerce(tool: str, key: str, value: object, prop: Mapping[str, Any]) -> object:
    kind = prop["type"]
    if kind == "string" and isinstance(value, str):
        return value
    if kind == "array" and (
        isinstance(value, str)
        or (isinstance(value, list) and all(isinstance(item, str) for item in value))
    ):
        return value
    if kind == "object" and isinstance(value, Mapping):
        return value
    if kind == "integer" and not isinstance(value, bool):
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
            return int(value)
    wanted = {
        "string": "a string",
        "array": "a list of strings",
        "object": "an object",
        "integer": "a whole number",
    }[kind]
    raise MemoryToolError(
        f"{tool}: argument '{key}' must be {wanted}, got {_json_kind(value)}. "
        f"Expected: {signature(tool)}."
    )


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {json.dumps(value[:40])}"
    return "a list" if isinstance(value, list | tuple) else type(value).__name__
