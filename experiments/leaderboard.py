"""A suite's leaderboard, rebuilt from its folder: agents as rows, tasks as columns.

Each cell holds its task's main metric (the first the task declares, see
``cogarch.core.leaderboard``): the value over the cell's complete trials, its 95% interval,
its number of items ``n``, its status (``complete``, ``partial``, ``pending``, ``failed``; see
``leaderboard_cells``) and whether it differs significantly from the task's best cell: every
other measured cell is tested against the best one (``leaderboard_stats.compare``) and the
p-values of a task are Holm-corrected together at alpha = 0.05. A cell with no item has value
null, never 0. The task's further metrics sit in the cell's ``more``, with value, interval and
n. Costs per cell and per row: model calls, tokens, memory modules' calls, wall time, tokens
per success (for a rate: tokens over successes) and money where the suite prices tokens.
Rows carry the aggregates of ``leaderboard_rank`` and the tasks they cover.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, Field

from cogarch.core.leaderboard import Direction, IntervalKind, LeaderboardMetric

from .leaderboard_cells import CellCosts, CellData, CellStatus, read_cell
from .leaderboard_rank import aggregate
from .leaderboard_stats import Estimate, better, compare, estimate
from .stats import holm
from .suite_files import SuiteManifest, read_manifest

ALPHA = 0.05


class MetricValue(BaseModel):
    metric: str
    value: float | None = None
    low: float | None = None
    high: float | None = None
    n: int = 0


class Costs(BaseModel):
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens: int = 0
    memory_calls: int = 0
    seconds: float = 0.0
    money: float | None = None
    tokens_per_success: float | None = None

    @classmethod
    def of(cls, costs: CellCosts, successes: float | None = None) -> Costs:
        """``costs`` as a record; tokens per success when ``successes`` is given."""
        per = costs.tokens / successes if successes else None
        return cls(
            calls=costs.calls,
            prompt_tokens=costs.prompt_tokens,
            completion_tokens=costs.completion_tokens,
            tokens=costs.tokens,
            memory_calls=costs.memory_calls,
            seconds=round(costs.seconds, 3),
            money=costs.money,
            tokens_per_success=per,
        )

    def per_success(self, tokens: int, successes: float | None) -> Costs:
        """With tokens per success over the cells whose main metric is a rate (``tokens``
        spent there, ``successes`` won there)."""
        per = tokens / successes if successes else None
        return self.model_copy(update={"tokens_per_success": per})


class Cell(BaseModel):
    agent: str
    task: str
    metric: str | None
    value: float | None = None
    low: float | None = None
    high: float | None = None
    n: int = 0
    status: CellStatus
    tokens: int = 0
    calls: int = 0
    trials: int = 0
    complete: int = 0
    failed: int = 0
    best: bool = False
    """The task's best measured cell (the one the others are tested against)."""
    p_value: float | None = None
    p_adjusted: float | None = None
    significant: bool | None = None
    """Whether it differs from the best cell (Holm-corrected); None for the best cell itself
    and for cells without a value."""
    test: str | None = None
    costs: Costs = Field(default_factory=Costs)
    more: list[MetricValue] = Field(default_factory=list)
    folder: str = ""
    """The cell's run folder, relative to the suite's folder."""


class Row(BaseModel):
    agent: str
    mean_win_rate: float | None = None
    mean_rank: float | None = None
    normalised_mean: float | None = None
    tasks: list[str] = Field(default_factory=list)
    """The tasks the aggregates cover."""
    costs: Costs = Field(default_factory=Costs)


class TaskColumn(BaseModel):
    name: str
    kind: str
    metric: str | None
    direction: Direction | None = None
    interval: IntervalKind | None = None
    paired: bool | None = None
    description: str = ""
    more: list[str] = Field(default_factory=list)


class Leaderboard(BaseModel):
    suite: str
    cells: list[Cell]
    rows: list[Row]
    tasks: list[TaskColumn]
    currency: str = "USD"
    alpha: float = ALPHA
    notes: list[str] = Field(default_factory=list)

    def cell(self, agent: str, task: str) -> Cell | None:
        return next((c for c in self.cells if c.agent == agent and c.task == task), None)


def _value(metric: LeaderboardMetric, found: Estimate | None) -> MetricValue:
    if found is None:
        return MetricValue(metric=metric.name)
    return MetricValue(
        metric=metric.name, value=found.value, low=found.low, high=found.high, n=found.n
    )


