"""Episodic memory: belief sequences archived one per game, past episodes drawn for each game."""

from __future__ import annotations

import json

import pytest

from cogarch.core.memory import EpisodeEnd, MemoryContext, TurnRecord
from cogarch.errors import ConfigError
from cogarch.memory import build_memory
from cogarch.memory.long_term.episodic import EpisodicMemory
from cogarch.memory.long_term.records import EpisodeOrderError
from cogarch.memory.retrieval.embeddings import HashEmbedder

GOALS = [
    "put some apple on box",
    "put some mug on sink",
    "heat some egg and put it in fridge",
    "put some apple on shelf",
    "clean some knife and put it in drawer",
    "put some mug on desk",
]


def ctx(seed: int = 11) -> MemoryContext:
    def no_model(name: str) -> object:
        raise AssertionError("episodic memory calls no model")

    return MemoryContext(model=no_model, seed=seed)  # type: ignore[arg-type]


def memory(**params: object) -> EpisodicMemory:
    module = build_memory("episodic", {"embedder": "hash", **params})
    assert isinstance(module, EpisodicMemory)
    return module


async def play_game(
    module: EpisodicMemory, episode: int, goal: str, *, first_turn: int, won: bool | None = True
) -> None:
    """Two steps of one game: a belief, an action, a belief, an action; then its end."""
    module.begin_episode(episode, goal, first_turn, ctx())
    for i in range(2):
        turn = first_turn + i
        module.write_belief(f"belief {i} of game {episode} about {goal}", turn)
        await module.ingest(TurnRecord(turn, f"observation {i}", f"action {i}"), ctx())
    await module.end_episode(EpisodeEnd(episode, won, label=goal, steps=2), ctx())


async def played(module: EpisodicMemory, games: int) -> EpisodicMemory:
    for episode in range(games):
        await play_game(module, episode, GOALS[episode % len(GOALS)], first_turn=1 + 2 * episode)
    return module


async def test_each_game_is_archived_as_one_episode_with_its_provenance() -> None:
    module = await played(memory(), 3)
    assert [e.id for e in module.archive] == ["ep0", "ep1", "ep2"]
    second = module.archive[1]
    assert (second.episode, second.label, second.won, second.steps) == (1, GOALS[1], True, 2)
    assert [(b.id, b.episode, b.step, b.turn) for b in second.beliefs] == [
        ("ep1.b0", 1, 0, 3),
        ("ep1.b1", 1, 1, 4),
    ]
    assert [(a.step, a.turn, a.action) for a in second.actions] == [
        (0, 3, "action 0"),
        (1, 4, "action 1"),
    ]
    assert [g.stored for g in module.games] == ["ep0", "ep1", "ep2"]
    assert module.games[1].beliefs == ["ep1.b0", "ep1.b1"]
    assert module.game is None and module.beliefs == []


async def test_a_games_activity_names_what_it_drew_wrote_and_stored_as_json() -> None:
    module = await played(memory(max_episodes=2), 3)
    activity = module.episode_activity(2)
    assert activity is not None
    assert json.loads(json.dumps(activity)) == activity
    assert activity == {
        "kind": "episodic",
        "task": GOALS[2],
        "retrieved": module.games[2].drawn,
        "scores": [],
        "beliefs": ["ep2.b0", "ep2.b1"],
        "stored": ["ep2"],
        "won": True,
        "cut": {},
    }
    assert len(activity["retrieved"]) == 2
    first = module.episode_activity(0)
    assert first is not None and (first["retrieved"], first["stored"]) == ([], ["ep0"])
    assert module.episode_activity(3) is None  # a game it never saw
    module.begin_episode(3, "put some pen on desk", 7, ctx())
    running = module.episode_activity(3)
    assert running is not None and running["stored"] == []  # still in progress
    similar = await played(memory(max_episodes=1, retrieval="similar"), 2)
    scored = similar.episode_activity(1)
    assert scored is not None and scored["scores"] == similar.games[1].scores != []


@pytest.mark.parametrize("max_episodes", [0, 1, 3, 10])
async def test_each_game_draws_up_to_max_episodes_past_episodes(max_episodes: int) -> None:
    module = await played(memory(max_episodes=max_episodes), 5)
    drawn = [g.drawn for g in module.games]
    assert [len(d) for d in drawn] == [min(max_episodes, n) for n in range(5)]
    for episode, ids in enumerate(drawn):
        assert len(set(ids)) == len(ids)
        assert all(int(i.removeprefix("ep")) < episode for i in ids)


