"""A pydantic model's fields as a Markdown table: name, type, default, bounds, description."""

from __future__ import annotations

import enum
import re
import types
import typing
from typing import Any

import annotated_types as at
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

_BOUNDS: list[tuple[type, str, str]] = [
    (at.Ge, "ge", "≥"),
    (at.Gt, "gt", ">"),
    (at.Le, "le", "≤"),
    (at.Lt, "lt", "<"),
    (at.MinLen, "min_length", "length ≥"),
    (at.MaxLen, "max_length", "length ≤"),
]


def type_name(annotation: Any) -> str:
    """A short, readable name for a field's type (``int``, ``list[str] | None``, ...)."""
    if annotation is None or annotation is type(None):
        return "None"
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return type_name(typing.get_args(annotation)[0])
    if origin is typing.Literal:
        return " | ".join(repr(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_name(a) for a in typing.get_args(annotation))
    if origin is not None:
        args = ", ".join(type_name(a) for a in typing.get_args(annotation))
        base = getattr(origin, "__name__", str(origin))
        return f"{base}[{args}]" if args else base
    if isinstance(annotation, type):
        return annotation.__name__
    return re.sub(r"\b(?:typing|[a-z_]+(?:\.[a-z_]+)+)\.", "", str(annotation))


def default_text(field: FieldInfo) -> str:
    if field.default_factory is not None:
        try:
            value = field.default_factory()  # type: ignore[call-arg]
        except TypeError:
            return "(computed)"
    elif field.default is PydanticUndefined:
        return "required"
    else:
        value = field.default
    if isinstance(value, BaseModel):
        return "(defaults below)" if value.model_dump() else "{}"
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return repr(value) if isinstance(value, str) else str(value)


def bounds_text(field: FieldInfo) -> str:
    parts = []
    for item in field.metadata:
        for cls, attr, sign in _BOUNDS:
            if isinstance(item, cls):
                parts.append(f"{sign} {getattr(item, attr)}")
    return ", ".join(parts)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|") or "—"


def nested_models(model: type[BaseModel]) -> list[type[BaseModel]]:
    """The models a model's fields hold (directly or in a list, dict or union), in order."""
    found: list[type[BaseModel]] = []

    def walk(annotation: Any) -> None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if annotation not in found:
                found.append(annotation)
            return
        for arg in typing.get_args(annotation):
            walk(arg)

    for field in model.model_fields.values():
        walk(field.annotation)
    return found


def fields_table(model: type[BaseModel]) -> str:
    """Every field of ``model`` in one table (a model without fields says so)."""
    if not model.model_fields:
        return "No parameters.\n"
    rows = ["| field | type | default | bounds | description |", "| --- | --- | --- | --- | --- |"]
    for name, field in model.model_fields.items():
        key = field.alias or name
        rows.append(
            f"| `{key}` | `{_cell(type_name(field.annotation))}` | `{_cell(default_text(field))}` "
            f"| {_cell(bounds_text(field))} | {_cell(field.description or '')} |"
        )
    return "\n".join(rows) + "\n"
