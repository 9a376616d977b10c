"""The shapes of the JSON files a MemoryOS store keeps, checked before a saved state's files
are handed to the library.

MemoryOS reads each file with a ``try`` around it and, on anything it did not expect (a list
where an object belongs, a session without its heat), prints a line and starts that tier
empty, so a damaged state would load as an empty memory without a word. A saved state's files
are checked against what the library itself writes first, and refused by name otherwise.
"""

from __future__ import annotations

import math
from pathlib import PurePosixPath
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    TypeAdapter,
    ValidationError,
)


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class _Session(_Loose):
    H_segment: StrictFloat | StrictInt
    details: list[dict[str, Any]] = Field(default_factory=list)


class _MidTerm(_Loose):
    sessions: dict[str, _Session]
    access_frequency: dict[str, StrictFloat | StrictInt] = Field(default_factory=dict)


class _LongTerm(_Loose):
    user_profiles: dict[str, Any] = Field(default_factory=dict)
    knowledge_base: list[dict[str, Any]] = Field(default_factory=list)
    assistant_knowledge: list[dict[str, Any]] = Field(default_factory=list)


SHAPES: dict[str, Any] = {
    "short_term.json": list[dict[str, Any]],
    "mid_term.json": _MidTerm,
    "long_term_user.json": _LongTerm,
    "long_term_assistant.json": _LongTerm,
}
"""Each file MemoryOS keeps, by name, and the shape it writes."""


def check_store_file(name: str, content: Any) -> Any:
    """``content`` when it has the shape MemoryOS writes for the file ``name``; a
    ``ValueError`` naming the file otherwise (another name, another shape, a heat that is not
    a finite number)."""
    shape = SHAPES.get(PurePosixPath(name).name)
    if shape is None:
        raise ValueError(
            f"'{name}' is not a file a MemoryOS store keeps ({', '.join(sorted(SHAPES))})"
        )
    try:
        checked = TypeAdapter(shape).validate_python(content)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the top level"
        raise ValueError(
            f"'{name}' is not of the shape MemoryOS writes ({where}: {first['msg']})"
        ) from None
    if isinstance(checked, _MidTerm) and not all(
        math.isfinite(s.H_segment) for s in checked.sessions.values()
    ):
        raise ValueError(f"'{name}' holds a session whose heat is not a finite number")
    return content
