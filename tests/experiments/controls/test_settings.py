"""Settings on record: a cell's reader, judge, budget and the context tokens its reader was
shown per question; and the warning of where the cells of a column differ."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.core.settings import RetrievalBudget, TrialSettings
from cogarch.experiments.results.trial_files import read_trial
from cogarch.experiments.running.cell_settings import CellSettings, cell_settings, settings_differ
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.longmemeval.task import LongMemEvalTask

REPO = Path(__file__).resolve().parents[3]


async def test_a_cell_records_its_settings_and_context_tokens_per_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    out = tmp_path / "out"
    text = f"""\
name: lme
task: {{kind: longmemeval, data: tests/tasks/longmemeval/data/small.json}}
trials: 7
cache: false
results_dir: {out}
providers:
  reader: {{kind: fake, fake: longmemeval.reader, temperature: 0.0}}
  judge: {{kind: fake, fake: longmemeval.judge, temperature: 0.7}}
helper_provider: judge
agents:
  - {{name: turns, agent: raw_turns, provider: reader, params: {{embedder: hash, top_k: 2}}}}
"""
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    report = await Runner(load_run_config(path), progress=False).run()
    assert report.failed == 0
    types = LongMemEvalTask.record_types()
    records = [read_trial(out / "turns" / f"trial_{i:04d}.json", types=types) for i in range(7)]
    cell = cell_settings(records, LongMemEvalTask)
    assert cell.control is None and not cell.mixed
    assert cell.settings == TrialSettings(
        reader_provider="reader",
        reader_model="fake:longmemeval.reader",
        reader_temperature=0.0,
        judge_provider="judge",
        judge_model="fake:longmemeval.judge",
        judge_temperature=0.7,
        budget=RetrievalBudget(top_k={"turns": 2}, context_tokens={"retrieval": None}),
    )
    tokens = sorted(r.payload.prompt_tokens for r in records)  # type: ignore[attr-defined]
    assert cell.questions == len(tokens) == 7 and len(set(tokens)) > 1
    assert cell.context_tokens_mean == pytest.approx(round(sum(tokens) / 7, 2))
    # the 95th percentile of seven values by linear interpolation: rank 0.95 * 6 = 5.7
    p95 = tokens[5] + 0.7 * (tokens[6] - tokens[5])
    assert cell.context_tokens_p95 == pytest.approx(round(p95, 2))


def settings(model: str = "m", judge: str = "j", top_k: int | None = 10) -> TrialSettings:
    budget = None if top_k is None else RetrievalBudget(top_k={"mem": top_k})
    return TrialSettings(
        reader_model=model, reader_temperature=0.0, judge_model=judge, budget=budget
    )


def test_cells_that_agree_raise_no_warning() -> None:
    cells = {
        "a": CellSettings(settings=settings()),
        "b": CellSettings(settings=settings()),
        "plain": CellSettings(settings=settings(top_k=None)),  # no memory: no budget to fix
        "oracle": CellSettings(control="oracle", settings=settings(top_k=50)),
    }
    assert settings_differ(cells) == []


def test_the_warning_names_each_setting_that_differs_and_its_agents() -> None:
    cells = {
        "a": CellSettings(settings=settings()),
        "b": CellSettings(settings=settings(model="other", top_k=30)),
        "c": CellSettings(settings=settings(judge="judge2")),
        "old": CellSettings(),
    }
    assert settings_differ(cells) == [
        "no settings on record (or mixed ones) for: old",
        "reader differs: m (a, c); other (b)",
        "judge differs: j (a, b); judge2 (c)",
        "retrieval budget differs: top_k mem=10 (a, c); top_k mem=30 (b)",
    ]
