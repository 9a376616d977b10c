"""The patch format of ``patch_memory``: parsing a patch into section-anchored hunks.

A patch names the section each hunk edits and lists its lines, marked as context, ``-``
(delete) or ``+`` (insert); :func:`parse_patch` reads it leniently, as models write it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .document import is_blank, is_header_line
from .edit_args import clip
from .edit_meta import MemoryToolError

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
                    f"{tool}: the hunk header on patch line {number} ('{clip(line)}') names no "
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
                f"{tool}: patch line {number} ('{clip(line)}') comes before any "
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
                f"{tool}: {label} tries to {action} the header line '{clip(op.text)}'. Section "
                "headers cannot be added, deleted or edited (a header may only appear as the "
                "first context line of a hunk, meaning 'at the top of this section')."
            )
    return Hunk(number, section, tuple(ops), start_header)
