"""The scripted brain shipped for the Episodex agent: found by name in a run's fakes, it plays
a household game to a win, uses what memory puts in context, and hallucinates on cue."""

from __future__ import annotations

from cogarch.experiments.running.fakes import run_fakes
from cogarch.models import ProviderConfig, Providers
from cogarch.workspace import build_agent, load_agent_spec
from cogarch.workspace.actions import focus_summary
from tests.workspace.episodex import Scripted, episodex
from tests.workspace.episodex.house import apple_house, mug_house, play, play_game, sink_house


async def test_the_shipped_brains_play_the_agent_by_name() -> None:
    providers = Providers(
        {"brain": ProviderConfig(kind="fake", fake="episodex.steady")}, fakes=run_fakes()
    )
    spec = load_agent_spec("episodex", {"embedder": "hash"})
    agent = build_agent(spec, providers.get, provider="brain", seed=1)
    houses = [apple_house(), mug_house()]
    await play(agent, houses)
    assert all(h.won for h in houses)
    assert providers.get("brain").model == "fake:episodex.steady"


async def test_the_brain_treats_the_object_where_the_goal_asks_before_placing_it() -> None:
    houses = [sink_house()]
    await play(episodex(Scripted()), houses)
    assert houses[0].won
    cleaned = houses[0].log.index("clean mug 1 with sinkbasin 1")
    assert houses[0].log[cleaned + 1 :] == ["go to cabinet 1", "move mug 1 to cabinet 1"]


async def test_past_episodes_in_context_shorten_a_game_played_before() -> None:
    async def steps_of_the_second_apple_game(**params: object) -> int:
        houses = [apple_house(), mug_house(), apple_house()]
        await play(episodex(Scripted(), **params), houses)
        assert all(h.won for h in houses)
        return houses[2].steps

    without = await steps_of_the_second_apple_game(max_episodes=0, conceptual=False)
    with_memory = await steps_of_the_second_apple_game(max_episodes=2, conceptual=False)
    assert with_memory < without


async def test_a_slipping_brain_is_caught_by_the_focus_loop_every_time() -> None:
    agent = episodex(Scripted(slip=1.0))
    houses = [apple_house()]
    await play(agent, houses)
    summary = focus_summary(agent.workspace.acting.focus_log)
    assert summary.activations == houses[0].steps  # one slip per action, each held back
    assert summary.recovered == summary.activations  # right after a replay it never slips
    assert houses[0].won


async def test_a_blundering_brain_sends_inadmissible_commands_that_cost_steps() -> None:
    agent = episodex(Scripted(blunder=1.0))
    house = apple_house(max_steps=4)
    replies = await play_game(agent, house)
    assert all(r.startswith("open ") for r in replies) and house.steps == 4
    assert house.log == replies and not house.won  # each answered "Nothing happens."
    assert agent.workspace.acting.focus_log == []  # an inadmissible command is no hallucination
    assert all(a.admissible is False and a.problem is None for a in agent.workspace.acting.actions)


async def test_the_brain_answers_the_same_prompt_the_same_way() -> None:
    first, second = Scripted(slip=0.3, detours=0.5), Scripted(slip=0.3, detours=0.5)
    for brain in (first, second):
        await play(episodex(brain, seed=5), [apple_house(), mug_house()])
    assert first.calls == second.calls
