"""Every registered cogarch task is an Inspect task ``cogarch/<kind>``, found through the
package's ``inspect_ai`` entry point; a -T mistake stops the eval with cogarch's error before
any sample runs; a trial that fails is a sample scored ``failed`` with its error."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from cogarch.bridges.inspect.scoring import FAILED, RECORD_KEY
from cogarch.errors import ConfigError
from cogarch.tasks.registry import TASKS

from .conftest import INSPECT_WARNINGS, run_eval

pytestmark = INSPECT_WARNINGS


def broken_host(pairs: Any, seed: int, call: Any) -> str:
    """A scripted fake whose model call fails."""
    raise RuntimeError("the host fell over")


def test_the_package_declares_its_inspect_entry_point() -> None:
    found = {ep.name: ep.value for ep in entry_points(group="inspect_ai")}
    assert found.get("cogarch") == "cogarch.bridges.inspect.tasks", (
        "the installed metadata lacks the entry point: reinstall with pip install -e '.[inspect]'"
    )


def test_every_registered_task_is_an_inspect_task() -> None:
    from inspect_ai._util.registry import registry_info

    from cogarch.bridges.inspect.tasks import OWN_TASK, REGISTERED

    assert sorted(REGISTERED) == sorted(TASKS.names())
    names = {registry_info(fn).name for fn in [*REGISTERED.values(), OWN_TASK]}
    assert names == {f"cogarch/{kind}" for kind in TASKS.names()} | {"cogarch/task"}


def test_a_mistake_stops_the_eval_with_cogarchs_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="has no parameter"):
        run_eval("cogarch/hangman_sct", {"colour": "red"}, tmp_path)
    with pytest.raises(ConfigError, match=r"unknown fake model 'hangman\.nobody'"):
        run_eval("cogarch/hangman_sct", {"fake": "hangman.nobody"}, tmp_path)
    assert list(tmp_path.glob("*.eval")) == []


def test_a_failed_trial_is_scored_failed_with_its_error(tmp_path: Path) -> None:
    fake = f"{__name__}:broken_host"
    log = run_eval("cogarch/hangman_sct", {"fake": fake, "trials": 1, "cache": False}, tmp_path)
    assert log.status == "success"
    (sample,) = log.samples
    score = sample.scores["trial_outcome"]
    assert score.value == FAILED
    assert score.metadata["success"] is None
    assert "the host fell over" in score.metadata["error"]["message"]
    assert score.explanation.startswith("The trial failed before it could be rated")
    assert log.results.scores[0].metrics["rated"].value == 0


def test_the_helper_role_makes_the_tasks_own_calls(tmp_path: Path) -> None:
    """The constraints task judges with a model of its own: the one bound to Inspect's
    ``helper`` role, while the agent talks to the eval's model."""
    args = {"trials": 1, "cache": False}
    log = run_eval("cogarch/constraints", args, tmp_path, model_roles={"helper": "mockllm/model"})
    assert log.status == "success", log.error
    (sample,) = log.samples
    record = sample.store[RECORD_KEY]
    assert record["metadata"]["config"]["helper_provider"] == "helper"
    calls = {(c["provider"], c["caller"]) for c in record["usage"]["calls"]}
    assert ("helper", "judge") in calls and ("inspect", "responder") in calls
    assert sample.scores["trial_outcome"].value == "complete"  # it measures, not classifies
