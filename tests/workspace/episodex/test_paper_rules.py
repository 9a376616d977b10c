"""The Episodex agent as its paper runs it: every drawn episode in full in the planner's
prompt, every well-formed command sent (admissible or not), the focus loop only on the paper's
two forms of hallucination, and the action limit in the prompt."""

from __future__ import annotations

import pytest

from cogarch.core.affordances import format_input
from cogarch.core.memory import EpisodeEnd
from cogarch.memory.long_term.episodic import EpisodicMemory
from tests.workspace.episodex import Scripted, episodex
from tests.workspace.episodex.house import House, apple_house, mug_house, play


def _episodic(agent: object) -> EpisodicMemory:
    module = agent.memory["episodic"]  # type: ignore[attr-defined]
    assert isinstance(module, EpisodicMemory)
    return module


async def test_at_20_episodes_every_drawn_episodes_beliefs_reach_the_planners_prompt() -> None:
    brain = Scripted()
    agent = episodex(brain, max_episodes=20)
    houses = [(apple_house if i % 2 else mug_house)(max_steps=2) for i in range(20)]
    await play(agent, houses)
    episodic = _episodic(agent)
    assert len(episodic.archive) == 20
    assert all(len(e.beliefs) == 2 for e in episodic.archive)

    house = apple_house()
    await agent.respond(house.prompt(house.start()))
    assert len(episodic.drawn()) == 20
    prompt = brain.shown("action_planner")[-1]
    for episode in episodic.archive:
        assert f"Episode {episode.id} (" in prompt
        for belief in episode.beliefs:
            assert belief.text in prompt  # in full: no belief is cut
    assert episodic.game is not None and episodic.game.cut == {}


async def test_a_cap_in_the_agents_parameters_cuts_and_the_game_says_what() -> None:
    brain = Scripted()
    agent = episodex(brain, max_episodes=5, episode_tokens=20)
    await play(agent, [apple_house(max_steps=2), mug_house(max_steps=2)])
    house = apple_house()
    await agent.respond(house.prompt(house.start()))
    report = await agent.end_episode(EpisodeEnd(2, False, label=house.task, steps=1))
    assert report.memory["episodic"]["cut"] == {"ep0": [0, 1], "ep1": [0, 1]}
    assert "- step 0:" not in brain.shown("action_planner")[-1]


@pytest.mark.parametrize(
    "command", ["go to box 1", "take mug 1 from table 1", "move apple 1 to box 1"]
)
async def test_a_well_formed_inadmissible_command_is_sent_and_is_no_focus_activation(
    command: str,
) -> None:
    brain = Scripted({"motor": [command]})
    agent = episodex(brain)
    house = apple_house()
    house.at = "box 1"  # "go to box 1" is not admissible there; nothing is held
    observation = "You arrive at box 1. On the box 1, you see nothing."
    reply = await agent.respond(house.prompt(observation))
    assert reply == command
    assert house.act(reply) == "Nothing happens." and house.steps == 1  # the step counts
    (attempt,) = agent.workspace.acting.actions
    assert (attempt.problem, attempt.admissible, attempt.sent) == (None, False, command)
    assert agent.workspace.acting.focus_log == []
    assert all(t.target != "focus" for t in agent.route_log.transitions)


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("I refuse to act; the task is impossible.", "refusal"),
        ("go to table 1 and then go to box 1", "several"),
        ("ACTION: [go to table 1]\nACTION: [go to shelf 1]", "several"),
        ("fly to the moon", "off_task"),
        ("[Omega State Engaged] The cognitive singularity prepares", "off_task"),
        ("go to spaceship 1", "unknown_name"),
    ],
)
async def test_no_action_or_output_outside_the_task_space_fires_the_focus_loop(
    output: str, reason: str
) -> None:
    brain = Scripted({"motor": [output]})
    agent = episodex(brain)
    house = apple_house()
    reply = await agent.respond(house.prompt(house.start()))
    assert reply in house.admissible()
    first, second = agent.workspace.acting.actions
    assert (first.problem, first.sent) == (reason, None)
    assert (second.problem, second.sent) == (None, reply)
    (activation,) = agent.workspace.acting.focus_log
    assert activation.reason == reason
    assert (activation.next_valid, activation.next_sent) == (True, reply)
    assert not activation.ended_by_budget


async def test_the_action_limit_and_the_actions_remaining_are_in_the_prompts() -> None:
    brain = Scripted()
    agent = episodex(brain)
    house = House({"table 1": ["apple 1"], "box 1": []}, "apple 1", "box 1", max_steps=50)
    observation = house.start()
    for step in range(3):
        left = house.max_steps - house.steps
        prompt = format_input(observation, house.admissible(), remaining=left, limit=50)
        observation = house.act(await agent.respond(prompt))
        planned = brain.shown("action_planner")[-1]
        assert f"Action limit: 50 actions per game; actions remaining: {50 - step}" in planned
        assert f"actions remaining: {50 - step}" in brain.shown("belief")[-1]
        assert f"actions remaining: {50 - step}" in brain.shown("motor")[-1]
    assert "Actions remaining" not in planned.split("Current observation:")[1]
