"""The leaderboard's files in the suite's folder: Markdown, CSV, JSON and an HTML page.

``leaderboard.json`` holds ``{"suite", "cells", "rows", ...}`` (see ``leaderboard.Leaderboard``);
``leaderboard.csv`` one line per cell; ``leaderboard.md`` the table (headroom beside each
score, each column's settings warnings above it), each column's judge audit, the controls,
headroom and settings per cell (context tokens per question among them) and the costs, with
the definitions; ``leaderboard.html`` the same with score-against-tokens figures
(``leaderboard_html``). Every file is written atomically and rebuilt from the trial files.
"""

from __future__ import annotations

import csv
import io
import os
import sys
from pathlib import Path

from cogarch.io import atomic_write_json, atomic_write_text

from ..reports.page import md_text, table_markdown
from ..suites.folder import clear_for_file
from ..tables.tidy_table import csv_cell
from .board import Cell, Leaderboard, build_leaderboard
from .html import leaderboard_page
from .tables import (
    audit_lines,
    cost_shared,
    cost_table,
    main_shared,
    main_table,
    metric_lines,
    more_table,
    ranking_lines,
    settings_shared,
    settings_table,
    shared_text,
    warning_lines,
)

SETTINGS_TITLE = "Controls, headroom and settings"
CSV_COLUMNS = [
    "agent",
    "task",
    "metric",
    "value",
    "low",
    "high",
    "n",
    "status",
    "complete",
    "trials",
    "best",
    "p_value",
    "p_adjusted",
    "significant",
    "test",
    "calls",
    "prompt_tokens",
    "completion_tokens",
    "memory_calls",
    "seconds",
    "tokens_per_success",
    "money",
    "clusters",
    "failures",
    "ranked_value",
    "ranked_n",
    "interval_note",
    "control",
    "headroom",
    "headroom_low",
    "headroom_high",
    "context_tokens_mean",
    "context_tokens_p95",
]


def to_markdown(board: Leaderboard) -> str:
    """The leaderboard as Markdown; every name and line taken from the files is escaped (no
    HTML or Markdown in a name is ever rendered)."""
    left_out = (
        ["## Left out", "", *(f"- {md_text(line)}" for line in board.left_out), ""]
        if board.left_out
        else []
    )
    warnings = warning_lines(board)
    audits = audit_lines(board)
    parts = [
        f"# Leaderboard: {md_text(board.suite)}",
        "",
        *_said_once(shared_text(main_shared(board))),
        *(
            ["Settings differ within a column:", "", *(f"- {md_text(w)}" for w in warnings), ""]
            if warnings
            else []
        ),
        table_markdown(main_table(board)),
        "",
        f"`*` tied with the task's best cell; `†` differs significantly from it (Holm, alpha "
        f"{board.alpha}); headroom: the share of the gap from the no-memory control to the "
        "oracle that the cell closes, with its 95% paired-bootstrap interval.",
        "",
        *(["## Judge audit", "", *(f"- {md_text(a)}" for a in audits), ""] if audits else []),
        "## Metrics",
        "",
        *(f"- {md_text(line)}" for line in metric_lines(board)),
        "",
        *_more_section(board),
        "## Items ranked on",
        "",
        *(f"- {md_text(line)}" for line in ranking_lines(board)),
        "",
        *left_out,
        f"## {SETTINGS_TITLE}",
        "",
        *_said_once(shared_text(settings_shared(board))),
        table_markdown(settings_table(board)),
        "",
        "## Costs",
        "",
        *_said_once(shared_text(cost_shared(board))),
        table_markdown(cost_table(board)),
        "",
        "## How to read it",
        "",
        *(f"- {note}" for note in board.notes),
        "",
    ]
    return "\n".join(parts)


def _more_section(board: Leaderboard) -> list[str]:
    """The further metrics' values per cell, when a column has any."""
    table = more_table(board)
    return ["## Further metrics", "", table_markdown(table), ""] if table.rows else []


def _said_once(text: str) -> list[str]:
    """What every row of the next table shares, as a paragraph above it (nothing if none)."""
    return [md_text(text), ""] if text else []


def to_csv(board: Leaderboard) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for cell in board.cells:  # a name that would start a formula is written as text
        flat = {**cell.model_dump(), **cell.costs.model_dump()}
        framed = flat.get("headroom")
        if framed is None or isinstance(framed, dict):  # its value and interval, flat
            framed = framed or {}
            flat["headroom"] = framed.get("value")
            flat["headroom_low"], flat["headroom_high"] = framed.get("low"), framed.get("high")
        writer.writerow([csv_cell(flat[k]) for k in CSV_COLUMNS])
    return out.getvalue()


def write_leaderboard(folder: str | os.PathLike[str]) -> list[Path]:
    """Rebuild the leaderboard of the suite in ``folder`` and write its four files; what the
    trial files held that could not be used is named on stderr, and left out."""
    root = Path(folder)
    board = build_leaderboard(root)
    for line in board.left_out:
        sys.stderr.write(f"warning: {line}\n")
    for name in ("leaderboard.json", "leaderboard.csv", "leaderboard.md", "leaderboard.html"):
        if (moved := clear_for_file(root / name)) is not None:
            sys.stderr.write(f"warning: {moved}\n")
    written = [
        atomic_write_json(root / "leaderboard.json", board.model_dump(mode="json")),
        atomic_write_text(root / "leaderboard.csv", to_csv(board)),
        atomic_write_text(root / "leaderboard.md", to_markdown(board)),
    ]
    page = leaderboard_page(board, report_href=lambda c: _report_of(root, c))
    written.append(atomic_write_text(root / "leaderboard.html", page))
    return written


def _report_of(root: Path, cell: Cell) -> str | None:
    report = Path(cell.folder) / "report" / "report.html"
    return report.as_posix() if (root / report).is_file() else None
