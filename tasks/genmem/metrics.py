"""The benchmark's numbers over a run: accuracy per ability and overall (with and without
abstention questions), Wilson intervals, the mean context tokens per question, and the mean
LongMemEval retrieval metrics of the answerable questions."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

from cogarch.core.records import TrialRecord
from cogarch.core.views import Table
from cogarch.tasks.longmemeval.metrics import wilson_interval
from cogarch.tasks.memory_bench.ranking import RANK_CUTOFFS

from .params import ABILITIES
from .records import GenmemPayload


def _cell(labels: Sequence[bool]) -> str:
    if not labels:
        return "-"
    low, high = wilson_interval(sum(labels), len(labels))
    share = sum(labels) / len(labels)
    return f"{100 * share:.1f} [{100 * low:.1f}, {100 * high:.1f}] (n={len(labels)})"


def accuracy_rows(answers: Sequence[GenmemPayload]) -> dict[str, list[bool]]:
    """Correct labels overall, without abstention, and per ability."""
    rows = {
        "overall": [a.correct for a in answers],
        "answerable": [a.correct for a in answers if not a.abstention],
    }
    for ability in ABILITIES:
        rows[ability] = [a.correct for a in answers if a.ability == ability]
    return rows


def retrieval_means(answers: Sequence[GenmemPayload]) -> dict[str, float]:
    """The mean of each retrieval metric (``session recall_any@5`` ...) over the answerable
    questions, where every one of them has it (a ranking of the reader's entries alone
    decides no number past its length)."""
    scored = [a.retrieval for a in answers if a.retrieval is not None and not a.abstention]
    out: dict[str, float] = {}
    for level in ("session", "turn"):
        for metric in ("recall_any", "recall_all", "ndcg_any"):
            for k in RANK_CUTOFFS:
                key = f"{metric}@{k}"
                values = [r[level][key] for r in scored if key in r.get(level, {})]
                if values and len(values) == len(scored):
                    out[f"{level} {key}"] = round(fmean(values), 4)
    return out


def report_tables(records: Sequence[TrialRecord]) -> list[Table]:
    by_agent: dict[str, list[GenmemPayload]] = {}
    for record in records:
        if record.status == "complete" and isinstance(record.payload, GenmemPayload):
            by_agent.setdefault(record.agent, []).append(record.payload)
    if not by_agent:
        return []
    agents = list(by_agent)
    acc = {a: accuracy_rows(p) for a, p in by_agent.items()}
    rows = [[name, *(_cell(acc[a][name]) for a in agents)] for name in acc[agents[0]]]
    rows.append(["reading", *(", ".join(sorted({p.reading for p in by_agent[a]})) for a in agents)])
    rows.append(
        [
            "context tokens / question",
            *(f"{fmean(p.prompt_tokens for p in by_agent[a]):.0f}" for a in agents),
        ]
    )
    rows.append(
        [
            "history tokens ingested",
            *(f"{max(p.history_tokens for p in by_agent[a])}" for a in agents),
        ]
    )
    tables = [
        Table("Generated memory benchmark: accuracy, % [95% Wilson interval]", ["", *agents], rows)
    ]
    means = {a: retrieval_means(p) for a, p in by_agent.items()}
    names = list(dict.fromkeys(k for m in means.values() for k in m))
    if names:
        body = [
            [n, *("-" if n not in means[a] else f"{means[a][n]:.3f}" for a in agents)]
            for n in names
        ]
        tables.append(Table("Retrieval (answerable questions)", ["metric", *agents], body))
    return tables
