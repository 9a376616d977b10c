"""A run directory as one tidy table: one row per trial file, written as CSV and JSON lines.

Every trial file becomes a row, whatever happened to it: ``status`` is ``complete``,
``failed`` (the trial raised; ``error_type`` / ``error_message`` say what) or ``corrupt`` (the
file cannot be read back; agent and trial come from its path). Cells are scalars; the per-turn
lists and the transition counts are JSON text, so the CSV and the JSON lines hold the same values.

Per-turn footprints of the revision and constraint tasks are read from the trial's ``extra``
block, first from ``extra["footprint_tokens"]`` (a list with one token count, or null, per
turn), else from the shapes those tasks write today (``extra["revision"]["footprint"][i]`` and
``extra["constraints"]["turns"][i]["footprint"]``, their ``memory_tokens``).
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

from cogarch.errors import ConfigError
from cogarch.io import atomic_write_text

from .results import CorruptTrialError, TrialResult, iter_trials

FOOTPRINT_KEY = "footprint_tokens"
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
    transitions: dict[str, int] = field(default_factory=dict)
    model_calls: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    latency_s: float | None = None
    duration_s: float | None = None
    provider: str | None = None
    model: str | None = None
    base_agent: str | None = None
    """The agent spec the trial ran (``vanilla``, ``workflow``, ...), when recorded."""
    scenario: str | None = None
    """The scenario a revision or constraint trial played."""
    metrics: dict[str, float] = field(default_factory=dict)
    """Numeric evaluation values (nested ones as ``outer.inner``), see ``metrics_of``."""
    path: str = ""

    def cells(self) -> dict[str, str | int | float | bool | None]:
        """The row as scalar cells (lists and mappings as compact JSON)."""
        out: dict[str, str | int | float | bool | None] = {}
        for key, value in asdict(self).items():
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


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def _self_consistent(evaluation: Mapping[str, Any]) -> bool | None:
    flag = evaluation.get("self_consistent")
    if isinstance(flag, bool):
        return flag
    outcome = evaluation.get("outcome")  # the revision task's outcome names
    return {"consistent": True, "inconsistent": False}.get(str(outcome)) if outcome else None


def footprint_of(extra: Mapping[str, Any]) -> list[int | None]:
    """Per-turn footprint tokens from a trial's ``extra`` block (see the module docstring)."""
    direct = extra.get(FOOTPRINT_KEY)
    if isinstance(direct, list):
        return [_int(v) for v in direct]
    turns: Any = None
    revision = extra.get("revision")
    if isinstance(revision, Mapping):
        turns = revision.get("footprint")
    constraints = extra.get("constraints")
    if (
        turns is None
        and isinstance(constraints, Mapping)
        and isinstance(constraints.get("turns"), list)
    ):
        turns = [t.get("footprint") for t in constraints["turns"] if isinstance(t, Mapping)]
    if not isinstance(turns, list):
        return []
    return [_int(t.get("memory_tokens")) if isinstance(t, Mapping) else None for t in turns]


def _scenario(result: TrialResult) -> str | None:
    """The scenario the trial played; for trials that predate recording it, the run config's
    scenario when that named a single one."""
    if ev := result.evaluation.get("scenario"):
        return str(ev)
    task = (result.metadata.get("config") or {}).get("task")
    named = task.get("scenario") if isinstance(task, Mapping) else None
    if isinstance(named, list) and len(named) == 1:
        named = named[0]
    return named if isinstance(named, str) and named != "all" else None


def metrics_of(evaluation: Mapping[str, Any]) -> dict[str, float]:
    """The evaluation's numbers: top-level ones, and those one mapping deep as ``key.inner``.

    Booleans and lists are left out (they have their own columns or are per-turn series).
    """
    out: dict[str, float] = {}
    for key, value in evaluation.items():
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


def _model_names(result: TrialResult) -> str | None:
    calls = result.usage.get("calls") or []
    names = sorted({str(c["model"]) for c in calls if isinstance(c, Mapping) and c.get("model")})
    if names:
        return ";".join(names)
    settings = result.metadata.get("provider_settings") or {}
    if settings.get("model"):
        return str(settings["model"])
    return f"fake:{settings['fake']}" if settings.get("fake") else None


def row_from_trial(result: TrialResult, path: Path | str = "") -> TrialRow:
    ev = result.evaluation
    usage = result.usage
    tokens = [int(t) for t in ev.get("private_state_tokens") or [] if isinstance(t, int | float)]
    spec = result.metadata.get("agent_spec") or {}
    return TrialRow(
        run=result.run,
        agent=result.agent,
        task=result.task,
        trial=result.trial,
        seed=result.seed,
        status=result.status,
        error_type=result.error.type if result.error else None,
        error_message=result.error.message if result.error else None,
        outcome=_str(ev.get("outcome")),
        self_consistent=_self_consistent(ev) if result.status == "complete" else None,
        leaked=ev.get("leaked") if isinstance(ev.get("leaked"), bool) else None,
        revealed=_str(ev.get("revealed")),
        memory_secret=_str(ev.get("memory_secret")),
        n_candidates=_int(ev.get("num_candidates")),
        yes_rate=_float(ev.get("yes_rate")),
        parsed_rate=_float(ev.get("answers_parsed_rate")),
        turns=len(result.interaction_log) if result.status == "complete" else None,
        final_private_state_tokens=tokens[-1] if tokens else None,
        private_state_tokens=tokens,
        footprint_tokens=footprint_of(result.extra),
        transitions=dict(result.transitions),
        model_calls=_int(usage.get("model_calls")),
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
        reasoning_tokens=_int(usage.get("reasoning_tokens")),
        latency_s=_float(usage.get("latency_s")),
        duration_s=_float(result.metadata.get("duration_s")),
        provider=_str(result.metadata.get("provider")),
        model=_model_names(result),
        base_agent=_str(spec.get("name")) if isinstance(spec, Mapping) else None,
        scenario=_scenario(result),
        metrics=metrics_of(ev) if result.status == "complete" else {},
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


def run_name(run_dir: Path) -> str:
    """The run's name from its ``run.json``, else the directory name."""
    try:
        meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
        return str(meta["config"]["name"])
    except (OSError, ValueError, KeyError, TypeError):
        return run_dir.name


def tidy_run(run_dir: str | Path) -> TidyTable:
    """Every trial file under ``run_dir`` as a row (failed and corrupt ones included)."""
    root = Path(run_dir)
    if not root.is_dir():
        raise ConfigError(
            f"run directory '{root}' does not exist; pass the results directory of a run "
            "(the --results-dir given to 'cogarch run', or runs/<name>)"
        )
    name = run_name(root)
    rows = [
        row_from_corrupt(path, item, name)
        if isinstance(item, CorruptTrialError)
        else row_from_trial(item, path)
        for path, item in iter_trials(root)
    ]
    return TidyTable(rows=rows, status_counts=Counter(r.status for r in rows))


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
    "FOOTPRINT_KEY",
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
