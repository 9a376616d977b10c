"""A run directory as one tidy table: one row per trial file, written as CSV and JSON lines.

Every trial file becomes a row, whatever happened to it: ``status`` is ``complete``,
``failed`` (the trial raised; ``error_type`` / ``error_message`` say what) or ``corrupt`` (the
file cannot be read back, or it records another agent or trial than its folder and name say;
agent and trial come from its path). Cells are scalars; the per-turn
lists and the transition counts are JSON text, so the CSV and the JSON lines hold the same values.

Only the record's typed fields are read, with the task's declarations: the outcome (and,
for a task that scores more than one reading, the outcome and success under each further
one, as ``outcome_<reading>`` and ``self_consistent_<reading>``), the task's declared success
outcome, why a trial is left out of the rates, the turns (private state sizes and memory
footprints), the numbers of the evaluation, the usage, and the task's own columns (its
``tidy_columns``, the SCT's candidates and secrets for example). Usage counts every call a
trial consumed, response-cache hits included, and splits its prompt tokens into those the
server served from its prompt cache and those it evaluated, where the server reported it
(empty cells where it did not, never 0).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cogarch.core.evaluation import Evaluation
from cogarch.core.metric import Metric
from cogarch.core.records import TrialRecord

from ..results.names import safe_name
from ..results.paths import folder_to_read
from ..results.run_meta import read_run_meta
from ..results.task_types import task_of
from ..results.trial_files import CorruptTrialError, iter_trials
from .attached_metrics import trial_values
from .report_tables import task_columns
from .summary import run_scoring
from .tidy_table import TidyRow, TidyTable

_TRIAL_FILE = re.compile(r"trial_(\d+)\.json$")


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def transitions_of(record: TrialRecord) -> list[tuple[str, str, int]]:
    """The router's transitions as ``(source, target, count)``: the ones the task recorded,
    or, when it recorded none, the edges of the agent's walk (every step's way in, except a
    turn's entry from the outside input; a turn resumed from the node that ended the previous
    one counts that edge)."""
    if record.transitions:
        return [(t.source, t.target, t.count) for t in record.transitions]
    counts = Counter((s.source, s.node) for s in record.walk if s.source != "<input>")
    return [(a, b, n) for (a, b), n in sorted(counts.items())]


def footprint_of(record: TrialRecord) -> list[int | None]:
    """Per-turn memory footprint tokens, for tasks that measure it (else empty)."""
    return [t.footprint.memory_tokens for t in record.turns if t.footprint is not None]


def _scenario(result: TrialRecord) -> str | None:
    """The scenario the trial played; for trials that predate recording it, the run config's
    scenario when that named a single one."""
    if named := result.evaluation.scenario_name():
        return named
    task = (result.metadata.config or {}).get("task")
    chosen = task.get("scenario") if isinstance(task, Mapping) else None
    if isinstance(chosen, list) and len(chosen) == 1:
        chosen = chosen[0]
    return chosen if isinstance(chosen, str) and chosen != "all" else None


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


def _numbers(result: TrialRecord, metrics: Sequence[Metric]) -> dict[str, float]:
    """The evaluation's numbers, then each attached metric's value under a name they lack."""
    own = result.evaluation.numeric_values()
    return {**own, **{k: v for k, v in trial_values(result, metrics).items() if k not in own}}


def row_from_trial(
    result: TrialRecord, path: Path | str = "", metrics: Sequence[Metric] = ()
) -> TidyRow:
    """One trial as a row; ``metrics``: the metrics a config attached, whose trial values
    join the evaluation's numbers (which keep their names)."""
    complete = result.status == "complete"
    usage = result.usage
    evaluation = result.evaluation
    tokens = [t.private_state_tokens for t in result.turns if t.private_state_tokens is not None]
    spec = result.metadata.agent_spec or {}
    further = list(type(evaluation).readings)[1:]
    task = task_of(result, within=Path(path).parent.parent if path else None)
    return TidyRow(
        run=result.run,
        agent=result.agent,
        task=result.task,
        trial=result.trial,
        seed=result.seed,
        status=result.status,
        error_type=result.error.type if result.error else None,
        error_message=result.error.message if result.error else None,
        outcome=evaluation.outcome,
        self_consistent=result.succeeded,
        readings={r: evaluation.outcome_in(r) if complete else None for r in further},
        reading_success={
            r: result.scoring.succeeded(evaluation.outcome_in(r)) if complete else None
            for r in further
        },
        unrated=evaluation.unrated_reason() if complete else None,
        answer=evaluation.final_answer() if complete else None,
        turns=len(result.turns) if complete else None,
        final_private_state_tokens=tokens[-1] if tokens else None,
        private_state_tokens=tokens,
        footprint_tokens=footprint_of(result),
        transitions=transitions_of(result),
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
        judging=evaluation.judging_mode(),
        metrics=_numbers(result, metrics) if complete else {},
        columns=task_columns(task, result),
        path=str(path),
    )


def row_from_corrupt(path: Path, error: CorruptTrialError, run: str) -> TidyRow:
    match = _TRIAL_FILE.search(path.name)
    return TidyRow(
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


def tidy_run(run_dir: str | Path, metrics: Sequence[Metric] = ()) -> TidyTable:
    """Every trial file under ``run_dir`` as a row (failed and corrupt ones included), with
    the values of the attached ``metrics``."""
    root = folder_to_read(run_dir, "run directory", RUN_DIR_HINT)
    name = run_name(root)
    found = [(path, misplaced(path, item) or item) for path, item in iter_trials(root)]
    rows = [
        row_from_corrupt(path, item, name)
        if isinstance(item, CorruptTrialError)
        else row_from_trial(item, path, metrics)
        for path, item in found
    ]
    labels = {safe_name(r.agent): r.agent for r in rows if r.status != "corrupt"}
    for row in rows:  # a file that is not a trial counts for the agent of its folder
        if row.status == "corrupt":
            row.agent = labels.get(row.agent, row.agent)
    records = [item for _, item in found if not isinstance(item, CorruptTrialError)]
    readings: dict[str, str] = {}
    for record in records:
        for name, meaning in type(record.evaluation).readings.items():
            readings.setdefault(name, meaning)
    typed = [type(r.evaluation) for r in records if type(r.evaluation) is not Evaluation]
    return TidyTable(
        rows=rows,
        status_counts=Counter(r.status for r in rows),
        scoring=run_scoring(records),
        readings=readings,
        records=records,
        answer_label=typed[0].answer_label if typed else Evaluation.answer_label,
    )
