"""The judge audit of a suite: once per task column whose task declares a judge, on the
questions the column's cells asked.

The judge of a column is its task's (the task's ``helper_provider``, or the suite's), the same
for every cell of it, controls included, and the audit's items are made from the gold answers
of the questions asked, which every cell of a column shares (the suite's seed gives trial i
the same question in every cell): so the audit runs once per column, not once per cell. It is
the run's judge audit (``experiments.judge_audit``) on the setup of the column's first cell,
given the complete trials of all its cells, and it writes to the suite's folder:
``judge_audit/<task>/judge_audit.json`` (atomically, when the audit ends) beside its verdict
log ``judge_audit.jsonl``, so an interrupted audit goes on where it stopped and judges nothing
twice. Its calls go through their own providers, cached under that folder
(``judge_audit/<task>/.cache`` when the suite caches calls), and are metered apart: they are
in the audit's file, never in a cell's trials or costs. A column whose task has no judge is
not audited; a suite asking for the audit where no task has one is refused before any cell
plays.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cogarch.construction import prepare
from cogarch.core.records import TrialRecord
from cogarch.errors import ConfigError
from cogarch.tasks.registry import TASKS

from ..judge_audit.audit import AUDIT_FILE, JudgeAudit, JudgeAuditResult
from ..judge_audit.section import read_audit
from ..results.names import safe_name
from ..results.task_types import task_source
from ..results.trial_files import CorruptTrialError, read_trial
from ..running.run_config import RunConfig
from ..running.worker import RunSetup, task_setup
from .config import SuiteConfig, SuiteTask
from .folder import cell_folder

AUDIT_FOLDER = "judge_audit"


def audit_folder(root: str | os.PathLike[str], task: str) -> Path:
    """The folder of the judge audit of the column ``task`` in the suite folder ``root``."""
    return Path(root) / AUDIT_FOLDER / safe_name(task)


@dataclass
class JudgedColumn:
    """The judge audit of one task column, made (and checked) before any cell plays."""

    task: SuiteTask
    setup: RunSetup
    audit: JudgeAudit


def _judged(run: RunConfig) -> bool:
    """Whether the task of ``run`` declares a judge to audit (built alone, no provider)."""
    kind = run.task.kind
    with task_setup(kind):
        task = prepare(TASKS, task_source(kind) or kind, run.task.params(), where="task").build()
    return task.audited_judge() is not None


def column_audits(config: SuiteConfig) -> list[JudgedColumn]:
    """The audit of every judged column of ``config`` (none without ``audit_judge``), each
    checked as a run checks its own: a ``ConfigError`` when no task has a judge, or when the
    second judge is not one of the suite's providers."""
    settings = config.audit_judge
    if settings is None:
        return []
    out: list[JudgedColumn] = []
    for task in config.tasks:
        cells = [agent for t, agent in config.cells() if t.label == task.label]
        if not cells:
            continue
        run = config.cell_config(task, cells[0])
        if not _judged(run):
            continue
        folder = audit_folder(config.output_dir(), task.label)
        setup = RunSetup(run, cache_dir=folder / ".cache")
        out.append(JudgedColumn(task, setup, JudgeAudit(setup, settings, folder)))
    if not out:
        kinds = ", ".join(sorted({t.kind for t in config.tasks}))
        raise ConfigError(
            f"audit_judge is on, but no task of the suite '{config.name}' has a judge of answers "
            f"to audit (its tasks: {kinds}); the audit tests a judge that compares answers with "
            "a gold answer: add longmemeval, or locomo with judge: true, or leave out "
            "--audit-judge and the suite's audit_judge"
        )
    return out


def column_records(config: SuiteConfig, column: JudgedColumn) -> list[TrialRecord]:
    """The complete trials of every cell of the column, read with its task's classes (a file
    that cannot be read is left out, as the leaderboard leaves it out)."""
    root = config.output_dir()
    found: list[TrialRecord] = []
    for task, agent in config.cells():
        if task.label != column.task.label:
            continue
        folder = config.cell_dir(task.label, agent.label).relative_to(root).as_posix()
        path, problem = cell_folder(root, folder)
        if problem is not None or not path.is_dir():
            continue
        for file in sorted(path.glob(f"{safe_name(agent.label)}/trial_*.json")):
            try:
                record = read_trial(file, within=path, types=column.setup.record_types)
            except CorruptTrialError:
                continue
            if record.status == "complete" and record.agent == agent.label:
                found.append(record)
    return found


async def run_column_audits(
    config: SuiteConfig, columns: list[JudgedColumn]
) -> dict[str, JudgeAuditResult]:
    """Audit every column (the verdicts already logged are kept), by task name."""
    done: dict[str, JudgeAuditResult] = {}
    for column in columns:
        folder = audit_folder(config.output_dir(), column.task.label)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            done[column.task.label] = await column.audit.run(column_records(config, column))
        finally:
            await column.setup.providers.aclose()
    return done


def read_column_audit(
    root: str | os.PathLike[str], task: str
) -> tuple[JudgeAuditResult | None, str | None]:
    """The judge audit of the column ``task`` of the suite in ``root`` (None when it has
    none), and why it cannot be read."""
    path, problem = cell_folder(Path(root), f"{AUDIT_FOLDER}/{safe_name(task)}")
    if problem is not None:
        return None, f"{AUDIT_FOLDER}/{safe_name(task)}/{AUDIT_FILE}: {problem}"
    return read_audit(path)
