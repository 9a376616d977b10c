"""Judging an action read from a model's text against the admissible actions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogarch.core.acting import read_action
from cogarch.core.affordances import ActionInput, format_input, split_input
from cogarch.workspace.actions import FocusActivation, focus_summary, judge_action, one_line

ALLOWED = split_input(
    format_input("You are in the kitchen.", ["go to desk 1", "take mug 1 from desk 1", "look"])
)
UNKNOWN = ActionInput("Shall we play?", None)
OMEGA = (
    "Omega State Engaged - Meta-Physical Objective Selection Initiated] The cognitive "
    "singularity prepares to manifest its first transfinite operation"
)
"""The motor's creative hallucination quoted by the Episodex paper (section 6.3)."""


@pytest.mark.parametrize(
    ("action", "problem", "admissible"),
    [
        ("go to desk 1", None, True),
        ("Go To  Desk 1", None, True),
        ("", "empty", False),
        ("fly to the moon", "inadmissible", False),
        ("I believe\nthe task is unsolvable", "off_task", False),
        (OMEGA, "off_task", False),
    ],
)
def test_an_action_is_judged_against_the_admissible_ones(
    action: str, problem: str | None, admissible: bool
) -> None:
    assert judge_action(action, ALLOWED) == (problem, admissible)


def test_without_a_list_only_the_form_of_the_action_is_judged() -> None:
    assert judge_action("open the door", UNKNOWN) == (None, None)
    assert judge_action("", UNKNOWN) == ("empty", None)
    assert judge_action("one\ntwo", UNKNOWN) == ("off_task", None)


@given(st.text())
def test_any_text_gives_one_action_that_is_judged(text: str) -> None:
    action = read_action(text, ALLOWED.actions).proposed
    problem, admissible = judge_action(action, ALLOWED)
    assert (problem is None) == bool(admissible)
    assert "\n" not in one_line(action) and len(one_line(action)) <= 200


def test_the_focus_summary_counts_recoveries_per_episode() -> None:
    log = [
        FocusActivation(0, 1, "empty", 0, "look", True),
        FocusActivation(0, 2, "inadmissible", 2, "fly", False),
        FocusActivation(1, 5, "chosen", None),
    ]
    first = focus_summary(log, episode=0)
    assert (first.activations, first.recovered, first.failed, first.pending) == (2, 1, 1, 0)
    assert focus_summary(log, episode=1).pending == 1
    assert focus_summary(log).activations == 3