async def test_the_random_draw_follows_the_trials_seed() -> None:
    async def draw(seed: int) -> list[str]:
        module = await played(memory(max_episodes=2), 5)
        return module.begin_episode(5, "put some pen on desk", 11, ctx(seed)).drawn

    assert await draw(3) == await draw(3)
    assert len({tuple(await draw(seed)) for seed in range(8)}) > 1


async def test_similar_retrieval_draws_the_episodes_with_the_nearest_goals() -> None:
    module = await played(memory(max_episodes=2, retrieval="similar"), 6)
    game = module.begin_episode(6, "put some apple on box", 13, ctx())
    assert game.drawn[0] == "ep0"  # the same goal
    assert "ep3" in game.drawn  # an apple again
    assert game.scores == sorted(game.scores, reverse=True) and len(game.scores) == 2
    items = await module.retrieve("anything", ctx())  # the game's draw is not made again
    assert [i.id for i in items] == game.drawn
    assert [i.score for i in items] == game.scores
    assert items[0].fields["label"] == GOALS[0] and items[0].fields["won"] is True


async def test_the_drawn_episodes_are_rendered_within_a_shared_budget() -> None:
    module = await played(memory(max_episodes=2), 2)
    module.begin_episode(2, "put some pen on desk", 5, ctx())
    text = module.render()
    assert "Episode ep0 (won, 2 steps). Goal: put some apple on box" in text
    assert "- step 0: belief 0 of game 0" in text and "-> action: action 0" in text
    assert "Episode ep1" in text
    headers = module.render(20)  # too little room for any belief: the headers stay
    assert headers.splitlines()[0].startswith("Episode ep0") and "Episode ep1" in headers
    assert "- step" not in headers
    latest = module.render(100)  # room for one belief each: the latest
    assert "belief 1 of game 0" in latest and "belief 0 of game 0" not in latest
    assert "belief 1 of game 1" in latest
    assert memory().render() == "(none)"
    # what the caps cut is logged with the game: the beliefs of each episode left out
    assert module.games[-1].cut == {"ep0": [0, 1], "ep1": [0, 1]}
    assert module.episode_activity(2)["cut"] == {"ep0": [0, 1], "ep1": [0, 1]}  # type: ignore[index]


async def test_past_episodes_are_shown_in_full_by_default_and_nothing_is_cut() -> None:
    module = memory(max_episodes=20)
    long = "the apple is not on the table; " * 40  # about 1,200 characters per belief
    for episode in range(20):
        module.begin_episode(episode, GOALS[episode % len(GOALS)], 1 + 3 * episode, ctx())
        for i in range(3):
            module.write_belief(f"belief {i} of game {episode}: {long}", 1 + 3 * episode + i)
        await module.end_episode(EpisodeEnd(episode, episode % 2 == 0, steps=3), ctx())
    module.begin_episode(20, "put some pen on desk", 100, ctx())
    text = module.render()
    assert len(module.drawn()) == 20
    for episode in range(20):
        for i in range(3):
            assert f"- step {i}: belief {i} of game {episode}: {long.strip()}" in text
    assert module.games[-1].cut == {}


async def test_an_explicit_cap_per_episode_or_in_total_cuts_and_says_what() -> None:
    each = await played(memory(max_episodes=2, episode_tokens=20), 2)
    each.begin_episode(2, "put some pen on desk", 5, ctx())
    assert "- step" not in each.render()
    assert each.games[-1].cut == {"ep0": [0, 1], "ep1": [0, 1]}
    total = await played(memory(max_episodes=2, context_tokens=100), 2)
    total.begin_episode(2, "put some pen on desk", 5, ctx())
    shown = total.render()
    assert "belief 1 of game 0" in shown and "belief 0 of game 0" not in shown
    assert total.games[-1].cut == {"ep0": [0], "ep1": [0]}
    clipped = await played(memory(max_episodes=1, belief_chars=20), 1)
    clipped.begin_episode(1, "put some pen on desk", 5, ctx())
    assert "belief 0 of game 0 a..." in clipped.render()
    assert clipped.games[-1].cut == {"ep0": [0, 1]}


