"""The task's settings: what is refused and why, and the shipped run configs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.running.run_config import load_run_config
from cogarch.tasks.registry import build_task

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"task_types": ["pick_and_juggle"]}, "unknown task types"),
        ({"curriculum": []}, "at least 1"),
        ({"curriculum": [{"split": "dev", "games": 1}]}, "'train', 'id' or 'ood'"),
        ({"max_steps": 0}, "greater than or equal to 1"),
        ({"shuffle": True}, "shuffle"),
    ],
)
def test_bad_settings_are_refused_naming_the_key(params: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        build_task("alfworld", params)


@pytest.mark.usefixtures("engine")
def test_settings_that_leave_a_split_without_games_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"rooms \[31\] that ALFRED does not have"):
        build_task("alfworld", {"rooms": [31]})
    with pytest.raises(ConfigError, match="no room of the ood split can host"):
        build_task(
            "alfworld",
            {"task_types": ["pick_heat_then_place_in_recep"], "max_receptacles": 14},
        )


@pytest.mark.usefixtures("engine")
@pytest.mark.parametrize("name", ["alfworld_fakes.yaml", "alfworld_local.yaml"])
def test_the_shipped_configs_are_valid(name: str) -> None:
    config = load_run_config(REPO / "experiments" / "configs" / name)
    task = build_task(config.task.kind, config.task.params())
    assert task.kind == "alfworld"


def test_without_the_extra_the_task_is_refused_with_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cogarch.tasks.alfworld import wheel

    monkeypatch.setitem(sys.modules, "alfworld.gen.constants", None)  # as if not installed
    wheel.rules.cache_clear()
    try:
        with pytest.raises(wheel.AlfworldMissingError, match=r"pip install 'cogarch\[alfworld\]'"):
            build_task("alfworld", {})
    finally:
        monkeypatch.undo()
        wheel.rules.cache_clear()
