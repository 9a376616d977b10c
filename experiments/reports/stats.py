"""A run report's statistics: which trials a success rate counts, and the tests against the
baselines.

A failed trial counts as a failure of the success rate (never as a trial that did not
happen), once the run rates outcomes at all; a trial its task leaves unrated
(``Evaluation.unrated_reason``) and a corrupt file stay out. Agents play the same trial seeds,
so each agent is tested against each baseline by a one-sided exact McNemar test over the trials
both have in a (task, model) stratum (``stats.compare_to_baselines``), Holm-corrected.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.core.views import Table

from ..estimates.significance import Comparison, compare_to_baselines, markers_from
from ..tables.reading import stratum, success_of
from ..tables.tidy_table import TidyRow

ALPHA = 0.05


def outcome_of(row: TidyRow, reading: str | None, rated: bool = True) -> int | None:
    """1 for a success, 0 for a failure or a failed trial (when the run is ``rated``), None
    for a trial the rate leaves out."""
    if row.status == "failed":
        return 0 if rated else None
    if row.status != "complete":
        return None
    success = success_of(row, reading)
    return None if success is None else int(success)


def significance(
    rows: Sequence[TidyRow], baselines: Sequence[str], reading: str | None = None
) -> tuple[list[Comparison], set[tuple[str, str]]]:
    """Self-consistency of each agent per (task, model), tested against every baseline on the
    same task and model over the trials both ran."""
    rated = any(r.status == "complete" and success_of(r, reading) is not None for r in rows)
    table: dict[str, dict[str, tuple[int, int]]] = {}
    outcomes: dict[str, dict[str, dict[str, float]]] = {}
    for r in rows:
        outcome = outcome_of(r, reading, rated)
        if outcome is None or not r.task:
            continue
        wins, n = table.setdefault(r.agent, {}).get(stratum(r), (0, 0))
        table[r.agent][stratum(r)] = (wins + outcome, n + 1)
        key = str(r.trial) if r.trial is not None else f"row {len(outcomes)}"
        outcomes.setdefault(r.agent, {}).setdefault(stratum(r), {})[key] = float(outcome)
    base = [b for b in baselines if b in table]
    if not base or all(a in base for a in table):
        return [], set()
    comparisons = compare_to_baselines(table, base, alpha=ALPHA, outcomes=outcomes)
    return comparisons, markers_from(comparisons)


def comparison_table(comparisons: Sequence[Comparison]) -> Table:
    body = [
        [
            c.agent,
            c.baseline,
            c.column,
            f"{c.agent_successes}/{c.agent_n}",
            f"{c.baseline_successes}/{c.baseline_n}",
            c.test + ("" if c.shared is None else f" over {c.shared} shared trials"),
            f"{c.p_value:.3g}",
            f"{c.p_adjusted:.3g}",
            "yes" if c.significant else "no",
        ]
        for c in comparisons
    ]
    header = ["agent", "baseline", "task / model", "agent SC", "baseline SC", "test"]
    header += ["p (one-sided)", "p (Holm)", f"significant at {ALPHA}"]
    return Table("tests against the baselines", header, body)
