"""The tidy table: one row per trial file (:class:`TidyRow`), its columns, and the table
written as CSV and as JSON lines.

Cells are scalars; the per-turn lists and the transition counts are JSON text, so the CSV and
the JSON lines hold the same values. A task's further readings and its own columns come after
``self_consistent``. ``experiments.tables.tidy`` reads a run directory into this table.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from cogarch.core.evaluation import Evaluation, Scalar
from cogarch.core.records import Scoring, TrialRecord
from cogarch.io import atomic_write_text


@dataclass
class TidyRow:
    """One trial, flattened. ``None`` where the trial did not record the value."""

    run: str
    agent: str
    task: str | None
    trial: int | None
    seed: int | None
    status: str
    error_type: str | None = None
    error_message: str | None = None
    outcome: str | None = None
    self_consistent: bool | None = None
    """Whether the trial reached its task's success outcome (None: not rated)."""
    readings: dict[str, str | None] = field(default_factory=dict)
    """The outcome under each further reading the task scores (``{"strict": ...}``)."""
    reading_success: dict[str, bool | None] = field(default_factory=dict)
    """Whether the trial succeeded under each further reading."""
    unrated: str | None = None
    """Why the trial is left out of the rates and the tests (None: it is rated)."""
    answer: str | None = None
    """The trial's final answer, for tasks that ask for one (the SCT's revealed secret)."""
    turns: int | None = None
    final_private_state_tokens: int | None = None
    private_state_tokens: list[int] = field(default_factory=list)
    footprint_tokens: list[int | None] = field(default_factory=list)
    transitions: list[tuple[str, str, int]] = field(default_factory=list)
    """Router transitions as ``(source, target, count)`` (counted from the agent's walk when
    the task recorded none); a cell shows ``{"a->b": n}``."""
    model_calls: int | None = None
    """Every call the trial consumed, response-cache hits included."""
    cache_hits: int | None = None
    """How many of them the response cache served (a resumed or replayed trial)."""
    prompt_tokens: int | None = None
    """Prompt tokens sent."""
    cached_prompt_tokens: int | None = None
    """Prompt tokens the server served from its prompt cache, over the calls that reported it
    (``prompt_cache_reports``); None when no call did."""
    evaluated_prompt_tokens: int | None = None
    """Prompt tokens the server evaluated (sent minus served from cache), over the same calls."""
    prompt_cache_reports: int | None = None
    """Calls that reported their cached prompt tokens."""
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    latency_s: float | None = None
    duration_s: float | None = None
    provider: str | None = None
    model: str | None = None
    agent_model: str | None = None
    """The model of the agent's provider (``fake:<name>`` for a fake), when recorded."""
    base_agent: str | None = None
    """The agent spec the trial ran (``vanilla``, ``workflow``, ...), when recorded."""
    scenario: str | None = None
    """The scenario the trial played, for tasks with several."""
    judging: str | None = None
    """How the trial's replies were judged, for tasks that judge them in more than one way
    (``per_reply`` or ``cross_agent`` for constraint retention)."""
    metrics: dict[str, float] = field(default_factory=dict)
    """Numeric evaluation values (nested ones as ``outer.inner``): ``Evaluation.numeric_values``."""
    columns: dict[str, Scalar] = field(default_factory=dict)
    """The task's own columns (its ``tidy_columns``)."""
    path: str = ""

    def outcome_in(self, reading: str | None) -> str | None:
        """The outcome under ``reading``; the outcome's own reading when it is None, or when
        the trial did not record that reading (a file written before it was scored)."""
        if reading is not None and self.readings.get(reading) is not None:
            return self.readings[reading]
        return self.outcome

    def success_in(self, reading: str | None) -> bool | None:
        """Whether the trial succeeded under ``reading`` (as :meth:`outcome_in` falls back)."""
        if reading is not None and self.readings.get(reading) is not None:
            return self.reading_success.get(reading)
        return self.self_consistent

    def cells(self) -> dict[str, Scalar]:
        """The row as scalar cells (lists and mappings as compact JSON), in column order:
        the task's reading and own columns follow ``self_consistent``."""
        out: dict[str, Scalar] = {}
        for key, value in asdict(self).items():
            if key in _DYNAMIC:
                if key == "readings":
                    for reading, outcome in self.readings.items():
                        out[f"outcome_{reading}"] = outcome
                        out[f"self_consistent_{reading}"] = self.reading_success.get(reading)
                elif key == "columns":
                    out.update(self.columns)
                continue
            if key == "transitions":
                value = {f"{a}->{b}": n for a, b, n in value}
            out[key] = (
                json.dumps(value, separators=(",", ":"))
                if isinstance(value, list | dict)
                else value
            )
        return out


_DYNAMIC = ("readings", "reading_success", "columns")
BASE_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(TidyRow) if f.name not in _DYNAMIC)
"""The columns every run's table has; a task's readings and own columns come after
``self_consistent``."""


def columns_of(rows: Iterable[TidyRow]) -> list[str]:
    """The table's columns: the base ones, with every task column any row has (in the order
    they first appear) after ``self_consistent``."""
    split = BASE_COLUMNS.index("self_consistent") + 1
    extra: dict[str, None] = {}
    for row in rows:
        extra.update(dict.fromkeys(k for k in row.cells() if k not in BASE_COLUMNS))
    return [*BASE_COLUMNS[:split], *extra, *BASE_COLUMNS[split:]]


@dataclass
class TidyTable:
    rows: list[TidyRow]
    status_counts: Counter[str]
    scoring: Scoring = field(default_factory=Scoring)
    """How the run's task tables its outcomes (as its records declare)."""
    readings: dict[str, str] = field(default_factory=dict)
    """The readings the run's task scores trials under, with what each means (the first is
    the outcome's own); empty when it has one reading."""
    records: list[TrialRecord] = field(default_factory=list)
    """The readable records, for the task's own tables."""
    answer_label: tuple[str, str] = Evaluation.answer_label
    """How the run's task names its final answers (see ``Evaluation.answer_label``)."""


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""What a spreadsheet reads a cell starting with as a formula (fullwidth forms included)."""


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows as text: a string that would start a formula
    (``=``, ``+``, ``-``, ``@``, a tab or a line break first) gets a leading ``'``, and a
    carriage return becomes a line feed (which the writer quotes; a bare one would split the
    row for readers); None is empty; numbers stay numbers. The JSONL keeps text as it is."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return value
    text = value.replace("\r\n", "\n").replace("\r", "\n")
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def write_csv(rows: Sequence[TidyRow], path: str | Path) -> Path:
    """The rows as CSV, every text cell (and column name) escaped by :func:`csv_cell`, so
    trial text never becomes a live formula when the file is opened in a spreadsheet."""
    buffer = io.StringIO()
    names = columns_of(rows)
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(name) for name in names])
    for row in rows:
        cells = row.cells()
        writer.writerow([csv_cell(cells.get(name)) for name in names])
    return atomic_write_text(path, buffer.getvalue())


def write_jsonl(rows: Sequence[TidyRow], path: str | Path) -> Path:
    """One JSON object per row, every row with every column of the table (None where the
    row has no value)."""
    names = columns_of(rows)
    lines = []
    for row in rows:
        cells = row.cells()
        lines.append(json.dumps({k: cells.get(k) for k in names}, ensure_ascii=False) + "\n")
    return atomic_write_text(path, "".join(lines))
