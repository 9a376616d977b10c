"""What a task shows of its trials, as plain data that generic code renders.

A task's own tables and trial-page sections are values of these types, produced by the task
(``Task.report_tables``, ``Task.trial_sections``) and laid out by the report (Markdown and
HTML), the viewer (escaped HTML) and the end-of-run table: the task writes no markup.
A cell too long to show in full on every row (a list of actions, a memory's state) is a
:class:`Fold`: its summary is the cell, and a page lets the reader open it to the whole text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .evaluation import Scalar


@dataclass(frozen=True)
class Fold:
    """A table cell shown folded: ``summary`` in the cell, ``text`` behind it (a page opens
    it on a click; reports and the terminal show the summary only)."""

    summary: str
    """What the cell shows."""
    text: str
    """The whole text, opened from the cell."""


Cell = Scalar | Fold
"""A value a table cell holds: a scalar, or a fold of long text."""


def cell_text(value: Cell) -> str:
    """A cell as text: numbers to three significant digits (whole from 100 up), booleans as
    yes/no, None as a dash, a fold as its summary."""
    if isinstance(value, Fold):
        return value.summary
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.0f}" if 100 <= abs(value) < 1e15 else f"{value:.3g}"
    return str(value)


@dataclass(frozen=True)
class Table:
    """A titled table: a header and rows of cells (text, numbers, booleans, None or folds)."""

    title: str
    """The table's title."""
    header: Sequence[str]
    """The column names."""
    rows: Sequence[Sequence[Cell]] = ()
    """The rows, each with one cell per column (a row of another width raises
    ``ValueError``)."""

    def __post_init__(self) -> None:
        width = len(self.header)
        for i, row in enumerate(self.rows):
            if len(row) != width:
                raise ValueError(
                    f"table '{self.title}': row {i} has {len(row)} cells for {width} columns"
                )

    def text_rows(self) -> list[list[str]]:
        """The rows with every cell as text (see :func:`cell_text`)."""
        return [[cell_text(c) for c in row] for row in self.rows]

    def page_rows(self) -> list[list[tuple[str, str | None]]]:
        """The rows as a page lays them out: each cell's text, and the folded text behind it
        (None for a plain cell)."""
        return [
            [(cell_text(c), c.text if isinstance(c, Fold) else None) for c in row]
            for row in self.rows
        ]


@dataclass(frozen=True)
class Section:
    """A titled part of a trial's page: a table, lines of text, or both."""

    title: str
    """The section's heading."""
    lines: Sequence[str] = ()
    """Lines of text, shown before the table."""
    table: Table | None = None
    """The section's table, if any."""
    preformatted: Sequence[str] = field(default_factory=tuple)
    """Blocks shown as written (a prompt, a reply, a state), each in its own box."""
