"""``-T`` parameters: the bridge's, the task's and the agent's, read into a run config with
cogarch's own errors."""

from __future__ import annotations

import pytest

from cogarch.bridges.inspect.params import read_params
from cogarch.errors import ConfigError, UnknownNameError
from cogarch.seeds import trial_seed

from .conftest import REPO


def test_names_go_to_the_bridge_the_task_and_the_agent() -> None:
    given = {"agent": "workflow", "strategy": "overwrite", "trials": 7, "seed": 42}
    params = read_params("hangman_sct", {**given, "t_fork": 3, "fake": "hangman.honest"})
    config = params.config
    assert (config.trials, config.seed) == (7, 42)
    assert config.task.kind == "hangman_sct" and config.task.params() == {"t_fork": 3}
    entry = config.agents[0]
    assert (entry.agent, entry.params, entry.provider) == (
        "workflow",
        {"strategy": "overwrite"},
        "fake",
    )
    assert config.providers["fake"].fake == "hangman.honest"


def test_defaults_are_a_run_configs() -> None:
    config = read_params("diagnosis_sct", {}).config
    assert (config.trials, config.seed, config.agents[0].agent) == (5, 1337, "vanilla")
    assert trial_seed(config.seed, 0) == trial_seed(1337, 0)


def test_agent_prefix_sends_a_name_to_the_agent() -> None:
    params = read_params("hangman_sct", {"agent": "workflow", "agent.strategy": "overwrite"})
    assert params.config.agents[0].params == {"strategy": "overwrite"}


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"trials": 0}, "trials: Input should be greater than or equal to 1"),
        ({"t_fork": "soon"}, "task.t_fork"),
        ({"colour": "red"}, "has no parameter(s) colour"),
        ({"agent": "nobody"}, "unknown agent 'nobody'; ready-made agents:"),
        ({"cache": 3}, "-T cache= is true, false or a folder"),
        ({"task": "x.py:Y"}, "-T task=... is for cogarch/task"),
    ],
)
def test_mistakes_are_named_with_cogarchs_errors(given: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        read_params("hangman_sct", given)
    assert words in str(caught.value)


def test_a_task_that_needs_a_judge_of_its_own_is_refused() -> None:
    with pytest.raises(ConfigError, match="judges its trials with a helper model of its own"):
        read_params("constraints", {})


def test_an_unknown_parameter_says_whose_names_there_are() -> None:
    with pytest.raises(ConfigError) as caught:
        read_params("hangman_sct", {"colour": "red"})
    assert "n_candidates" in str(caught.value) and "fake" in str(caught.value)


def test_an_own_task_is_named_by_path() -> None:
    task = f"{REPO / 'examples' / 'custom_task.py'}:GuessTask"
    params = read_params(None, {"task": task, "max_turns": 3, "fake": "guess.bisect"})
    assert params.task_class.kind == "guess"
    assert params.config.task.params() == {"max_turns": 3}
    with pytest.raises(ConfigError, match="name its class with -T task="):
        read_params(None, {})
    with pytest.raises(UnknownNameError):
        read_params(None, {"task": "no_such_module:Task"})
