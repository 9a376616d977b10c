"""What a leaderboard reads of one cell: its trial files, their status, items and costs.

A cell's trials are the files of its agent in its run folder, read by the guarded trial
reader (a corrupt file counts as missing; a value it cannot use leaves that item out, noted
in ``left_out``, see ``leaderboard_guard``). Its status: ``complete`` when every trial of the
cell is complete, ``pending`` when no trial file is there, ``failed`` when files are there but
none is complete, ``partial`` otherwise (some complete, some missing or failed). Its items are
each declared metric's items over the complete trials, with each item's cluster; its failed
trials are listed (``leaderboard_column`` counts their items as failures). Its costs sum
every readable trial, failed ones included (they spent the tokens): model calls, prompt and
completion tokens, calls made by memory modules (callers ``memory:...``, metered apart), the
trials' wall time, and money where the suite prices the calls' provider. A cell whose trials
record a control role (``metadata.control``: the agent frames the others, as the reader with
no memory does) is that control. Its settings on record (``cell_settings``: reader, judge,
budget, and the context tokens its reader was shown per question, by its task's
``context_tokens`` where the task's code loads here) come from its complete trials.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from cogarch.core.metric import Metric
from cogarch.core.records import TrialRecord

from ..results.task_types import task_of
from ..running.cell_settings import CellSettings, cell_settings
from ..suites.config import Price
from .guard import cell_trials, costs_readable, finite_money, trial_items

CellStatus = Literal["complete", "partial", "pending", "failed"]
MEMORY_CALLER = "memory:"


@dataclass
class CellCosts:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    memory_calls: int = 0
    seconds: float = 0.0
    money: float | None = None
    """None when no call's provider is priced."""
    unpriced_calls: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: CellCosts) -> None:
        self.calls += other.calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.memory_calls += other.memory_calls
        self.seconds += other.seconds
        self.unpriced_calls += other.unpriced_calls
        if other.money is not None:
            self.money = (self.money or 0.0) + other.money


@dataclass
class CellData:
    trials: int
    complete: int = 0
    failed: int = 0
    items: dict[str, dict[str, float]] = field(default_factory=dict)
    """Each metric's items, by metric name, then item key."""
    clusters: dict[str, dict[str, str]] = field(default_factory=dict)
    """Each metric's items' clusters, by metric name, then item key."""
    failed_trials: list[int] = field(default_factory=list)
    """The indices of the trials whose file says they failed."""
    costs: CellCosts = field(default_factory=CellCosts)
    left_out: list[str] = field(default_factory=list)
    """What was left out of the cell, and why (file and field)."""
    control: str | None = None
    """The control role its trials record (``metadata.control``), None for a compared agent."""
    settings: CellSettings = field(default_factory=CellSettings)
    """Its complete trials' settings and context tokens per question."""

    @property
    def status(self) -> CellStatus:
        if self.complete == self.trials:
            return "complete"
        if self.complete == 0:
            return "failed" if self.failed else "pending"
        return "partial"


def _costs(record: TrialRecord, prices: dict[str, Price]) -> CellCosts:
    usage = record.usage
    costs = CellCosts(
        calls=usage.model_calls,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        memory_calls=sum(
            int(row.get("calls") or 0)
            for caller, row in usage.by_caller.items()
            if caller.startswith(MEMORY_CALLER)
        ),
        seconds=record.metadata.duration_s or 0.0,
    )
    for call in usage.calls:
        price = prices.get(call.provider)
        if price is None:
            costs.unpriced_calls += 1
            continue
        spent = (
            price.prompt * call.prompt_tokens + price.completion * call.completion_tokens
        ) / 1e6
        costs.money = (costs.money or 0.0) + spent
    return costs


def read_cell(
    root: Path,
    folder: str,
    agent: str,
    trials: int,
    metrics: list[Metric],
    prices: dict[str, Price],
) -> CellData:
    """The cell of ``agent`` in the run folder ``folder`` of the suite in ``root`` (of
    ``trials`` trials)."""
    cell = CellData(trials)
    cell.items = {m.name: {} for m in metrics}
    cell.clusters = {m.name: {} for m in metrics}
    found = cell_trials(root, folder, agent, trials, cell.left_out)
    complete: list[TrialRecord] = []
    for index in sorted(found):
        file, record = found[index]
        if costs_readable(record, file, cell.left_out):
            cell.costs.add(_costs(record, prices))
        if (role := getattr(record.metadata, "control", None)) is not None:
            cell.control = str(role)
        if record.status != "complete":
            cell.failed += 1
            cell.failed_trials.append(index)
            continue
        cell.complete += 1
        complete.append(record)
        for metric in metrics:
            for key, value, cluster in trial_items(metric, record, file, cell.left_out):
                cell.items[metric.name][key] = value
                cell.clusters[metric.name][key] = cluster
    cell.costs.money = finite_money(cell.costs.money, f"cell folder '{folder}'", cell.left_out)
    cell.settings = _settings(root, folder, complete, cell.left_out)
    return cell


def _settings(
    root: Path, folder: str, records: list[TrialRecord], left_out: list[str]
) -> CellSettings:
    """The cell's settings; without context tokens when its task's code does not load here
    or fails counting them (said in ``left_out``)."""
    task = task_of(records[0], within=root) if records else None
    try:
        return cell_settings(records, task)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # the task's own code counts the tokens
        left_out.append(
            f"cell folder '{folder}': its task's context_tokens failed "
            f"({type(exc).__name__}: {' '.join(str(exc).split())[:200]}); no context tokens"
        )
        return cell_settings(records, None)
