"""The Python and shell snippets of the README and the site's pages, found in their Markdown.

A fenced ``python`` or ``bash`` block runs in the test suite unless the line before it is a
marker ``<!-- snippet: not run: REASON -->`` (the reason is required). Python snippets of one
page run in order in one namespace, as a reader would type them; shell snippets run with
``bash -e``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LANGS = {"python": "python", "py": "python", "bash": "bash", "sh": "bash", "shell": "bash"}
MARKER = re.compile(r"^<!--\s*snippet:\s*not run:\s*(?P<reason>.*?)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[A-Za-z0-9_+-]*)\s*$")


@dataclass(frozen=True)
class Snippet:
    file: str
    line: int
    lang: str
    code: str
    skip_reason: str | None

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def documents() -> list[Path]:
    """The README and every page under docs/ (generated pages are not files)."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def snippets_of(path: Path) -> list[Snippet]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Snippet] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), len(lines))
        lang = LANGS.get(match["lang"].lower())
        if lang is not None:
            marker = MARKER.match(lines[i - 1].strip()) if i else None
            indent = len(match["indent"])
            code = "\n".join(line[indent:] for line in lines[i + 1 : end]) + "\n"
            reason = marker["reason"] if marker else None
            name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
            found.append(Snippet(name, i + 1, lang, code, reason))
        i = end + 1
    return found


def all_snippets() -> list[Snippet]:
    return [s for doc in documents() for s in snippets_of(doc)]
