"""LongMemEval's numbers over a run's questions, as the official scripts print them, with
Wilson intervals: accuracy overall and per type (the official order), abstention accuracy,
task-averaged accuracy (the mean of the per-type accuracies), and the mean retrieval metrics
over the questions ``src/retrieval/run_retrieval.py`` averages (no abstention, some
user-side evidence), with the questions left out counted."""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt
from statistics import fmean

from cogarch.core.records import TrialRecord
from cogarch.core.views import Table
from cogarch.tasks.memory_bench.ranking import METRICS, RANK_CUTOFFS

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
    """The mean of each retrieval metric over the answers the official means count (no
    abstention, some user-side evidence, a ranking): a metric only where every one of them
    has it (a memory that ranked only its top k has none past k)."""
    scored = [
        a.retrieval
        for a in answers
        if a.retrieval is not None and not a.abstention and a.retrieval_left_out is None
    ]
    out: dict[str, dict[str, float]] = {}
    for level in ("session", "turn"):
        names = list(dict.fromkeys(k for r in scored for k in r.get(level, {})))
        values = {n: [r[level][n] for r in scored if n in r.get(level, {})] for n in names}
        means = {n: round(fmean(v), 4) for n, v in values.items() if len(v) == len(scored)}
        if means:
            out[level] = means
    return out


def retrieval_counts(answers: Sequence[LongMemEvalPayload]) -> dict[str, int]:
    """How many answers the retrieval means count, and how many they leave out and why."""
    ranked = [a for a in answers if a.ranked is not None or a.ranking is not None]
    return {
        "scored": sum(a.retrieval is not None and a.retrieval_left_out is None for a in ranked),
        "abstention": sum(a.abstention for a in ranked),
        "no user-side evidence": sum(
            a.retrieval_left_out == "no user-side evidence" and not a.abstention for a in ranked
        ),
        "ranked": len(ranked),
        "top entries only": sum(a.ranking_complete is False for a in ranked),
    }


def _ranking_cell(count: dict[str, int]) -> str:
    if not count["ranked"]:
        return "none"
    if count["top entries only"]:
        return f"reader's top entries only ({count['top entries only']} of {count['ranked']})"
    return "whole memory"


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
    counters = sorted({p.token_counter for ps in by_agent.values() for p in ps if p.token_counter})
    title = (
        "LongMemEval accuracy, % [95% Wilson interval], judged by "
        f"{', '.join(judges) or 'no judge'} (published numbers used {PUBLISHED_JUDGE}); "
        f"readers' history counted with {', '.join(counters) or 'no counter'}"
    )
    tables = [Table(title, ["question type", *agents], rows)]
    retrieval = {a: retrieval_summary(p) for a, p in by_agent.items()}
    counts = {a: retrieval_counts(p) for a, p in by_agent.items()}
    if any(retrieval.values()) or any(c["scored"] for c in counts.values()):
        tables.append(_retrieval_table(agents, retrieval, counts))
    return tables


def _retrieval_table(
    agents: list[str],
    retrieval: dict[str, dict[str, dict[str, float]]],
    counts: dict[str, dict[str, int]],
) -> Table:
    body: list[list[str]] = [
        ["questions scored", *(str(counts[a]["scored"]) for a in agents)],
        ["left out: abstention", *(str(counts[a]["abstention"]) for a in agents)],
        [
            "left out: no user-side evidence",
            *(str(counts[a]["no user-side evidence"]) for a in agents),
        ],
        ["ranking", *(_ranking_cell(counts[a]) for a in agents)],
    ]
    for level in ("session", "turn"):
        for metric in METRICS:
            for k in RANK_CUTOFFS:
                key = f"{metric}@{k}"
                cells = [retrieval[a].get(level, {}).get(key) for a in agents]
                if any(c is not None for c in cells):
                    body.append(
                        [f"{level} {key}", *("-" if c is None else f"{c:.3f}" for c in cells)]
                    )
    title = (
        "LongMemEval retrieval, the official definitions (src/retrieval/run_retrieval.py, "
        "eval_utils.py): means over the questions scored; '-' past what a memory ranked"
    )
    return Table(title, ["metric", *agents], body)
