"""Scale curves: each memory's accuracy, retrieval recall and context tokens per question as
the history grows, with what ingesting the history cost apart from what answering cost.

A scale suite is an ordinary suite (``suite_config``) whose tasks are one memory benchmark at
several history lengths (the generated benchmark, ``genmem``, at several ``target_tokens``):
each task is a length, each agent a memory, each cell a point of a memory's curve. The curves
are read from the suite's folder alone, from the trial files the suite wrote, so a suite
that resumed, or one still running, gives its curves so far. For each point:

- **history tokens**: the tokens of the history the memory took in (the largest
  ``history_tokens`` of the cell's trials), else the task's ``target_tokens``;
- **accuracy** and **answerable accuracy** (abstention questions left out), with Wilson
  intervals, from the trials' ``accuracy`` and ``answerable_accuracy``;
- **recall**: the mean of one retrieval metric (``turn recall_all@5`` unless asked otherwise;
  LongMemEval's, over the answerable questions that have one);
- **context tokens per question**: the mean prompt tokens of the answer (``context_tokens``);
- **ingestion**: the seconds, model calls and prompt tokens the trials spent taking the
  history in (a memory ingests once per length and every later question reuses it, so this
  is the cost of one ingestion, plus what an interrupted one spent before a rerun);
- **answering**: the mean seconds per question, ingestion left out (``latency_s``).

``scale_files.write_scale`` writes ``scale.json``, ``scale.md`` and ``scale.svg`` (drawn by
``scale_figure``) in the suite's folder, beside its leaderboard.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.records import TrialRecord
from cogarch.errors import ConfigError
from cogarch.tasks.longmemeval.metrics import wilson_interval
from cogarch.tasks.memory_bench.ranking import METRICS, RANK_CUTOFFS

from ..leaderboard.guard import cell_trials
from ..reports.page import md_text
from ..suites.files import SuiteManifest, read_manifest
from . import DEFAULT_RECALL

FILES = ("scale.json", "scale.md", "scale.svg")


def recall_metric(name: str) -> tuple[str, str]:
    """``("turn", "recall_all@5")`` for ``"turn recall_all@5"``; a ConfigError naming the
    metrics there are for any other text."""
    level, _, key = name.strip().partition(" ")
    metric, _, cutoff = key.partition("@")
    if level in ("session", "turn") and metric in METRICS and cutoff in map(str, RANK_CUTOFFS):
        return level, key
    cutoffs = ", ".join(map(str, RANK_CUTOFFS))
    raise ConfigError(
        f"'{name}' is not a retrieval metric; name one as 'LEVEL METRIC@K' with LEVEL session "
        f"or turn, METRIC one of {', '.join(METRICS)} and K one of {cutoffs} "
        f"(for example '{DEFAULT_RECALL}')"
    )


class ScalePoint(BaseModel):
    """One memory at one history length (one cell of the suite)."""

    model_config = ConfigDict(extra="forbid")

    agent: str
    task: str
    control: str | None = None
    history_tokens: int
    questions: int = Field(description="Trials complete (questions answered).")
    failed: int = Field(description="Trials that ended in an error.")
    correct: int
    accuracy: float | None
    accuracy_low: float | None
    accuracy_high: float | None
    answerable: int
    answerable_accuracy: float | None
    recall: float | None
    recall_questions: int = Field(description="Questions with the retrieval metric.")
    context_tokens: float | None
    ingest_seconds: float
    ingest_calls: int
    ingest_prompt_tokens: int
    answer_seconds: float | None = Field(description="Mean seconds answering one question.")


class Scale(BaseModel):
    """Every point of a scale suite, memories in the suite's order, each by history length."""

    model_config = ConfigDict(extra="forbid")

    suite: str
    recall_metric: str
    points: list[ScalePoint]
    left_out: list[str] = Field(default_factory=list)

    def agents(self) -> list[str]:
        return list(dict.fromkeys(p.agent for p in self.points))


def _fields(part: Any) -> dict[str, Any]:
    if isinstance(part, BaseModel):
        return part.model_dump(mode="json")
    return part if isinstance(part, dict) else {}


def _number(value: Any) -> float | None:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    return float(value) if ok and value >= 0 else None


def _total(costs: Sequence[Mapping[str, Any]], key: str) -> float:
    """The sum of ``key`` over ``costs`` (a value that is no count adds nothing)."""
    return sum(_number(cost.get(key)) or 0.0 for cost in costs)


def _target_tokens(manifest: SuiteManifest, task: str) -> int | None:
    for entry in manifest.config.get("tasks", []):
        if isinstance(entry, dict) and (entry.get("name") or entry.get("kind")) == task:
            value = _number(entry.get("target_tokens"))
            return None if value is None else int(value)
    return None