async def test_the_private_text_is_the_current_belief_state() -> None:
    module = await played(memory(), 1)
    module.begin_episode(1, "put some mug on sink", 3, ctx())
    assert "(no belief state yet)" in module.private_text()
    module.write_belief("BELIEF STATE: [Timestep 0: the mug is not in sight]", 3)
    module.write_belief("BELIEF STATE: [Timestep 1: the mug is on the sofa]", 4)
    text = module.private_text()
    assert text.startswith("Game 1, step 1. Task: put some mug on sink")
    assert "the mug is on the sofa" in text and "not in sight" not in text
    assert "Past episodes in context: ep0" in text


async def test_a_game_ended_before_any_turn_is_archived_empty() -> None:
    module = memory()
    await module.end_episode(EpisodeEnd(0, False, label="put some apple on box"), ctx())
    assert [(e.id, e.won, e.steps, e.beliefs) for e in module.archive] == [("ep0", False, 0, ())]
    assert module.games[0].first_turn is None


async def test_episodes_out_of_order_are_refused_without_losing_what_is_stored() -> None:
    module = await played(memory(), 1)
    with pytest.raises(EpisodeOrderError, match="episode 0 has already ended"):
        await module.end_episode(EpisodeEnd(0, True), ctx())
    module.begin_episode(1, "put some mug on sink", 3, ctx())
    module.write_belief("a belief", 3)
    with pytest.raises(EpisodeOrderError, match="episode 2 begins while episode 1 is still open"):
        module.begin_episode(2, "another", 4, ctx())
    with pytest.raises(EpisodeOrderError, match="the task ended episode 3, but episode 1"):
        await module.end_episode(EpisodeEnd(3, True), ctx())
    assert [e.id for e in module.archive] == ["ep0"] and [b.text for b in module.beliefs] == [
        "a belief"
    ]
    with pytest.raises(EpisodeOrderError, match="call begin_episode first"):
        memory().write_belief("no game", 1)


async def test_a_turn_is_taken_in_once() -> None:
    module = memory()
    await module.ingest(TurnRecord(4, "You see a desk.", "go to desk 1"), ctx())
    await module.ingest(TurnRecord(4, "You see a desk.", "go to desk 1"), ctx())
    await module.ingest(TurnRecord(5, "You arrive.", "look"), ctx())
    assert module.game is not None and module.game.task == "You see a desk."
    assert [(a.step, a.action) for a in module.actions] == [(0, "go to desk 1"), (1, "look")]


async def test_a_fork_shares_nothing() -> None:
    trunk = await played(memory(max_episodes=2), 2)
    trunk.begin_episode(2, "put some pen on desk", 5, ctx())
    trunk.write_belief("trunk belief", 5)
    before = json.dumps(trunk.save_state())
    left, right = trunk.fork(), trunk.fork()
    left.write_belief("left belief", 6)
    await left.ingest(TurnRecord(6, "obs", "go left"), ctx())
    await left.end_episode(EpisodeEnd(2, True, label="left"), ctx())
    assert json.dumps(trunk.save_state()) == before
    assert json.dumps(right.save_state()) == before
    assert [e.id for e in left.archive] == ["ep0", "ep1", "ep2"] and len(trunk.archive) == 2


async def test_state_is_json_and_restores_the_same_behaviour() -> None:
    original = await played(memory(max_episodes=2, retrieval="similar"), 3)
    original.begin_episode(3, "put some apple on box", 7, ctx())
    original.write_belief("a belief in progress", 7)
    state = json.loads(json.dumps(original.save_state()))
    restored = memory(max_episodes=2, retrieval="similar")
    restored.load_state(state)
    assert restored.save_state() == original.save_state()
    assert restored.render() == original.render()
    assert restored.private_text() == original.private_text()
    for module in (original, restored):
        await module.ingest(TurnRecord(7, "obs", "go to box 1"), ctx())
        await module.end_episode(EpisodeEnd(3, True, label="put some apple on box"), ctx())
        module.begin_episode(4, "put some mug on sink", 9, ctx())
    assert restored.save_state() == original.save_state()
    with pytest.raises(ConfigError, match="cannot load a 'conceptual' state"):
        restored.load_state({**state, "kind": "conceptual"})


def test_an_injected_embedder_is_used_and_bad_params_are_refused() -> None:
    embedder = HashEmbedder(dim=32)
    module = EpisodicMemory(EpisodicMemory.Params(retrieval="similar"), embedder=embedder)
    assert module.embedder is embedder and module.fork().embedder is embedder
    with pytest.raises(ConfigError, match="max_episodes"):
        build_memory("episodic", {"max_episodes": -1})
    with pytest.raises(ConfigError, match="retrieval"):
        build_memory("episodic", {"retrieval": "nearest"})
