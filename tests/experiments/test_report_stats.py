"""A run report's statistics: failed trials count as failures of the success rate, and
agents are tested against baselines over the trials both ran by exact McNemar."""

from __future__ import annotations

import math

from cogarch.core.evaluation import Evaluation
from cogarch.core.records import Scoring, TrialRecord
from cogarch.experiments.reports.report import summary_table
from cogarch.experiments.reports.stats import comparison_table, significance
from cogarch.experiments.tables.summary import format_table, summarize
from cogarch.experiments.tables.tidy_table import TidyRow


def row(agent: str, trial: int, wins: bool | None) -> TidyRow:
    """A trial that reached the success outcome or not; ``None``: a failed trial."""
    return TidyRow(
        run="r",
        agent=agent,
        task="hangman_sct",
        trial=trial,
        seed=trial,
        status="failed" if wins is None else "complete",
        outcome=None if wins is None else "self_consistent" if wins else "all_denial",
        self_consistent=wins,
        agent_model="m",
    )


def test_agents_are_tested_by_mcnemar_over_the_trials_both_ran() -> None:
    rows = [row("workflow", i, True) for i in range(10)] + [
        row("vanilla", i, False) for i in range(10)
    ]
    (found,), markers = significance(rows, ["vanilla"])
    assert (found.test, found.shared) == ("mcnemar", 10)
    assert found.p_value == 0.5**10  # one-sided: 10 discordant trials, all for workflow
    assert markers == {("workflow", "hangman_sct / m")}
    table = comparison_table([found])
    assert table.rows[0][5] == "mcnemar over 10 shared trials"


def test_a_failed_trial_counts_as_a_failure_of_the_rate_and_the_test() -> None:
    rows = [row("workflow", i, True) for i in range(9)] + [row("workflow", 9, None)]
    rows += [row("vanilla", i, i == 9) for i in range(10)]
    (found,), _ = significance(rows, ["vanilla"])
    assert (found.agent_successes, found.agent_n) == (9, 10)  # not 9 of 9
    # discordant: trials 0-8 for workflow, trial 9 for vanilla (workflow failed it)
    assert found.p_value == (math.comb(10, 9) + math.comb(10, 10)) / 2**10
    scoring = Scoring(classes=("self_consistent", "all_denial"), success="self_consistent")
    summary = summary_table(rows, ["vanilla"], set(), scoring)
    workflow = next(r for r in summary.rows if r[0] == "workflow")
    assert workflow[5] == "1" and workflow[-2] == "90"  # 1 failed; SC 9 of 10


def test_the_end_of_run_table_counts_failed_trials_in_the_rate() -> None:
    def record(trial: int, status: str, outcome: str | None) -> TrialRecord:
        return TrialRecord(
            status=status,
            run="r",
            agent="a",
            task="t",
            trial=trial,
            seed=trial,
            evaluation=Evaluation(outcome=outcome),
        )

    records = [
        record(0, "complete", "won"),
        record(1, "complete", "won"),
        record(2, "failed", None),
    ]
    (agent,) = summarize(records)
    assert agent.success_rate("won") == 2 / 3
    table = format_table([agent], Scoring(classes=("won", "lost"), success="won"))
    assert "| 67 " in table
