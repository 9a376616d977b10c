"""The ALFWorld fakes on prompts written by hand: what each answers, and how it knows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cogarch.core.acting import read_action
from cogarch.core.affordances import format_input, split_input
from cogarch.tasks.alfworld import book
from cogarch.tasks.alfworld.fakes import REFLECTION, hallucinating, oracle, random_player, silent

FIRST = "-= Welcome =-\n\nYou are in the middle of a room.\n\nYour task is to: put a mug in sink."
ACTIONS = ["go to sink 1", "go to shelf 1", "look"]
PLAN = ["go to shelf 1", "take mug 1 from shelf 1", "go to sink 1", "move mug 1 to sink 1"]


def prompt(*replies: str) -> list[tuple[str, str]]:
    pairs = [("system", "You are an agent."), ("user", format_input(FIRST, ACTIONS))]
    for reply in replies:
        pairs += [("assistant", reply), ("user", format_input("You arrive.", ACTIONS))]
    return pairs


def test_the_oracle_plays_the_walkthrough_of_the_game_its_seed_and_first_observation_name() -> None:
    book.write(41, FIRST, PLAN)
    played: list[str] = []
    for _ in PLAN:
        played.append(read_action(oracle(prompt(*played), 41), PLAN).sent)
    assert played == PLAN
    assert oracle(prompt(), 42) == "look"  # another trial's game is not this one


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
