"""A suite's leaderboard, rebuilt from its folder: agents as rows, tasks as columns.

Each cell holds its task's main metric (the first the task declares, see
``cogarch.core.leaderboard``): the value over the cell's items, failed trials' items counted
as failures for a rate (``failures``), its 95% interval or why there is none, its ``n``
items in ``clusters`` clusters (``cluster_stats``), its status (``complete``, ``partial``,
``pending``, ``failed``; see ``leaderboard_cells``) and the value it is ranked by, over the
items every measured cell of the column shares (``leaderboard_column``). Every cell tied with
the best is best; each other measured cell is tested against the best one
(``leaderboard_stats``), the p-values of a task Holm-corrected together at alpha = 0.05. A
cell with no item has value null, never 0. The task's further metrics, and those the suite
attaches (``metrics:``, ``attached_metrics``), sit in the cell's ``more``, each with its
value, interval and which way is better. Costs per cell and per row: model calls, tokens,
memory modules' calls, wall time, tokens per success (for a rate: tokens over successes)
and money where the suite prices tokens. Rows carry the aggregates of ``leaderboard_rank``
and the tasks they cover; columns say which items (how many, in how many clusters) the
ranking used. A control's cells and row (``control``, the role its trials record) are
shown but never ranked, tested or aggregated.

Beside each score, the controls and the settings on record: a compared cell whose column has
a no-memory and an oracle control on its reader shows the headroom it captured, with its
paired-bootstrap interval over the items the three cells share (``leaderboard_frame``);
every cell its reader's context tokens per question (mean and 95th percentile) and its
settings (reader, judge, budget; ``cell_settings``); every column the settings its cells do
not share (``settings_warnings``) and, when the suite audited its judge (``suite_audit``),
the judge's false positive and false negative rates with their intervals (``audit``).
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, Field

from cogarch.core.metric import Direction, IntervalKind, Metric
from cogarch.core.settings import TrialSettings

from ..estimates.clusters import MIN_CLUSTERS
from ..estimates.failures import MetricCells, with_failures
from ..estimates.paired import Estimate, estimate
from ..judge_audit.audit import AUDIT_FILE
from ..running.cell_settings import settings_differ
from ..suites.audit import audit_folder, read_column_audit
from ..suites.files import SuiteManifest, read_manifest
from ..tables.attached_metrics import beside, read_metrics
from .cells import CellCosts, CellData, CellStatus, read_cell
from .column import Ranking, rank_column
from .frame import ColumnAudit, HeadroomValue, headrooms
from .rank import aggregate

ALPHA = 0.05


class MetricValue(BaseModel):
    metric: str
    direction: Direction | None = None
    """Which way is better."""
    interval_kind: IntervalKind | None = None
    """How its interval is computed: wilson (a rate) or bootstrap (a mean)."""
    value: float | None = None
    low: float | None = None
    high: float | None = None
    n: int = 0
    clusters: int = 0
    failures: int = 0
    interval_note: str | None = None


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
    """The items the value is over (failures included for a rate)."""
    clusters: int = 0
    """The clusters those items come in."""
    failures: int = 0
    """Items of failed trials: scored as failures for a rate, counted apart for a mean."""
    interval: str | None = None
    """How the interval was computed (``cluster_stats``), or ``not estimable``."""
    interval_note: str | None = None
    """Why there is no interval."""
    ranked_value: float | None = None
    """The value over the column's shared items, which the ranking and tests use."""
    ranked_n: int = 0
    status: CellStatus
    tokens: int = 0
    calls: int = 0
    trials: int = 0
    complete: int = 0
    failed: int = 0
    best: bool = False
    """Tied with the task's best ranked value (the others are tested against the first)."""
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
    control: str | None = None
    """The control role of its agent (``leaderboard_cells``); a control is never ranked."""
    headroom: HeadroomValue | None = None
    """Headroom captured, for a compared cell whose column has a no-memory and an oracle
    control on its reader."""
    context_tokens_mean: float | None = None
    """The context tokens its reader was shown per question, mean (tasks that count them)."""
    context_tokens_p95: float | None = None
    questions: int = 0
    """The questions the context tokens are over."""
    settings: TrialSettings | None = None
    """The reader, judge and budget its complete trials record (None when they differ or
    record none)."""


