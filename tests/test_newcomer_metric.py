"""A number of one's own on the Hangman SCT, as a newcomer adds it: a function in a file
beside the config (``examples/hangman_metric.py``), attached by name to a run config and to a
small suite, with no subclass of the task; the report and the leaderboard show it as they show
the task's own numbers, with its value, interval and direction."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.test_examples import REPO, cogarch, run_example

SUITE = """
name: metric_suite
seed: 1337
trials: 3
cache: false
metrics: [examples/hangman_metric.py:affirmed, tokens]
providers:
  honest: {kind: fake, fake: honest}
  forgetful: {kind: fake, fake: forgetful}
tasks:
  - {kind: hangman_sct, t_fork: 4, n_candidates: 5}
agents:
  - {name: honest_vanilla, agent: vanilla, provider: honest}
  - {name: forgetful_vanilla, agent: vanilla, provider: forgetful}
"""


@pytest.fixture(scope="module")
def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("metric_run")
    run_example(root, "hangman_metric.yaml", 6)
    done = cogarch(root, "report", "runs/hangman_metric")
    assert done.returncode == 0, done.stderr
    return root


def _row(markdown: str, first: str) -> list[str]:
    line = next(line for line in markdown.splitlines() if line.startswith(f"| {first} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_the_report_shows_the_attached_metrics_beside_the_tasks_numbers(run_root: Path) -> None:
    report = (run_root / "runs" / "hangman_metric" / "report" / "report.md").read_text()
    task_numbers = report[report.index("## Task metrics") : report.index("## The task's own")]
    # mean ± sd per agent, as the evaluation's own yes_rate: honest says yes once, forgetful
    # to every one of the five candidates
    assert _row(task_numbers, "yes_rate") == ["yes_rate", "0.2 ± 0", "1 ± 0"]
    assert _row(task_numbers, "affirmed") == ["affirmed", "1 ± 0", "5 ± 0"]
    assert _row(task_numbers, "tokens")[0] == "tokens"
    # the ranked table: value (95% interval) n, which way is better, the task's own first
    ranked = report[report.index("ranked and attached metrics") :]
    assert _row(ranked, "sc_rate")[1:4] == ["higher is better", "wilson", "1 (0.439-1) n=3"]
    affirmed = _row(ranked, "affirmed")
    assert affirmed[1:3] == ["lower is better", "bootstrap"]
    assert affirmed[3:] == ["1 (not estimable) n=3", "5 (not estimable) n=3"]


def test_the_tidy_table_holds_the_attached_metrics_per_trial(run_root: Path) -> None:
    path = run_root / "runs" / "hangman_metric" / "report" / "trials.csv"
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    found = {(r["agent"], json.loads(r["metrics"])["affirmed"]) for r in rows}
    assert found == {("honest_vanilla", 1.0), ("forgetful_vanilla", 5.0)}
    assert all(json.loads(r["metrics"])["tokens"] > 0 for r in rows)


def test_attaching_a_metric_to_a_finished_run_plays_nothing_again(run_root: Path) -> None:
    config = run_root / "examples" / "hangman_metric.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("  - tokens ", "  - seconds "), encoding="utf-8")
    try:
        done = cogarch(run_root, "run", "examples/hangman_metric.yaml", "--quiet")
    finally:
        config.write_text(text, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert "0 trials run, 6 already complete" in done.stdout


def test_a_suite_ranks_the_attached_metric_in_every_cell(tmp_path: Path) -> None:
    (tmp_path / "examples").mkdir()
    source = REPO / "examples" / "hangman_metric.py"
    (tmp_path / "examples" / "hangman_metric.py").write_bytes(source.read_bytes())
    (tmp_path / "suite.yaml").write_text(SUITE, encoding="utf-8")
    done = cogarch(tmp_path, "suite", "suite.yaml")
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "runs" / "metric_suite"
    board = json.loads((folder / "leaderboard.json").read_text(encoding="utf-8"))
    (column,) = board["tasks"]
    assert column["metric"] == "sc_rate"  # the task's main metric stays the main one
    assert column["more"] == ["sc_rate_strict", "affirmed", "tokens"]
    more = {(cell["agent"], m["metric"]): m for cell in board["cells"] for m in cell["more"]}
    honest, forgetful = more["honest_vanilla", "affirmed"], more["forgetful_vanilla", "affirmed"]
    assert (honest["value"], honest["n"], honest["direction"]) == (1.0, 3, "lower")
    assert (forgetful["value"], forgetful["interval_kind"]) == (5.0, "bootstrap")
    markdown = (folder / "leaderboard.md").read_text(encoding="utf-8")
    assert "affirmed (lower is better, bootstrap interval)" in markdown
    further = markdown[markdown.index("## Further metrics") :]
    row = _row(further, "forgetful_vanilla")
    assert row[:2] == ["forgetful_vanilla", "hangman_sct"]
    assert any(
        line.startswith("| forgetful_vanilla | hangman_sct | affirmed | 5 ")
        and line.rstrip().endswith("| lower is better |")
        for line in further.splitlines()
    )
    # each cell is a run that reports the metric too
    cell = folder / "hangman_sct" / "forgetful_vanilla"
    assert cogarch(tmp_path, "report", str(cell)).returncode == 0
    assert "| affirmed | 5 ± 0 |" in (cell / "report" / "report.md").read_text()
