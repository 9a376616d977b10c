"""One retrieval budget for every memory: applied to each memory cell, refused by name where a
memory cannot take it, and recorded in the trial files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.running.budgets import Budget, apply_budget, spec_budget
from cogarch.experiments.running.run_config import load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.experiments.suites.config import load_suite_config
from cogarch.workspace.spec import load_agent_spec

REPO = Path(__file__).resolve().parents[3]
SUITE = """\
name: budgeted
trials: 1
providers:
  reader: {kind: fake, fake: locomo.reader}
tasks:
  - {kind: locomo, data: tests/tasks/locomo/data/synthetic.json}
agents:
  - {name: turns, agent: raw_turns, provider: reader, params: {embedder: hash}}
  - {name: mem0, agent: mem0, provider: reader, params: {embedder: hash, store: memory}}
  - {name: plain, agent: transcript, provider: reader}
"""


@pytest.fixture(autouse=True)
def _at_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def suite(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_suite_budget_is_applied_to_every_memory_cell(tmp_path: Path) -> None:
    config = load_suite_config(suite(tmp_path, SUITE + "budget: {top_k: 3}\n"))
    assert config.budget is None  # carried by the agents from here on
    for task, agent in config.cells():
        run = config.cell_config(task, agent)
        (entry,) = run.agents
        assert entry.budget == Budget(top_k=3)
        spec = apply_budget(load_agent_spec(entry.agent, entry.params), entry.budget, entry.label)
        found = spec_budget(spec)
        if agent.label == "plain":  # no memory: nothing to fix, nothing recorded
            assert found is None
        else:
            assert found is not None and set(found.top_k.values()) == {3}


def test_a_context_token_budget_bounds_what_the_memory_shows(tmp_path: Path) -> None:
    spec = load_agent_spec("raw_turns", {"embedder": "hash"})
    budgeted = apply_budget(spec, Budget(context_tokens=400), "turns")
    assert budgeted.specialists["retrieval"].params()["budget_tokens"] == 400
    found = spec_budget(budgeted)
    assert found is not None and found.context_tokens == {"retrieval": 400}
    full = apply_budget(load_agent_spec("longmemeval_full"), Budget(context_tokens=900), "full")
    assert full.specialists["reader"].params()["history_tokens"] == 900


@pytest.mark.parametrize(
    ("agent", "budget", "message"),
    [
        (
            "{name: wm, agent: workflow, provider: reader}",
            "{top_k: 3}",
            "agent 'wm': its memory module 'working_memory' \\(working_memory\\) retrieves no "
            "top_k entries",
        ),
        (
            "{name: wm, agent: workflow, provider: reader}",
            "{context_tokens: 500}",
            "agent 'wm': no specialist of it bounds the memory it shows the reader in tokens",
        ),
        (
            "{name: full, agent: longmemeval_full, provider: reader}",
            "{top_k: 3}",
            "agent 'full': its memory module 'history' \\(haystack\\) shows the reader "
            "everything it holds",
        ),
    ],
)
def test_a_memory_that_cannot_take_the_budget_is_refused(
    tmp_path: Path, agent: str, budget: str, message: str
) -> None:
    text = SUITE + f"  - {agent}\nbudget: {budget}\n"
    with pytest.raises(ConfigError, match=message):
        load_suite_config(suite(tmp_path, text))


@pytest.mark.parametrize("budget", ["{}", "{top_k: 0}", "{top_k: 2, k: 3}", "{top_k: '3'}"])
def test_a_malformed_budget_is_refused(tmp_path: Path, budget: str) -> None:
    with pytest.raises(ConfigError, match="budget"):
        load_suite_config(suite(tmp_path, SUITE + f"budget: {budget}\n"))


async def test_a_run_budget_is_recorded_in_every_trial_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    text = f"""\
name: lme
task: {{kind: longmemeval, data: tests/tasks/longmemeval/data/small.json, count: 2}}
trials: 2
cache: false
budget: {{top_k: 4}}
results_dir: {out}
providers:
  reader: {{kind: fake, fake: longmemeval.reader, temperature: 0.0}}
  judge: {{kind: fake, fake: longmemeval.judge}}
helper_provider: judge
agents:
  - {{name: rounds, agent: longmemeval_rounds, provider: reader, params: {{embedder: hash}}}}
  - {{name: plain, agent: no_memory, provider: reader}}
"""
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    report = await Runner(load_run_config(path), progress=False).run()
    assert report.failed == 0
    for i in range(2):
        rounds = json.loads((out / "rounds" / f"trial_{i:04d}.json").read_text())
        settings = rounds["metadata"]["settings"]
        assert settings == {
            "reader_provider": "reader",
            "reader_model": "fake:longmemeval.reader",
            "reader_temperature": 0.0,
            "judge_provider": "judge",
            "judge_model": "fake:longmemeval.judge",
            "judge_temperature": 0.3,
            "budget": {"top_k": {"history": 4}, "context_tokens": {"reader": "official"}},
        }
        assert rounds["metadata"]["agent_spec"]["memory"]["history"]["top_k"] == 4
        plain = json.loads((out / "plain" / f"trial_{i:04d}.json").read_text())
        assert plain["metadata"]["settings"]["budget"] is None
