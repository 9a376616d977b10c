"""A reply judged against a game's task space (its grammar, here ALFWorld's, and the things
it named): an action (admissible or not), no action, or output outside the task space (the
Episodex paper's two forms of hallucination)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogarch.core.acting import ActionChoice, Percept, TaskSpace, read_action
from cogarch.core.affordances import format_input, split_input
from cogarch.errors import UnknownNameError
from cogarch.workspace.commands import HOUSEHOLD, grammar_for, names_in
from cogarch.workspace.sanitize import public_text

FIRST = (
    "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a desk 1."
)
ALLOWED = split_input(format_input(FIRST, ["go to cabinet 1", "go to desk 1", "inventory", "look"]))
SPACE = TaskSpace(grammar_for(ALLOWED.actions, "auto"), names_in([FIRST]))


def judged(reply: str, percept: Percept = ALLOWED, space: TaskSpace = SPACE) -> ActionChoice:
    return read_action(public_text(reply), percept.actions, space)


def judge(reply: str) -> tuple[str, str | None, bool | None]:
    choice = judged(reply)
    return choice.proposed, choice.problem, choice.admissible


@pytest.mark.parametrize(
    ("reply", "action", "admissible"),
    [
        ("go to desk 1", "go to desk 1", True),
        ("ACTION: [go to desk 1]", "go to desk 1", True),
        ("The desk is closest.\nACTION: [go to desk 1]", "go to desk 1", True),
        ("open cabinet 1", "open cabinet 1", False),  # well formed: the game answers it
        ("take mug 1 from desk 1", "take mug 1 from desk 1", False),  # mug 1 not seen yet
        ("put mug 1 in/on cabinet 1", "put mug 1 in/on cabinet 1", False),
        ("I will look at the desk first.\nexamine desk 1", "examine desk 1", False),
        ("Go to Desk 1.", "Go to Desk 1", True),
    ],
)
def test_a_command_of_the_game_is_an_action_admissible_or_not(
    reply: str, action: str, admissible: bool
) -> None:
    assert judge(reply) == (action, None, admissible)


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("", "empty"),
        ("  \n ", "empty"),
        ("<think>the desk</think>", "empty"),
        ("ACTION: []", "empty"),
        ("I cannot complete this task.", "refusal"),
        ("Sorry, there is no valid action.", "refusal"),
        ("go to desk 1, then open cabinet 1", "several"),
        ("ACTION: [go to desk 1]\nACTION: [open cabinet 1]", "several"),
        ("go to desk 1\nopen cabinet 1", "several"),
        ("fly to the moon", "off_task"),
        ("[Omega State Engaged] The cognitive singularity prepares to manifest", "off_task"),
        ("The task cannot\nbe understood", "refusal"),
        ("go to spaceship 1", "unknown_name"),
        ("take unicorn 2 from cloud 9", "unknown_name"),
    ],
)
def test_no_action_or_output_outside_the_task_space_is_a_hallucination(
    reply: str, problem: str
) -> None:
    assert judge(reply)[1] == problem


def test_the_grammar_is_chosen_by_the_admissible_actions_or_by_name() -> None:
    assert grammar_for(ALLOWED.actions, "auto") is HOUSEHOLD
    assert grammar_for(ALLOWED.actions, "household") is HOUSEHOLD
    assert grammar_for(ALLOWED.actions, None) is None
    assert grammar_for(("e2e4", "d2d4"), "auto") is None  # no grammar covers them: the form only
    assert grammar_for(None, "auto") is None
    with pytest.raises(UnknownNameError, match="command grammar"):
        grammar_for(ALLOWED.actions, "chess")


def test_without_a_grammar_only_the_form_of_a_command_is_judged() -> None:
    free, form = Percept("Shall we play?", None), TaskSpace()
    assert judged("open the door", free, form).problem is None
    assert judged("", free, form).problem == "empty"
    assert judged("one\ntwo", free, form).problem == "off_task"
    assert judged("word " * 20, free, form).problem == "off_task"
    assert judged("ACTION: [open door]\nACTION: [go north]", free, form).problem == "several"
    assert judged("Thinking.\nACTION: [open door]", free, form).proposed == "open door"


@pytest.mark.parametrize(
    ("reply", "said", "sent"),
    [
        ("Go to Desk 1.", "Go to Desk 1", "go to desk 1"),  # an action, in the game's form
        ("put mug 1 in/on cabinet 1", "put mug 1 in/on cabinet 1", "move mug 1 to cabinet 1"),
        ("go to desk 1, then open cabinet 1", "go to desk 1", "go to desk 1"),  # the first
        ("fly to the moon\nand back", "fly to the moon", "fly to the moon"),  # its first line
        ("I cannot complete this task.", "look", "look"),  # no action: the idle one
        ("", "look", "look"),
    ],
)
def test_a_choice_says_what_goes_when_it_must(reply: str, said: str, sent: str) -> None:
    choice = judged(reply)
    assert (choice.reply, choice.sent) == (said, sent)


def test_no_action_sends_the_first_admissible_one_where_the_idle_one_is_not_allowed() -> None:
    space = TaskSpace(HOUSEHOLD, idle="wait")
    assert judged("", space=space).sent == "go to cabinet 1"
    assert judged("", Percept("Free.", None), space).sent == "wait"


def test_names_are_read_from_every_text_of_the_game() -> None:
    assert names_in(["you see a cabinet 12, a desklamp 1", "On it: a butterknife 2."]) == {
        "cabinet 12",
        "desklamp 1",
        "butterknife 2",
    }


@given(st.text())
def test_any_reply_gives_one_verdict_and_one_line_to_send(reply: str) -> None:
    choice = judged(reply)
    if choice.problem is None:
        assert choice.proposed and "\n" not in choice.proposed.strip()
    assert choice.admissible is not None
    assert choice.reply and "\n" not in choice.reply.strip()


def test_a_private_block_is_dropped_before_the_action_is_read() -> None:
    assert judge("<think>the desk is there</think>I will go to desk 1 now.") == (
        "go to desk 1",
        None,
        True,
    )
