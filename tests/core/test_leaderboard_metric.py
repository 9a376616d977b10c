"""A task's leaderboard metric: its declaration, and the items it reads from trial records."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from pydantic import BaseModel, ValidationError

from cogarch.core.evaluation import Evaluation
from cogarch.core.leaderboard import LeaderboardMetric, metric_items, metric_units
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


def test_an_item_names_its_cluster_from_the_item_or_the_payload() -> None:
    answers = [{"v": 1, "conv": "b"}, {"v": 0}]
    metric = LeaderboardMetric(name="m", value="v", items="answers", cluster="conv")
    trial = record(4, payload={"answers": answers, "conv": "a"})
    assert metric_units(metric, trial) == [("4/0", 1.0, "conv b"), ("4/1", 0.0, "conv a")]
    plain = LeaderboardMetric(name="m", value="v", items="answers")
    assert [c for _, _, c in metric_units(plain, trial)] == ["trial 4", "trial 4"]
    with pytest.raises(ValidationError, match="dotted path"):
        LeaderboardMetric(name="m", value="v", cluster="a..b")


def test_a_failed_item_scores_the_worst_value_of_a_rate_and_nothing_for_a_mean() -> None:
    assert LeaderboardMetric(name="m", value="v", interval="wilson").failure_value == 0.0
    lower = LeaderboardMetric(name="m", value="v", interval="wilson", direction="lower")
    assert lower.failure_value == 1.0
    assert LeaderboardMetric(name="m", value="v").failure_value is None
    assert LeaderboardMetric(name="m", value="v", failure=0.0).failure_value == 0.0


@pytest.mark.parametrize(
    ("kind", "cluster"),
    [
        ("locomo", "sample_id"),
        ("longmemeval", "question_id"),
        ("alfworld", None),
        ("hangman_sct", None),
        ("diagnosis_sct", None),
    ],
)
def test_each_task_declares_what_its_items_cluster_by(kind: str, cluster: str | None) -> None:
    assert {m.cluster for m in TASKS.get(kind).leaderboard_metrics()} == {cluster}
