"""Controls in a suite: a row per role and reader, filled in by each task with its own control
of that role, on the cells of the tasks that declare it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.suites.config import load_suite_config

SUITE = """\
name: small
trials: 1
providers:
  honest: {kind: fake, fake: honest}
tasks:
  - {kind: hangman_sct, t_fork: 3, n_candidates: 3}
  - {kind: revision, scenario: [trip]}
agents:
  - {name: plain, agent: vanilla, provider: honest}
  - {name: noted, agent: workflow, provider: honest, params: {strategy: overwrite}}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_controls_true_adds_a_row_per_role_on_the_tasks_that_declare_it(tmp_path: Path) -> None:
    config = load_suite_config(write(tmp_path, SUITE + "controls: true\n"))
    assert config.controls is False  # the rows carry them from here on
    assert [(a.label, a.control) for a in config.agents] == [
        ("plain", None),
        ("noted", None),
        ("lower_bound", "lower_bound"),
        ("upper_bound", "upper_bound"),
    ]
    cells = [(t.label, a.label) for t, a in config.cells()]
    assert ("revision", "lower_bound") not in cells and ("revision", "upper_bound") not in cells
    played = {}
    for task, agent in config.cells():
        (entry,) = config.cell_config(task, agent).agents
        played[task.label, agent.label] = (entry.agent, entry.control, entry.provider)
    assert played["hangman_sct", "lower_bound"] == ("vanilla", "lower_bound", "honest")
    assert played["hangman_sct", "upper_bound"] == ("private_cot", "upper_bound", "honest")
    assert played["hangman_sct", "plain"] == ("vanilla", None, "honest")
    # the seed and the judge are the suite's, for controls as for every cell
    runs = [config.cell_config(t, a) for t, a in config.cells()]
    assert {(r.seed, r.helper_provider) for r in runs} == {(config.seed, None)}


def test_two_readers_get_a_control_row_each(tmp_path: Path) -> None:
    text = SUITE.replace(
        "providers:\n", "providers:\n  forgetful: {kind: fake, fake: forgetful}\n"
    ).replace("workflow, provider: honest", "workflow, provider: forgetful")
    config = load_suite_config(write(tmp_path, text + "controls: [upper_bound]\n"))
    rows = {a.label: a.provider for a in config.agents if a.control}
    assert rows == {"upper_bound.honest": "honest", "upper_bound.forgetful": "forgetful"}


@pytest.mark.parametrize(
    ("controls", "message"),
    [
        (
            "[oracle]",
            "the suite's tasks declare no control 'oracle'; the controls declared are lower_bound, "
            "upper_bound",
        ),
        ("[upper_bound, nonsense]", "controls"),
    ],
)
def test_a_role_no_task_declares_is_refused(tmp_path: Path, controls: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_suite_config(write(tmp_path, SUITE + f"controls: {controls}\n"))


def test_controls_true_where_no_task_declares_one_is_refused(tmp_path: Path) -> None:
    text = SUITE.replace("  - {kind: hangman_sct, t_fork: 3, n_candidates: 3}\n", "")
    with pytest.raises(ConfigError, match="no task of the suite declares controls"):
        load_suite_config(write(tmp_path, text + "controls: true\n"))
