"""Memory across games in the Episodex agent: episodes one per game and drawn up to
max_episodes, concepts from won games only and clustered before each game, the same with the
same seed, and the planning prompts."""

from __future__ import annotations

import json
import math

import pytest

from cogarch.core.memory import EpisodeEnd
from cogarch.errors import ConfigError
from cogarch.memory.long_term.conceptual import ConceptualMemory
from cogarch.memory.long_term.episodic import EpisodicMemory
from cogarch.workspace import Agent
from tests.workspace.episodex import Scripted, episodex
from tests.workspace.episodex.house import (
    House,
    apple_house,
    empty_house,
    mug_house,
    play,
    play_game,
)


def curriculum() -> list[House]:
    return [apple_house(), empty_house(), mug_house(), apple_house(), empty_house(), mug_house()]


def memories(agent: Agent) -> tuple[EpisodicMemory, ConceptualMemory]:
    episodic, conceptual = agent.memory["episodic"], agent.memory["conceptual"]
    assert isinstance(episodic, EpisodicMemory) and isinstance(conceptual, ConceptualMemory)
    return episodic, conceptual


@pytest.mark.parametrize("max_episodes", [0, 1, 4])
async def test_episodes_accumulate_one_per_game_and_are_drawn_up_to_max(max_episodes: int) -> None:
    brain = Scripted()
    agent = episodex(brain, max_episodes=max_episodes)
    houses = curriculum()
    await play(agent, houses)
    episodic, _ = memories(agent)

    assert [(e.episode, e.label, e.won) for e in episodic.archive] == [
        (i, h.task, h.won) for i, h in enumerate(houses)
    ]
    assert [e.steps for e in episodic.archive] == [h.steps for h in houses]
    assert [len(g.drawn) for g in episodic.games] == [min(max_episodes, i) for i in range(6)]
    for game in episodic.games:  # the task is read from the game's first observation
        assert game.task == houses[game.episode].task
    for episode in episodic.archive:  # every belief and action is traced to its game and step
        assert all(b.episode == episode.episode for b in episode.beliefs)
        assert [a.step for a in episode.actions] == list(range(episode.steps))
    if max_episodes:
        planner = brain.shown("action_planner")[-1]  # the last game's planner saw them
        assert planner.count("\nEpisode ep") + planner.startswith("Episode") == max_episodes
    else:
        assert all("Past episodes:" not in shown for shown in brain.shown("action_planner"))


async def test_concepts_come_from_won_games_only_and_are_clustered_before_each_game() -> None:
    brain = Scripted()
    agent = episodex(brain)
    houses = curriculum()
    await play(agent, houses)
    _, conceptual = memories(agent)

    won = [h.won for h in houses]
    assert won == [True, False, True, True, False, True]
    assert [bool(g.stored) for g in conceptual.games] == won
    assert len(brain.shown("memory:conceptual")) == sum(won)
    for game in conceptual.games:
        assert game.k == (max(1, math.isqrt(game.concepts)) if game.concepts else 0)
        assert sorted(game.retrieved) == sorted(m for c in game.clusters for m in c.members)
    stored_by = {c: g.episode for g in conceptual.games for c in g.stored}
    assert all(stored_by[c.id] == c.episode for c in conceptual.concepts)
    assert {c.episode for c in conceptual.concepts} <= {i for i, w in enumerate(won) if w}
    # every concept of the last game is in the planner's context, under its cluster's label
    last = conceptual.games[-1]
    texts = {c.id: c.text for c in conceptual.concepts}
    assert all(texts[i] in brain.shown("action_planner")[-1] for i in last.retrieved)
    assert all(f"Cluster {c.id}" in brain.shown("action_planner")[-1] for c in last.clusters)


async def test_the_same_seed_gives_the_same_memory_and_another_seed_another_draw() -> None:
    async def run(seed: int) -> Agent:
        agent = episodex(Scripted(slip=0.2, detours=0.3), seed=seed, max_episodes=2)
        await play(agent, curriculum())
        return agent

    first, again = await run(3), await run(3)
    for name in ("episodic", "conceptual"):
        assert json.dumps(first.memory[name].save_state()) == json.dumps(
            again.memory[name].save_state()
        )
    draws = set()
    for seed in range(6):
        episodic, _ = memories(await run(seed))
        draws.add(tuple(tuple(g.drawn) for g in episodic.games))
    assert len(draws) > 1


async def test_with_conceptual_memory_off_no_concept_is_learned_or_shown() -> None:
    brain = Scripted()
    agent = episodex(brain, conceptual=False)
    await play(agent, curriculum()[:4])
    _, conceptual = memories(agent)
    assert conceptual.concepts == [] and brain.shown("memory:conceptual") == []
    assert all("Concepts:" not in shown for shown in brain.shown("action_planner"))


async def test_similar_retrieval_draws_the_game_with_the_same_goal() -> None:
    agent = episodex(Scripted(), max_episodes=1, retrieval="similar")
    await play(agent, [apple_house(), mug_house(), empty_house(), mug_house()])
    episodic, _ = memories(agent)
    assert [g.drawn for g in episodic.games] == [[], ["ep0"], ["ep0"], ["ep1"]]


@pytest.mark.parametrize(
    ("style", "words"),
    [
        ("simple", "Your output should only consist of a proposed action and nothing else."),
        ("affordances", "searching 4 stove burners is better than searching 9 cabinets"),
    ],
)
async def test_the_planning_prompt_is_one_of_the_papers_two(style: str, words: str) -> None:
    brain = Scripted()
    agent = episodex(brain, planning_prompt=style)
    house = apple_house()
    await agent.respond(house.prompt(house.start()))
    (system,) = brain.systems("action_planner")
    assert words in system
    shown = brain.shown("action_planner")[0]
    assert "Admissible actions:\n- go to table 1" in shown


def test_an_unknown_planning_prompt_is_refused_with_the_choices() -> None:
    with pytest.raises(ConfigError, match=r"'simple' or 'affordances'"):
        episodex(Scripted(), planning_prompt="fancy")


async def test_the_end_of_each_game_reports_what_memory_and_the_focus_loop_did() -> None:
    agent = episodex(Scripted(slip=0.3), max_episodes=1)
    episodic, conceptual = memories(agent)
    reports = []
    for episode, house in enumerate(curriculum()[:4]):
        await play_game(agent, house)
        end = EpisodeEnd(episode, house.won, label=house.task, steps=house.steps)
        reports.append(await agent.end_episode(end))

    for episode, report in enumerate(reports):
        assert set(report.memory) == {"episodic", "conceptual"}
        assert report.memory["episodic"] == episodic.episode_activity(episode)
        assert report.memory["conceptual"] == conceptual.episode_activity(episode)
        assert report.memory["episodic"]["retrieved"] == episodic.games[episode].drawn
        logged = [f for f in agent.workspace.acting.focus_log if f.episode == episode]
        assert [(f["turn"], f["reason"]) for f in report.focus] == [
            (f.turn, f.reason) for f in logged
        ]
    assert [len(r.memory["episodic"]["retrieved"]) for r in reports] == [0, 1, 1, 1]
    assert any(r.focus for r in reports)  # the slipping motor set the focus loop off
    assert json.loads(json.dumps([r.memory for r in reports])) == [r.memory for r in reports]
