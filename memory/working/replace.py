"""``replace_in_memory``: replacing exact occurrences of a string in the working memory.

Only the lines around each replacement are compared to count ``meta.changed_lines``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .document import MemoryDocument, SectionSpan, parse_memory, section_spans
from .edit_args import (
    REPLACE_DEFAULTS,
    EditOptions,
    check_memory,
    clip,
    need_count,
    need_str,
    optional_str,
    quoted,
    read_options,
    section_index,
)
from .edit_meta import (
    MemoryToolError,
    ToolResult,
    edited_changed_lines,
    tool_result,
    unchanged_result,
)

_MARKER = r"(?:[-*+•]|\d+[.)])"
_ADJACENT = rf"\s*(?:{_MARKER}[ \t]+)?"
_NEAR_BEFORE = r"[^\n]*(?:\n[^\n]*){0,3}"
_NEAR_AFTER = r"(?:[^\n]*\n){0,3}[^\n]*?"


def replace_in_memory(
    current_memory: str,
    *,
    old_string: str,
    new_string: str,
    explanation: str = "",
    section_title: str | None = None,
    expected_replacements: int = 1,
    pre_context: str | None = None,
    post_context: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> ToolResult:
    """Replace exact occurrences of ``old_string`` with ``new_string``.

    The search covers one section's body when ``section_title`` is given, else the whole
    memory; text inside header lines is never matched. ``pre_context`` / ``post_context`` must
    sit right before / after each occurrence: with ``strict_context`` (the default) only
    whitespace and a list marker may separate them, without it up to three lines. The number
    of occurrences must equal ``expected_replacements``.

    Re-applying is a no-op with a warning: when no occurrence is left but ``new_string`` sits
    at the anchored place (occurrences inside such a ``new_string`` do not count), or when
    ``new_string`` is empty and there is nothing left to delete.
    """
    tool = "replace_in_memory"
    check_memory(current_memory)
    old = need_str(tool, "old_string", old_string)
    new = need_str(tool, "new_string", new_string)
    need_str(tool, "explanation", explanation)
    if not old:
        raise MemoryToolError(
            f"{tool}: 'old_string' is empty. Give the exact text to replace; to add text, "
            "replace a nearby line with itself plus the new text."
        )
    pre = optional_str(tool, "pre_context", pre_context)
    post = optional_str(tool, "post_context", post_context)
    title = optional_str(tool, "section_title", section_title)
    expected = need_count(tool, "expected_replacements", expected_replacements, minimum=1) or 1
    opts = read_options(tool, options, REPLACE_DEFAULTS)
    text = current_memory
    doc = parse_memory(text)
    spans = section_spans(doc)
    headers = [(span.header_start, span.header_end) for span in spans]
    lo, hi, scope, index = 0, len(text), "the working memory", None
    if title is not None:
        index = section_index(tool, doc, title)
        lo, hi = spans[index].body_start, spans[index].body_end
        scope = f"section '{doc.sections[index].title}'"
    finder = _Finder(text, opts, pre, post, headers)
    found = finder.spans(old, lo, hi)
    done = finder.spans(new, lo, hi) if new else []
    targets = [t for t in found if not any(s <= t[0] and t[1] <= e for s, e in done)]
    if not targets and (found or done or not new):
        note = "old_string is not there any more and new_string is in place (applied before?)"
        if not new:
            note = "old_string is not there, so there is nothing to delete"
        return unchanged_result(text, doc, warnings=[f"Replacement skipped: {note}."])
    if not targets:
        detail = _why_not_found(finder, doc, spans, old, lo, hi, scope, index)
        raise MemoryToolError(f"{tool}: {detail} Copy the exact text from the current memory.")
    if len(targets) != expected:
        already = len(found) - len(targets)
        extra = f" ({already} more already replaced)" if already else ""
        anchored = " with the given context" if pre or post else ""
        raise MemoryToolError(
            f"{tool}: expected {expected} replacement(s), but old_string '{clip(old)}' matches "
            f"{len(targets)} place(s) in {scope}{anchored}{extra}. To replace all of them set "
            f"expected_replacements={len(targets)}; to single one out, add pre_context or "
            "post_context (text right before or after it) or set section_title. No change "
            "was made."
        )
    pieces: list[str] = []
    pos = 0
    for start, end in targets:
        pieces += [text[pos:start], new]
        pos = end
    new_memory = "".join([*pieces, text[pos:]])
    after = parse_memory(new_memory)
    if not _headers_kept(doc, after, spans, new_memory, targets, len(new)):
        raise MemoryToolError(
            f"{tool}: this replacement would add, remove or break a section header line (a "
            "line starting with '## '). Headers cannot be changed: keep new_string free of lines "
            "starting with '## ' and do not replace the line break before a header. No change "
            "was made."
        )
    return tool_result(
        new_memory,
        before=doc,
        after=after,
        changed_lines=_changed_lines(text, targets, new),
        applied=1,
        warnings=[],
    )


class _Finder:
    """Finds literal occurrences under the matching options and context anchors."""

    def __init__(
        self,
        text: str,
        opts: EditOptions,
        pre: str | None,
        post: str | None,
        headers: list[tuple[int, int]],
    ) -> None:
        self.text, self.opts, self.headers = text, opts, headers
        self.has_context = bool(pre or post)
        before, after = (
            (_ADJACENT, _ADJACENT) if opts.strict_context else (_NEAR_BEFORE, _NEAR_AFTER)
        )
        self.pre = self._compile(f"(?:{self._literal(pre)}){before}\\Z") if pre else None
        self.post = self._compile(f"{after}(?:{self._literal(post)})") if post else None

    def spans(
        self, needle: str, lo: int, hi: int, *, anchored: bool = True, in_headers: bool = False
    ) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        pattern, pos = self._compile(self._literal(needle)), lo
        # every start is tried, overlapping ones too: an occurrence that fails its anchors must
        # not hide one that overlaps it and passes (kept occurrences never overlap)
        while (match := pattern.search(self.text, pos, hi)) is not None:
            start, end = match.span()
            pos = start + 1
            if out and start < out[-1][1]:
                continue
            if not in_headers and any(start < he and hs < end for hs, he in self.headers):
                continue
            if anchored and self.pre and not self.pre.search(self.text, 0, start):
                continue
            if anchored and self.post and not self.post.match(self.text, end):
                continue
            out.append((start, end))
        return out

    def relaxed(self) -> _Finder:
        """The same search ignoring case and spacing (for diagnostics)."""
        loose = EditOptions(self.opts.strict_context, True, False)
        return _Finder(self.text, loose, None, None, self.headers)

    def _literal(self, text: str) -> str:
        if not self.opts.normalize_whitespace:
            return re.escape(text)
        parts = re.split(r"(\s+)", text)
        return "".join(
            (r"\s+" if "\n" in part else r"[^\S\n]+") if part.isspace() else re.escape(part)
            for part in parts
            if part
        )

    def _compile(self, source: str) -> re.Pattern[str]:
        return re.compile(source, 0 if self.opts.case_sensitive else re.IGNORECASE)


def _why_not_found(
    finder: _Finder,
    doc: MemoryDocument,
    spans: list[SectionSpan],
    old: str,
    lo: int,
    hi: int,
    scope: str,
    index: int | None,
) -> str:
    clipped = clip(old)
    bare = finder.spans(old, lo, hi, anchored=False)
    if finder.has_context and bare:
        rule = (
            "only spaces, line breaks or a list marker may separate them (set "
            "options.strict_context=false to allow up to 3 lines)"
            if finder.opts.strict_context
            else "they must be at most 3 lines apart"
        )
        return (
            f"old_string '{clipped}' occurs {len(bare)} time(s) in {scope}, but never with the "
            f"given pre_context/post_context next to it; {rule}."
        )
    if index is not None:
        others = [
            doc.sections[i].title
            for i, span in enumerate(spans)
            if i != index and finder.spans(old, span.body_start, span.body_end, anchored=False)
        ]
        if others:
            return (
                f"old_string '{clipped}' is not in {scope} but in section {quoted(others)}; fix "
                "section_title."
            )
    if finder.relaxed().spans(old, lo, hi, anchored=False):
        return (
            f"old_string '{clipped}' matches in {scope} only when case and spacing are ignored; "
            "copy it exactly or set options case_sensitive=false / normalize_whitespace=true."
        )
    if finder.spans(old, lo, hi, anchored=False, in_headers=True):
        return (
            f"old_string '{clipped}' only occurs where it touches a section header line, and "
            "headers cannot be changed."
        )
    return f"old_string '{clipped}' was not found in {scope}."


def _headers_kept(
    doc: MemoryDocument,
    new_doc: MemoryDocument,
    spans: list[SectionSpan],
    new_text: str,
    targets: list[tuple[int, int]],
    new_length: int,
) -> bool:
    """True when every header is still a whole line of its own and none was added."""
    if len(new_doc.sections) != len(doc.sections):
        return False
    for span, section in zip(spans, doc.sections, strict=True):
        shift = sum(
            new_length - (end - start) for start, end in targets if end <= span.header_start
        )
        start = span.header_start + shift
        end = start + len(section.header)
        if new_text[start:end] != section.header:
            return False
        if (start and new_text[start - 1] != "\n") or (
            end < len(new_text) and new_text[end] != "\n"
        ):
            return False
    return True


def _changed_lines(text: str, targets: list[tuple[int, int]], new: str) -> int:
    """Lines removed plus lines added when every span in ``targets`` becomes ``new``.

    Targets on the same or on consecutive lines form one group; each group is compared as
    the whole lines it spans, before and after, so the rest of the memory is never diffed.
    """
    total = 0
    i = 0
    while i < len(targets):
        first = text.rfind("\n", 0, targets[i][0]) + 1
        last = _line_end(text, targets[i][1])
        j = i + 1
        while j < len(targets) and targets[j][0] <= _line_end(text, last + 1):
            last = _line_end(text, targets[j][1])
            j += 1
        pieces: list[str] = []
        pos = first
        for start, end in targets[i:j]:
            pieces += [text[pos:start], new]
            pos = end
        pieces.append(text[pos:last])
        total += edited_changed_lines(text[first:last].split("\n"), "".join(pieces).split("\n"))
        i = j
    return total


def _line_end(text: str, pos: int) -> int:
    """The offset of the line break ending the line at ``pos`` (or the end of the text)."""
    end = text.find("\n", pos)
    return len(text) if end < 0 else end
