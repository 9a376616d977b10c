"""The shipped Episodex configs: both valid, the 2 x 2 grid of the paper's comparisons (0 and
5 past episodes, conceptual memory off and on) on seen then unseen rooms; the fake run carries
memory from game to game and reports the comparisons, the transitions and the focus loop."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import iter_trials, read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.running.worker import RunSetup
from tests.tasks.alfworld import conftest as alfworld

REPO = Path(__file__).resolve().parents[2]
FAKES = REPO / "experiments" / "configs" / "episodex_fakes.yaml"
LOCAL = REPO / "experiments" / "configs" / "episodex_local.yaml"
GRID = {(0, False), (0, True), (5, False), (5, True)}

engine, game_cache = alfworld.engine, alfworld.game_cache
"""The ALFWorld tests' fixtures: the engine's packages, games planned once per session."""

pytestmark = pytest.mark.usefixtures("engine")


@pytest.mark.parametrize("path", [FAKES, LOCAL], ids=["fakes", "local"])
def test_the_shipped_configs_are_valid_and_cover_the_papers_two_comparisons(path: Path) -> None:
    config = load_run_config(path)
    if path == FAKES:
        RunSetup(config)  # the task, every agent spec and provider, checked as a run does
    grid = {(a.params["max_episodes"], a.params["conceptual"]) for a in config.agents}
    assert grid == GRID and {a.agent for a in config.agents} == {"episodex"}
    splits = [part["split"] for part in config.task.params()["curriculum"]]
    assert splits == ["train", "ood"]


def shipped(results: Path, games: Path) -> RunConfig:
    """The shipped fake run, one trial per agent, its games cached in ``games``."""
    config = load_run_config(FAKES)
    task = {**config.task.model_dump(), "cache_dir": str(games)}
    fields = {**config.model_dump(), "task": task, "results_dir": results, "trials": 1}
    return RunConfig.model_validate(fields)


def games_of(results: Path, agent: str) -> list[dict[str, Any]]:
    """The games of ``agent``'s first trial, as its trial file holds them."""
    record = read_trial(trial_path(results, agent, 0), within=results)
    games = record.payload.model_dump(mode="json")["games"]
    assert isinstance(games, list)
    return games


def check_memory_carried(results: Path) -> None:
    """In the trial files: the 5-episode agent draws every earlier game's episode, learns
    concepts from won games only and clusters them into max(1, floor(sqrt(N))); its focus loop
    acts again; the 0-episode agent without concepts draws and stores nothing of the kind."""
    games = games_of(results, "episodex_5_on")
    won = [g["won"] for g in games]
    assert len(games) == 5 and any(won) and not all(won)  # the brain wins some, loses others
    learned: list[str] = []
    for i, game in enumerate(games):
        episodic, conceptual = (
            game["memory_activity"]["episodic"],
            game["memory_activity"]["conceptual"],
        )
        assert episodic["retrieved"] == [f"ep{j}" for j in range(i)]  # every earlier game
        assert episodic["stored"] == [f"ep{i}"] and episodic["won"] == won[i]
        n = len(learned)
        assert conceptual["concepts"] == n
        assert conceptual["k"] == (max(1, math.isqrt(n)) if n else 0)
        members = sorted(m for c in conceptual["clusters"] for m in c["members"])
        assert members == sorted(learned)  # every concept learned so far, clustered
        assert bool(conceptual["stored"]) == won[i]  # concepts from won games only
        learned += conceptual["stored"]
    assert learned and games[-1]["memory_activity"]["conceptual"]["retrieved"]
    focus = [f for g in games for f in g["focus"]]
    assert focus and all(f["next_admissible"] is not None for f in focus)  # it acted again

    for game in games_of(results, "episodex_0_off"):
        episodic, conceptual = (game["memory_activity"][m] for m in ("episodic", "conceptual"))
        assert episodic["retrieved"] == []
        assert (conceptual["enabled"], conceptual["retrieved"], conceptual["stored"]) == (
            False,
            [],
            [],
        )


async def test_the_fake_run_carries_memory_across_games_and_reports_the_comparisons(
    tmp_path: Path, game_cache: Path
) -> None:
    config = shipped(tmp_path / "run", game_cache)
    report = await Runner(config, progress=False).run()
    assert report.failed == 0 and report.corrupt == [] and report.ran == 4
    check_memory_carried(config.output_dir())
    for path, record in iter_trials(config.output_dir()):
        assert not isinstance(record, Exception), f"{path}: {record}"
        resumed = [s for s in record.walk if s.how == "resume"]
        assert resumed and {(s.source, s.node) for s in resumed} == {
            ("motor", "external_perception")
        }
    paths = build_report(config.output_dir())
    md = paths[0].read_text("utf-8")
    for title in ("episodex: by max_episodes", "episodex: by conceptual"):
        assert f"### {title}" in md
    names = {p.name for p in paths}
    assert {f"transitions_episodex_{n}_{c}.png" for n in (0, 5) for c in ("off", "on")} <= names