def _test_against_best(
    cells: list[Cell], data: dict[str, CellData], metric: LeaderboardMetric
) -> None:
    """Mark the task's best cell, test every other measured cell against it, Holm-correct."""
    measured = [c for c in cells if c.value is not None]
    if not measured:
        return
    best = measured[0]
    for cell in measured[1:]:
        if better(metric, cell.value, best.value):  # type: ignore[arg-type]
            best = cell
    best.best = True
    others = [c for c in measured if c is not best]
    tests = [
        compare(metric, data[c.agent].items[metric.name], data[best.agent].items[metric.name])
        for c in others
    ]
    adjusted, rejected = holm([p for p, _ in tests], ALPHA)
    for cell, (p, name), adj, rej in zip(others, tests, adjusted, rejected, strict=True):
        cell.p_value, cell.p_adjusted, cell.significant, cell.test = p, adj, rej, name


def build_leaderboard(folder: str | os.PathLike[str]) -> Leaderboard:
    """The leaderboard of the suite in ``folder``, from its files alone."""
    root = Path(folder)
    manifest: SuiteManifest = read_manifest(root)
    cells: list[Cell] = []
    columns: list[TaskColumn] = []
    row_costs = {agent: CellCosts() for agent in manifest.agents}
    row_successes: dict[str, float] = {}
    row_rate_tokens: dict[str, int] = {}
    main_values: dict[str, dict[str, float]] = {}
    mains: dict[str, LeaderboardMetric] = {}
    for task in manifest.tasks:
        main = task.metrics[0] if task.metrics else None
        columns.append(
            TaskColumn(
                name=task.name,
                kind=task.kind,
                metric=main.name if main else None,
                direction=main.direction if main else None,
                interval=main.interval if main else None,
                paired=main.paired if main else None,
                description=main.description if main else "",
                more=[m.name for m in task.metrics[1:]],
            )
        )
        data: dict[str, CellData] = {}
        mine: list[Cell] = []
        for spec in (c for c in manifest.cells if c.task == task.name):
            read = read_cell(
                root / spec.folder, spec.agent, spec.trials, task.metrics, manifest.prices
            )
            data[spec.agent] = read
            values = [_value(m, estimate(m, read.items[m.name])) for m in task.metrics]
            first = values[0] if values else MetricValue(metric="")
            successes = None
            if main is not None and main.interval == "wilson" and first.value is not None:
                successes = first.value * first.n
            cell = Cell(
                agent=spec.agent,
                task=task.name,
                metric=main.name if main else None,
                value=first.value,
                low=first.low,
                high=first.high,
                n=first.n,
                status=read.status,
                tokens=read.costs.tokens,
                calls=read.costs.calls,
                trials=spec.trials,
                complete=read.complete,
                failed=read.failed,
                costs=Costs.of(read.costs, successes),
                more=values[1:],
                folder=spec.folder,
            )
            row_costs.setdefault(spec.agent, CellCosts()).add(read.costs)
            if successes is not None:
                row_successes[spec.agent] = row_successes.get(spec.agent, 0.0) + successes
                row_rate_tokens[spec.agent] = row_rate_tokens.get(spec.agent, 0) + read.costs.tokens
            mine.append(cell)
        if main is not None:
            ranked_cells = [c for c in mine if c.agent not in manifest.controls]
            _test_against_best(ranked_cells, data, main)
            mains[task.name] = main
            main_values[task.name] = {c.agent: c.value for c in ranked_cells if c.value is not None}
        cells.extend(mine)
    ranked = aggregate(main_values, mains, manifest.agents)
    rows = [
        Row(
            agent=agent,
            mean_win_rate=ranked[agent].mean_win_rate,
            mean_rank=ranked[agent].mean_rank,
            normalised_mean=ranked[agent].normalised_mean,
            tasks=ranked[agent].tasks,
            costs=Costs.of(row_costs[agent]).per_success(
                row_rate_tokens.get(agent, 0), row_successes.get(agent)
            ),
        )
        for agent in manifest.agents
    ]
    return Leaderboard(
        suite=manifest.suite,
        cells=cells,
        rows=rows,
        tasks=columns,
        currency=manifest.currency,
        notes=NOTES,
    )


NOTES = [
    "value: the task's main metric over the cell's complete trials, with its 95% interval "
    "(Wilson for rates, percentile bootstrap over items for means) and n, its items.",
    "status: complete (every trial), partial (some), pending (no trial file), failed (no "
    "complete trial); a cell without a value is shown as such, never as 0.",
    "significance: each measured cell against the task's best one (two-sided Fisher exact "
    "for rates; for means Wilcoxon signed-rank over shared items when paired, else "
    "Mann-Whitney U), Holm-corrected per task at alpha 0.05.",
    "mean win rate (HELM): per task, the share of other measured agents beaten (ties half), "
    "averaged over the tasks listed for the row; mean rank: average rank (ties share it); "
    "normalised mean: (value - worst) / (best - worst), averaged; a task counts when at "
    "least two agents have a value on it, partial cells included.",
    "costs: sums over every readable trial file, failed ones included; memory calls are the "
    "calls memory modules made; tokens per success divide the tokens of the cells whose "
    "main metric is a rate by their successes.",
]
