"""Scenario parameters: one name, a list, or 'all', played round-robin over the trials."""

from __future__ import annotations

import pytest

from cogarch.tasks.constraints.task import ConstraintTask
from cogarch.tasks.revision.task import RevisionTask
from cogarch.tasks.scenario_choice import scenario_for_trial, scenario_list

KNOWN = ("trip", "cooking", "cart")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("cart", ["cart"]),
        (["cart", "trip"], ["cart", "trip"]),
        (["cart", "cart", "trip"], ["cart", "trip"]),
        ("all", ["trip", "cooking", "cart"]),
    ],
)
def test_scenario_list_accepts_a_name_a_list_or_all(value: object, expected: list[str]) -> None:
    assert scenario_list(value, KNOWN) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("nope", "unknown scenario 'nope'; valid: trip, cooking, cart"),
        (["trip", "x", "y"], "unknown scenario 'x', 'y'"),
        ([], "the scenario list is empty"),
        (3, "expected a scenario name, a list of names or 'all'"),
        (["trip", 3], "expected a scenario name"),
    ],
)
def test_scenario_list_names_the_bad_entry(value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        scenario_list(value, KNOWN)


def test_trials_cycle_through_the_scenarios() -> None:
    names = ["trip", "cart"]
    assert [scenario_for_trial(names, i) for i in range(5)] == [
        "trip",
        "cart",
        "trip",
        "cart",
        "trip",
    ]


def test_task_params_store_the_list() -> None:
    assert RevisionTask.Params().scenario == ["trip"]
    assert RevisionTask.Params(scenario="all").scenario == [
        "trip",
        "cooking",
        "meeting",
        "cart",
        "form",
    ]
    assert ConstraintTask.Params(scenario=["phishing_response", "itops_502"]).scenario == [
        "phishing_response",
        "itops_502",
    ]
