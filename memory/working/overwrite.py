"""``overwrite_memory``: the tool that replaces the whole working memory at once."""

from __future__ import annotations

from .document import SECTION_TITLES, normalize_title, parse_memory
from .edit_args import check_memory, kind, quoted
from .edit_meta import MemoryToolError, ToolResult, text_changed_lines, tool_result


def overwrite_memory(current_memory: str, *, new_memory: str) -> ToolResult:
    """Replace the whole memory with ``new_memory``.

    The paper puts no structural constraint on an overwrite, so a text without the section
    headers is accepted. ``meta.warnings`` then names the headers that went missing, because
    the section-based tools can no longer address those sections.
    """
    check_memory(current_memory)
    if not isinstance(new_memory, str):
        raise MemoryToolError(
            "overwrite_memory: 'new_memory' must be the complete new memory as one string, got "
            f"{kind(new_memory)}. Write the whole memory, section headers included."
        )
    before = parse_memory(current_memory)
    after = parse_memory(new_memory)
    expected = before.titles or list(SECTION_TITLES)
    present = {normalize_title(title) for title in after.titles}
    missing = [title for title in expected if normalize_title(title) not in present]
    warnings = []
    if missing:
        warnings.append(
            f"The new memory has no section header for {quoted(missing)}; keep headers like "
            "'## 1. Goals and Plans' so every section stays addressable."
        )
    return tool_result(
        new_memory,
        before=before,
        after=after,
        changed_lines=text_changed_lines(current_memory, new_memory),
        applied=1,
        warnings=warnings,
    )
