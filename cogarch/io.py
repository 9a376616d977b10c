"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """``data`` as the file at ``path``, replaced in one step (a link standing there is
    replaced, never written through)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike[str], data: Any, *, indent: int | None = 2) -> Path:
    """``data`` as UTF-8 JSON; text holding a lone surrogate (which UTF-8 cannot encode) is
    written with ASCII escapes instead, so it reads back exactly."""
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    if not is_utf8_encodable(text):
        text = json.dumps(data, indent=indent, ensure_ascii=True)
    return atomic_write_text(path, text + "\n")


def is_utf8_encodable(text: str) -> bool:
    """Whether ``text`` holds no lone surrogate (the only str UTF-8 cannot encode)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def without_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, for output that must be UTF-8."""
    return text if is_utf8_encodable(text) else _SURROGATE.sub("\ufffd", text)


_SURROGATE = re.compile("[\ud800-\udfff]")


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
