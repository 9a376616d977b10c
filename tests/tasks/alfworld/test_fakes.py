"""The ALFWorld fakes on prompts written by hand: what each answers, and how it knows."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from cogarch.core.acting import read_action
from cogarch.core.affordances import format_input, split_input
from cogarch.tasks.alfworld.fakes import (
    REFLECTION,
    first_observation_key,
    hallucinating,
    oracle,
    random_player,
    silent,
    trial_walkthroughs,
)

FIRST = "-= Welcome =-\n\nYou are in the middle of a room.\n\nYour task is to: put a mug in sink."
ACTIONS = ["go to sink 1", "go to shelf 1", "look"]
PLAN = ["go to shelf 1", "take mug 1 from shelf 1", "go to sink 1", "move mug 1 to sink 1"]


def prompt(*replies: str) -> list[tuple[str, str]]:
    pairs = [("system", "You are an agent."), ("user", format_input(FIRST, ACTIONS))]
    for reply in replies:
        pairs += [("assistant", reply), ("user", format_input("You arrive.", ACTIONS))]
    return pairs


def test_the_oracle_plays_the_walkthrough_its_trial_hands_it_for_the_first_observation() -> None:
    played: list[str] = []
    with trial_walkthroughs({first_observation_key(FIRST): PLAN}):
        for _ in PLAN:
            played.append(read_action(oracle(prompt(*played), 41), PLAN).sent)
        assert oracle([("user", format_input("Another game.", ACTIONS))], 41) == "look"
    assert played == PLAN
    assert oracle(prompt(), 41) == "look"  # outside its trial it knows no game


async def test_concurrent_trials_each_hand_the_oracle_their_own_games() -> None:
    async def trial(plan: list[str]) -> str:
        with trial_walkthroughs({first_observation_key(FIRST): plan}):
            await asyncio.sleep(0)  # the other trial runs meanwhile
            return read_action(oracle(prompt(), 1), plan).sent

    assert await asyncio.gather(trial(PLAN), trial(["look"])) == [PLAN[0], "look"]


def test_calls_that_are_not_game_turns_get_a_reflection() -> None:
    for player in (oracle, random_player, hallucinating):
        assert player([("system", "Reflect."), ("user", "Task: x. Reflect.")], 1) == REFLECTION


@settings(deadline=None)  # a loaded machine must not fail it
@given(st.integers(0, 2**32), st.lists(st.sampled_from(ACTIONS), max_size=4))
def test_random_plays_admissible_and_hallucinating_never(seed: int, before: list[str]) -> None:
    pairs = prompt(*before)
    shown = split_input(pairs[-1][1]).actions or ()
    assert read_action(random_player(pairs, seed), shown).sent in shown
    assert read_action(hallucinating(pairs, seed), shown).sent not in shown
    assert random_player(pairs, seed) == random_player(pairs, seed)


def test_silent_says_nothing() -> None:
    assert silent(prompt(), 3) == ""
