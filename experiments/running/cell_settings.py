"""Settings on record: what each trial records of its reader, judge and budget, what a cell
showed its reader per question, and where the cells of one column differ.

A trial's settings come from its run's setup (``trial_settings``); a cell's are its complete
trials' settings with the context tokens its reader was shown, question by question
(``Task.context_tokens``), summed up as a mean and a 95th percentile (``cell_settings``).
``settings_differ`` says, for the cells of one leaderboard column, which settings are not the
same in every cell (the leaderboard prints it as a warning).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from cogarch.core.records import TrialRecord
from cogarch.core.settings import TrialSettings
from cogarch.core.task import Task
from cogarch.models.providers import Providers
from cogarch.workspace.spec import AgentSpec

from .budgets import spec_budget


def _model_of(config: Any) -> tuple[str | None, float | None]:
    """A provider config's model name (a fake's by its script's name) and temperature."""
    model = getattr(config, "model", None)
    if model is None and getattr(config, "fake", None) is not None:
        model = f"fake:{config.fake}"
    temperature = getattr(config, "temperature", None)
    return (None if model is None else str(model)), temperature


def trial_settings(
    providers: Providers, reader: str | None, judge: str | None, spec: object
) -> TrialSettings:
    """The settings of an agent of ``spec`` reading with the provider ``reader``, judged by
    ``judge`` (the run's helper provider), both configured in ``providers``."""
    reader_model, reader_temperature = (
        _model_of(providers.config(reader)) if reader else (None, None)
    )
    judge_model, judge_temperature = _model_of(providers.config(judge)) if judge else (None, None)
    return TrialSettings(
        reader_provider=reader,
        reader_model=reader_model,
        reader_temperature=reader_temperature,
        judge_provider=judge,
        judge_model=judge_model,
        judge_temperature=judge_temperature,
        budget=spec_budget(spec) if isinstance(spec, AgentSpec) else None,
    )


class CellSettings(BaseModel):
    """A cell's settings and the context its reader was shown per question."""

    model_config = ConfigDict(extra="forbid")

    control: str | None = None
    settings: TrialSettings | None = None
    """The settings its trials share (None when they recorded none, or differ)."""
    mixed: bool = False
    """Whether its trials recorded different settings (a config changed between them)."""
    questions: int = 0
    context_tokens_mean: float | None = None
    context_tokens_p95: float | None = None


def cell_settings(records: Sequence[TrialRecord], task: type[Task] | None = None) -> CellSettings:
    """The settings of the cell of ``records`` (its complete trials), and the context tokens
    per question over all its questions (``task``'s ``context_tokens``; none without it)."""
    complete = [r for r in records if r.status == "complete"]
    found = {
        None if r.metadata.settings is None else r.metadata.settings.model_dump_json()
        for r in complete
    }
    settings = None
    if len(found) == 1 and (only := next(iter(found))) is not None:
        settings = TrialSettings.model_validate_json(only)
    roles = {r.metadata.control for r in complete}
    tokens = [t for r in complete for t in (task.context_tokens(r) if task else [])]
    return CellSettings(
        control=next(iter(roles)) if len(roles) == 1 else None,
        settings=settings,
        mixed=len(found) > 1,
        questions=len(tokens),
        context_tokens_mean=round(fmean(tokens), 2) if tokens else None,
        context_tokens_p95=round(float(np.percentile(tokens, 95)), 2) if tokens else None,
    )


_COMPARED = (
    ("reader", ("reader_model",)),
    ("reader temperature", ("reader_temperature",)),
    ("judge", ("judge_model",)),
    ("judge temperature", ("judge_temperature",)),
)


def settings_budget_text(settings: TrialSettings) -> str:
    """The retrieval budget a cell's settings record, as text: ``top_k turns=1``, ``no
    memory`` for an agent without one, ``unbounded`` for a memory that fixes none."""
    budget = settings.budget
    if budget is None:
        return "no memory"
    parts = [f"top_k {k}={v}" for k, v in sorted(budget.top_k.items()) if v is not None]
    parts += [f"tokens {k}={v}" for k, v in sorted(budget.context_tokens.items()) if v is not None]
    return ", ".join(parts) or "unbounded"


def settings_differ(cells: Mapping[str, CellSettings]) -> list[str]:
    """Where the cells of one column (by agent) differ in reader, judge or retrieval budget:
    one line per setting that is not the same in every cell, naming each value's agents;
    none when they agree. Cells without settings on record are named apart; the budget is
    compared among the cells with a memory (an agent without one has none to fix), and a
    control's reader and judge count as any cell's."""
    lines = []
    unknown = sorted(a for a, c in cells.items() if c.settings is None)
    if unknown:
        lines.append(f"no settings on record (or mixed ones) for: {', '.join(unknown)}")
    known = {a: c.settings for a, c in cells.items() if c.settings is not None}
    for what, keys in _COMPARED:
        values: dict[str, list[str]] = {}
        for agent, settings in known.items():
            shown = " ".join(str(getattr(settings, k)) for k in keys)
            values.setdefault(shown, []).append(agent)
        if len(values) > 1:
            lines.append(f"{what} differs: " + _listed(values))
    budgets: dict[str, list[str]] = {}
    for agent, settings in known.items():
        if settings.budget is not None and cells[agent].control is None:
            budgets.setdefault(settings_budget_text(settings), []).append(agent)
    if len(budgets) > 1:
        lines.append("retrieval budget differs: " + _listed(budgets))
    return lines


def _listed(values: Mapping[str, list[str]]) -> str:
    return "; ".join(f"{value} ({', '.join(sorted(agents))})" for value, agents in values.items())
