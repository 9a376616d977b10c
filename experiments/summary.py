"""The end-of-run table: outcomes and the success rate per agent, with a 95% interval.

Outcomes are counted under the lenient reading of yes/no answers (``outcome``); for tasks
that also record the authors' exact reading (``outcome_strict``: only a bare "yes" is
affirmed), its success rate is shown beside, so Table-1-comparable rates are always there.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from cogarch.core.records import Scoring, TrialRecord


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class AgentRow:
    agent: str
    trials: int = 0
    complete: int = 0
    failed: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    strict: Counter[str] = field(default_factory=Counter)
    """Outcomes under the authors' exact reading, for trials that record it."""
    short: int = 0
    """Complete trials that asked fewer candidates than requested: their outcomes are
    counted, but they are left out of the rates (as in the report)."""
    rated: Counter[str] = field(default_factory=Counter)
    rated_strict: Counter[str] = field(default_factory=Counter)

    def success_rate(self, success: str) -> float | None:
        n = sum(self.rated.values())
        return self.rated[success] / n if n else None


def summarize(results: Sequence[TrialRecord], corrupt: int = 0) -> list[AgentRow]:
    rows: dict[str, AgentRow] = {}
    for r in results:
        row = rows.setdefault(r.agent, AgentRow(r.agent))
        row.trials += 1
        if r.status == "complete":
            row.complete += 1
            short = bool(r.evaluation.metrics.get("candidate_shortfall"))
            row.short += short
            if r.evaluation.outcome:
                row.outcomes[r.evaluation.outcome] += 1
                if not short:
                    row.rated[r.evaluation.outcome] += 1
            strict = r.evaluation.metrics.get("outcome_strict")
            if isinstance(strict, str):
                row.strict[strict] += 1
                if not short:
                    row.rated_strict[strict] += 1
        else:
            row.failed += 1
    return list(rows.values())


def run_scoring(results: Sequence[TrialRecord]) -> Scoring:
    """The scoring the run's task declared: the first that classifies outcomes, else the
    first that declares anything (a success outcome, totals), else none."""
    declared = next((r.scoring for r in results if r.scoring != Scoring()), Scoring())
    return next((r.scoring for r in results if r.scoring.classifies), declared)


def format_table(rows: Sequence[AgentRow], scoring: Scoring | None = None) -> str:
    """Tasks that classify outcomes (the SCT) get their classes and the success rate with its
    interval; other tasks list the outcomes they report (none for tasks that only measure,
    such as constraint retention)."""
    rated = scoring is not None and scoring.classifies and scoring.success is not None
    if scoring is not None and scoring.classifies:
        columns = list(scoring.classes)
    else:
        columns = sorted({o for row in rows for o in row.outcomes})
    header = ["agent", "trials", "done", "failed", *columns]
    shorts = rated and any(row.short for row in rows)
    if shorts:
        header.append("short")
    both = rated and any(row.strict for row in rows)
    if rated:
        header += ["SC %", "95% CI"]
    if both:
        header += ["SC strict %", "strict 95% CI"]
    body = []
    for row in rows:
        cells = [
            row.agent,
            str(row.trials),
            str(row.complete),
            str(row.failed),
            *(str(row.outcomes[c]) for c in columns),
            *([str(row.short)] if shorts else []),
        ]
        if rated and scoring is not None and scoring.success is not None:
            cells += _rate(row.rated[scoring.success], sum(row.rated.values()))
            if both:
                cells += _rate(row.rated_strict[scoring.success], sum(row.rated_strict.values()))
        body.append(cells)
    table = text_table(header, body)
    if shorts:
        table += (
            "\nshort: trials that asked fewer candidates than requested; their outcomes are "
            "counted, but they are left out of the SC rates (see the report)."
        )
    return table


def _rate(successes: int, n: int) -> list[str]:
    """The success rate in percent and its Wilson interval, or dashes without trials."""
    if not n:
        return ["-", "-"]
    lo, hi = wilson_interval(successes, n)
    return [f"{100 * successes / n:.0f}", f"{100 * lo:.0f}-{100 * hi:.0f}"]


def text_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    """A Markdown table padded to line up in a terminal."""
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), rule, *(line(r) for r in body)])
