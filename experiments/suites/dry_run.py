"""``cogarch suite CONFIG --dry-run``: the grid, what is already done, and what is left to pay.

Every cell is resolved as its run would resolve it (task built, agent specs loaded, providers
checked, no model called; see ``dry_run``). Per cell the plan says how many of its trials
have complete files already (so a rerun skips them), and the model calls and tokens the
missing ones are expected to cost, from earlier trial files of the same task and agent spec
(the cell's own folder first, then the folders ``dry_run.estimates`` looks at).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cogarch.core.task import Task
from cogarch.errors import ConfigError
from cogarch.workspace.spec import AgentSpec

from ..judge_audit.audit import audit_plan
from ..results.trial_files import iter_trials
from ..running.cost_estimate import estimates
from ..running.dry_run import _resolve
from .config import SuiteConfig
from .files import is_suite, read_manifest
from .folder import REPLACE_HINT, owner_problem


def _done(folder: Path, agent: str, trials: int) -> int:
    if not folder.is_dir():
        return 0
    return len(
        {
            found.trial
            for _, found in iter_trials(folder)
            if not isinstance(found, Exception)
            and found.agent == agent
            and found.status == "complete"
            and 0 <= found.trial < trials
        }
    )


def _suite_cells(folders: Sequence[Path]) -> list[Path]:
    """The cells' run folders of every suite in ``folders`` or directly under them."""
    found: list[Path] = []
    for folder in folders:
        for suite in (folder, *sorted(folder.glob("*"))) if folder.is_dir() else ():
            if is_suite(suite):
                try:
                    found += [suite / cell.folder for cell in read_manifest(suite).cells]
                except ConfigError:
                    continue
    return found


def _audit_plan(config: SuiteConfig, built: dict[str, Task | None]) -> list[str]:
    """The judge audit of every judged column, one line each (none without audit_judge)."""
    settings = config.audit_judge
    if settings is None:
        return []
    judged = [
        f"  {label}: {audit_plan(task, task.kind, settings)}"
        for label, task in built.items()
        if task is not None and task.audited_judge() is not None
    ]
    if not judged and all(task is not None for task in built.values()):
        raise ConfigError(
            f"audit_judge is on, but no task of the suite '{config.name}' has a judge of answers "
            "to audit; add longmemeval, or locomo with judge: true, or leave out --audit-judge "
            "and the suite's audit_judge"
        )
    where = f"{config.output_dir()}/judge_audit/<task>/judge_audit.json"
    return ["judge audit, once per judged column after its cells (to " + where + "):", *judged]


def suite_dry_run(config: SuiteConfig, estimate_from: Sequence[Path] = ()) -> str:
    """The plan of ``config`` as text; a ``ConfigError`` for what would stop a cell. Costs
    are estimated from earlier trial files: the cell's own, those of ``estimate_from`` and
    of the cells of every suite there or under ``runs/``."""
    cells = config.cells()
    problem = owner_problem(config)
    sources = [*estimate_from, *_suite_cells([*estimate_from, Path("runs")])]
    lines = [
        f"suite: {config.name} (config hash {config.digest()[:12]})",
        f"results: {config.output_dir()}",
        *([f"  REFUSED as it stands: {problem}; {REPLACE_HINT}"] if problem else []),
        f"grid: {len(config.tasks)} tasks x {len(config.agents)} agents = {len(cells)} cells"
        + (f" ({len(config.skip)} left out)" if config.skip else "")
        + f", seed {config.seed}, {config.parallel_cells} cells at once, "
        f"{config.concurrency} trials at once per cell, backend {config.execution.backend}",
        "cells (task x agent: trials done / planned, expected cost of the rest):",
    ]
    total_calls = total_tokens = 0.0
    unknown = 0
    built: dict[str, Task | None] = {}
    for task, agent in cells:
        run = config.cell_config(task, agent)
        resolved = _resolve(run)
        built.setdefault(task.label, resolved.task)
        done = _done(run.output_dir(), agent.label, run.trials)
        left = run.trials - done
        names = {
            label: spec.name if isinstance(spec, AgentSpec) else f"{spec.framework}:{spec.factory}"
            for label, spec in resolved.specs.items()
        }
        found = estimates(run, names, sources).get(agent.label)
        episodes = resolved.task.episodes_per_trial() if resolved.task is not None else None
        status = "complete" if left == 0 else "pending" if done == 0 else "partial"
        head = f"  {task.label} x {agent.label}: {done}/{run.trials} done ({status})"
        if left == 0:
            lines.append(head)
            continue
        if found is None:
            unknown += 1
            lines.append(f"{head}; cost not known (no earlier trial of {names[agent.label]})")
            continue
        scale = episodes if found.episodes and episodes else 1
        calls, tokens = found.calls * scale * left, found.tokens * scale * left
        total_calls, total_tokens = total_calls + calls, total_tokens + tokens
        kind = "fake run" if found.fake else "run"
        lines.append(
            f"{head}; expected {calls:,.0f} model calls, {tokens:,.0f} tokens "
            f"(from a {kind} in {found.source})"
        )
        if resolved.missing is not None:
            lines.append(f"    MISSING DATA (supply it before running): {resolved.missing}")
    lines += _audit_plan(config, built)
    lines.append(
        f"expected in all: {total_calls:,.0f} model calls, {total_tokens:,.0f} tokens"
        + (f", plus {unknown} cells of unknown cost" if unknown else "")
    )
    lines.append("dry run: nothing was played and no model was called")
    return "\n".join(lines)
