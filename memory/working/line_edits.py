"""``append_in_memory`` and ``delete_from_memory``: adding and removing whole lines of a section.

Both tools know exactly which lines they add or remove, so ``meta.changed_lines`` is that
number; the memory is never diffed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .document import (
    MemoryDocument,
    body_end_index,
    canonical_line,
    is_header_line,
    parse_memory,
    render_memory,
)
from .edit_args import (
    check_memory,
    clip,
    describe_body,
    eol,
    lines_argument,
    quoted,
    section_index,
)
from .edit_meta import MemoryToolError, ToolResult, tool_result

SUBSTRING_MIN_CHARS = 8
"""Delete targets at least this long (in canonical form) may match part of a line."""


def append_in_memory(
    current_memory: str, *, section_title: str, lines: Sequence[str] | str
) -> ToolResult:
    """Add ``lines`` at the end of a section's body, before the blank lines that end it.

    A single string counts as one line; strings with line breaks are split; blank lines are
    dropped. A line that would be a section header (``"## ..."``) is refused.
    """
    tool = "append_in_memory"
    check_memory(current_memory)
    new_lines = lines_argument(tool, lines)
    if not new_lines:
        raise MemoryToolError(
            f"{tool}: 'lines' has no text to append. Pass a list of non-empty strings, "
            'e.g. ["- The user prefers short answers."].'
        )
    for line in new_lines:
        if is_header_line(line):
            raise MemoryToolError(
                f"{tool}: the line '{clip(line)}' starts with '## ', which makes it a section "
                "header. Headers cannot be added or changed; write it as a normal line "
                "(e.g. starting with '- ' or '### ')."
            )
    doc = parse_memory(current_memory)
    index = section_index(tool, doc, section_title)
    body = list(doc.sections[index].body)
    at = body_end_index(body)
    line_end = eol(current_memory)
    body[at:at] = [line + line_end for line in new_lines]
    return _body_result(doc, index, body, changed_lines=len(new_lines), warnings=[])


def delete_from_memory(
    current_memory: str, *, section_title: str, lines: Sequence[str] | str
) -> ToolResult:
    """Delete the lines of a section that match any target in ``lines``.

    Lines and targets are compared in canonical form (list markers such as ``-``, ``*``,
    ``1.`` dropped, case folded, spacing collapsed). A target of at least
    :data:`SUBSTRING_MIN_CHARS` characters matches every line that contains it; a shorter one
    only a line equal to it. Targets that match nothing are reported in ``meta.warnings``; if
    nothing matches at all the call fails.
    """
    tool = "delete_from_memory"
    check_memory(current_memory)
    raw_targets = lines_argument(tool, lines)
    if not raw_targets:
        raise MemoryToolError(
            f"{tool}: 'lines' has no text. Pass the lines to delete as a list of strings, "
            'e.g. ["- Old hypothesis: the word has an E."].'
        )
    doc = parse_memory(current_memory)
    index = section_index(tool, doc, section_title)
    section = doc.sections[index]
    warnings: list[str] = []
    targets: list[tuple[str, str]] = []
    for raw in raw_targets:
        canonical = canonical_line(raw)
        if is_header_line(raw):
            warnings.append(f"'{clip(raw)}' is a section header; headers are never deleted.")
        elif not canonical:
            warnings.append(f"Ignored '{raw}': nothing is left once list markers are removed.")
        else:
            targets.append((raw, canonical))
    hits = dict.fromkeys((raw for raw, _ in targets), 0)
    kept: list[str] = []
    for line in section.body:
        line_key = canonical_line(line)
        matched = [raw for raw, key in targets if line_key and _deletes(key, line_key)]
        for raw in matched:
            hits[raw] += 1
        if not matched:
            kept.append(line)
    if len(kept) == len(section.body):
        raise MemoryToolError(
            f"{tool}: nothing was deleted: no line of section '{section.title}' matches "
            f"{quoted(raw_targets)}. {describe_body(section)} Copy a line as it appears (its "
            f"list marker may be left out); targets shorter than {SUBSTRING_MIN_CHARS} "
            "characters must match a whole line."
        )
    for raw, count in hits.items():
        if count == 0:
            warnings.append(f"'{clip(raw)}' matched no line in section '{section.title}'.")
        elif count > 1:
            warnings.append(f"'{clip(raw)}' matched {count} lines; all of them were deleted.")
    removed = len(section.body) - len(kept)
    return _body_result(doc, index, kept, changed_lines=removed, warnings=warnings)


def _deletes(target: str, line: str) -> bool:
    return target == line or (len(target) >= SUBSTRING_MIN_CHARS and target in line)


def _body_result(
    doc: MemoryDocument, index: int, body: list[str], *, changed_lines: int, warnings: list[str]
) -> ToolResult:
    """The result of giving section ``index`` of ``doc`` the new ``body``."""
    after = doc.with_section(index, doc.sections[index].with_body(body))
    return tool_result(
        render_memory(after),
        before=doc,
        after=after,
        changed_lines=changed_lines,
        applied=1,
        warnings=warnings,
    )
