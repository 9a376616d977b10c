"""A run directory as one tidy table: one row per trial file, written as CSV and JSON lines.

Every trial file becomes a row, whatever happened to it: ``status`` is ``complete``,
``failed`` (the trial raised; ``error_type`` / ``error_message`` say what) or ``corrupt`` (the
file cannot be read back, or it records another agent or trial than its folder and name say;
agent and trial come from its path). Cells are scalars; the per-turn
lists and the transition counts are JSON text, so the CSV and the JSON lines hold the same values.

Only the record's typed fields are read: the outcome and the task's declared success outcome,
the turns (private state sizes and memory footprints), the metrics of the evaluation, the
usage, and for the SCT its payload (revealed and memory secrets, the candidates' answers).
Usage counts every call a trial consumed, response-cache hits included, and splits its prompt
tokens into those the server served from its prompt cache and those it evaluated, where the
server reported it (empty cells where it did not, never 0).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from cogarch.core.records import Evaluation, Scoring, SCTPayload, TrialRecord
from cogarch.io import atomic_write_text

from .paths import folder_to_read
from .results import CorruptTrialError, iter_trials, safe_name
from .run_meta import read_run_meta
from .summary import run_scoring

_TRIAL_FILE = re.compile(r"trial_(\d+)\.json$")


@dataclass
class TrialRow:
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
    outcome_strict: str | None = None
    """The outcome under the authors' exact reading of yes/no answers, when recorded."""
    self_consistent_strict: bool | None = None
    candidate_shortfall: int | None = None
    """Candidates the trial could not find (0: it asked as many as requested)."""
    leaked: bool | None = None
    revealed: str | None = None
    memory_secret: str | None = None
    n_candidates: int | None = None
    yes_rate: float | None = None
    parsed_rate: float | None = None
    turns: int | None = None
    final_private_state_tokens: int | None = None
    private_state_tokens: list[int] = field(default_factory=list)
    footprint_tokens: list[int | None] = field(default_factory=list)
    transitions: list[tuple[str, str, int]] = field(default_factory=list)
    """Router transitions as ``(source, target, count)``; a cell shows ``{"a->b": n}``."""
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
    """The scenario a revision or constraint trial played."""
    judging: str | None = None
    """How the trial's replies were judged, for tasks that record it (``per_reply`` or
    ``cross_agent`` for constraint retention)."""
    metrics: dict[str, float] = field(default_factory=dict)
    """Numeric evaluation values (nested ones as ``outer.inner``), see ``metrics_of``."""
    path: str = ""

    def cells(self) -> dict[str, str | int | float | bool | None]:
        """The row as scalar cells (lists and mappings as compact JSON)."""
        out: dict[str, str | int | float | bool | None] = {}
        for key, value in asdict(self).items():
            if key == "transitions":
                value = {f"{a}->{b}": n for a, b, n in value}
            out[key] = (
                json.dumps(value, separators=(",", ":"))
                if isinstance(value, list | dict)
                else value
            )
        return out


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(TrialRow))


@dataclass
class TidyTable:
    rows: list[TrialRow]
    status_counts: Counter[str]
    scoring: Scoring = field(default_factory=Scoring)
    """How the run's task tables its outcomes (as its records declare)."""


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def footprint_of(record: TrialRecord) -> list[int | None]:
    """Per-turn memory footprint tokens, for tasks that measure it (else empty)."""
    return [t.footprint.memory_tokens for t in record.turns if t.footprint is not None]


def _scenario(result: TrialRecord) -> str | None:
    """The scenario the trial played; for trials that predate recording it, the run config's
    scenario when that named a single one."""
    if ev := result.evaluation.metrics.get("scenario"):
        return str(ev)
    task = (result.metadata.config or {}).get("task")
    named = task.get("scenario") if isinstance(task, Mapping) else None
    if isinstance(named, list) and len(named) == 1:
        named = named[0]
    return named if isinstance(named, str) and named != "all" else None


def metrics_of(evaluation: Evaluation) -> dict[str, float]:
    """The evaluation's numbers: top-level ones, and those one mapping deep as ``key.inner``.

    Booleans and lists are left out (they have their own columns or are per-turn series).
    """
    out: dict[str, float] = {}
    for key, value in evaluation.metrics.items():
        if isinstance(value, Mapping):
            for inner, item in value.items():
                number = _float(item)
                if number is not None:
                    out[f"{key}.{inner}"] = number
        else:
            number = _float(value)
            if number is not None:
                out[str(key)] = number
    return out


def _model_names(result: TrialRecord) -> str | None:
    names = sorted({c.model for c in result.usage.calls if c.model})
    if names:
        return ";".join(names)
    settings = result.metadata.provider_settings or {}
    if settings.get("model"):
        return str(settings["model"])
    return f"fake:{settings['fake']}" if settings.get("fake") else None


def _agent_model(result: TrialRecord) -> str | None:
    settings = result.metadata.provider_settings or {}
    if settings.get("model"):
        return str(settings["model"])
    if settings.get("fake"):
        return f"fake:{settings['fake']}"
    return str(settings["kind"]) if settings.get("kind") else None


