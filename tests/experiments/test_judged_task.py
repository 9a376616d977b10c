"""A judged task needs its own judge, and a judgement that failed is absent, never a score."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.tables.task_metrics import metric_tables
from cogarch.experiments.tables.tidy import row_from_trial
from cogarch.models.fakes import CallInfo
from cogarch.tasks.constraints.records import ConstraintsEvaluation
from tests.experiments import make_trial

SCENARIO = "phishing_response"


def mute_judge(pairs: list[tuple[str, str]], seed: int, call: CallInfo) -> str:
    if any("impartial auditor" in text for _, text in pairs):
        return "I would rather not say."
    return "Noted; I will keep to the rules you set."


def config(results: Path, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "judged",
        "task": {"kind": "constraints", "scenario": SCENARIO},
        "trials": 1,
        "cache": False,
        "results_dir": str(results),
        "providers": {
            "mute": {"kind": "fake", "fake": "tests.experiments.test_judged_task:mute_judge"}
        },
        "agents": [{"name": "replay", "agent": "transcript", "provider": "mute"}],
    }
    data.update(changes)
    return data


def test_a_judged_task_without_a_helper_provider_is_refused_before_any_trial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    with pytest.raises(ConfigError, match="helper_provider"):
        Runner(RunConfig.model_validate(config(results)), progress=False)
    path = tmp_path / "run.yaml"
    path.write_text(
        f"name: judged\ntask: {{kind: constraints, scenario: {SCENARIO}}}\n"
        f"results_dir: {results}\nagents: [{{agent: transcript}}]\n",
        encoding="utf-8",
    )
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the constraints task judges its trials") and err.count("\n") == 1
    assert not results.exists()


async def test_a_judge_failing_on_every_turn_leaves_the_rates_absent(tmp_path: Path) -> None:
    results = tmp_path / "run"
    run = RunConfig.model_validate(config(results, helper_provider="mute"))
    report = await Runner(run, progress=False).run()
    assert report.ran == 1
    record = read_trial(trial_path(results, "replay", 0))
    evaluation = record.evaluation
    assert isinstance(evaluation, ConstraintsEvaluation)
    turns = len(record.turns)
    assert evaluation.judged_turns == 0 and evaluation.judge_failures == turns > 0
    assert evaluation.hallucination_rate is None and evaluation.drift_rate is None
    assert evaluation.outcome_means == {}
    names = [row[0] for table in report.metrics for row in table.rows]
    assert "hallucination_rate" not in names and "judge_failures" in names
    build_report(results)
    md = (results / "report" / "report.md").read_text("utf-8")
    assert "| judge_failures | " in md and "hallucination_rate" not in md


def test_metric_tables_show_how_many_trials_measured_a_metric() -> None:
    def trial(i: int, rate: float | None) -> Any:
        evaluation = {"scenario": SCENARIO, "hallucination_rate": rate, "judge_failures": 0}
        return row_from_trial(make_trial("a", i, task="constraints", evaluation=evaluation))

    rows = [trial(0, 0.5), trial(1, None), trial(2, 0.25)]
    (table,) = metric_tables(rows)
    cells = {row[0]: row[1] for row in table.rows}
    assert cells["hallucination_rate"] == "0.375 ± 0.177 (n=2)"
    assert cells["judge_failures"] == "0 ± 0"
