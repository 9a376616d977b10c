"""The task's own numbers per agent: mean and spread of each evaluation metric.

Tasks report more than an outcome class: the revision task counts passed rounds and stale
mentions, the constraint task reports hallucination and drift rates and the memory footprint,
the SCT its yes-rate and candidate counts. ``metric_tables`` turns the ``metrics`` of the
complete trials (``Evaluation.numeric_values``), after the trial's model calls and
tokens (prompt tokens also as served from the server's prompt cache and evaluated, ``n/a``
where the server reported neither), into one table per scenario (one table in all when trials
record no scenario), metrics as rows and agents as columns. A table's title names the
scenario and how its trials were judged (``judging``, for tasks whose evaluation records it,
such as constraint retention).
When the task declares ``totals`` (counts per trial), a first table sums them per agent over
all its complete trials, agents as rows, as the TME paper's tables do.

The metrics the task is ranked by (``Task.leaderboard_metrics``) and those the run config
attaches (``metrics:``) have a table of their own (``ranked_table``): per agent the value,
its 95% interval and its items, read and computed as a suite's leaderboard reads and computes
them (failed trials scored as failures of a rate), and which way is better.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cogarch.core.metric import Metric
from cogarch.core.records import TrialRecord
from cogarch.core.views import Table

from ..estimates.failures import with_failures
from ..estimates.paired import estimate
from .spread import mean, sd
from .tidy_table import TidyRow

_USAGE: tuple[tuple[str, Callable[[TidyRow], float | None]], ...] = (
    ("model calls", lambda r: r.model_calls),
    ("prompt tokens", lambda r: r.prompt_tokens),
    ("prompt tokens served from cache", lambda r: r.cached_prompt_tokens),
    ("prompt tokens evaluated", lambda r: r.evaluated_prompt_tokens),
    ("completion tokens", lambda r: r.completion_tokens),
)
_UNREPORTED = {"prompt tokens served from cache", "prompt tokens evaluated"}
"""Rows a server may not report: ``n/a`` when none of the agent's trials has them."""


def _metric(name: str) -> Callable[[TidyRow], float | None]:
    return lambda r: r.metrics.get(name)


def _number(value: float) -> str:
    if not math.isfinite(value):
        return str(value)
    return f"{value:.0f}" if 100 <= abs(value) < 1e15 else f"{value:.3g}"


def _cell(values: list[float]) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return _number(values[0])
    return f"{_number(mean(values))} ± {_number(sd(values))}"


def _table(title: str, rows: list[TidyRow]) -> Table:
    agents = list(dict.fromkeys(r.agent for r in rows))
    names = list(dict.fromkeys(k for r in rows for k in r.metrics))
    body = [["complete trials", *(str(sum(r.agent == a for r in rows)) for a in agents)]]
    for label, get in [*_USAGE, *((n, _metric(n)) for n in names)]:
        cells = []
        for agent in agents:
            found = [get(r) for r in rows if r.agent == agent]
            values = [float(v) for v in found if v is not None]
            short = 0 < len(values) < len(found)  # absent where it was not measured
            if not values and label in _UNREPORTED:
                cells.append("n/a")
                continue
            cells.append(_cell(values) + (f" (n={len(values)})" if short else ""))
        body.append([label, *cells])
    return Table(title, ["metric", *agents], body)


def _totals(rows: list[TidyRow], totals: Sequence[str]) -> Table:
    agents = list(dict.fromkeys(r.agent for r in rows))
    body = []
    for agent in agents:
        mine = [r for r in rows if r.agent == agent]
        sums = [len(mine) * mean([r.metrics.get(name, 0.0) for r in mine]) for name in totals]
        body.append([agent, str(len(mine)), *(_number(v) for v in sums)])
    return Table("totals over all trials", ["agent", "trials", *totals], body)


def _title(scenario: str | None, rows: list[TidyRow]) -> str:
    title = f"scenario {scenario}" if scenario else "all trials"
    modes = sorted({r.judging for r in rows if r.judging})
    return f"{title}, judged {' and '.join(m.replace('_', '-') for m in modes)}" if modes else title


def metric_tables(rows: Sequence[TidyRow], totals: Sequence[str] = ()) -> list[Table]:
    """One table per scenario (in order of appearance); cells are ``mean ± sd`` over the
    agent's complete trials that recorded the metric, with their number ``(n=k)`` when some
    complete trials did not (a constraint trial whose judge failed has no rates). With
    ``totals``, a first table of their sums per agent."""
    done = [r for r in rows if r.status == "complete" and r.metrics]
    tables = [_totals(done, totals)] if totals and done else []
    for scenario in dict.fromkeys(r.scenario for r in done):
        mine = [r for r in done if r.scenario == scenario]
        tables.append(_table(_title(scenario, mine), mine))
    return tables


@dataclass
class _Cell:
    items: dict[str, dict[str, float]] = field(default_factory=dict)
    clusters: dict[str, dict[str, str]] = field(default_factory=dict)
    failed_trials: list[int] = field(default_factory=list)


def _cells(records: Sequence[TrialRecord], metrics: Sequence[Metric]) -> dict[str, _Cell]:
    """Each agent's trials as a leaderboard reads a cell: every metric's items, its failed
    trials."""
    cells: dict[str, _Cell] = {}
    for record in records:
        cell = cells.setdefault(record.agent, _Cell())
        if record.status != "complete":
            cell.failed_trials.append(record.trial)
            continue
        for metric in metrics:
            try:
                units = metric.units(record)
            except Exception:  # a metric's own code or a value it cannot read: not measured
                continue
            for key, value, cluster in units:
                cell.items.setdefault(metric.name, {})[key] = value
                cell.clusters.setdefault(metric.name, {})[key] = cluster
    return cells


def _estimate_text(metric: Metric, items: dict[str, float], clusters: dict[str, str]) -> str:
    found = estimate(metric, items, clusters)
    if found is None:
        return "-"
    shown = (
        "not estimable"
        if found.low is None or found.high is None
        else (f"{_number(found.low)}-{_number(found.high)}")
    )
    return f"{_number(found.value)} ({shown}) n={found.n}"


def ranked_table(
    records: Sequence[TrialRecord], metrics: Sequence[Metric], *, keep: Sequence[str] = ()
) -> Table | None:
    """Each metric's value per agent with its 95% interval and items (``value (low-high)
    n=k``), and which way is better; a metric no complete trial measured is left out unless
    ``keep`` names it (an attached one, shown as ``-``); None when no metric is left."""
    if not metrics or not records:
        return None
    cells = _cells(records, metrics)
    body = []
    for metric in metrics:
        measured = any(metric.name in cell.items for cell in cells.values())
        if not measured and metric.name not in keep:
            continue
        scored = with_failures(metric, cells)
        values = [_estimate_text(metric, scored.values[a], scored.clusters) for a in cells]
        body.append([metric.name, f"{metric.direction} is better", metric.interval, *values])
    if not body:
        return None
    return Table(
        "ranked and attached metrics (95% interval)", ["metric", "better", "interval", *cells], body
    )
