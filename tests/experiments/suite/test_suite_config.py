"""The suite config: cells as runs of one agent, fakes named by behaviour, and its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.suites.config import load_suite_config

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "experiments" / "configs" / "suite_memory_fakes.yaml"

SMALL = """\
name: small
seed: 3
trials: 2
providers:
  honest: {kind: fake, fake: honest}
tasks:
  - {kind: hangman_sct, t_fork: 3, n_candidates: 3}
  - {kind: revision, scenario: [trip], trials: 1}
agents:
  - {name: plain, agent: vanilla, provider: honest}
  - {name: noted, agent: workflow, provider: honest, params: {strategy: overwrite}}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_each_cell_is_a_run_of_one_agent_in_its_own_folder(tmp_path: Path) -> None:
    config = load_suite_config(write(tmp_path, SMALL + "results_dir: out\n"))
    cells = config.cells()
    assert [(t.label, a.label) for t, a in cells] == [
        ("hangman_sct", "plain"),
        ("hangman_sct", "noted"),
        ("revision", "plain"),
        ("revision", "noted"),
    ]
    run = config.cell_config(*cells[3])
    assert [a.label for a in run.agents] == ["noted"]
    assert run.trials == 1 and run.seed == 3  # the task's own trials, the suite's seed
    assert run.output_dir() == Path("out") / "revision" / "noted"
    assert run.task.kind == "revision" and run.task.params() == {"scenario": ["trip"]}


def test_a_behaviour_is_played_by_each_task_with_its_own_fake(tmp_path: Path) -> None:
    config = load_suite_config(SHIPPED)
    fakes = {
        task.label: config.cell_config(task, config.agents[0]).providers["honest"].fake
        for task in config.tasks
    }
    assert fakes == {
        "hangman_sct": "hangman.honest",
        "diagnosis_sct": "diagnosis.honest",
        "locomo": "locomo.reader",  # mapped in the task's entry
        "longmemeval": "longmemeval.reader",
        "alfworld": "alfworld.oracle",
        "revision": "revision.honest",
        "constraints": "constraints.honest",
    }


def test_a_task_without_the_behaviour_is_refused_before_any_cell_runs(tmp_path: Path) -> None:
    text = SMALL.replace("fake: honest}", "fake: leaky}")
    with pytest.raises(ConfigError) as caught:
        load_suite_config(write(tmp_path, text))
    message = str(caught.value)
    assert "task 'revision' has no fake 'leaky'" in message
    assert "revision.forgetful, revision.honest" in message


def test_skip_leaves_a_cell_out_and_must_name_a_cell_of_the_suite(tmp_path: Path) -> None:
    config = load_suite_config(
        write(tmp_path, SMALL + "skip:\n  - {agent: noted, task: revision}\n")
    )
    assert ("revision", "noted") not in [(t.label, a.label) for t, a in config.cells()]
    with pytest.raises(ConfigError, match="skip names the cell noted x alfworld"):
        load_suite_config(write(tmp_path, SMALL + "skip:\n  - {agent: noted, task: alfworld}\n"))


def test_two_tasks_of_one_kind_need_names_of_their_own(tmp_path: Path) -> None:
    text = SMALL.replace(
        "  - {kind: revision, scenario: [trip], trials: 1}\n",
        "  - {kind: revision, scenario: [trip]}\n  - {kind: revision, scenario: [cart]}\n",
    )
    with pytest.raises(ConfigError, match="task names must be unique"):
        load_suite_config(write(tmp_path, text))
    named = text.replace("scenario: [cart]}", "scenario: [cart], name: revision_cart}")
    assert [t.label for t in load_suite_config(write(tmp_path, named)).tasks] == [
        "hangman_sct",
        "revision",
        "revision_cart",
    ]


def test_the_suite_file_is_read_by_the_run_configs_loader(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="'trials' appears twice"):
        load_suite_config(write(tmp_path, SMALL + "trials: 4\n"))
    with pytest.raises(ConfigError, match="unknown key"):
        load_suite_config(write(tmp_path, SMALL + "agent_count: 4\n"))
