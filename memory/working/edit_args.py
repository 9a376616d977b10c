"""Checking the arguments of a memory tool call, and the wording its error messages share.

Every check raises :class:`~memory.working.edit_meta.MemoryToolError` with a message for the model
that made the call, except a ``current_memory`` that is not text, which is the caller's bug
and raises :class:`TypeError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from .document import (
    DocumentSection,
    MemoryDocument,
    SectionLookupError,
    find_section_index,
    is_blank,
)
from .edit_meta import MemoryToolError


@dataclass(frozen=True)
class EditOptions:
    """Matching options of ``patch_memory`` and ``replace_in_memory``."""

    strict_context: bool
    normalize_whitespace: bool
    case_sensitive: bool


PATCH_DEFAULTS = EditOptions(strict_context=False, normalize_whitespace=True, case_sensitive=True)
REPLACE_DEFAULTS = EditOptions(strict_context=True, normalize_whitespace=False, case_sensitive=True)


def read_options(tool: str, options: object, defaults: EditOptions) -> EditOptions:
    """Validated matching options: ``None`` keeps ``defaults``; unknown keys are refused."""
    if options is None:
        return defaults
    names = list(asdict(defaults))
    if not isinstance(options, Mapping):
        raise MemoryToolError(
            f"{tool}: 'options' must be an object with the keys {quoted(names)}, got "
            f"{kind(options)}."
        )
    values = asdict(defaults)
    for name, value in options.items():
        if name not in values:
            raise MemoryToolError(
                f"{tool}: unknown option {name!r}; the options are {quoted(names)}."
            )
        if value is None:
            continue
        if not isinstance(value, bool):
            raise MemoryToolError(f"{tool}: option '{name}' must be true or false, got {value!r}.")
        values[name] = value
    return EditOptions(**values)


def section_index(tool: str, doc: MemoryDocument, title: object) -> int:
    """The index of the section ``title`` names (see :func:`find_section_index`)."""
    if not isinstance(title, str):
        raise MemoryToolError(
            f"{tool}: 'section_title' must be a string such as 'Active Notes', got {kind(title)}."
        )
    try:
        return find_section_index(doc, title)
    except SectionLookupError as exc:
        raise MemoryToolError(f"{tool}: {exc}") from None


def lines_argument(tool: str, lines: object) -> list[str]:
    """``lines`` as non-blank single lines (a string is one line; line breaks split)."""
    if isinstance(lines, str):
        items: list[str] = [lines]
    elif isinstance(lines, list | tuple) and all(isinstance(item, str) for item in lines):
        items = list(lines)
    else:
        raise MemoryToolError(
            f'{tool}: \'lines\' must be a list of strings, e.g. ["- first", "- second"], got '
            f"{kind(lines)}."
        )
    return [part.rstrip() for item in items for part in item.split("\n") if not is_blank(part)]


def check_memory(current_memory: object) -> None:
    if not isinstance(current_memory, str):
        raise TypeError(f"current_memory must be the memory text (str), got {type(current_memory)}")


def need_str(tool: str, name: str, value: object) -> str:
    if not isinstance(value, str):
        raise MemoryToolError(f"{tool}: '{name}' must be a string, got {kind(value)}.")
    return value


def optional_str(tool: str, name: str, value: object) -> str | None:
    return None if value is None or value == "" else need_str(tool, name, value)


def need_count(tool: str, name: str, value: object, *, minimum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise MemoryToolError(
            f"{tool}: '{name}' must be a whole number of at least {minimum}, got {value!r}."
        )
    return value


def eol(text: str) -> str:
    """``"\\r"`` for text with Windows line ends, so inserted lines keep its style."""
    return "\r" if "\r\n" in text and text.count("\n") == text.count("\r\n") else ""


def describe_body(section: DocumentSection, limit: int = 12) -> str:
    lines = [line.strip() for line in section.body if not is_blank(line)]
    if not lines:
        return "The section is empty."
    shown = quoted([clip(line) for line in lines[:limit]])
    more = f" and {len(lines) - limit} more" if len(lines) > limit else ""
    return f"Its lines are: {shown}{more}."


def kind(value: object) -> str:
    names = {type(None): "null", bool: "a boolean", int: "a number", float: "a number"}
    names |= {str: "a string", list: "a list", tuple: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def clip(text: str, limit: int = 80) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted(items: Sequence[str]) -> str:
    return ", ".join(f"'{item}'" for item in items)
