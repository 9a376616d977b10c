"""The one action reader: one command out of a reply, whatever form the model gives it, as it
is proposed and as the game takes it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogarch.core.acting import Percept
from cogarch.core.acting import read_action as read_choice
from cogarch.core.affordances import format_input, render, split_input


def read_action(reply: str, admissible: list[str]) -> str:
    """What is sent to the game."""
    return read_choice(reply, admissible).sent


ADMISSIBLE = ["go to desk 1", "take book 1 from shelf 1", "move book 1 to desk 1", "look"]


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ("ACTION: [go to desk 1]", "go to desk 1"),
        ("> go to desk 1", "go to desk 1"),
        (
            "Thought: the book is on the shelf.\nAction: take book 1 from shelf 1",
            "take book 1 from shelf 1",
        ),
        ("**Go to desk 1**.", "go to desk 1"),
        ('"go to desk 1"', "go to desk 1"),
        ("`look`", "look"),
        ("put book 1 in/on desk 1", "move book 1 to desk 1"),
        ("Action: put book 1 on desk 1", "move book 1 to desk 1"),
        ("ACTION: [put book 1 in desk 1].", "move book 1 to desk 1"),
        ("Think: first the desk.\n> go to desk 1\nOK.\n> look", "look"),
        ("I will look around.\nlook", "look"),
        ("", ""),
        ("fly to the moon", "fly to the moon"),
        ("ACTION: [Dance]", "dance"),
        ("ACTION: [go to desk 1] (it is the closest)", "go to desk 1"),
    ],
)
def test_replies_in_every_common_form_read_as_one_command(reply: str, action: str) -> None:
    assert read_action(reply, ADMISSIBLE) == action


def test_a_command_is_returned_in_its_admissible_form() -> None:
    assert read_action("go to Desk 1", ["Go to Desk 1"]) == "Go to Desk 1"


@settings(deadline=None)  # a loaded machine must not fail it
@given(
    st.sampled_from(ADMISSIBLE),
    st.sampled_from(["ACTION: [{}]", "> {}", "Thought: hm.\nAction: {}", "**{}**", "'{}'.", "{}"]),
)
def test_any_admissible_action_in_any_form_reads_back(action: str, form: str) -> None:
    assert read_action(form.format(action), ADMISSIBLE) == action


def test_huge_and_hostile_replies_read_as_cut_commands() -> None:
    # each of these takes the reader's regular expressions to their worst case
    assert read_action("ACTION: a" + " " * 15_000 + "b", ADMISSIBLE) == "a"
    assert len(read_action("> " + ".*" * 100_000, ADMISSIBLE)) <= 300
    assert read_action("put " + "a " * 5_000 + "in", ADMISSIBLE).startswith("put a a")
    assert read_action("thinking... " * 50_000 + "\nACTION: [look]", ADMISSIBLE) == "look"


ALLOWED = split_input(
    format_input("You are in the kitchen.", ["go to desk 1", "take mug 1 from desk 1", "look"])
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("go to desk 1", "go to desk 1"),
        ('"Go to desk 1."', "Go to desk 1"),
        ("ACTION: [take mug 1 from desk 1]", "take mug 1 from desk 1"),
        ("Reasoning first.\nACTION: [go to desk 1] as planned", "go to desk 1"),
        ("ACTION: [look]\nthen ACTION: [go to desk 1]", "go to desk 1"),  # the last one
        ("action: go to desk 1", "go to desk 1"),
        ("I should check the desk.\n- go to desk 1", "go to desk 1"),
        ("I will go to desk 1 now.", "go to desk 1"),  # one admissible action inside
        ("go to desk 1, or else look", "go to desk 1, or else look"),  # two: not one action
        ("", ""),
        ("   \n ", ""),
    ],
)
def test_the_proposal_is_read_from_the_forms_models_write(text: str, action: str) -> None:
    assert read_choice(text, ALLOWED.actions).proposed == action


def test_the_choice_says_what_was_proposed_and_what_the_game_gets() -> None:
    choice = read_choice("Thought: the desk.\nACTION: [Put Book 1 in/on Desk 1].", ADMISSIBLE)
    assert choice.proposed == "Put Book 1 in/on Desk 1"
    assert choice.sent == "move book 1 to desk 1" and choice.admissible is True
    assert choice.problem is None and choice.reply.startswith("Thought:")
    unlisted = read_choice("ACTION: [open drawer 1]", None)
    assert (unlisted.sent, unlisted.admissible) == ("open drawer 1", None)
    assert read_choice("fly to the moon", ADMISSIBLE).admissible is False


def test_of_several_admissible_lines_the_last_one_is_the_action() -> None:
    assert read_action("go to desk 1\nlook", ADMISSIBLE) == "look"
    assert read_action("I think so.\nput book 1 on desk 1\nfly away", ADMISSIBLE) == (
        "move book 1 to desk 1"
    )


def test_a_percept_renders_as_the_text_a_text_only_agent_reads_back() -> None:
    percept = Percept("You see a desk.", ("go to desk 1", "look"), 7, 50, goal="x", game=2, step=43)
    text = render(percept)
    assert text == format_input("You see a desk.", ["go to desk 1", "look"], remaining=7, limit=50)
    back = split_input(text)
    assert (back.observation, back.actions, back.remaining, back.limit) == (
        "You see a desk.",
        ("go to desk 1", "look"),
        7,
        50,
    )
    assert render(Percept("Shall we play?", None)) == "Shall we play?"
    assert percept.allows("Go To  Desk 1") is True and Percept("x", None).allows("look") is None
