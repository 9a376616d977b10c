"""The shipped Episodex configs: both valid, the 2 x 2 grid of the paper's comparisons (0 and
5 past episodes, conceptual memory off and on) on seen then unseen rooms; the fake run carries
memory from game to game and reports the comparisons, the transitions and the focus loop."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cogarch.core.host import EpisodeReport
from cogarch.core.memory import EpisodeEnd
from cogarch.core.task import TrialContext
from cogarch.experiments.config import RunConfig, load_run_config
from cogarch.experiments.report import build_report
from cogarch.experiments.results import iter_trials
from cogarch.experiments.runner import Runner
from cogarch.experiments.worker import RunSetup
from cogarch.memory.long_term import ConceptualMemory, EpisodicMemory
from cogarch.seeds import trial_seed
from cogarch.workspace import Agent, build_agent
from tests.tasks.alfworld import conftest as alfworld

REPO = Path(__file__).resolve().parents[2]
FAKES = REPO / "experiments" / "episodex_fakes.yaml"
LOCAL = REPO / "experiments" / "episodex_local.yaml"
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


@dataclass
class Recorded:
    """The agent a trial built, and what it reported at the end of every game."""

    agent: Agent
    reports: list[EpisodeReport] = field(default_factory=list)

    async def respond(self, text: str) -> str:
        return await self.agent.respond(text)

    async def end_episode(self, end: EpisodeEnd) -> EpisodeReport:
        report = await self.agent.end_episode(end)
        self.reports.append(report)
        return report


async def played(setup: RunSetup, label: str, seed: int) -> Recorded:
    """One trial of agent ``label`` of the shipped run, played as the worker would."""
    models = setup.providers.for_trial(seed)
    entry = setup.entries[label]
    made: list[Recorded] = []

    def make() -> Recorded:
        spec = setup.specs[label]
        agent = build_agent(spec, models, name=label, provider=entry.provider, seed=seed)
        made.append(Recorded(agent))
        return made[-1]

    await setup.task.run_trial(TrialContext(label, 0, seed, make, models, None))  # type: ignore[arg-type]
    (recorded,) = made
    return recorded


def memories(agent: Agent) -> tuple[EpisodicMemory, ConceptualMemory]:
    episodic, conceptual = agent.memory["episodic"], agent.memory["conceptual"]
    assert isinstance(episodic, EpisodicMemory) and isinstance(conceptual, ConceptualMemory)
    return episodic, conceptual


def pairs(reports: list[EpisodeReport], module: str) -> Iterator[tuple[int, dict[str, object]]]:
    return ((i, r.memory[module]) for i, r in enumerate(reports))


async def test_the_fake_run_carries_memory_from_game_to_game(
    tmp_path: Path, game_cache: Path
) -> None:
    config = shipped(tmp_path / "run", game_cache)
    setup = RunSetup(config)
    seed = trial_seed(config.seed, 0)  # the run's first trial
    with_memory = await played(setup, "episodex_5_on", seed)
    episodic, conceptual = memories(with_memory.agent)
    games = len(with_memory.reports)
    assert games == 5 and len(episodic.archive) == games
    won = [e.won for e in episodic.archive]
    assert any(won) and not all(won)  # the brain wins some games and loses others
    for i, activity in pairs(with_memory.reports, "episodic"):  # every earlier game, up to 5
        assert activity["retrieved"] == [f"ep{j}" for j in range(i)]
        assert activity["stored"] == [f"ep{i}"] and activity["won"] == won[i]
    learned: list[str] = []
    for i, activity in pairs(with_memory.reports, "conceptual"):
        n = len(learned)
        assert activity["concepts"] == n
        assert activity["k"] == (max(1, math.isqrt(n)) if n else 0)
        members = sorted(m for c in activity["clusters"] for m in c["members"])  # type: ignore[attr-defined]
        assert members == sorted(learned)  # every concept learned so far, clustered
        assert bool(activity["stored"]) == won[i]  # concepts from won games only
        learned += activity["stored"]  # type: ignore[arg-type]
    assert learned and conceptual.games[-1].retrieved  # later games had concepts in context
    focus = [f for r in with_memory.reports for f in r.focus]
    assert focus and all(f["next_admissible"] is not None for f in focus)  # it acted again

    without = await played(setup, "episodex_0_off", seed)
    for _, activity in pairs(without.reports, "episodic"):
        assert activity["retrieved"] == []
    for _, activity in pairs(without.reports, "conceptual"):
        assert (activity["enabled"], activity["retrieved"], activity["stored"]) == (False, [], [])


async def test_the_fake_run_completes_and_reports_the_comparisons(
    tmp_path: Path, game_cache: Path
) -> None:
    config = shipped(tmp_path / "run", game_cache)
    report = await Runner(config, progress=False).run()
    assert report.failed == 0 and report.corrupt == [] and report.ran == 4
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
