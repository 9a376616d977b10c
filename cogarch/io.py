"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def atomic_write_json(path: str | os.PathLike[str], data: Any, *, indent: int | None = 2) -> Path:
    return atomic_write_text(path, json.dumps(data, indent=indent, ensure_ascii=False) + "\n")


MAX_JSON_DEPTH = 100
"""Deepest nesting of arrays and objects :func:`loads_json` accepts (trial files nest < 20)."""


def loads_json(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that raises ``ValueError`` (never ``RecursionError``) on hostile nesting."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"JSON nests deeper than {max_depth} levels") from None
    check_depth(value, max_depth)
    return value


def check_depth(value: Any, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Raise ``ValueError`` if lists and dicts in ``value`` nest deeper than ``max_depth``
    (walked without recursion, so any depth is safe to check)."""
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        item, depth = stack.pop()
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, dict | list):
                if depth + 1 > max_depth:
                    raise ValueError(f"JSON nests deeper than {max_depth} levels")
                stack.append((child, depth + 1))
