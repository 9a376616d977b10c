"""Aggregates across tasks: mean win rate, mean rank and a min-max normalised mean.

Each is taken over the tasks where the agent's main metric has a ranked value and at least one
other agent's has one too (the row's ``tasks``); a task with a single measured agent ranks no
one. A ranked value is the cell's value over the items every measured cell of the column has
(``leaderboard_column``), so a partial cell is ranked on the items it shares with the others,
never on its own subset. Values within ``leaderboard_stats.TOLERANCE`` tie.
- **Mean win rate** (HELM's): on each task, the share of the other measured agents the agent
  beats, a tie counting one half; averaged over the tasks.
- **Mean rank**: on each task, 1 plus the number of agents better, plus half the number tied
  (tied agents share their average rank); averaged over the tasks.
- **Normalised mean**: on each task, (value - worst) / (best - worst), so the best agent
  scores 1 and the worst 0 (1 for all when every value is equal); averaged over the tasks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from cogarch.core.metric import Metric

from ..estimates.paired import better, tied


@dataclass
class Aggregates:
    tasks: list[str] = field(default_factory=list)
    win_rates: list[float] = field(default_factory=list)
    ranks: list[float] = field(default_factory=list)
    normalised: list[float] = field(default_factory=list)

    @staticmethod
    def _mean(values: list[float]) -> float | None:
        return sum(values) / len(values) if values else None

    @property
    def mean_win_rate(self) -> float | None:
        return self._mean(self.win_rates)

    @property
    def mean_rank(self) -> float | None:
        return self._mean(self.ranks)

    @property
    def normalised_mean(self) -> float | None:
        return self._mean(self.normalised)


def aggregate(
    values: Mapping[str, Mapping[str, float]],
    metrics: Mapping[str, Metric],
    agents: list[str],
) -> dict[str, Aggregates]:
    """Each agent's aggregates from ``values[task][agent]`` (the main metric's values of the
    measured cells) and each task's main metric."""
    out = {agent: Aggregates() for agent in agents}
    for task, by_agent in values.items():
        if len(by_agent) < 2:
            continue
        metric = metrics[task]
        worst = min(by_agent.values()) if metric.direction == "higher" else max(by_agent.values())
        best = max(by_agent.values()) if metric.direction == "higher" else min(by_agent.values())
        for agent, mine in by_agent.items():
            others = [v for a, v in by_agent.items() if a != agent]
            wins = sum(better(metric, mine, v) for v in others)
            ties = sum(tied(v, mine) for v in others)
            losses = len(others) - wins - ties
            row = out[agent]
            row.tasks.append(task)
            row.win_rates.append((wins + ties / 2) / len(others))
            row.ranks.append(1 + losses + ties / 2)
            spread = best - worst
            row.normalised.append(1.0 if tied(best, worst) else (mine - worst) / spread)
    return out
