"""Episodex and a text-only agent on ALFWorld's engine, as the Episodex paper runs them: a
well-formed inadmissible command goes to the game, which answers "Nothing happens." and
counts the step; no action and output outside the task space fire the focus loop, which the
trial file records per game with the action that followed; the agent's step budget ending a
turn is recorded; the prompts give the actions remaining."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from autogen_core.models import LLMMessage

from cogarch.models import CallInfo, FunctionModel, Model
from cogarch.tasks.alfworld.records import AlfworldPayload
from cogarch.tasks.registry import build_task
from tests.tasks.alfworld.conftest import SMALL_SEEN, trial_context
from tests.workspace.episodex import Scripted

pytestmark = pytest.mark.usefixtures("engine")

PARAMS = {"curriculum": [{"split": "train", "games": 1}], "rooms": SMALL_SEEN, "max_steps": 3}
SEEN = re.compile(r"you see a (\w+ \d+)")


def inadmissible(prompt: str) -> str:
    """A well-formed command the game cannot admit at the start: placing what is not held."""
    found = SEEN.search(prompt)
    assert found is not None, prompt
    return f"move apple 1 to {found.group(1)}"


class Motor:
    """The scripted brain, with the motor's first answers replaced: nothing, text outside the
    task, then (after the brain's own action) a well-formed inadmissible command."""

    def __init__(self) -> None:
        self.brain = Scripted()
        self.motor_calls = 0

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        if info.role == "motor" and info.caller != "router":
            self.motor_calls += 1
            if self.motor_calls == 1:
                return ""
            if self.motor_calls == 2:
                return "fly to the moon"
            if self.motor_calls == 4:
                return inadmissible(str(messages[-1].content))
        return self.brain(messages, info)


async def test_episodex_sends_inadmissible_commands_and_focuses_only_on_hallucinations(
    game_cache: Path,
) -> None:
    fn = Motor()
    model = Model(FunctionModel(fn), provider="fake", model="fake", fake=True)
    ctx = trial_context(model, agent="episodex", params={"embedder": "hash"})
    task = build_task("alfworld", {**PARAMS, "cache_dir": str(game_cache)})
    out = await task.run_trial(ctx)
    assert isinstance(out.payload, AlfworldPayload)
    (game,) = out.payload.games
    first, second = game.transcript[:2]

    # the first turn: nothing, then text outside the task, both held back by the focus loop;
    # the step budget ended the turn, and the brain's own action went
    assert [f["reason"] for f in game.focus] == ["empty", "off_task"]
    assert [f["next_action"] for f in game.focus] == ["fly to the moon", first.action]
    assert [f["next_valid"] for f in game.focus] == [False, True]
    assert [f["next_sent"] for f in game.focus] == [None, first.action]
    assert all(f["ended_by_budget"] for f in game.focus)
    assert game.budget_ended_steps == [1]
    assert not first.inadmissible and first.step == 1

    # the second: a well-formed inadmissible command, sent; the game answers it, the step
    # counts, and it is no focus activation
    assert second.action.startswith("move apple 1 to ") and second.reply == second.action
    assert (second.feedback, second.inadmissible, second.step) == ("Nothing happens.", True, 2)
    assert game.inadmissible_actions >= 1 and game.actions == len(game.transcript)
    assert len(game.focus) == 2

    # every prompt gives the limit and the actions remaining
    planned = fn.brain.shown("action_planner")
    assert "Action limit: 3 actions per game; actions remaining: 3" in planned[0]
    assert "actions remaining: 2" in planned[-1] or "actions remaining: 1" in planned[-1]
    assert first.observation in planned[0]


async def test_a_text_only_agent_gets_the_same_answer_to_an_inadmissible_command(
    game_cache: Path,
) -> None:
    shown: list[str] = []

    def react(pairs: Any, seed: int, call: Any) -> str:
        shown.append(pairs[-1][1])
        return f"Thought: put it there.\nACTION: [{inadmissible(shown[0])}]"

    from cogarch.models import pairs_model

    model = Model(pairs_model(react), provider="fake", model="fake", fake=True)
    task = build_task("alfworld", {**PARAMS, "cache_dir": str(game_cache)})
    out = await task.run_trial(trial_context(model))
    assert isinstance(out.payload, AlfworldPayload)
    (game,) = out.payload.games
    assert game.actions == 3 and len(game.transcript) == 3  # every one cost its step
    assert all(s.feedback == "Nothing happens." and s.inadmissible for s in game.transcript)
    assert game.inadmissible_actions == 3 and not game.won
    assert "Actions remaining: 3 of 3." in shown[0] and "Actions remaining: 1 of 3." in shown[2]


def test_a_game_recorded_by_an_earlier_version_still_loads() -> None:
    earlier = {
        "index": 0,
        "room": 304,
        "task_type": "pick_and_place_simple",
        "split": "ood",
        "seed": 1,
        "game": "g",
        "goal": "put a book in drawer",
        "won": False,
        "actions": 2,
        "inadmissible_actions": 0,
        "repeated_actions": 0,
        "plan_length": 3,
        "focus": [
            {
                "episode": 0,
                "turn": 1,
                "reason": "inadmissible",
                "attempt": 0,
                "next_action": "look",
                "next_admissible": True,
            }
        ],
    }
    payload = AlfworldPayload.model_validate({"max_steps": 2, "games": [earlier]})
    (game,) = payload.games
    assert game.budget_ended_steps == [] and game.focus[0]["reason"] == "inadmissible"