def _point(
    agent: str,
    task: str,
    control: str | None,
    records: Sequence[TrialRecord],
    target: int | None,
    recall: tuple[str, str],
) -> ScalePoint | None:
    done = [r for r in records if r.status == "complete"]
    evaluations = [_fields(r.evaluation) for r in done]
    payloads = [_fields(r.payload) for r in done]
    sizes = [v for p in payloads if (v := _number(p.get("history_tokens"))) is not None]
    tokens = int(max(sizes)) if sizes and max(sizes) > 0 else target
    if tokens is None:
        return None
    scores = [v for e in evaluations if (v := _number(e.get("accuracy"))) is not None]
    answerable = [
        v for e in evaluations if (v := _number(e.get("answerable_accuracy"))) is not None
    ]
    level, key = recall
    recalls = []
    for e in evaluations:
        metrics = e.get("retrieval")
        if isinstance(metrics, dict) and isinstance(metrics.get(level), dict):
            value = _number(metrics[level].get(key))
            if value is not None:
                recalls.append(value)
    contexts = [v for e in evaluations if (v := _number(e.get("context_tokens"))) is not None]
    ingest: list[dict[str, Any]] = [
        cost if isinstance(cost := p.get("ingest"), dict) else {} for p in payloads
    ]
    latencies = [v for p in payloads if (v := _number(p.get("latency_s"))) is not None]
    correct = round(sum(scores))
    low, high = wilson_interval(correct, len(scores)) if scores else (None, None)
    return ScalePoint(
        agent=agent,
        task=task,
        control=control,
        history_tokens=tokens,
        questions=len(done),
        failed=sum(r.status == "failed" for r in records),
        correct=correct,
        accuracy=round(fmean(scores), 4) if scores else None,
        accuracy_low=None if low is None else round(low, 4),
        accuracy_high=None if high is None else round(high, 4),
        answerable=len(answerable),
        answerable_accuracy=round(fmean(answerable), 4) if answerable else None,
        recall=round(fmean(recalls), 4) if recalls else None,
        recall_questions=len(recalls),
        context_tokens=round(fmean(contexts), 1) if contexts else None,
        ingest_seconds=round(_total(ingest, "seconds"), 3),
        ingest_calls=int(_total(ingest, "model_calls")),
        ingest_prompt_tokens=int(_total(ingest, "prompt_tokens")),
        answer_seconds=round(fmean(latencies), 3) if latencies else None,
    )


def build_scale(folder: str | os.PathLike[str], recall: str = DEFAULT_RECALL) -> Scale:
    """The scale curves of the suite in ``folder``, read from its trial files; a cell with no
    complete trial is not a point yet, and a cell whose length is known neither from its
    trials nor from its task's ``target_tokens`` is left out, saying so."""
    root = Path(folder)
    chosen = recall_metric(recall)
    manifest = read_manifest(root)
    left_out: list[str] = []
    points = []
    for cell in manifest.cells:
        found = cell_trials(root, cell.folder, cell.agent, cell.trials, left_out)
        records = [record for _, (_, record) in sorted(found.items())]
        if not any(r.status == "complete" for r in records):
            continue
        target = _target_tokens(manifest, cell.task)
        point = _point(
            cell.agent, cell.task, manifest.controls.get(cell.agent), records, target, chosen
        )
        if point is None:
            left_out.append(
                f"cell {cell.agent} x {cell.task}: its history length is not known (its trials "
                "record no history_tokens and its task sets no target_tokens); it is no point"
            )
            continue
        points.append(point)
    order = {a: i for i, a in enumerate(manifest.agents)}
    points.sort(key=lambda p: (order.get(p.agent, len(order)), p.history_tokens, p.task))
    return Scale(suite=manifest.suite, recall_metric=recall, points=points, left_out=left_out)


def _share(value: float | None, count: int | None = None) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.0f}%" + ("" if count is None else f" ({count})")


def _num(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def scale_rows(scale: Scale) -> list[list[str]]:
    """The table's rows: a memory's points in order of history length."""
    rows = []
    for p in scale.points:
        interval = (
            ""
            if p.accuracy_low is None or p.accuracy_high is None
            else f"; {100 * p.accuracy_low:.0f} to {100 * p.accuracy_high:.0f}%"
        )
        rows.append(
            [
                p.agent + (f" (control: {p.control})" if p.control else ""),
                f"{p.history_tokens:,}",
                str(p.questions) + (f" ({p.failed} failed)" if p.failed else ""),
                f"{p.correct}/{p.questions} ({_share(p.accuracy)}{interval})",
                _share(p.answerable_accuracy),
                _num(p.recall, 2),
                _num(p.context_tokens),
                _num(p.ingest_seconds, 1),
                f"{p.ingest_calls:,}",
                _num(p.answer_seconds, 1),
            ]
        )
    return rows


HEADER = [
    "memory",
    "history tokens",
    "questions",
    "accuracy (95% interval)",
    "answerable",
    "recall",
    "context tokens / question",
    "ingest s",
    "ingest model calls",
    "answer s / question",
]


def scale_markdown(scale: Scale) -> str:
    """The curves as a Markdown table, with what each column means."""
    head = [h if h != "recall" else f"recall ({scale.recall_metric})" for h in HEADER]
    lines = [
        f"# Scale curves: {md_text(scale.suite)}",
        "",
        "| " + " | ".join(head) + " |",
        "| " + " | ".join("---" for _ in head) + " |",
        *("| " + " | ".join(md_text(c) for c in row) + " |" for row in scale_rows(scale)),
        "",
        "Each row is one memory at one history length (one cell of the suite). Ingestion is "
        "the time, model calls and prompt tokens spent taking the history in (once per "
        "length, reused by every question); answering is the mean time per question, "
        f"ingestion left out. Recall is the mean {scale.recall_metric} over the answerable "
        "questions whose memory ranked its entries. Figure: scale.svg.",
    ]
    if scale.left_out:
        lines += ["", "Left out:", "", *(f"- {md_text(line)}" for line in scale.left_out)]
    return "\n".join(lines) + "\n"


def points_of(scale: Scale) -> Mapping[str, list[ScalePoint]]:
    """Each memory's points, in order of history length."""
    out: dict[str, list[ScalePoint]] = {}
    for point in scale.points:
        out.setdefault(point.agent, []).append(point)
    return out
