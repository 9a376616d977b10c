"""The end-of-run table: outcomes and the success rate per agent, with a 95% interval.

Outcomes are counted under the task's first reading (``outcome``); for a task that scores
further readings (the SCT's authors' exact reading of yes/no answers: only a bare "yes" is
affirmed), each one's success rate is shown beside, so Table-1-comparable rates are always
there. Trials the task leaves out of the rates (``Evaluation.unrated_reason``: an SCT trial
that asked fewer candidates than requested) are counted, not rated; a failed trial counts as
a failure of every rate.
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
    readings: dict[str, Counter[str]] = field(default_factory=dict)
    """Outcomes under each further reading the task scores, for trials that record it."""
    short: int = 0
    """Complete trials the task leaves out of the rates (``Evaluation.unrated_reason``):
    their outcomes are counted, but not rated (as in the report)."""
    rated: Counter[str] = field(default_factory=Counter)
    rated_readings: dict[str, Counter[str]] = field(default_factory=dict)

    def success_rate(self, success: str) -> float | None:
        """The share of rated trials that reached ``success``, failed trials counting as
        failures."""
        n = sum(self.rated.values()) + self.failed
        return self.rated[success] / n if n else None


def summarize(results: Sequence[TrialRecord], corrupt: int = 0) -> list[AgentRow]:
    rows: dict[str, AgentRow] = {}
    for r in results:
        row = rows.setdefault(r.agent, AgentRow(r.agent))
        row.trials += 1
        if r.status != "complete":
            row.failed += 1
            continue
        row.complete += 1
        evaluation = r.evaluation
        short = evaluation.unrated_reason() is not None
        row.short += short
        if evaluation.outcome:
            row.outcomes[evaluation.outcome] += 1
            if not short:
                row.rated[evaluation.outcome] += 1
        for reading in list(type(evaluation).readings)[1:]:
            outcome = evaluation.outcome_in(reading)
            if outcome is None:
                continue
            row.readings.setdefault(reading, Counter())[outcome] += 1
            if not short:
                row.rated_readings.setdefault(reading, Counter())[outcome] += 1
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
        columns = list(scoring.classes)  # and any outcome outside them, as the report does
        columns += sorted({o for row in rows for o in row.outcomes if o not in columns})
    else:
        columns = sorted({o for row in rows for o in row.outcomes})
    header = ["agent", "trials", "done", "failed", *columns]
    shorts = rated and any(row.short for row in rows)
    if shorts:
        header.append("short")
    readings = list(dict.fromkeys(r for row in rows for r in row.readings)) if rated else []
    if rated:
        header += ["SC %", "95% CI"]
    for reading in readings:
        header += [f"SC {reading} %", f"{reading} 95% CI"]
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
            cells += _rate(row.rated[scoring.success], sum(row.rated.values()) + row.failed)
            for reading in readings:
                counts = row.rated_readings.get(reading, Counter())
                cells += _rate(counts[scoring.success], sum(counts.values()) + row.failed)
        body.append(cells)
    table = text_table(header, body)
    if shorts:
        table += (
            "\nshort: trials their task could not rate in full (the report says why); their "
            "outcomes are counted, but they are left out of the SC rates."
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
