"""Conceptual memory: concepts only from won games, k-means into max(1, floor(sqrt(N)))
representatives before each game, seeded; fork, state, failures."""

from __future__ import annotations

import json
import math
import re

import pytest

from cogarch.core.memory import EpisodeEnd
from cogarch.errors import ConfigError
from cogarch.memory import build_memory
from cogarch.memory.long_term.conceptual import ConceptualMemory
from cogarch.memory.long_term.records import Belief, EpisodeOrderError
from tests.memory import FakeLLM, context

TOPICS = ["apple shelf", "mug sofa", "knife drawer", "egg fridge", "pen desk", "towel sink"]


def concepts_for(prompt: str) -> dict[str, object]:
    """Three concepts about the game's goal, citing the steps shown."""
    goal = re.search(r"^Goal: (.*)$", prompt, re.M)
    assert goal is not None
    steps = [int(s) for s in re.findall(r"^\[step (\d+)\]", prompt, re.M)]
    topic = goal.group(1)
    return {
        "concepts": [
            {"text": f"The {topic} goal needs the object found first.", "steps": steps[:1]},
            {"text": f"Carry one {topic} item at a time.", "steps": [99]},
            f"Look on surfaces before containers for {topic}.",
        ]
    }


def llm() -> FakeLLM:
    return FakeLLM(ConceptDrafts=concepts_for)


def memory(**params: object) -> ConceptualMemory:
    module = build_memory("conceptual", {"embedder": "hash", "provider": "fake", **params})
    assert isinstance(module, ConceptualMemory)
    return module


def belief(episode: int, step: int, text: str) -> Belief:
    return Belief(id=f"ep{episode}.b{step}", episode=episode, step=step, turn=step, text=text)


async def play_game(
    module: ConceptualMemory, episode: int, won: bool | None, fake: FakeLLM, seed: int = 5
) -> None:
    goal = TOPICS[episode % len(TOPICS)]
    ctx = context(fake, seed)
    module.begin_episode(episode, goal, ctx)
    for step in range(2):
        module.take_belief(belief(episode, step, f"step {step} towards {goal}"))
    module.note(f"lesson about {goal}", episode=episode, step=1, turn=1)
    await module.end_episode(EpisodeEnd(episode, won, label=goal, steps=2), ctx)


async def test_concepts_are_learned_only_from_won_games() -> None:
    fake = llm()
    module = memory()
    for episode, won in enumerate([True, False, None, True]):
        await play_game(module, episode, won, fake)
    assert [g.stored for g in module.games] == [["c0", "c1", "c2"], [], [], ["c3", "c4", "c5"]]
    assert len(fake.of("ConceptDrafts")) == 2  # no call for a lost game or an unknown outcome
    shown = fake.of("ConceptDrafts")[0]
    assert "Goal: apple shelf" in shown and "[step 1] step 1 towards apple shelf" in shown
    assert "Lessons noted:\n[step 1] lesson about apple shelf" in shown
    assert {c.episode for c in module.concepts} == {0, 3}


async def test_with_learn_from_every_a_lost_games_lessons_are_kept_as_concepts() -> None:
    fake = llm()
    module = memory(learn_from="every")
    for episode, won in enumerate([True, False, None]):
        await play_game(module, episode, won, fake)
    assert [g.stored for g in module.games] == [["c0", "c1", "c2"], ["c3"], ["c4"]]
    assert len(fake.of("ConceptDrafts")) == 1  # the lessons are kept with no model call
    kept = module.concepts[3]
    assert (kept.text, kept.episode, kept.label, kept.steps) == (
        "lesson about mug sofa",
        1,
        "mug sofa",
        (1,),
    )
    off = memory(learn_from="every", enabled=False)
    await play_game(off, 0, False, fake)
    assert off.concepts == []
    assert memory().params.learn_from == "won"  # the paper's section 5.3, by default


async def test_each_concept_keeps_its_game_goal_and_steps() -> None:
    module = memory()
    await play_game(module, 0, True, llm())
    first, cited_unknown, plain = module.concepts
    assert (first.episode, first.label, first.steps) == (0, "apple shelf", (0,))
    assert cited_unknown.steps == (0, 1)  # it cited no step of the game: every step
    assert plain.steps == (0, 1) and plain.text.startswith("Look on surfaces")


@pytest.mark.parametrize("games", [1, 2, 3, 5, 6])
async def test_concepts_are_clustered_into_the_square_root_of_their_number(games: int) -> None:
    fake = llm()
    module = memory()
    for episode in range(games):
        await play_game(module, episode, True, fake)
    n = len(module.concepts)
    game = module.begin_episode(games, "pen desk", context(fake, 5))
    assert game.concepts == n == 3 * games
    assert game.k == len(game.clusters) == max(1, math.isqrt(n))
    members = sorted(m for c in game.clusters for m in c.members)
    assert members == sorted(c.id for c in module.concepts)
    # every concept in context, cluster by cluster, each cluster's representative first
    assert game.retrieved == [
        m
        for c in game.clusters
        for m in (
            c.representative,
            *sorted(set(c.members) - {c.representative}, key=c.members.index),
        )
    ]
    assert all(c.representative in c.members for c in game.clusters)
    items = await module.retrieve("anything", context(fake, 5))
    assert [i.id for i in items] == game.retrieved
    assert sum(i.fields["representative"] for i in items) == game.k
    assert module.render().count("\n- ") == n
    assert module.render().count("Cluster k") == game.k


