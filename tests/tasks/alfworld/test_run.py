"""An ALFWorld run through the whole pipeline: trial files, the report and the viewer's pages."""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path

import pytest

from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import read_trial, trial_path, write_trial
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.viewer.export import export_static
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.tasks.alfworld.fakes import REFLECTION
from cogarch.tasks.alfworld.records import AlfworldEvaluation, AlfworldPayload
from tests.tasks.alfworld.conftest import SMALL_SEEN, SMALL_UNSEEN

HOSTILE = '<script>window.PWNED = 1</script><img src=x onerror="window.PWNED = 2">'


@pytest.fixture(scope="module")
def run(game_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The oracle and a random Reflexion-style agent, one train and one ood game each."""
    results = tmp_path_factory.mktemp("alfworld-run") / "run"
    config = RunConfig.model_validate(
        {
            "name": "alfworld_pipeline",
            "task": {
                "kind": "alfworld",
                "curriculum": [{"split": "train", "games": 1}, {"split": "ood", "games": 1}],
                "rooms": SMALL_SEEN + SMALL_UNSEEN,
                "max_steps": 15,
                "cache_dir": str(game_cache),
            },
            "trials": 1,
            "results_dir": str(results),
            "providers": {
                "oracle": {"kind": "fake", "fake": "alfworld.oracle"},
                "random": {"kind": "fake", "fake": "alfworld.random"},
            },
            "agents": [
                {"name": "oracle_react", "agent": "alfworld_react", "provider": "oracle"},
                {"name": "random_reflexion", "agent": "alfworld_reflexion", "provider": "random"},
            ],
        }
    )
    report = asyncio.run(Runner(config, progress=False).run())
    assert report.failed == 0
    return results


def test_a_trial_file_holds_each_game_and_the_success_rate(run: Path) -> None:
    path = trial_path(run, "oracle_react", 0)
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["payload"]["kind"] == "alfworld" and raw["evaluation"]["success_rate"] == 1.0

    record = read_trial(path)
    assert isinstance(record.payload, AlfworldPayload)
    assert isinstance(record.evaluation, AlfworldEvaluation)
    assert record.evaluation.success_rate == 1.0 and record.evaluation.games == 2
    train, ood = record.payload.games
    assert (train.split, ood.split) == ("train", "ood")
    assert train.room in SMALL_SEEN and ood.room in SMALL_UNSEEN
    for game in (train, ood):
        assert game.won and game.goal and game.task_type
        assert game.actions == len(game.transcript) == game.plan_length
        assert [s.action for s in game.transcript] == [
            s.action for s in game.transcript if s.action in s.admissible
        ]
    played = read_trial(trial_path(run, "random_reflexion", 0))
    assert isinstance(played.payload, AlfworldPayload)
    first = played.payload.games[0]  # the Reflexion module's record of it is kept with it
    lesson = None if first.won else REFLECTION
    assert first.memory_activity == {"reflexion": {"carried": [], "reflection": lesson}}


def test_the_report_has_the_task_s_tables_and_the_tidy_export_its_column(run: Path) -> None:
    md, page, csv_path, _, *_ = build_report(run)
    text = md.read_text(encoding="utf-8")
    for title in (
        "ALFWorld: success and actions per agent",
        "ALFWorld: success per split",
        "ALFWorld: success per task type",
        "ALFWorld: learning curve",
        "ALFWorld: cost per game",
        "totals over all trials",
    ):
        assert title in text
    assert "| oracle_react | 1 | 2 | 2 | 100 |" in text
    html = page.read_text(encoding="utf-8")
    assert "ALFWorld: success per split" in html and "<td>1/1 (100%)</td>" in html
    with csv_path.open(encoding="utf-8") as handle:
        rows = {r["agent"]: r for r in csv.DictReader(handle)}
    assert rows["oracle_react"]["won_by_game"] == "11"
    metrics = json.loads(rows["oracle_react"]["metrics"])
    assert metrics["success_rate"] == 1.0 and metrics["success_by_split.ood"] == 1.0


def test_an_exported_game_page_folds_the_actions_and_escapes_the_texts(
    run: Path, tmp_path: Path
) -> None:
    record = read_trial(trial_path(run, "random_reflexion", 0))
    assert isinstance(record.payload, AlfworldPayload)
    game = record.payload.games[0]
    step = game.transcript[0].model_copy(update={"reply": HOSTILE, "feedback": HOSTILE})
    games = [game.model_copy(update={"transcript": [step, *game.transcript[1:]]})]
    payload = record.payload.model_copy(update={"games": games + record.payload.games[1:]})
    turns = [record.turns[0].model_copy(update={"reply": HOSTILE}), *record.turns[1:]]
    write_trial(run, record.model_copy(update={"payload": payload, "turns": turns, "trial": 1}))

    export_static(TrialIndex([run]), tmp_path / "site")
    page = (tmp_path / "site" / "trials").glob("*random_reflexion__1.html")
    html = next(page).read_text(encoding="utf-8")
    assert "<script>window.PWNED" not in html and "&lt;script&gt;window.PWNED" in html
    assert "Game 1 of 2:" in html and "The curriculum" in html
    assert '<details class="fold"><summary>' in html  # admissible actions in the transcript
    assert '<details class="fold actions"><summary>admissible actions (' in html  # dialogue
