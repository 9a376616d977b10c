"""Episodex's conceptual memory in the prompts: every stored concept under its cluster's label
(or the representatives alone, as an option), a token cap recorded when it cuts, and the
lessons the learning node records during a game, shown to the game's later steps with
``learn_in_game`` and kept as concepts when it ends."""

from __future__ import annotations

import json
import re

import pytest

from cogarch.memory.long_term.conceptual import ConceptualMemory
from tests.workspace.episodex import Scripted, episodex
from tests.workspace.episodex.house import apple_house, empty_house, mug_house, play, play_game

LESSON = "Lesson seventeen: shelves hold fruit more often than boxes."


def learning_at_fourth_turn() -> Scripted:
    """The brain, routed to learning on the fourth turn (three actions taken: step 3)."""
    route = ['{"next": "planning"}'] * 3 + ['{"next": "learning"}']
    return Scripted(scripts={"router": list(route), "learning": [LESSON]})


def planner_prompts_by_step(brain: Scripted) -> list[str]:
    """The planner's prompt at each step of the game, in order (one planning call a turn)."""
    return brain.shown("action_planner")


@pytest.mark.parametrize("on", [True, False])
async def test_a_lesson_recorded_at_step_3_reaches_step_4_of_the_same_game_only_when_on(
    on: bool,
) -> None:
    brain = learning_at_fourth_turn()
    agent = episodex(brain, learn_in_game=on, max_episodes=0)
    await play_game(agent, empty_house(max_steps=6))
    prompts = planner_prompts_by_step(brain)
    assert [int(re.search(r"Step: (\d+)", p).group(1)) for p in prompts] == list(range(6))  # type: ignore[union-attr]
    before, at, after = prompts[:3], prompts[3], prompts[4:]
    assert all(LESSON not in p for p in before)  # not before it was written
    assert LESSON in at  # this turn's broadcast, as always
    if on:
        assert all(f"Learned in this game:\n- [step 3] {LESSON}" in p for p in after)
    else:
        assert all(LESSON not in p for p in after)


async def test_lessons_of_a_lost_game_enter_conceptual_memory_when_it_ends_with_the_option() -> (
    None
):
    for on in (True, False):
        brain = learning_at_fourth_turn()
        agent = episodex(brain, learn_in_game=on, max_episodes=0)
        await play(agent, [empty_house(max_steps=6)])
        conceptual = agent.memory["conceptual"]
        assert isinstance(conceptual, ConceptualMemory)
        texts = [c.text for c in conceptual.concepts]
        assert (LESSON in texts) is on
        activity = conceptual.episode_activity(0)
        assert activity is not None and activity["lessons"] == [3]
        assert activity["in_game"] is on
        # the next game starts with no lesson of its own in context
        assert conceptual.lessons() == []


async def test_every_concept_and_its_cluster_label_reach_the_planner() -> None:
    brain = Scripted()
    agent = episodex(brain, max_episodes=0)
    await play(agent, [apple_house(), mug_house(), apple_house(), mug_house()])
    conceptual = agent.memory["conceptual"]
    assert isinstance(conceptual, ConceptualMemory)
    last = conceptual.games[-1]
    assert last.concepts == len(last.retrieved) >= 4 and last.k >= 2
    prompt = brain.shown("action_planner")[-1]
    block = prompt.split("Concepts:\n", 1)[1].split("\n\n", 1)[0]
    by_id = {c.id: c.text for c in conceptual.concepts}
    for cluster in last.clusters:
        size = len(cluster.members)
        header = f"Cluster {cluster.id} ({size} concept{'s' if size != 1 else ''}):"
        assert header in block
        # the cluster's concepts follow its label, the representative first
        after = block.split(header, 1)[1].split("\nCluster ", 1)[0]
        shown = [line[2:] for line in after.strip().splitlines()]
        assert shown[0] == by_id[cluster.representative]
        assert sorted(shown) == sorted(by_id[m] for m in cluster.members)


async def test_the_representatives_alone_stay_an_option() -> None:
    brain = Scripted()
    agent = episodex(brain, max_episodes=0, concepts_shown="representatives")
    await play(agent, [apple_house(), mug_house(), apple_house(), mug_house()])
    conceptual = agent.memory["conceptual"]
    assert isinstance(conceptual, ConceptualMemory)
    last = conceptual.games[-1]
    assert last.retrieved == [c.representative for c in last.clusters]
    block = brain.shown("action_planner")[-1].split("Concepts:\n", 1)[1].split("\n\n", 1)[0]
    assert block.count("\n") + 1 == last.k


async def test_a_token_cap_on_concepts_is_off_by_default_and_recorded_when_it_cuts() -> None:
    full = episodex(Scripted(), max_episodes=0)
    capped = episodex(Scripted(), max_episodes=0, concept_tokens=30)
    houses = [apple_house, mug_house, apple_house, mug_house]
    await play(full, [h() for h in houses])
    await play(capped, [h() for h in houses])
    whole, cut = full.memory["conceptual"], capped.memory["conceptual"]
    assert isinstance(whole, ConceptualMemory) and isinstance(cut, ConceptualMemory)
    assert all(g.cut == [] for g in whole.games)
    last = cut.games[-1]
    assert last.cut and not set(last.cut) & set(last.retrieved)
    assert sorted(last.cut + last.retrieved) == sorted(m for c in last.clusters for m in c.members)
    activity = cut.episode_activity(last.episode)
    assert activity is not None and json.loads(json.dumps(activity))["cut"] == last.cut


async def test_a_lesson_recorded_twice_in_a_game_is_kept_once() -> None:
    route = ['{"next": "learning"}', '{"next": "learning"}', '{"next": "planning"}']
    brain = Scripted(scripts={"router": route, "learning": [LESSON, f"  {LESSON} "]})
    agent = episodex(brain, learn_in_game=True, max_episodes=0)
    await play(agent, [empty_house(max_steps=3)])
    conceptual = agent.memory["conceptual"]
    assert isinstance(conceptual, ConceptualMemory)
    assert [c.text for c in conceptual.concepts] == [LESSON]
    activity = conceptual.episode_activity(0)
    assert activity is not None and activity["lessons"] == [0, 1]
