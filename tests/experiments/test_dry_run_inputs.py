"""The dry run's cost estimate reads earlier trial files and ``run.json`` as the run does:
through the guarded reader, so a damaged number, an unexpected shape, a FIFO or a link to
``/dev/zero`` is passed over, never a traceback, a hang or a read without end."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.running.dry_run import dry_run
from cogarch.experiments.running.run_config import RunConfig
from tests.deadline import deadline

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs FIFOs and /dev/zero")


def config(results: Path) -> RunConfig:
    return RunConfig.model_validate(
        {
            "name": "estimate",
            "task": {"kind": "hangman_sct", "t_fork": 2, "n_candidates": 2},
            "trials": 1,
            "results_dir": str(results),
            "providers": {"honest": {"kind": "fake", "fake": "hangman.honest"}},
            "agents": [
                {"name": "a", "agent": "vanilla", "provider": "honest"},
                {"name": "b", "agent": "vanilla", "provider": "honest"},
            ],
        }
    )


def trial(agent: str, calls: Any = 4, tokens: Any = 100, **extra: Any) -> dict[str, Any]:
    return {
        "status": "complete",
        "agent": agent,
        "metadata": {"agent_spec": {"name": "vanilla"}, "provider_settings": {"kind": "fake"}},
        "usage": {"model_calls": calls, "prompt_tokens": tokens, "completion_tokens": 0},
        **extra,
    }


def earlier_run(root: Path, files: dict[str, Any]) -> Path:
    """A run folder of the same task whose agent ``a`` has one good trial file, beside the
    files given (by path inside the folder: JSON data, or a callable that makes the file)."""
    (root / "a").mkdir(parents=True)
    (root / "run.json").write_text(json.dumps({"config": {"task": {"kind": "hangman_sct"}}}))
    (root / "a" / "trial_0000.json").write_text(json.dumps(trial("a")))
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path):
            path.unlink()
        if callable(content):
            content(path)
        else:
            path.write_text(content if isinstance(content, str) else json.dumps(content))
    return root


def fifo(path: Path) -> None:
    os.mkfifo(path)


def dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


HOSTILE: dict[str, dict[str, Any]] = {
    "a string count": {"a/trial_0001.json": trial("a", calls="many")},
    "a list count": {"a/trial_0001.json": trial("a", calls=[1, 2])},
    "a huge number": {
        "a/trial_0001.json": json.dumps(trial("a")).replace(
            '"model_calls": 4', '"model_calls": 1e999'
        )
    },
    "NaN tokens": {"a/trial_0001.json": json.dumps(trial("a", tokens=float("nan")))},
    "a negative count": {"a/trial_0001.json": trial("a", calls=-5)},
    "a boolean count": {"a/trial_0001.json": trial("a", calls=True)},
    "metadata as a list": {"a/trial_0001.json": {**trial("a"), "metadata": [1]}},
    "usage as a string": {"a/trial_0001.json": {**trial("a"), "usage": "x"}},
    "games of another shape": {"a/trial_0001.json": trial("a", payload={"games": {"x": 1}})},
    "games with bad counts": {
        "a/trial_0001.json": trial("a", payload={"games": [{"model_calls": "x"}, 7]})
    },
    "a list file": {"a/trial_0001.json": [1, 2, 3]},
    "deep JSON": {"a/trial_0001.json": "[" * 5000 + "]" * 5000},
    "a FIFO trial file": {"a/trial_0001.json": fifo},
    "a trial file linked to /dev/zero": {"a/trial_0001.json": dev_zero},
    "run.json as a list": {"run.json": [1]},
    "run.json's task as a string": {"run.json": {"config": {"task": "hangman_sct"}}},
    "a FIFO run.json": {"run.json": fifo},
    "run.json linked to /dev/zero": {"run.json": dev_zero},
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_earlier_run_never_breaks_the_dry_run(tmp_path: Path, case: str) -> None:
    earlier = earlier_run(tmp_path / "earlier", HOSTILE[case])
    with deadline(20):
        text = dry_run(config(tmp_path / "results"), [earlier]).text()
    assert "dry run: nothing was played" in text
    if not case.startswith(("run.json", "a FIFO run.json")):
        # the good trial file still gives the estimate; the bad one is passed over
        assert "a: expected per trial: 4 model calls, 100 tokens (mean of 1 trials" in text


def test_the_command_prints_the_plan_beside_hostile_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tmp_path / "results"
    earlier_run(results, {"run.json": fifo, "b/trial_0000.json": dev_zero})
    path = tmp_path / "run.yaml"
    path.write_text(json.dumps(config(results).model_dump(mode="json")), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with deadline(20):
        assert main(["run", str(path), "--dry-run"]) == 0
    assert "dry run: nothing was played" in capsys.readouterr().out