async def test_a_games_activity_names_its_clusters_retrieved_and_stored_concepts() -> None:
    fake = llm()
    module = memory()
    for episode, won in enumerate([True, True, False, True]):
        await play_game(module, episode, won, fake)
    third, last = module.episode_activity(2), module.episode_activity(3)
    assert third is not None and last is not None
    assert json.loads(json.dumps(last)) == last
    game = module.games[3]
    assert last == {
        "kind": "conceptual",
        "enabled": True,
        "task": TOPICS[3],
        "concepts": 6,
        "k": 2,
        "clusters": [
            {"id": c.id, "members": list(c.members), "representative": c.representative}
            for c in game.clusters
        ],
        "retrieved": game.retrieved,
        "shown": "all",
        "cut": [],
        "lessons": [1],
        "in_game": False,
        "stored": ["c6", "c7", "c8"],
        "texts": {c.id: c.text for c in module.concepts[6:]},
        "won": True,
        "error": None,
    }
    assert sorted(last["retrieved"]) == sorted(f"c{i}" for i in range(6))
    assert (third["stored"], third["texts"], third["won"]) == ([], {}, False)  # a lost game
    assert module.episode_activity(4) is None
    off = memory(enabled=False)
    await play_game(off, 0, True, fake)
    await play_game(off, 1, True, fake)
    idle = off.episode_activity(1)
    assert idle is not None and idle["enabled"] is False
    assert (idle["k"], idle["clusters"], idle["retrieved"], idle["stored"]) == (0, [], [], [])


async def test_the_same_seed_forms_the_same_clusters() -> None:
    async def clusters(seed: int) -> list[object]:
        fake = llm()
        module = memory()
        for episode in range(5):
            await play_game(module, episode, True, fake, seed)
        return module.begin_episode(5, "pen desk", context(fake, seed)).clusters

    assert await clusters(1) == await clusters(1)


async def test_nothing_is_learned_or_retrieved_when_it_is_off() -> None:
    fake = llm()
    module = memory(enabled=False)
    for episode in range(3):
        await play_game(module, episode, True, fake)
    assert module.concepts == [] and fake.prompts == []
    game = module.begin_episode(3, "pen desk", context(fake))
    assert (game.k, game.retrieved) == (0, [])
    assert module.render() == "(none)" and module.private_text() == ""


async def test_a_failed_abstraction_is_logged_and_stores_nothing() -> None:
    module = memory(attempts=1)
    await play_game(module, 0, True, FakeLLM(ConceptDrafts="no json here"))
    assert module.concepts == [] and module.games[0].stored == []
    assert module.games[0].error and module.games[0].ended
    await play_game(module, 1, True, llm())  # the next game goes on as usual
    assert module.games[1].stored == ["c0", "c1", "c2"]


async def test_a_missing_provider_is_refused_before_the_game() -> None:
    module = ConceptualMemory(ConceptualMemory.Params(embedder="hash"))
    with pytest.raises(ConfigError, match="no provider for its abstraction call"):
        module.begin_episode(0, "apple shelf", context(llm()))
    module.use_provider("fake")
    module.begin_episode(0, "apple shelf", context(llm()))


async def test_beliefs_of_another_game_are_refused() -> None:
    module = memory()
    with pytest.raises(EpisodeOrderError, match="no game is in progress"):
        module.take_belief(belief(0, 0, "early"))
    module.begin_episode(0, "apple shelf", context(llm()))
    with pytest.raises(EpisodeOrderError, match="episode 0 is"):
        module.take_belief(belief(1, 0, "elsewhere"))


async def test_a_fork_shares_nothing_and_state_round_trips() -> None:
    fake = llm()
    trunk = memory()
    for episode in range(3):
        await play_game(trunk, episode, True, fake)
    trunk.begin_episode(3, "egg fridge", context(fake, 5))
    trunk.take_belief(belief(3, 0, "trunk"))
    before = json.dumps(trunk.save_state())
    left, right = trunk.fork(), trunk.fork()
    left.take_belief(belief(3, 1, "left"))
    await left.end_episode(EpisodeEnd(3, True, label="egg fridge"), context(fake, 5))
    assert len(left.concepts) == 12
    assert json.dumps(trunk.save_state()) == before == json.dumps(right.save_state())

    restored = memory()
    restored.load_state(json.loads(before))
    assert restored.save_state() == trunk.save_state()
    assert restored.render() == trunk.render()
    assert restored.private_text() == trunk.private_text()
    assert "Concepts in context (3 clusters of 9 concepts)" in restored.private_text()
    for module in (trunk, restored):
        await module.end_episode(EpisodeEnd(3, True, label="egg fridge"), context(fake, 5))
        module.begin_episode(4, "pen desk", context(fake, 5))
    assert restored.save_state() == trunk.save_state()
    with pytest.raises(ConfigError, match="cannot load a 'episodic' state"):
        restored.load_state({**trunk.save_state(), "kind": "episodic"})


def test_bad_params_are_refused() -> None:
    with pytest.raises(ConfigError, match="max_concepts"):
        build_memory("conceptual", {"max_concepts": 0})
    with pytest.raises(ConfigError, match="embedder"):
        build_memory("conceptual", {"embedder": "word2vec"})
