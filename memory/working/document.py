"""The private working memory document: plain text in three titled sections.

The memory is ordinary markdown::

    ## 1. Goals and Plans
    ...
    ## 2. Facts and Knowledge
    ...
    ## 3. Active Notes
    ...

Lines are separated by ``"\\n"`` only (a ``"\\r"`` before it stays part of the line), and any
line that starts with ``"## "`` after optional spaces is a section header. Everything before
the first header is the *preface*. :func:`parse_memory` and :func:`render_memory` are exact
inverses: ``render_memory(parse_memory(text)) == text`` for every string, so tools can edit
one section and leave every other byte where it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

SECTION_TITLES: tuple[str, ...] = ("Goals and Plans", "Facts and Knowledge", "Active Notes")
"""The three sections of the paper's working memory, in order."""

INITIAL_MEMORY = "## 1. Goals and Plans\n\n## 2. Facts and Knowledge\n\n## 3. Active Notes\n"
"""The memory every agent starts from: the three headers with empty bodies."""

SECTION_ALIASES: dict[str, str] = {
    "goals": "Goals and Plans",
    "plans": "Goals and Plans",
    "goals / plans": "Goals and Plans",
    "facts": "Facts and Knowledge",
    "knowledge": "Facts and Knowledge",
    "episodic buffer": "Facts and Knowledge",
    "facts / knowledge": "Facts and Knowledge",
    "facts / knowledge / episodic buffer": "Facts and Knowledge",
    "active knowledge": "Active Notes",
    "inference": "Active Notes",
    "inferences": "Active Notes",
    "reasoning": "Active Notes",
    "notes": "Active Notes",
    "inference / reasoning / active knowledge": "Active Notes",
}
"""Loose section names (from the paper's Appendix B and G) and the section they mean.

An alias is used only when no section carries that title itself and exactly one section has
the aliased title, so a memory with its own "Knowledge" section is never redirected.
"""

_NUMBER_RE = re.compile(r"^(\d+(?:\.\d+)*)[.)]\s*(.*)$", re.DOTALL)
_QUERY_NUMBER_RE = re.compile(r"^(?:section\s+)?(\d+(?:\.\d+)*)[.)]?(?:\s+|$)", re.IGNORECASE)
_PARENTHETICAL_RE = re.compile(r"\([^()]*\)")
_BULLET_RE = re.compile(r"^(?:[-*+•·‣▪◦●–—]\s*|\d+[.)]\s+)+")


class SectionLookupError(ValueError):
    """A section title matched no section, or more than one."""


@dataclass(frozen=True)
class DocumentSection:
    """One ``## `` header line and the body lines up to the next header."""

    header: str
    title: str
    number: str | None
    body: tuple[str, ...]

    def with_body(self, body: tuple[str, ...] | list[str]) -> DocumentSection:
        return replace(self, body=tuple(body))

    @property
    def lines(self) -> tuple[str, ...]:
        return (self.header, *self.body)


@dataclass(frozen=True)
class MemoryDocument:
    """A parsed memory: the preface lines, then the sections in their original order."""

    preface: tuple[str, ...]
    sections: tuple[DocumentSection, ...]

    @property
    def titles(self) -> list[str]:
        return [section.title for section in self.sections]

    @property
    def headers(self) -> list[str]:
        return [section.header for section in self.sections]

    def lines(self) -> list[str]:
        out = list(self.preface)
        for section in self.sections:
            out.extend(section.lines)
        return out

    def with_section(self, index: int, section: DocumentSection) -> MemoryDocument:
        sections = list(self.sections)
        sections[index] = section
        return replace(self, sections=tuple(sections))


@dataclass(frozen=True)
class SectionSpan:
    """Character offsets of one section in the rendered text (end offsets are exclusive).

    ``body_start:body_end`` covers the body including the newline before the next header.
    """

    header_start: int
    header_end: int
    body_start: int
    body_end: int


def is_header_line(line: str) -> bool:
    """True for a section header line: ``"## "`` after optional leading spaces."""
    return line.lstrip(" ").startswith("## ")


def is_blank(line: str) -> bool:
    return not line.strip()


def parse_header(line: str) -> tuple[str, str | None]:
    """``"## 1. Goals and Plans"`` -> ``("Goals and Plans", "1")``; the number is optional."""
    text = line.lstrip(" ")[3:].strip()
    match = _NUMBER_RE.match(text)
    if match:
        return match.group(2).strip(), match.group(1)
    return text, None


def parse_memory(text: str) -> MemoryDocument:
    """Split ``text`` into preface and sections; never fails, whatever the text."""
    preface: list[str] = []
    sections: list[DocumentSection] = []
    header: str | None = None
    body: list[str] = []
    for line in text.split("\n"):
        if is_header_line(line):
            if header is not None:
                sections.append(_make_section(header, body))
            header, body = line, []
        elif header is None:
            preface.append(line)
        else:
            body.append(line)
    if header is not None:
        sections.append(_make_section(header, body))
    return MemoryDocument(preface=tuple(preface), sections=tuple(sections))