class Row(BaseModel):
    agent: str
    mean_win_rate: float | None = None
    mean_rank: float | None = None
    normalised_mean: float | None = None
    tasks: list[str] = Field(default_factory=list)
    """The tasks the aggregates cover."""
    items: dict[str, int] = Field(default_factory=dict)
    """For each task covered, the items its ranked value is over (the column's shared ones)."""
    costs: Costs = Field(default_factory=Costs)
    control: str | None = None
    """The control role its cells record; a control row has no aggregates."""


class TaskColumn(BaseModel):
    name: str
    kind: str
    metric: str | None
    direction: Direction | None = None
    interval: IntervalKind | None = None
    paired: bool | None = None
    description: str = ""
    more: list[str] = Field(default_factory=list)
    cluster: str = "trial"
    """What an item's cluster is: ``trial``, or the field naming it."""
    shared: list[str] | None = None
    """The item keys the ranking used (every measured cell has them); None: unpaired."""
    shared_items: int | None = None
    shared_clusters: int | None = None
    ranked: bool = False
    """Whether the column enters the aggregates (two measured cells and shared items)."""
    best: list[str] = Field(default_factory=list)
    settings_warnings: list[str] = Field(default_factory=list)
    """Where its cells differ in reader, judge or retrieval budget (``settings_differ``)."""
    audit: ColumnAudit | None = None
    """Its judge audit, when the suite ran one on it."""


class Leaderboard(BaseModel):
    suite: str
    cells: list[Cell]
    rows: list[Row]
    tasks: list[TaskColumn]
    currency: str = "USD"
    alpha: float = ALPHA
    notes: list[str] = Field(default_factory=list)
    left_out: list[str] = Field(default_factory=list)
    """What the trial files held that could not be used (file and field), left out."""

    def cell(self, agent: str, task: str) -> Cell | None:
        return next((c for c in self.cells if c.agent == agent and c.task == task), None)


def _value(metric: Metric, found: Estimate | None, failures: int) -> MetricValue:
    shown = MetricValue(
        metric=metric.name,
        direction=metric.direction,
        interval_kind=metric.interval,
        failures=failures,
    )
    if found is None:
        return shown
    shown.value, shown.low, shown.high = found.value, found.low, found.high
    shown.n, shown.clusters, shown.interval_note = found.n, found.clusters, found.note
    return shown


def _estimates(
    metrics: list[Metric], data: dict[str, CellData]
) -> tuple[dict[str, MetricCells], dict[str, list[tuple[MetricValue, Estimate | None]]]]:
    """Each metric's cells (failures counted), and each agent's value of every metric."""
    columns = {m.name: with_failures(m, data) for m in metrics}
    values: dict[str, list[tuple[MetricValue, Estimate | None]]] = {a: [] for a in data}
    for metric in metrics:
        cells = columns[metric.name]
        for agent in data:
            found = estimate(metric, cells.values[agent], cells.clusters)
            values[agent].append((_value(metric, found, cells.failures[agent]), found))
    return columns, values


def _find(cells: list[Cell], agent: str, task: str) -> Cell | None:
    return next((c for c in cells if c.agent == agent and c.task == task), None)