def row_from_trial(result: TrialRecord, path: Path | str = "") -> TrialRow:
    complete = result.status == "complete"
    usage = result.usage
    tokens = [t.private_state_tokens for t in result.turns if t.private_state_tokens is not None]
    spec = result.metadata.agent_spec or {}
    sct = result.payload if isinstance(result.payload, SCTPayload) else None
    metrics = result.evaluation.metrics
    return TrialRow(
        run=result.run,
        agent=result.agent,
        task=result.task,
        trial=result.trial,
        seed=result.seed,
        status=result.status,
        error_type=result.error.type if result.error else None,
        error_message=result.error.message if result.error else None,
        outcome=result.evaluation.outcome,
        self_consistent=result.succeeded,
        outcome_strict=_str(strict) if (strict := metrics.get("outcome_strict")) else None,
        self_consistent_strict=(
            result.scoring.succeeded(str(strict)) if strict and complete else None
        ),
        candidate_shortfall=_int(metrics.get("candidate_shortfall")),
        leaked=sct.leaked if sct else None,
        revealed=sct.revealed if sct else None,
        memory_secret=sct.memory_secret if sct else None,
        n_candidates=len(sct.candidates) if sct else None,
        yes_rate=sct.yes_rate if sct else None,
        parsed_rate=sct.parsed_rate if sct else None,
        turns=len(result.turns) if complete else None,
        final_private_state_tokens=tokens[-1] if tokens else None,
        private_state_tokens=tokens,
        footprint_tokens=footprint_of(result),
        transitions=[(t.source, t.target, t.count) for t in result.transitions],
        model_calls=usage.model_calls,
        cache_hits=usage.cache_hits,
        prompt_tokens=usage.prompt_tokens,
        cached_prompt_tokens=usage.cached_prompt_tokens,
        evaluated_prompt_tokens=usage.evaluated_prompt_tokens,
        prompt_cache_reports=usage.prompt_cache_reports,
        completion_tokens=usage.completion_tokens,
        reasoning_tokens=usage.reasoning_tokens,
        latency_s=usage.latency_s,
        duration_s=result.metadata.duration_s,
        provider=result.metadata.provider,
        model=_model_names(result),
        agent_model=_agent_model(result),
        base_agent=_str(spec.get("name")),
        scenario=_scenario(result),
        judging=_str(result.evaluation.metrics.get("judging")),
        metrics=metrics_of(result.evaluation) if complete else {},
        path=str(path),
    )


def row_from_corrupt(path: Path, error: CorruptTrialError, run: str) -> TrialRow:
    match = _TRIAL_FILE.search(path.name)
    return TrialRow(
        run=run,
        agent=path.parent.name,
        task=None,
        trial=int(match.group(1)) if match else None,
        seed=None,
        status="corrupt",
        error_type=type(error).__name__,
        error_message=str(error),
        path=str(path),
    )


def misplaced(path: Path, item: TrialRecord | CorruptTrialError) -> CorruptTrialError | None:
    """The problem with a trial file that lies where another agent's or trial's file belongs
    (copied or moved by hand): its folder and name decide what it is, so it counts for no one."""
    if isinstance(item, CorruptTrialError):
        return None
    match = _TRIAL_FILE.search(path.name)
    index = int(match.group(1)) if match else None
    if safe_name(item.agent) == path.parent.name and item.trial == index:
        return None
    return CorruptTrialError(
        f"trial file '{path}' records agent '{item.agent}', trial {item.trial}, but lies where "
        f"trial {index} of folder '{path.parent.name}' belongs; move it back or delete it"
    )


RUN_DIR_HINT = (
    "pass the results directory of a run (the --results-dir given to 'cogarch run', or runs/<name>)"
)


def run_name(run_dir: Path) -> str:
    """The run's name from its ``run.json``, else the directory name."""
    config = read_run_meta(run_dir)[0].get("config") or {}
    return str(config.get("name") or run_dir.name)


def tidy_run(run_dir: str | Path) -> TidyTable:
    """Every trial file under ``run_dir`` as a row (failed and corrupt ones included)."""
    root = folder_to_read(run_dir, "run directory", RUN_DIR_HINT)
    name = run_name(root)
    found = [(path, misplaced(path, item) or item) for path, item in iter_trials(root)]
    rows = [
        row_from_corrupt(path, item, name)
        if isinstance(item, CorruptTrialError)
        else row_from_trial(item, path)
        for path, item in found
    ]
    labels = {safe_name(r.agent): r.agent for r in rows if r.status != "corrupt"}
    for row in rows:  # a file that is not a trial counts for the agent of its folder
        if row.status == "corrupt":
            row.agent = labels.get(row.agent, row.agent)
    records = [item for _, item in found if not isinstance(item, CorruptTrialError)]
    return TidyTable(
        rows=rows, status_counts=Counter(r.status for r in rows), scoring=run_scoring(records)
    )


def write_csv(rows: Sequence[TrialRow], path: str | Path) -> Path:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.cells().items()})
    return atomic_write_text(path, buffer.getvalue())


def write_jsonl(rows: Iterable[TrialRow], path: str | Path) -> Path:
    text = "".join(json.dumps(row.cells(), ensure_ascii=False) + "\n" for row in rows)
    return atomic_write_text(path, text)


def write_tidy(
    run_dir: str | Path, out_dir: str | Path | None = None
) -> tuple[TidyTable, Path, Path]:
    """Tidy ``run_dir`` and write ``trials.csv`` and ``trials.jsonl`` into ``out_dir``."""
    table = tidy_run(run_dir)
    out = Path(out_dir) if out_dir is not None else Path(run_dir)
    return (
        table,
        write_csv(table.rows, out / "trials.csv"),
        write_jsonl(table.rows, out / "trials.jsonl"),
    )


__all__ = [
    "COLUMNS",
    "TidyTable",
    "TrialRow",
    "footprint_of",
    "metrics_of",
    "row_from_corrupt",
    "row_from_trial",
    "run_name",
    "tidy_run",
    "write_csv",
    "write_jsonl",
    "write_tidy",
]
