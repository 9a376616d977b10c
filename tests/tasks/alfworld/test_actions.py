"""Reading one command out of a reply, whatever form the model gives it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogarch.tasks.alfworld.actions import read_action

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
