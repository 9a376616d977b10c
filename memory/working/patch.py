"""``patch_memory``: applying a section-anchored patch to the working memory.

The patch text is parsed by :mod:`memory.working.patch_format`. Each hunk is spliced into its
section's body; ``meta.changed_lines`` is then counted over the edited sections only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .document import (
    MemoryDocument,
    body_end_index,
    is_blank,
    parse_memory,
    render_memory,
    strip_list_marker,
)
from .edit_args import (
    PATCH_DEFAULTS,
    EditOptions,
    check_memory,
    clip,
    eol,
    kind,
    need_count,
    need_str,
    quoted,
    read_options,
    section_index,
)
from .edit_meta import MemoryToolError, ToolResult, edited_changed_lines, tool_result
from .patch_format import Hunk, parse_patch

_Key = Callable[[str], str]


def patch_memory(
    current_memory: str,
    *,
    patch: str,
    explanation: str = "",
    expected_hunks: int | None = None,
    expected_changes: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> ToolResult:
    """Apply a section-anchored patch (format in :mod:`memory.working.patch_format`).

    Each hunk's old block (its context and ``-`` lines, in order; blank memory lines are
    skipped) must match exactly one place in its section. A hunk with only ``+`` lines and
    context inserts next to the context; with no context it appends at the section's end.
    When ``strict_context`` is off, a block that does not match literally may match with list
    markers, brackets and a trailing colon ignored.

    Re-applying a patch changes nothing: a hunk whose result is already in place (its context
    and ``+`` lines present, its ``-`` lines gone) is skipped with a warning. ``expected_hunks``
    and ``expected_changes`` are checked against the patch text (hunks, ``+``/``-`` lines), so
    they hold on a re-application too. All hunks apply, or none does.
    """
    tool = "patch_memory"
    check_memory(current_memory)
    if not isinstance(patch, str):
        raise MemoryToolError(
            f"{tool}: 'patch' must be the patch text as a string, got {kind(patch)}."
        )
    need_str(tool, "explanation", explanation)
    opts = read_options(tool, options, PATCH_DEFAULTS)
    hunks = parse_patch(patch)
    planned = sum(len(h.deletes) + len(h.inserts) for h in hunks)
    for name, value, actual, unit in (
        ("expected_hunks", expected_hunks, len(hunks), "hunk(s) ('@@ section:' headers)"),
        ("expected_changes", expected_changes, planned, "'+'/'-' line(s)"),
    ):
        wanted = need_count(tool, name, value, minimum=0)
        if wanted is not None and wanted != actual:
            raise MemoryToolError(
                f"{tool}: {name}={wanted} but the patch contains {actual} {unit}. Fix the patch "
                f"or {name}. No change was made."
            )
    before = parse_memory(current_memory)
    line_end = eol(current_memory)
    doc = before
    applied = 0
    warnings: list[str] = []
    for hunk in hunks:
        doc, note = _apply_hunk(doc, hunk, opts, line_end)
        if note is None:
            applied += 1
        else:
            warnings.append(note)
    # Hunks never change headers, and a section no hunk edited is still the same object.
    changed = sum(
        edited_changed_lines(old.body, new.body)
        for old, new in zip(before.sections, doc.sections, strict=True)
        if old is not new
    )
    new_memory = current_memory if doc is before else render_memory(doc)
    return tool_result(
        new_memory,
        before=before,
        after=doc,
        changed_lines=changed,
        applied=applied,
        warnings=warnings,
    )


def _apply_hunk(
    doc: MemoryDocument, hunk: Hunk, opts: EditOptions, line_end: str
) -> tuple[MemoryDocument, str | None]:
    """The document after one hunk, and a warning when the hunk was skipped."""
    tool = "patch_memory"
    index = section_index(tool, doc, hunk.section)
    section = doc.sections[index]
    label = f"hunk {hunk.number} (@@ section: {section.title})"
    at_start = hunk.start_header is not None
    if hunk.start_header is not None and section_index(tool, doc, hunk.start_header) != index:
        raise MemoryToolError(
            f"{tool}: {label} starts with the header '{hunk.start_header.strip()}' of another "
            "section. Anchor the hunk to the section it edits. No change was made."
        )
    keys = [_exact_key(opts)] if opts.strict_context else [_exact_key(opts), _loose_key(opts)]
    body = section.body

    def find(pattern: list[str]) -> list[list[int]]:
        for key in keys:
            found = _find_block(body, pattern, key, at_start=at_start)
            if found:
                return found
        return []

    def done(why: str) -> tuple[MemoryDocument, str]:
        return doc, f"{label} was skipped: {why}; nothing changed."

    post = find(hunk.new) if hunk.inserts else []
    if post and not hunk.deletes:
        return done("its lines are already in place")
    if not hunk.old:
        if opts.strict_context and not at_start:
            raise MemoryToolError(
                f"{tool}: {label} has no context line, which strict_context requires. Add an "
                "unchanged line of the section (without '+') to anchor the insertion."
            )
        at = 0 if at_start else body_end_index(body)
        new_body = [*body[:at], *(text + line_end for text in hunk.inserts), *body[at:]]
        return _with_body(doc, index, new_body), None
    for key in keys:
        matches = _find_block(body, hunk.old, key, at_start=at_start)
        matches = [m for m in matches if not any(set(m) <= set(p) for p in post)]
        if len(matches) == 1:
            return _with_body(doc, index, _splice(body, hunk, matches[0], line_end)), None
        if len(matches) > 1:
            where = ", ".join(str(m[0] + 1) for m in matches)
            raise MemoryToolError(
                f"{tool}: {label} is ambiguous: its lines match {len(matches)} places in the "
                f"section (starting at body lines {where}). Add an unchanged context line before "
                "or after the change so that it matches exactly one place. No change was made."
            )
        if post:
            return done("its result is already in place (applied before?)")
    if not hunk.inserts and not any(_find_block(body, [t], k) for t in hunk.deletes for k in keys):
        return done(f"none of the lines to delete is in the section ({quoted(hunk.deletes)})")
    raise MemoryToolError(
        f"{tool}: {label} could not be applied: {_why_missing(doc, index, hunk, keys)} Copy "
        "context and '-' lines exactly from the current memory, in order. No change was made."
    )


def _splice(body: tuple[str, ...], hunk: Hunk, match: list[int], line_end: str) -> list[str]:
    """``body`` with the hunk applied at ``match`` (the body indices of its old lines)."""
    out = list(body[: match[0]])
    j = 0
    for op in hunk.ops:
        if op.kind == "insert":
            out.append(op.text + line_end)
            continue
        if j:
            out.extend(body[match[j - 1] + 1 : match[j]])  # blank lines between matched lines
        if op.kind == "context":
            out.append(body[match[j]])
        j += 1
    out.extend(body[match[-1] + 1 :])
    return out


def _find_block(
    body: Sequence[str], pattern: list[str], key: _Key, *, at_start: bool = False
) -> list[list[int]]:
    """Every place where ``pattern`` matches consecutive non-blank lines of ``body``."""
    want = [key(text) for text in pattern]
    if not want or not all(want):
        return []
    positions = [i for i, line in enumerate(body) if not is_blank(line)]
    have = [key(body[i]) for i in positions]
    n = len(want)
    starts = range(1) if at_start else range(len(positions) - n + 1)
    return [positions[s : s + n] for s in starts if have[s : s + n] == want]


def _why_missing(doc: MemoryDocument, index: int, hunk: Hunk, keys: list[_Key]) -> str:
    section = doc.sections[index]
    for text in hunk.old:
        if any(_find_block(section.body, [text], key) for key in keys):
            continue
        elsewhere = [
            s.title
            for i, s in enumerate(doc.sections)
            if i != index and any(_find_block(s.body, [text], key) for key in keys)
        ]
        hint = f" It is in section {quoted(elsewhere)}." if elsewhere else ""
        return f"the line '{clip(text)}' is not in section '{section.title}'.{hint}"
    if hunk.start_header is not None:
        return "its lines are not the first lines of the section, as its header line demands."
    return "its lines are in the section but not one after another in this order."


def _exact_key(opts: EditOptions) -> _Key:
    def key(line: str) -> str:
        text = " ".join(line.split()) if opts.normalize_whitespace else line.rstrip()
        return text if opts.case_sensitive else text.casefold()

    return key


def _loose_key(opts: EditOptions) -> _Key:
    """Compares lines with list markers, enclosing brackets and a final colon ignored."""

    def key(line: str) -> str:
        text = strip_list_marker(line)
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1].strip()
        return _exact_key(opts)(text.rstrip(":").rstrip())

    return key


def _with_body(doc: MemoryDocument, index: int, body: list[str]) -> MemoryDocument:
    return doc.with_section(index, doc.sections[index].with_body(body))
