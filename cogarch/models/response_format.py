"""The ``response_format`` of a request whose answer must match a JSON schema."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel


def response_format_for(schema: type[BaseModel] | Mapping[str, Any]) -> dict[str, Any]:
    """The ``response_format`` of a request whose answer must match ``schema``.

    Every property of every object is sent as required, as OpenAI's strict mode asks: a
    server that decodes under the schema (llama.cpp's grammar, vLLM's guided decoding) would
    otherwise let the model leave out any field that has a default, and the default would
    stand in for an answer the model never gave. Validation still applies the model's own
    defaults."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        name, body = schema.__name__, schema.model_json_schema()
    else:
        body = dict(schema)
        name = str(body.get("title", "response"))
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64] or "response"
    return {"type": "json_schema", "json_schema": {"name": safe, "schema": all_required(body)}}


def all_required(schema: Any) -> Any:
    """A copy of a JSON schema in which each object lists all its properties as required."""
    if isinstance(schema, list):
        return [all_required(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _SCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {name: all_required(sub) for name, sub in value.items()}
        elif key in _SCHEMA_DATA:
            out[key] = value
        else:
            out[key] = all_required(value)
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and properties:
        out["required"] = list(properties)
    return out


_SCHEMA_MAPS = frozenset({"properties", "$defs", "definitions", "patternProperties"})
"""Keys whose values map names to schemas (never schemas themselves)."""
_SCHEMA_DATA = frozenset({"default", "enum", "const", "examples"})
"""Keys whose values are data, not schemas."""
