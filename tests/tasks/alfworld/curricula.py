"""Curricula made up as records, for the tests of what the task shows."""

from __future__ import annotations

from typing import Any

from cogarch.core.records import TrialError, TrialRecord
from cogarch.tasks.alfworld.evaluate import evaluate
from cogarch.tasks.alfworld.records import AlfworldPayload, GameResult, GameStep
from cogarch.tasks.alfworld.task import AlfworldTask

PICK, LIGHT = "pick_and_place_simple", "look_at_obj_in_light"


def step(n: int, turn: int, *, bad: bool = False, reply: str = "> go to desk 1") -> GameStep:
    return GameStep(
        step=n,
        turn=turn,
        observation=f"seen {n}",
        admissible=["go to desk 1", "look", "inventory"],
        reply=reply,
        action="dance" if bad else "go to desk 1",
        feedback="Nothing happens." if bad else "You arrive at desk 1.",
        inadmissible=bad,
        repeated=n > 2,
    )


def game(
    index: int, split: Any, task_type: str, won: bool, actions: int, **extra: Any
) -> GameResult:
    return GameResult(
        index=index,
        room=200 + index,
        task_type=task_type,
        split=split,
        seed=index,
        game=f"g{index}",
        goal=f"goal {index}",
        won=won,
        actions=actions,
        inadmissible_actions=1,
        repeated_actions=0,
        plan_length=3,
        model_calls=actions,
        prompt_tokens=100 * actions,
        completion_tokens=10 * actions,
        seconds=1.5,
        **extra,
    )


def record(agent: str, trial: int, wins: list[bool], **fields: Any) -> TrialRecord:
    splits = ["train"] * (len(wins) // 2) + ["ood"] * (len(wins) - len(wins) // 2)
    games = [
        game(i, s, PICK if i % 2 == 0 else LIGHT, w, 4 if w else 10)
        for i, (s, w) in enumerate(zip(splits, wins, strict=True))
    ]
    payload = AlfworldPayload(max_steps=10, games=games)
    return TrialRecord(
        status="complete",
        run="r",
        agent=agent,
        task="alfworld",
        trial=trial,
        seed=trial,
        scoring=AlfworldTask.scoring,
        evaluation=evaluate(payload),
        payload=payload,
        **fields,
    )


RECORDS = [
    record("oracle", 0, [True, True, True, True]),
    record("oracle", 1, [True, True, True, True]),
    record("learner", 0, [False, True, False, True]),
    record("learner", 1, [False, False, True, True]),
    TrialRecord(
        status="failed",
        run="r",
        agent="learner",
        task="alfworld",
        trial=2,
        seed=2,
        error=TrialError(type="RuntimeError", message="engine gone"),
    ),
]