def render_memory(doc: MemoryDocument) -> str:
    """The exact text ``doc`` was parsed from (or the text of an edited document)."""
    return "\n".join(doc.lines())


parse = parse_memory
render = render_memory


def _make_section(header: str, body: list[str]) -> DocumentSection:
    title, number = parse_header(header)
    return DocumentSection(header=header, title=title, number=number, body=tuple(body))


def section_spans(doc: MemoryDocument) -> list[SectionSpan]:
    """Where each section's header and body sit in ``render_memory(doc)``."""
    total = len(render_memory(doc))
    offset = sum(len(line) + 1 for line in doc.preface)
    starts: list[int] = []
    for section in doc.sections:
        starts.append(offset)
        offset += sum(len(line) + 1 for line in section.lines)
    spans: list[SectionSpan] = []
    for i, (start, section) in enumerate(zip(starts, doc.sections, strict=True)):
        header_end = start + len(section.header)
        body_end = starts[i + 1] if i + 1 < len(starts) else total
        spans.append(SectionSpan(start, header_end, min(header_end + 1, body_end), body_end))
    return spans


def body_end_index(body: tuple[str, ...] | list[str]) -> int:
    """Where appended lines go: after the last non-blank line, before trailing blank lines."""
    end = len(body)
    while end > 0 and is_blank(body[end - 1]):
        end -= 1
    return end


def strip_list_marker(text: str) -> str:
    """``"  - 1. item "`` -> ``"item"``: surrounding spaces and leading list markers removed."""
    return _BULLET_RE.sub("", text.strip()).strip()


def canonical_line(text: str, *, fold_case: bool = True) -> str:
    """A line reduced for forgiving comparison: list markers dropped, spacing collapsed.

    ``"  - Secret  word: APPLE"`` -> ``"secret word: apple"``.
    """
    stripped = strip_list_marker(" ".join(text.split()))
    return stripped.casefold() if fold_case else stripped


def normalize_title(title: str) -> str:
    """Comparable form of a section title: no ``#``, no number, case and spacing folded."""
    text = title.strip().strip("\"'`*").strip()
    text = text.lstrip("#").strip()
    match = _QUERY_NUMBER_RE.match(text)
    if match and match.end() < len(text):
        text = text[match.end() :]
    text = text.replace("&", " and ").replace("/", " / ")
    text = " ".join(text.split()).casefold()
    return text.rstrip(":").strip()


def _without_parenthetical(normalized: str) -> str:
    return " ".join(_PARENTHETICAL_RE.sub(" ", normalized).split())


def _query_number(title: str) -> tuple[str | None, bool]:
    """The number a query names, and whether the query is nothing but that number."""
    text = title.strip().strip("\"'`*").lstrip("#").strip()
    match = _QUERY_NUMBER_RE.match(text)
    if match is None:
        return None, False
    return match.group(1), match.end() >= len(text)


def find_section_index(doc: MemoryDocument, title: str) -> int:
    """The index of the section ``title`` names; raises :class:`SectionLookupError`.

    Matching ignores case, spacing, ``## `` and the number prefix ("goals and plans",
    "1. Goals and Plans" and "## 1. goals  and plans" all match). Then, in order: a title with a
    parenthetical note ("Active Knowledge (Reasoning Outputs & Ephemeral Notes)") is matched
    without it, :data:`SECTION_ALIASES` are tried, and a bare number ("2") picks the section
    numbered so.
    """
    if not doc.sections:
        raise SectionLookupError(
            f"Section '{title}' cannot be found: the working memory has no section headers "
            "(lines starting with '## '). Section-based edits need the headers "
            f"{_quoted(SECTION_TITLES)}."
        )
    query = normalize_title(title)
    number, number_only = _query_number(title)
    keys = [normalize_title(s.title) for s in doc.sections]
    short_keys = [_without_parenthetical(k) for k in keys]
    short_query = _without_parenthetical(query)
    alias = SECTION_ALIASES.get(query) or SECTION_ALIASES.get(short_query)
    tiers: list[list[int]] = [
        [i for i, k in enumerate(keys) if query and k == query],
        [i for i, k in enumerate(short_keys) if short_query and k == short_query],
    ]
    if alias is not None:
        target = normalize_title(alias)
        tiers.append([i for i, k in enumerate(short_keys) if k == target])
    if number is not None and number_only:
        tiers.append([i for i, s in enumerate(doc.sections) if s.number == number])
    for found in tiers:
        if len(found) > 1 and number is not None:
            found = [i for i in found if doc.sections[i].number == number] or found
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            headers = ", ".join(f"'{doc.sections[i].header.strip()}'" for i in found)
            raise SectionLookupError(
                f"Section title '{title}' is ambiguous: it matches {headers}. "
                "Give the exact title with its number, e.g. '## 2. Facts and Knowledge'."
            )
    raise SectionLookupError(
        f"Section '{title}' does not exist. Valid section titles: {_quoted(doc.titles)}. "
        "Use one of them exactly."
    )


def _quoted(titles: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"'{t}'" for t in titles)
