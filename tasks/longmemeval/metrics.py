"""LongMemEval's numbers over a run's questions, as the official scripts print them, with
Wilson intervals: accuracy overall and per type (the official order), abstention accuracy,
task-averaged accuracy (the mean of the per-type accuracies), and the mean retrieval metrics
of the non-abstention questions (``src/retrieval/run_retrieval.py`` leaves abstention out)."""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt
from statistics import fmean

from cogarch.core.records import TrialRecord
from cogarch.core.views import Table
from cogarch.tasks.memory_bench.ranking import RANK_CUTOFFS

from .data import QUESTION_TYPES
from .judge import PUBLISHED_JUDGE
from .records import LongMemEvalPayload


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of ``successes`` out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    spread = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def _share(labels: Sequence[bool]) -> dict[str, float | int | None]:
    if not labels:
        return {"n": 0, "accuracy": None, "low": None, "high": None}
    low, high = wilson_interval(sum(labels), len(labels))
    return {
        "n": len(labels),
        "accuracy": round(sum(labels) / len(labels), 4),
        "low": round(low, 4),
        "high": round(high, 4),
    }


def accuracy_summary(
    answers: Sequence[LongMemEvalPayload],
) -> dict[str, dict[str, float | int | None]]:
    """Accuracy of the judged answers: ``overall``, each type present (official order),
    ``abstention`` and ``task_averaged`` (its interval is not given: it is a mean of means)."""
    judged = [a for a in answers if a.verdict is not None]
    out = {"overall": _share([bool(a.verdict) for a in judged])}
    per_type = []
    for qtype in QUESTION_TYPES:
        labels = [bool(a.verdict) for a in judged if a.question_type == qtype]
        if labels:
            out[qtype] = _share(labels)
            per_type.append(sum(labels) / len(labels))
    out["abstention"] = _share([bool(a.verdict) for a in judged if a.abstention])
    out["task_averaged"] = {
        "n": len(judged),
        "accuracy": round(fmean(per_type), 4) if per_type else None,
        "low": None,
        "high": None,
    }
    return out


def retrieval_summary(answers: Sequence[LongMemEvalPayload]) -> dict[str, dict[str, float]]:
    """The mean of each retrieval metric over the non-abstention answers that have it."""
    scored = [a.retrieval for a in answers if a.retrieval is not None and not a.abstention]
    out: dict[str, dict[str, float]] = {}
    for level in ("session", "turn"):
        names = list(dict.fromkeys(k for r in scored for k in r.get(level, {})))
        values = {n: [r[level][n] for r in scored if n in r.get(level, {})] for n in names}
        if values:
            out[level] = {n: round(fmean(v), 4) for n, v in values.items() if v}
    return out


def _payloads(records: Sequence[TrialRecord]) -> dict[str, list[LongMemEvalPayload]]:
    by_agent: dict[str, list[LongMemEvalPayload]] = {}
    for record in records:
        if record.status == "complete" and isinstance(record.payload, LongMemEvalPayload):
            by_agent.setdefault(record.agent, []).append(record.payload)
    return by_agent


def _percent(cell: dict[str, float | int | None]) -> str:
    if cell["accuracy"] is None:
        return "-"
    text = f"{100 * float(cell['accuracy']):.1f}"
    if cell["low"] is not None and cell["high"] is not None:
        text += f" [{100 * float(cell['low']):.1f}, {100 * float(cell['high']):.1f}]"
    return f"{text} (n={cell['n']})"


def report_tables(records: Sequence[TrialRecord]) -> list[Table]:
    """Accuracy by type per agent (rows in the official order), and retrieval metrics."""
    by_agent = _payloads(records)
    if not by_agent:
        return []
    agents = list(by_agent)
    summaries = {a: accuracy_summary(p) for a, p in by_agent.items()}
    judges = sorted({p.judge_model for ps in by_agent.values() for p in ps if p.judge_model})
    rows = []
    for name in ["overall", *QUESTION_TYPES, "abstention", "task_averaged"]:
        if any(name in s for s in summaries.values()):
            rows.append([name, *(_percent(summaries[a].get(name) or _share([])) for a in agents)])
    title = (
        "LongMemEval accuracy, % [95% Wilson interval], judged by "
        f"{', '.join(judges) or 'no judge'} (published numbers used {PUBLISHED_JUDGE})"
    )
    tables = [Table(title, ["question type", *agents], rows)]
    retrieval = {a: retrieval_summary(p) for a, p in by_agent.items()}
    if any(retrieval.values()):
        names = [
            f"{level} {metric}@{k}"
            for level in ("session", "turn")
            for metric in ("recall_any", "recall_all", "ndcg_any")
            for k in RANK_CUTOFFS
        ]
        body = []
        for name in names:
            level, key = name.split(" ")
            cells = [retrieval[a].get(level, {}).get(key) for a in agents]
            if any(c is not None for c in cells):
                body.append([name, *("-" if c is None else f"{c:.3f}" for c in cells)])
        tables.append(
            Table("LongMemEval retrieval (non-abstention questions)", ["metric", *agents], body)
        )
    return tables
