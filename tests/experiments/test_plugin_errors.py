"""Errors from code a run config names (an Agent Framework factory, a provider's check) and
from the Inspect bridge's ``-T`` values reach the user as one line naming the problem, with a
traceback only under the debug flag (``--debug`` or ``COGARCH_DEBUG=1``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cogarch.experiments.cli.command import main

REPO = Path(__file__).resolve().parents[2]

FACTORY = """
def build(ctx):
    raise RuntimeError("no agent today")
"""

PROVIDER = """
from cogarch.models.provider import Provider, ProviderSettings


class Broken(Provider):
    Params = ProviderSettings

    def check(self):
        raise KeyError("the endpoint table")

    def client(self, replica):
        raise NotImplementedError
"""


def config(tmp_path: Path, agent: dict[str, object], providers: dict[str, object]) -> Path:
    data = {
        "name": "plugin_errors",
        "task": {"kind": "hangman_sct", "t_fork": 2, "n_candidates": 2},
        "trials": 1,
        "cache": False,
        "results_dir": str(tmp_path / "results"),
        "providers": providers,
        "agents": [agent],
    }
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def factory_config(tmp_path: Path) -> Path:
    (tmp_path / "agents.py").write_text(FACTORY, encoding="utf-8")
    agent = {
        "name": "maf",
        "agent": {"framework": "agent-framework", "factory": "agents.py:build"},
        "provider": "honest",
    }
    return config(tmp_path, agent, {"honest": {"kind": "fake", "fake": "hangman.honest"}})


def provider_config(tmp_path: Path) -> Path:
    (tmp_path / "broken.py").write_text(PROVIDER, encoding="utf-8")
    agent = {"name": "a", "agent": "vanilla", "provider": "broken"}
    return config(tmp_path, agent, {"broken": {"kind": "broken.py:Broken"}})


@pytest.mark.parametrize(
    ("make", "words", "raw"),
    [
        (
            factory_config,
            ["factory", "agents.py:build", "RuntimeError: no agent today"],
            RuntimeError,
        ),
        (provider_config, ["provider 'broken'", "KeyError"], KeyError),
    ],
)
def test_a_plugin_that_raises_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    make: object,
    words: list[str],
    raw: type[Exception],
) -> None:
    if make is factory_config:
        pytest.importorskip("agent_framework")
    path = make(tmp_path)  # type: ignore[operator]
    assert main(["run", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert all(word in err for word in words), err
    with pytest.raises(raw):  # under --debug, the plug-in's own error and its traceback
        main(["--debug", "run", str(path), "--quiet"])
    assert "COGARCH_DEBUG" not in os.environ


def test_an_unforeseen_error_is_one_line_pointing_at_the_debug_flag(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cogarch.experiments.cli import command as cli

    def boom(args: object) -> int:
        raise RuntimeError("something unforeseen")

    monkeypatch.setattr(cli, "cmd_agents", boom)
    assert main(["agents"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "RuntimeError: something unforeseen" in err
    assert "--debug" in err
    monkeypatch.setenv("COGARCH_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["agents"])


@pytest.mark.parametrize("value", ["trials=-3", "trials=many", "agent=no_such_agent"])
def test_bad_inspect_task_values_are_one_line(tmp_path: Path, value: str) -> None:
    pytest.importorskip("inspect_ai")
    env = {**os.environ, "PYTHONPATH": str(REPO), "INSPECT_LOG_DIR": str(tmp_path / "logs")}
    env.pop("COGARCH_DEBUG", None)
    command = [sys.executable, "-m", "inspect_ai", "eval", "cogarch/hangman_sct"]
    command += ["--model", "mockllm/model", "-T", value, "--display", "plain"]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in said, said
    assert "error:" in said