def _apply(ranking: Ranking, cells: list[Cell]) -> None:
    for cell in cells:
        if cell.agent not in ranking.values:
            continue
        cell.ranked_value = ranking.values[cell.agent]
        cell.ranked_n = len(ranking.shared) if ranking.shared is not None else cell.n
        cell.best = cell.agent in ranking.best
        if (test := ranking.tests.get(cell.agent)) is not None:
            cell.p_value, cell.p_adjusted = test.p_value, test.p_adjusted
            cell.significant, cell.test = test.significant, test.name


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
    mains: dict[str, Metric] = {}
    attached, left_out = read_metrics(manifest.metrics, within=root)
    for task in manifest.tasks:
        main = task.metrics[0] if task.metrics else None
        metrics = beside(task.metrics, attached)
        further = metrics[1:] if main is not None else metrics
        columns.append(
            TaskColumn(
                name=task.name,
                kind=task.kind,
                metric=main.name if main else None,
                direction=main.direction if main else None,
                interval=main.interval if main else None,
                paired=main.paired if main else None,
                description=main.description if main else "",
                more=[m.name for m in further],
            )
        )
        data: dict[str, CellData] = {}
        specs = [c for c in manifest.cells if c.task == task.name]
        for spec in specs:
            data[spec.agent] = read_cell(
                root, spec.folder, spec.agent, spec.trials, metrics, manifest.prices
            )
            left_out.extend(data[spec.agent].left_out)
        metric_cells, values = _estimates(metrics, data)
        columns[-1].settings_warnings = settings_differ({a: d.settings for a, d in data.items()})
        audit, problem = read_column_audit(root, task.name)
        if problem is not None:
            left_out.append(problem)
        if audit is not None and audit.judges:
            file = (audit_folder(".", task.name) / AUDIT_FILE).as_posix()
            columns[-1].audit = ColumnAudit.of(audit, file)
        mine: list[Cell] = []
        for spec in specs:
            read = data[spec.agent]
            mine_values = values[spec.agent]
            first, found = mine_values[0] if main is not None else (None, None)
            successes = None
            if main is not None and main.interval == "wilson" and found is not None:
                successes = found.value * found.n
            cell = Cell(
                agent=spec.agent,
                task=task.name,
                metric=main.name if main else None,
                value=first.value if first else None,
                low=first.low if first else None,
                high=first.high if first else None,
                n=first.n if first else 0,
                clusters=first.clusters if first else 0,
                failures=first.failures if first else 0,
                interval=found.method if found else None,
                interval_note=found.note if found else None,
                status=read.status,
                tokens=read.costs.tokens,
                calls=read.costs.calls,
                trials=spec.trials,
                complete=read.complete,
                failed=read.failed,
                costs=Costs.of(read.costs, successes),
                more=[v for v, _ in mine_values[len(metrics) - len(further) :]],
                folder=spec.folder,
                control=read.control or manifest.controls.get(spec.agent),
                context_tokens_mean=read.settings.context_tokens_mean,
                context_tokens_p95=read.settings.context_tokens_p95,
                questions=read.settings.questions,
                settings=read.settings.settings,
            )
            row_costs.setdefault(spec.agent, CellCosts()).add(read.costs)
            if successes is not None:
                row_successes[spec.agent] = row_successes.get(spec.agent, 0.0) + successes
                row_rate_tokens[spec.agent] = row_rate_tokens.get(spec.agent, 0) + read.costs.tokens
            mine.append(cell)
        if main is not None:
            headrooms(main, mine, data, manifest)
            cells_of_main = metric_cells[main.name]
            compared = [
                s.agent
                for s in specs
                if data[s.agent].control is None and s.agent not in manifest.controls
            ]
            ranking = rank_column(main, cells_of_main, compared, ALPHA)
            _apply(ranking, mine)
            column = columns[-1]
            column.cluster = main.cluster or "trial"
            column.shared = ranking.shared
            column.shared_items = None if ranking.shared is None else len(ranking.shared)
            column.shared_clusters = ranking.shared_clusters(cells_of_main.clusters)
            column.ranked = ranking.aggregate and len(ranking.values) >= 2
            column.best = ranking.best
            mains[task.name] = main
            main_values[task.name] = dict(ranking.values) if column.ranked else {}
        cells.extend(mine)
    ranked = aggregate(main_values, mains, manifest.agents)
    rows = [
        Row(
            agent=agent,
            mean_win_rate=ranked[agent].mean_win_rate,
            mean_rank=ranked[agent].mean_rank,
            normalised_mean=ranked[agent].normalised_mean,
            tasks=ranked[agent].tasks,
            items={
                t: c.ranked_n
                for t in ranked[agent].tasks
                if (c := _find(cells, agent, t)) is not None
            },
            costs=Costs.of(row_costs[agent]).per_success(
                row_rate_tokens.get(agent, 0), row_successes.get(agent)
            ),
            control=manifest.controls.get(agent)
            or next((c.control for c in cells if c.agent == agent and c.control), None),
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
        left_out=left_out,
    )


NOTES = [
    "value: the task's main metric over the cell's items, with n (items) and the clusters "
    "they come in (a task declares what hangs together: a LoCoMo conversation's questions, "
    "a trial's games); a cell without a value is shown as such, never as 0.",
    "failures: a failed trial's items (those the other cells have in that trial, or the "
    "trial itself) count as failures in a rate's denominator, shown as 'k failed'; a mean "
    "counts them beside the value and leaves them out of it, unless its task scores them.",
    "interval (95%): Wilson's for a rate whose every cluster is one item; with larger "
    "clusters, Wilson's at the effective sample size (design effect from the cluster "
    "bootstrap); for a mean, the percentile cluster bootstrap. With fewer than "
    f"{MIN_CLUSTERS} clusters (or no spread across them) it is 'not estimable', never a "
    "narrow interval.",
    "status: complete (every trial), partial (some), pending (no trial file), failed (no "
    "complete trial); a partial cell shows its own value, marked.",
    "ranking: each column ranks on the items every measured cell has (a paired metric); "
    "the best cell, the tests and the aggregates use each cell's value over exactly those "
    "items, listed per column; every cell tied with the best is marked best.",
    "significance: each other measured cell against the best one, two-sided, over the shared "
    "items: exact McNemar for a rate, Wilcoxon signed-rank for a mean, a Wilcoxon signed-rank "
    "test on per-cluster differences when clusters hold several items; Fisher exact (rates) "
    "or Mann-Whitney U (means) only where items are not shared; Holm-corrected per task at "
    "alpha 0.05.",
    "mean win rate (HELM): per task, the share of other ranked agents beaten (ties half), "
    "averaged over the tasks listed for the row; mean rank: average rank (ties share it); "
    "normalised mean: (value - worst) / (best - worst), averaged; a task counts when at "
    "least two agents have a value on its shared items.",
    "headroom captured: (score - no memory) / (oracle - no memory), each the mean of the "
    "main metric over the items the cell and the no-memory and oracle controls on its reader "
    "share; 0 is no better than the question alone, 1 as good as only the evidence (it can "
    "pass either). Its 95% interval is the percentile interval of a paired bootstrap over "
    f"those items (whole clusters when they hang together); with fewer than {MIN_CLUSTERS} "
    "items or clusters, or no spread across the draws, it is 'not estimable'. A control "
    "cell has none: it frames the others and is never ranked.",
    "context tokens per question: the prompt tokens the reader was shown to answer each "
    "question (mean and 95th percentile over the cell's questions), for tasks that count "
    "them. Settings differ: a column's cells whose reader, judge or retrieval budget are "
    "not the same are named above the table; their scores do not compare like for like.",
    "judge audit: wrong answers made from the gold answers (false positives: the share the "
    "judge accepted) and rephrasings of them (false negatives: the share it rejected), with "
    "Wilson intervals, run once per judged column on the questions its cells asked; its "
    "calls are metered apart from the cells'.",
    "costs: sums over every readable trial file, failed ones included; memory calls are the "
    "calls memory modules made; tokens per success divide the tokens of the cells whose "
    "main metric is a rate by their successes.",
]
