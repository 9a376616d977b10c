"""The curriculum's evaluation, and the payload as the trial record holds it."""

from __future__ import annotations

from cogarch.core.records import TrialRecord
from cogarch.tasks.alfworld.evaluate import evaluate
from cogarch.tasks.alfworld.records import AlfworldEvaluation, AlfworldPayload, GameResult
from cogarch.tasks.alfworld.task import AlfworldTask


def game(
    index: int, split: str, task_type: str, won: bool, actions: int, bad: int = 0
) -> GameResult:
    return GameResult.model_validate(
        {
            "index": index,
            "room": 1,
            "task_type": task_type,
            "split": split,
            "seed": index,
            "game": f"g{index}",
            "goal": "put a mug in sink",
            "won": won,
            "actions": actions,
            "inadmissible_actions": bad,
            "repeated_actions": 1,
            "plan_length": 4,
            "model_calls": actions,
            "prompt_tokens": 10 * actions,
            "completion_tokens": actions,
        }
    )


PAYLOAD = AlfworldPayload(
    max_steps=50,
    games=[
        game(0, "train", "pick_and_place_simple", False, 50, bad=10),
        game(1, "train", "pick_and_place_simple", True, 6),
        game(2, "ood", "look_at_obj_in_light", True, 10, bad=2),
        game(3, "ood", "pick_two_obj_and_place", False, 50),
    ],
)


def test_the_evaluation_counts_success_efficiency_and_the_learning_curve() -> None:
    e = evaluate(PAYLOAD)
    assert (e.games, e.won, e.success_rate) == (4, 2, 0.5)
    assert e.success_by_split == {"ood": 0.5, "train": 0.5}
    assert e.success_by_task_type == {
        "look_at_obj_in_light": 1.0,
        "pick_and_place_simple": 0.5,
        "pick_two_obj_and_place": 0.0,
    }
    assert (e.actions, e.inadmissible_actions, e.repeated_actions) == (116, 12, 4)
    assert e.actions_per_won_game == 8.0 and e.plan_length_per_won_game == 4.0
    assert e.inadmissible_rate == round(12 / 116, 4) and e.repeated_rate == round(4 / 116, 4)
    assert e.learning_curve == [0.0, 0.5, 0.6667, 0.5]
    assert e.model_calls_per_game == 29.0 and e.tokens_per_game == 319.0


def test_an_empty_curriculum_has_no_rates() -> None:
    e = evaluate(AlfworldPayload(max_steps=50))
    assert e.success_rate is None and e.inadmissible_rate is None and e.learning_curve == []


def test_a_record_reads_the_payload_and_evaluation_back_as_the_task_typed_them() -> None:
    record = TrialRecord(
        status="complete",
        run="r",
        agent="a",
        task="alfworld",
        trial=0,
        seed=1,
        evaluation=evaluate(PAYLOAD),
        payload=PAYLOAD,
    )
    back = TrialRecord.read(record.model_dump(mode="json"), AlfworldTask.record_types())
    assert back.payload == PAYLOAD
    assert isinstance(back.evaluation, AlfworldEvaluation)
    assert back.evaluation.success_by_split == {"ood": 0.5, "train": 0.5}
    assert back.evaluation.outcome is None
