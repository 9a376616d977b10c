"""The report's reading of yes/no answers, its (task, model) strata, the paper's settings and
the warning when the model under test proposes its own candidates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.papers.hangman_paper import (
    EMBEDDED_MODEL_NOTE,
    embedded_model_note,
    paper_deviations,
)
from cogarch.experiments.reports.report import build_report, significance
from cogarch.experiments.results.trial_files import read_trial
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.running.worker import RunSetup
from cogarch.experiments.tables.summary import format_table, run_scoring, summarize
from cogarch.experiments.tables.tidy import tidy_run
from cogarch.experiments.tables.tidy_table import TidyRow
from cogarch.tasks.sct.records import SCTEvaluation

REPO = Path(__file__).resolve().parents[2]
FAKES = REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml"
LOCAL = REPO / "experiments" / "configs" / "hangman_sct_local.yaml"
PAPER = REPO / "experiments" / "configs" / "hangman_sct_paper.yaml"


def row(agent: str, model: str, wins: bool, trial: int) -> TidyRow:
    return TidyRow(
        run="r",
        agent=agent,
        task="hangman_sct",
        trial=trial,
        seed=trial,
        status="complete",
        outcome="self_consistent" if wins else "all_denial",
        self_consistent=wins,
        agent_model=model,
    )


def test_an_agent_is_never_tested_against_a_baseline_on_another_model() -> None:
    rows = [row("workflow", "big", True, i) for i in range(10)]
    rows += [row("vanilla", "small", False, i) for i in range(10)]
    assert significance(rows, ["vanilla"]) == ([], set())
    rows += [row("vanilla", "big", False, i) for i in range(10)]
    comparisons, markers = significance(rows, ["vanilla"])
    assert [(c.agent, c.column) for c in comparisons] == [("workflow", "hangman_sct / big")]
    assert markers == {("workflow", "hangman_sct / big")}


def test_short_trials_are_left_out_of_the_rates() -> None:
    rows = [row("workflow", "m", True, i) for i in range(10)]
    rows += [row("vanilla", "m", False, i) for i in range(10)]
    rows[0].unrated = "asked 2 fewer candidates than requested"
    comparisons, _ = significance(rows, ["vanilla"])
    assert comparisons[0].agent_n == 9


async def test_the_report_uses_the_reading_asked_for(tmp_path: Path) -> None:
    base = load_run_config(FAKES).model_dump()
    config = RunConfig.model_validate({**base, "results_dir": tmp_path / "run", "trials": 2})
    await Runner(config, progress=False).run()
    rows = tidy_run(tmp_path / "run").rows
    assert all(r.readings["strict"] is not None and r.unrated is None for r in rows)
    lenient = build_report(tmp_path / "run", tmp_path / "lenient")[0].read_text()
    strict = build_report(tmp_path / "run", tmp_path / "strict", reading="strict")[0].read_text()
    assert "lenient reading" in lenient and "strict reading" in strict
    assert "task / model" in lenient
    assert lenient != strict or all(r.outcome == r.readings["strict"] for r in rows)
    with pytest.raises(ConfigError, match="unknown reading 'loose'"):
        build_report(tmp_path / "run", tmp_path / "x", reading="loose")


def test_the_local_config_says_where_it_departs_from_the_paper() -> None:
    found = paper_deviations(load_run_config(LOCAL).model_dump(mode="json"))
    assert any("max_tokens 384" in d for d in found)
    assert any(d.startswith("trials per agent 5") for d in found)
    assert "Not the paper's setting" in LOCAL.read_text()


def test_only_sct_runs_on_the_embedded_model_carry_the_small_model_caution() -> None:
    local = load_run_config(LOCAL).model_dump(mode="json")
    assert embedded_model_note(local) == EMBEDDED_MODEL_NOTE
    assert embedded_model_note(load_run_config(PAPER).model_dump(mode="json")) is None
    assert embedded_model_note(load_run_config(FAKES).model_dump(mode="json")) is None
    own_weights = json.loads(json.dumps(local))
    own_weights["providers"]["local"]["gguf_path"] = "/models/qwen3-32b.gguf"
    assert embedded_model_note(own_weights) is None
    assert embedded_model_note({**local, "task": {"kind": "revision"}}) is None


async def test_the_report_of_an_embedded_model_run_says_it_shows_the_pipeline(
    tmp_path: Path,
) -> None:
    base = load_run_config(FAKES).model_dump()
    base["agents"] = [a for a in base["agents"] if a["name"] == "honest_vanilla"]
    run = tmp_path / "run"
    await Runner(RunConfig.model_validate({**base, "results_dir": run, "trials": 1})).run()
    assert EMBEDDED_MODEL_NOTE not in build_report(run, tmp_path / "fakes")[0].read_text()
    meta = json.loads((run / "run.json").read_text())
    local = load_run_config(LOCAL).model_dump(mode="json")
    meta["config"]["providers"] = local["providers"]
    meta["config"]["agents"] = [{**a, "provider": "local"} for a in meta["config"]["agents"]]
    (run / "run.json").write_text(json.dumps(meta))
    assert EMBEDDED_MODEL_NOTE in build_report(run, tmp_path / "local")[0].read_text()


def test_the_paper_config_loads_validates_and_matches_the_paper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = load_run_config(PAPER)
    assert paper_deviations(config.model_dump(mode="json")) == []
    monkeypatch.setenv("PAPER_API_KEY", "test")
    setup = RunSetup(config)
    assert setup.own_helper_warning() is None  # a separate helper model, as in the paper
    paper = setup.providers.config("paper")
    assert (paper.kind, paper.base_url_env, paper.max_tokens) == ("openai", "PAPER_BASE_URL", 2048)


def test_a_run_warns_once_when_the_agents_propose_their_own_candidates() -> None:
    warning = RunSetup(load_run_config(FAKES)).own_helper_warning()
    assert warning is not None and warning.startswith("warning: candidate proposals")


async def test_the_end_table_leaves_short_trials_out_of_its_rates(tmp_path: Path) -> None:
    base = load_run_config(FAKES).model_dump()
    base["agents"] = [a for a in base["agents"] if a["name"] == "honest_vanilla"]
    config = RunConfig.model_validate({**base, "results_dir": tmp_path / "run", "trials": 2})
    await Runner(config, progress=False).run()
    records = [read_trial(p) for p in sorted((tmp_path / "run").glob("*/trial_*.json"))]
    assert [r.evaluation.outcome for r in records] == ["self_consistent"] * 2
    assert isinstance(records[0].evaluation, SCTEvaluation)
    short = records[0].evaluation.model_copy(
        update={"outcome": "all_denial", "candidate_shortfall": 3}
    )
    records[0] = records[0].model_copy(update={"evaluation": short})
    (row,) = summarize(records)
    assert row.short == 1 and row.outcomes["all_denial"] == 1
    assert row.success_rate("self_consistent") == 1.0
    table = format_table([row], run_scoring(records))
    header, _, cells = (line.split("|") for line in table.splitlines()[:3])
    values = dict(zip((h.strip() for h in header), (c.strip() for c in cells), strict=True))
    assert values["short"] == "1" and values["all_denial"] == "1" and values["SC %"] == "100"
    assert "left out of the SC rates" in table
