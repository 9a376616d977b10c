"""A task's leaderboard metric: its declaration, and the items it reads from trial records."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from pydantic import BaseModel, ValidationError

from cogarch.core.evaluation import Evaluation
from cogarch.core.leaderboard import LeaderboardMetric, metric_items
from cogarch.core.payload import GenericPayload
from cogarch.core.records import Scoring, TrialOutput, TrialRecord
from cogarch.core.task import Task, TrialContext
from cogarch.errors import ConfigError
from cogarch.tasks.registry import TASKS


def record(trial: int = 0, status: str = "complete", payload: Any = None, **evaluation: Any):
    return TrialRecord(
        status=status,
        run="r",
        agent="a",
        task="t",
        trial=trial,
        seed=trial,
        evaluation=Evaluation(**evaluation),
        payload=GenericPayload(**(payload or {})),
    )


def test_a_trial_metric_reads_one_item_keyed_by_the_trial_index() -> None:
    metric = LeaderboardMetric(name="score", value="scores.overall")
    assert metric_items(metric, record(3, scores={"overall": 0.25})) == [("3", 0.25)]
    assert metric_items(metric, record(3, scores={})) == []  # not measured: no item
    assert metric_items(metric, record(3, status="failed", scores={"overall": 1})) == []


def test_an_item_metric_reads_each_element_of_a_payload_list() -> None:
    games = [{"won": True, "actions": 4}, {"won": False, "actions": 9}, {"won": True, "actions": 6}]
    rate = LeaderboardMetric(name="won", value="won", items="games", interval="wilson")
    cost = LeaderboardMetric(name="actions", value="actions", items="games", where="won")
    trial = record(2, payload={"games": games})
    assert metric_items(rate, trial) == [("2/0", 1.0), ("2/1", 0.0), ("2/2", 1.0)]
    assert metric_items(cost, trial) == [("2/0", 4.0), ("2/2", 6.0)]
    named = LeaderboardMetric(name="won", value="won", items="games", key="actions")
    assert [k for k, _ in metric_items(named, trial)] == ["2/4", "2/9", "2/6"]


def test_equals_turns_an_outcome_into_a_rate() -> None:
    metric = LeaderboardMetric(name="rate", value="outcome", equals="solved", interval="wilson")
    assert metric_items(metric, record(outcome="solved")) == [("0", 1.0)]
    assert metric_items(metric, record(outcome="lost")) == [("0", 0.0)]
    assert metric_items(metric, record()) == []


def test_a_rate_refuses_values_other_than_zero_and_one() -> None:
    metric = LeaderboardMetric(name="rate", value="score", interval="wilson")
    with pytest.raises(ConfigError, match=r"rate.*holds 0\.5.*bootstrap"):
        metric_items(metric, record(score=0.5))
    with pytest.raises(ConfigError, match="not a number"):
        metric_items(LeaderboardMetric(name="m", value="score"), record(score="high"))


def test_a_declaration_refuses_a_bad_path_and_unknown_fields() -> None:
    with pytest.raises(ValidationError, match="dotted path"):
        LeaderboardMetric(name="m", value="a..b")
    with pytest.raises(ValidationError, match="direction"):
        LeaderboardMetric(name="m", value="a", direction="up")  # type: ignore[arg-type]


class _Solving(Task):
    kind: ClassVar[str] = "solving"

    class Params(BaseModel):
        pass

    scoring: ClassVar[Scoring] = Scoring(classes=("solved", "lost"), success="solved")

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        return TrialOutput()


def test_a_task_without_a_declaration_is_ranked_by_its_success_rate() -> None:
    (metric,) = _Solving.leaderboard_metrics()
    assert (metric.value, metric.equals, metric.interval) == ("outcome", "solved", "wilson")
    assert Task.leaderboard_metrics() == ()


@pytest.mark.parametrize(
    "kind", ["hangman_sct", "diagnosis_sct", "revision", "constraints", "locomo", "alfworld"]
)
def test_every_built_in_task_declares_its_metrics(kind: str) -> None:
    metrics = TASKS.get(kind).leaderboard_metrics()
    assert metrics and len({m.name for m in metrics}) == len(metrics)
