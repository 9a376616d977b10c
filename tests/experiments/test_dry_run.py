"""``cogarch run CONFIG --dry-run``: every shipped config checks and plans without building a
model, contacting an endpoint or starting the embedded model; what is wrong fails as the run
would; an earlier run's trial files give the expected cost."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from cogarch.config import read_yaml
from cogarch.experiments.cli import main
from cogarch.experiments.dry_run import dry_run
from cogarch.experiments.run_config import load_run_config
from cogarch.models import providers as providers_module
from tests.tasks.alfworld import conftest as alfworld

REPO = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*REPO.glob("experiments/*.yaml"), *REPO.glob("examples/*.yaml")])
DUMMY = "http://dummy.invalid/v1"

engine = alfworld.engine
"""The ALFWorld tests' fixture: the engine's packages (configs of that task need them)."""


def _variables() -> set[str]:
    names: set[str] = set()
    for path in SHIPPED:
        for settings in (read_yaml(path).get("providers") or {}).values():
            names |= {settings[k] for k in ("base_url_env", "api_key_env") if k in settings}
    return names


@pytest.fixture
def no_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building a model, or opening a connection, fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a dry run built a model or opened a connection")

    monkeypatch.setattr(providers_module, "build_model", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    for name in _variables():
        monkeypatch.setenv(name, DUMMY if "URL" in name else "dummy-key")


@pytest.mark.usefixtures("no_models")
@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_config_dry_runs(
    path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    if read_yaml(path)["task"]["kind"] == "alfworld":
        request.getfixturevalue("engine")
    monkeypatch.chdir(REPO)
    assert main(["run", str(path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    config = load_run_config(path)
    assert f"run: {config.name}" in out and "no model was called" in out
    for entry in config.agents:
        assert f"  {entry.label}: " in out
    assert not config.output_dir().exists() or config.output_dir().name in out


@pytest.mark.usefixtures("engine", "no_models")
def test_the_paper_config_plans_its_games_agents_and_endpoint(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", str(REPO / "experiments" / "episodex_paper.yaml"), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "games per trial: 134 (134 ood), at most 50 actions each" in out
    assert "ood rooms (4): 10, 219, 308, 424" in out
    assert "pick_clean_then_place_in_recep 31" in out
    assert f"$EPISODEX_BASE_URL = {DUMMY}" in out and "not contacted" in out


@pytest.mark.usefixtures("engine")
def test_a_missing_endpoint_variable_fails_as_the_run_would(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EPISODEX_API_KEY", "dummy-key")
    monkeypatch.delenv("EPISODEX_BASE_URL", raising=False)
    assert main(["run", str(REPO / "experiments" / "episodex_paper.yaml"), "--dry-run"]) == 2
    assert "export EPISODEX_BASE_URL=" in capsys.readouterr().err


@pytest.mark.usefixtures("engine", "no_models")
def test_the_embedded_model_is_named_and_not_started(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", str(REPO / "experiments" / "episodex_local.yaml"), "--dry-run"]) == 0
    assert "local, the embedded model" in capsys.readouterr().out


def _trial(agent: str, games: list[dict[str, Any]], fake: bool = True) -> dict[str, Any]:
    return {
        "status": "complete",
        "agent": agent,
        "metadata": {
            "agent_spec": {"name": "episodex"},
            "provider_settings": {"kind": "fake" if fake else "openai"},
        },
        "usage": {"model_calls": 1, "prompt_tokens": 1, "completion_tokens": 1},
        "payload": {"games": games},
    }


@pytest.mark.usefixtures("engine", "no_models")
def test_an_earlier_fake_run_gives_the_cost_per_game_scaled_to_the_config(
    tmp_path: Path,
) -> None:
    earlier = tmp_path / "earlier"
    (earlier / "a").mkdir(parents=True)
    (earlier / "run.json").write_text(json.dumps({"config": {"task": {"kind": "alfworld"}}}))
    games = [
        {"model_calls": 40, "prompt_tokens": 9000, "completion_tokens": 1000, "actions": 10},
        {"model_calls": 60, "prompt_tokens": 9000, "completion_tokens": 1000, "actions": 10},
    ]
    (earlier / "a" / "trial_0000.json").write_text(json.dumps(_trial("a", games)))
    config = load_run_config(REPO / "experiments" / "episodex_paper_table1.yaml")
    text = dry_run(config, [earlier]).text()
    # 5 calls and 1,000 tokens per action, 10 actions per game, 20 games per trial
    assert "episodex_0: expected per trial: 1,000 model calls, 200,000 tokens" in text
    assert "at most 5,000 calls, 1,000,000 tokens if every game runs to its 50" in text
    assert "(same agent spec)" in text
    # trials of an agent of the same name are preferred
    (earlier / "episodex_5").mkdir()
    mine = [{"model_calls": 10, "prompt_tokens": 1, "completion_tokens": 1, "actions": 10}]
    (earlier / "episodex_5" / "trial_0000.json").write_text(json.dumps(_trial("episodex_5", mine)))
    text = dry_run(config, [earlier]).text()
    assert "episodex_5: expected per trial: 200 model calls" in text
    assert f"{earlier} (episodex_5)" in text
