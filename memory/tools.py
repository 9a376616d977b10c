"""The five tools that edit the private working memory (the paper's Appendix G).

Each tool is a pure function of the current memory text. It returns a :class:`ToolResult`
holding the new text and a :class:`ToolMeta` report. A call the tool cannot carry out raises
:class:`MemoryToolError`, with a message written for the model that made the call; the caller
keeps the old text, so a failed edit never changes the memory.

Except for ``overwrite_memory``, which replaces everything, the tools edit section bodies only:
no tool can add, remove, edit or reorder a section header line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from cogarch.errors import CogarchError
from memory.working_memory import (
    SECTION_TITLES,
    MemoryDocument,
    Section,
    SectionLookupError,
    SectionSpan,
    body_end_index,
    canonical_line,
    find_section_index,
    is_blank,
    is_header_line,
    normalize_title,
    parse_memory,
    render_memory,
    section_spans,
    strip_list_marker,
)

SUBSTRING_MIN_CHARS = 8
"""Delete targets at least this long (in canonical form) may match part of a line."""


class MemoryToolError(CogarchError, ValueError):
    """A memory tool call that cannot be carried out; the message says how to fix the call."""


@dataclass(frozen=True)
class ToolMeta:
    """What a call did. ``changed_lines`` counts lines removed plus lines added."""

    applied_hunks: int = 0
    changed_lines: int = 0
    sections_touched: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ToolResult:
    """The memory after a call, and the report of what changed."""

    new_memory: str
    meta: ToolMeta

    def to_dict(self) -> dict[str, Any]:
        return {"new_memory": self.new_memory, "meta": asdict(self.meta)}


@dataclass(frozen=True)
class EditOptions:
    """Matching options of ``patch_memory`` and ``replace_in_memory``."""

    strict_context: bool
    normalize_whitespace: bool
    case_sensitive: bool


PATCH_DEFAULTS = EditOptions(strict_context=False, normalize_whitespace=True, case_sensitive=True)
REPLACE_DEFAULTS = EditOptions(strict_context=True, normalize_whitespace=False, case_sensitive=True)


# ---------------------------------------------------------------------------------------------
# overwrite / append / delete


def overwrite_memory(current_memory: str, *, new_memory: str) -> ToolResult:
    """Replace the whole memory with ``new_memory``.

    The paper puts no structural constraint on an overwrite, so a text without the section
    headers is accepted. ``meta.warnings`` then names the headers that went missing, because
    the section-based tools can no longer address those sections.
    """
    _check_memory(current_memory)
    if not isinstance(new_memory, str):
        raise MemoryToolError(
            "overwrite_memory: 'new_memory' must be the complete new memory as one string, got "
            f"{_kind(new_memory)}. Write the whole memory, section headers included."
        )
    expected = parse_memory(current_memory).titles or list(SECTION_TITLES)
    present = {normalize_title(title) for title in parse_memory(new_memory).titles}
    missing = [title for title in expected if normalize_title(title) not in present]
    warnings = []
    if missing:
        warnings.append(
            f"The new memory has no section header for {_quoted(missing)}; keep headers like "
            "'## 1. Goals and Plans' so every section stays addressable."
        )
    return _result(current_memory, new_memory, applied=1, warnings=warnings)


def append_in_memory(
    current_memory: str, *, section_title: str, lines: Sequence[str] | str
) -> ToolResult:
    """Add ``lines`` at the end of a section's body, before the blank lines that end it.

    A single string counts as one line; strings with line breaks are split; blank lines are
    dropped. A line that would be a section header (``"## ..."``) is refused.
    """
    tool = "append_in_memory"
    _check_memory(current_memory)
    new_lines = _lines_argument(tool, lines)
    if not new_lines:
        raise MemoryToolError(
            f"{tool}: 'lines' has no text to append. Pass a list of non-empty strings, "
            'e.g. ["- The user prefers short answers."].'
        )
    for line in new_lines:
        if is_header_line(line):
            raise MemoryToolError(
                f"{tool}: the line '{_clip(line)}' starts with '## ', which makes it a section "
                "header. Headers cannot be added or changed; write it as a normal line "
                "(e.g. starting with '- ' or '### ')."
            )
    doc = parse_memory(current_memory)
    index = _section_index(tool, doc, section_title)
    body = list(doc.sections[index].body)
    at = body_end_index(body)
    eol = _eol(current_memory)
    body[at:at] = [line + eol for line in new_lines]
    return _result(current_memory, _with_body(doc, index, body), applied=1, warnings=[])


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
    _check_memory(current_memory)
    raw_targets = _lines_argument(tool, lines)
    if not raw_targets:
        raise MemoryToolError(
            f"{tool}: 'lines' has no text. Pass the lines to delete as a list of strings, "
            'e.g. ["- Old hypothesis: the word has an E."].'
        )
    doc = parse_memory(current_memory)
    index = _section_index(tool, doc, section_title)
    section = doc.sections[index]
    warnings: list[str] = []
    targets: list[tuple[str, str]] = []
    for raw in raw_targets:
        canonical = canonical_line(raw)
        if is_header_line(raw):
            warnings.append(f"'{_clip(raw)}' is a section header; headers are never deleted.")
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
            f"{_quoted(raw_targets)}. {_describe_body(section)} Copy a line as it appears (its "
            f"list marker may be left out); targets shorter than {SUBSTRING_MIN_CHARS} "
            "characters must match a whole line."
        )
    for raw, count in hits.items():
        if count == 0:
            warnings.append(f"'{_clip(raw)}' matched no line in section '{section.title}'.")
        elif count > 1:
            warnings.append(f"'{_clip(raw)}' matched {count} lines; all of them were deleted.")
    new_memory = _with_body(doc, index, kept)
    return _result(current_memory, new_memory, applied=1, warnings=warnings)


def _deletes(target: str, line: str) -> bool:
    return target == line or (len(target) >= SUBSTRING_MIN_CHARS and target in line)


# ---------------------------------------------------------------------------------------------
# patch

_Key = Callable[[str], str]
_HUNK_HEADER = re.compile(r"^@@+\s*(?:section\b\s*:?\s*)?(.*?)\s*(?:@@+\s*)?$", re.IGNORECASE)
PATCH_EXAMPLE = (
    "*** Begin Patch\n*** Update Memory\n@@ section: Active Notes\n- old line\n+ new line\n"
    "*** End Patch"
)


@dataclass(frozen=True)
class PatchOp:
    """One patch line: unchanged context, a line to delete, or a line to insert."""

    kind: Literal["context", "delete", "insert"]
    text: str


@dataclass(frozen=True)
class Hunk:
    """The lines under one ``@@ section: <Title>`` anchor.

    ``start_header`` is set when the hunk's first context line is the section header itself,
    which pins the hunk to the top of the section body.
    """

    number: int
    section: str
    ops: tuple[PatchOp, ...]
    start_header: str | None = None

    def _texts(self, *kinds: str) -> list[str]:
        return [op.text for op in self.ops if op.kind in kinds]

    @property
    def old(self) -> list[str]:
        return self._texts("context", "delete")

    @property
    def new(self) -> list[str]:
        return self._texts("context", "insert")

    @property
    def deletes(self) -> list[str]:
        return self._texts("delete")

    @property
    def inserts(self) -> list[str]:
        return self._texts("insert")


def parse_patch(patch: str) -> list[Hunk]:
    """The hunks of a patch; raises :class:`MemoryToolError` for a malformed or empty patch.

    Format (the paper's, read leniently)::

        *** Begin Patch
        *** Update Memory
        @@ section: Goals and Plans
        [context line]          (or " context line": one leading space is dropped)
        - line to delete
        + line to insert
        *** End Patch

    Text before ``*** Begin Patch`` and after ``*** End Patch`` is ignored, and both markers
    may be missing; prose before the first hunk is ignored too, but a ``+``/``-`` line there
    is an error (it belongs to no section). Other ``***`` lines, code fences, ``...`` lines and
    blank lines are ignored: blank lines are layout, not content. After ``+``/``-`` one space
    is dropped.
    """
    tool = "patch_memory"
    lines = [line.removesuffix("\r") for line in patch.split("\n")]
    marks = [line.rstrip().lower() for line in lines]
    start = next((i + 1 for i, m in enumerate(marks) if m.startswith("*** begin patch")), 0)
    end = next((i for i in range(start, len(lines)) if marks[i].startswith("*** end patch")), None)
    heads: list[tuple[int, str]] = []
    bodies: list[list[PatchOp]] = []
    for number, line in enumerate(lines[start:end], start=start + 1):
        if line.startswith("@@"):
            match = _HUNK_HEADER.match(line)
            title = match.group(1) if match else ""
            if not title:
                raise MemoryToolError(
                    f"{tool}: the hunk header on patch line {number} ('{_clip(line)}') names no "
                    "section. Write it as '@@ section: <Title>', e.g. '@@ section: Active Notes'."
                )
            heads.append((number, title))
            bodies.append([])
        elif line.startswith(("***", "```")) or line.rstrip() == "..." or is_blank(line):
            continue
        elif not heads:
            if not line.startswith(("-", "+")) or line.startswith(("---", "+++")):
                continue  # prose or diff file headers before the first hunk
            raise MemoryToolError(
                f"{tool}: patch line {number} ('{_clip(line)}') comes before any "
                "'@@ section: <Title>' header; start every hunk with one. Example:\n"
                + PATCH_EXAMPLE
            )
        else:
            op = _patch_op(line)
            if not is_blank(op.text):
                bodies[-1].append(op)
    if not heads:
        raise MemoryToolError(
            f"{tool}: the patch contains no hunk. A patch looks like:\n{PATCH_EXAMPLE}"
        )
    return [
        _make_hunk(n, title, ops)
        for n, ((_, title), ops) in enumerate(zip(heads, bodies, strict=True), 1)
    ]


def _patch_op(line: str) -> PatchOp:
    sign = line[0]
    if sign in "+-":
        text = line[1:]
        return PatchOp("insert" if sign == "+" else "delete", text.removeprefix(" "))
    return PatchOp("context", line.removeprefix(" "))


def _make_hunk(number: int, section: str, ops: list[PatchOp]) -> Hunk:
    tool = "patch_memory"
    label = f"hunk {number} (@@ section: {section})"
    start_header = None
    if ops and ops[0].kind == "context" and is_header_line(ops[0].text):
        start_header = ops.pop(0).text
    if not any(op.kind != "context" for op in ops):
        raise MemoryToolError(
            f"{tool}: {label} changes nothing: mark lines to delete with '-' and lines to add "
            "with '+'."
        )
    for op in ops:
        if is_header_line(op.text):
            action = {"insert": "add", "delete": "delete", "context": "use as context"}[op.kind]
            raise MemoryToolError(
                f"{tool}: {label} tries to {action} the header line '{_clip(op.text)}'. Section "
                "headers cannot be added, deleted or edited (a header may only appear as the "
                "first context line of a hunk, meaning 'at the top of this section')."
            )
    return Hunk(number, section, tuple(ops), start_header)


def patch_memory(
    current_memory: str,
    *,
    patch: str,
    explanation: str = "",
    expected_hunks: int | None = None,
    expected_changes: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> ToolResult:
    """Apply a section-anchored patch (format in :mod:`memory.patch_format`).

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
    _check_memory(current_memory)
    if not isinstance(patch, str):
        raise MemoryToolError(
            f"{tool}: 'patch' must be the patch text as a string, got {_kind(patch)}."
        )
    _need_str(tool, "explanation", explanation)
    opts = read_options(tool, options, PATCH_DEFAULTS)
    hunks = parse_patch(patch)
    planned = sum(len(h.deletes) + len(h.inserts) for h in hunks)
    for name, value, actual, unit in (
        ("expected_hunks", expected_hunks, len(hunks), "hunk(s) ('@@ section:' headers)"),
        ("expected_changes", expected_changes, planned, "'+'/'-' line(s)"),
    ):
        wanted = _need_count(tool, name, value, minimum=0)
        if wanted is not None and wanted != actual:
            raise MemoryToolError(
                f"{tool}: {name}={wanted} but the patch contains {actual} {unit}. Fix the patch "
                f"or {name}. No change was made."
            )
    doc = parse_memory(current_memory)
    eol = _eol(current_memory)
    applied = 0
    warnings: list[str] = []
    for hunk in hunks:
        doc, note = _apply_hunk(doc, hunk, opts, eol)
        if note is None:
            applied += 1
        else:
            warnings.append(note)
    return _result(current_memory, render_memory(doc), applied=applied, warnings=warnings)


def _apply_hunk(
    doc: MemoryDocument, hunk: Hunk, opts: EditOptions, eol: str
) -> tuple[MemoryDocument, str | None]:
    """The document after one hunk, and a warning when the hunk was skipped."""
    tool = "patch_memory"
    index = _section_index(tool, doc, hunk.section)
    section = doc.sections[index]
    label = f"hunk {hunk.number} (@@ section: {section.title})"
    at_start = hunk.start_header is not None
    if hunk.start_header is not None and _section_index(tool, doc, hunk.start_header) != index:
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
        new_body = [*body[:at], *(text + eol for text in hunk.inserts), *body[at:]]
        return _replace_body(doc, index, new_body), None
    for key in keys:
        matches = _find_block(body, hunk.old, key, at_start=at_start)
        matches = [m for m in matches if not any(set(m) <= set(p) for p in post)]
        if len(matches) == 1:
            return _replace_body(doc, index, _splice(body, hunk, matches[0], eol)), None
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
        return done(f"none of the lines to delete is in the section ({_quoted(hunk.deletes)})")
    raise MemoryToolError(
        f"{tool}: {label} could not be applied: {_why_missing(doc, index, hunk, keys)} Copy "
        "context and '-' lines exactly from the current memory, in order. No change was made."
    )


def _splice(body: tuple[str, ...], hunk: Hunk, match: list[int], eol: str) -> list[str]:
    """``body`` with the hunk applied at ``match`` (the body indices of its old lines)."""
    out = list(body[: match[0]])
    j = 0
    for op in hunk.ops:
        if op.kind == "insert":
            out.append(op.text + eol)
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
        hint = f" It is in section {_quoted(elsewhere)}." if elsewhere else ""
        return f"the line '{_clip(text)}' is not in section '{section.title}'.{hint}"
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


# ---------------------------------------------------------------------------------------------
# replace

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
    _check_memory(current_memory)
    old = _need_str(tool, "old_string", old_string)
    new = _need_str(tool, "new_string", new_string)
    _need_str(tool, "explanation", explanation)
    if not old:
        raise MemoryToolError(
            f"{tool}: 'old_string' is empty. Give the exact text to replace; to add text, "
            "replace a nearby line with itself plus the new text."
        )
    pre = _optional_str(tool, "pre_context", pre_context)
    post = _optional_str(tool, "post_context", post_context)
    title = _optional_str(tool, "section_title", section_title)
    expected = _need_count(tool, "expected_replacements", expected_replacements, minimum=1) or 1
    opts = read_options(tool, options, REPLACE_DEFAULTS)
    text = current_memory
    doc = parse_memory(text)
    spans = section_spans(doc)
    headers = [(span.header_start, span.header_end) for span in spans]
    lo, hi, scope, index = 0, len(text), "the working memory", None
    if title is not None:
        index = _section_index(tool, doc, title)
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
        return _result(text, text, applied=0, warnings=[f"Replacement skipped: {note}."])
    if not targets:
        detail = _why_not_found(finder, doc, spans, old, lo, hi, scope, index)
        raise MemoryToolError(f"{tool}: {detail} Copy the exact text from the current memory.")
    if len(targets) != expected:
        already = len(found) - len(targets)
        extra = f" ({already} more already replaced)" if already else ""
        anchored = " with the given context" if pre or post else ""
        raise MemoryToolError(
            f"{tool}: expected {expected} replacement(s), but old_string '{_clip(old)}' matches "
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
    if not _headers_kept(doc, spans, new_memory, targets, len(new)):
        raise MemoryToolError(
            f"{tool}: this replacement would add, remove or break a section header line (a "
            "line starting with '## '). Headers cannot be changed: keep new_string free of lines "
            "starting with '## ' and do not replace the line break before a header. No change "
            "was made."
        )
    return _result(text, new_memory, applied=1, warnings=[])


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
        out = []
        for match in self._compile(self._literal(needle)).finditer(self.text, lo, hi):
            start, end = match.span()
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
    clipped = _clip(old)
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
                f"old_string '{clipped}' is not in {scope} but in section {_quoted(others)}; fix "
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
    spans: list[SectionSpan],
    new_text: str,
    targets: list[tuple[int, int]],
    new_length: int,
) -> bool:
    """True when every header is still a whole line of its own and none was added."""
    if len(parse_memory(new_text).sections) != len(doc.sections):
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


# ---------------------------------------------------------------------------------------------
# shared helpers


def read_options(tool: str, options: object, defaults: EditOptions) -> EditOptions:
    """Validated matching options: ``None`` keeps ``defaults``; unknown keys are refused."""
    if options is None:
        return defaults
    names = list(asdict(defaults))
    if not isinstance(options, Mapping):
        raise MemoryToolError(
            f"{tool}: 'options' must be an object with the keys {_quoted(names)}, got "
            f"{_kind(options)}."
        )
    values = asdict(defaults)
    for name, value in options.items():
        if name not in values:
            raise MemoryToolError(
                f"{tool}: unknown option {name!r}; the options are {_quoted(names)}."
            )
        if value is None:
            continue
        if not isinstance(value, bool):
            raise MemoryToolError(f"{tool}: option '{name}' must be true or false, got {value!r}.")
        values[name] = value
    return EditOptions(**values)


def _result(old: str, new: str, *, applied: int, warnings: list[str]) -> ToolResult:
    meta = ToolMeta(
        applied_hunks=applied,
        changed_lines=_changed_lines(old, new),
        sections_touched=_touched_sections(parse_memory(old), parse_memory(new)),
        warnings=warnings,
    )
    return ToolResult(new_memory=new, meta=meta)


def _changed_lines(old: str, new: str) -> int:
    if old == new:
        return 0
    matcher = difflib.SequenceMatcher(None, old.split("\n"), new.split("\n"), autojunk=False)
    return sum(
        (i2 - i1) + (j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    )


def _touched_sections(old: MemoryDocument, new: MemoryDocument) -> list[str]:
    def label(section: Section) -> str:
        return section.title or section.header.strip()

    if old.headers == new.headers:
        return [label(a) for a, b in zip(old.sections, new.sections, strict=True) if a != b]
    before = {s.header: s.body for s in old.sections}
    after = {s.header: s.body for s in new.sections}
    touched: list[str] = []
    for section in (*new.sections, *old.sections):
        name = label(section)
        if before.get(section.header) != after.get(section.header) and name not in touched:
            touched.append(name)
    return touched


def _with_body(doc: MemoryDocument, index: int, body: list[str]) -> str:
    return render_memory(_replace_body(doc, index, body))


def _replace_body(doc: MemoryDocument, index: int, body: list[str]) -> MemoryDocument:
    return doc.with_section(index, doc.sections[index].with_body(body))


def _section_index(tool: str, doc: MemoryDocument, title: object) -> int:
    if not isinstance(title, str):
        raise MemoryToolError(
            f"{tool}: 'section_title' must be a string such as 'Active Notes', got {_kind(title)}."
        )
    try:
        return find_section_index(doc, title)
    except SectionLookupError as exc:
        raise MemoryToolError(f"{tool}: {exc}") from None


def _lines_argument(tool: str, lines: object) -> list[str]:
    """``lines`` as non-blank single lines (a string is one line; line breaks split)."""
    if isinstance(lines, str):
        items: list[str] = [lines]
    elif isinstance(lines, list | tuple) and all(isinstance(item, str) for item in lines):
        items = list(lines)
    else:
        raise MemoryToolError(
            f'{tool}: \'lines\' must be a list of strings, e.g. ["- first", "- second"], got '
            f"{_kind(lines)}."
        )
    return [part.rstrip() for item in items for part in item.split("\n") if not is_blank(part)]


def _check_memory(current_memory: object) -> None:
    if not isinstance(current_memory, str):
        raise TypeError(f"current_memory must be the memory text (str), got {type(current_memory)}")


def _need_str(tool: str, name: str, value: object) -> str:
    if not isinstance(value, str):
        raise MemoryToolError(f"{tool}: '{name}' must be a string, got {_kind(value)}.")
    return value


def _optional_str(tool: str, name: str, value: object) -> str | None:
    return None if value is None or value == "" else _need_str(tool, name, value)


def _need_count(tool: str, name: str, value: object, *, minimum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise MemoryToolError(
            f"{tool}: '{name}' must be a whole number of at least {minimum}, got {value!r}."
        )
    return value


def _eol(text: str) -> str:
    """``"\\r"`` for text with Windows line ends, so inserted lines keep its style."""
    return "\r" if "\r\n" in text and text.count("\n") == text.count("\r\n") else ""


def _describe_body(section: Section, limit: int = 12) -> str:
    lines = [line.strip() for line in section.body if not is_blank(line)]
    if not lines:
        return "The section is empty."
    shown = _quoted([_clip(line) for line in lines[:limit]])
    more = f" and {len(lines) - limit} more" if len(lines) > limit else ""
    return f"Its lines are: {shown}{more}."


def _kind(value: object) -> str:
    names = {type(None): "null", bool: "a boolean", int: "a number", float: "a number"}
    names |= {str: "a string", list: "a list", tuple: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def _clip(text: str, limit: int = 80) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _quoted(items: Sequence[str]) -> str:
    return ", ".join(f"'{item}'" for item in items)
