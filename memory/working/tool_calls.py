"""Reading memory-tool calls out of a model's text: fenced, bare, or wrapped in prose."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from cogarch.io import loads_json

from .edit_meta import MemoryToolError

MAX_LIST_NESTING = 3
MAX_JSON_DEPTH = 64
"""Brackets nested deeper than this are refused before any JSON is decoded (what the decoder
itself would manage depends on the interpreter's recursion limit, which libraries change)."""
"""Lists of calls nest at most this deep (``[[call]]`` is read; deeper is not a call)."""


@dataclass(frozen=True)
class ToolCallRequest:
    """A tool call read from a model reply."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


_CALL_SHAPE = '{"name": "<tool_name>", "arguments": {...}} or a list of such objects'


def parse_tool_calls(text: str) -> list[ToolCallRequest]:
    """Tool calls written as JSON in a model reply.

    Accepts one ``{"name": ..., "arguments": {...}}`` object or a list of them, inside code
    fences or surrounded by prose; ``arguments`` may be a JSON string, and the OpenAI shapes
    ``{"function": {...}}`` and ``{"tool_calls": [...]}`` are understood. A reply that is
    exactly ``[]`` means "no edit" and gives an empty list. Raises :class:`MemoryToolError`
    when no call can be found.
    """
    if not isinstance(text, str):
        raise MemoryToolError(f"Expected the reply text, got {type(text).__name__}.")
    if _unfenced(text) == "[]":
        return []
    calls: list[ToolCallRequest] = []
    problem = "no JSON object was found"
    try:
        if _nesting(text) > MAX_JSON_DEPTH:
            raise RecursionError
        values = _json_values(text)
    except RecursionError:
        raise MemoryToolError(
            f"The reply nests JSON too deeply to read. Reply with only JSON: {_CALL_SHAPE}."
        ) from None
    for value in values:
        try:
            calls.extend(_calls_from(value))
        except _NotACall as exc:
            problem = str(exc)
    if not calls:
        raise MemoryToolError(
            f"No memory tool call could be read from the reply ({problem}). Reply with only "
            f"JSON: {_CALL_SHAPE}."
        )
    return calls


class _NotACall(ValueError):
    pass


def _unfenced(text: str) -> str:
    stripped = text.strip()
    match = re.fullmatch(r"```[\w-]*\s*(.*?)\s*```", stripped, re.DOTALL)
    return match.group(1).strip() if match else stripped


def _nesting(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text``, brackets inside JSON strings left
    out (unclosed brackets count)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
    return deepest


def _json_values(text: str) -> list[object]:
    """Every top-level JSON object or array embedded in ``text``, in order."""
    decoder = json.JSONDecoder()
    values: list[object] = []
    pos = 0
    while True:
        starts = [i for i in (text.find("{", pos), text.find("[", pos)) if i >= 0]
        if not starts:
            return values
        start = min(starts)
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            pos = start + 1
            continue
        if isinstance(value, dict | list):
            values.append(value)
        pos = max(end, start + 1)


def _calls_from(value: object, depth: int = 1) -> list[ToolCallRequest]:
    if isinstance(value, list):
        if not value:
            raise _NotACall("the JSON list is empty")
        if depth > MAX_LIST_NESTING:
            raise _NotACall("the JSON lists nest too deeply")
        return [call for item in value for call in _calls_from(item, depth + 1)]
    if not isinstance(value, dict):
        raise _NotACall(f"found {type(value).__name__} instead of an object")
    if depth > MAX_LIST_NESTING + 2:
        raise _NotACall("the JSON objects nest too deeply")
    if "tool_calls" in value:
        return _calls_from(value["tool_calls"], depth + 1)
    if isinstance(value.get("function"), dict):
        return _calls_from(value["function"], depth + 1)
    name = value.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _NotACall('a JSON object has no "name" string')
    keys = [k for k in ("arguments", "parameters", "args") if k in value]
    if keys:
        arguments = value[keys[0]]
    else:  # arguments written next to the name
        arguments = {k: v for k, v in value.items() if k not in ("name", "type", "id")}
    if isinstance(arguments, str):
        try:
            arguments = loads_json(arguments) if arguments.strip() else {}
        except ValueError:
            raise _NotACall(f'the "arguments" of {name} are a string that is not JSON') from None
    if not isinstance(arguments, dict):
        raise _NotACall(f'the "arguments" of {name} are not a JSON object')
    return [ToolCallRequest(name=name.strip(), arguments=arguments)]
