"""The leaderboard of a suite with known outcomes: values as each cell's report and trial
files give them, intervals and tests as computed by hand, missing cells never zero."""

from __future__ import annotations

import asyncio
import json
import math
import shutil
from pathlib import Path

import numpy as np
from scipy.stats import wilcoxon

from cogarch.experiments.estimates.paired import compare
from cogarch.experiments.leaderboard.board import build_leaderboard
from cogarch.experiments.leaderboard.files import write_leaderboard
from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.suites.config import SuiteConfig
from cogarch.experiments.suites.files import read_manifest
from cogarch.experiments.suites.runner import run_suite
from cogarch.experiments.tables.summary import summarize
from cogarch.experiments.tables.tidy import tidy_run

Z = 1.959964


def hand_wilson(successes: int, n: int) -> tuple[float, float]:
    p = successes / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def trial_files(cell: Path) -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(cell.glob("*/trial_*.json"))]


def test_rates_equal_each_cells_report_and_its_trial_files(known: Path) -> None:
    board = build_leaderboard(known)
    for agent, expected in (("plain", 1.0), ("noted", 1.0), ("lost", 0.0)):
        cell = board.cell(agent, "hangman_sct")
        assert cell is not None and cell.status == "complete"
        folder = known / cell.folder
        (row,) = summarize([r for _, r in iter_trials(folder)])  # the report's own table
        assert cell.value == row.success_rate("self_consistent") == expected
        files = trial_files(folder)
        solved = sum(f["evaluation"]["outcome"] == "self_consistent" for f in files)
        assert (cell.n, cell.value) == (len(files), solved / len(files))
        assert (cell.low, cell.high) == hand_wilson(solved, len(files))
        strict = next(m for m in cell.more if m.metric == "sc_rate_strict")
        assert strict.n == 3


def test_means_equal_the_reports_metric_table_and_four_trials_give_no_interval(
    known: Path,
) -> None:
    board = build_leaderboard(known)
    cell = board.cell("lost", "revision")
    assert cell is not None
    hallucinations = next(m for m in cell.more if m.metric == "hallucinations")
    rows = tidy_run(known / cell.folder).rows  # what the report's metric table averages
    values = [r.metrics["hallucinations"] for r in rows]
    assert hallucinations.value == np.mean(values) and hallucinations.n == 4
    assert hallucinations.clusters == 4  # each trial is its own cluster
    assert (hallucinations.low, hallucinations.high) == (None, None)  # was 0-0.75 from 4 items
    assert hallucinations.interval_note == "4 clusters, fewer than 10"
    assert cell.value == 0.0 and board.cell("plain", "revision").value == 1.0  # type: ignore[union-attr]


def test_every_cell_tied_with_the_best_is_best_and_the_rest_are_tested_by_mcnemar(
    known: Path,
) -> None:
    board = build_leaderboard(known)
    plain, noted, lost = (board.cell(a, "hangman_sct") for a in ("plain", "noted", "lost"))
    assert plain.best and noted.best and not lost.best  # type: ignore[union-attr]
    assert plain.significant is None and noted.significant is None  # type: ignore[union-attr]
    # the same three trial seeds: 3 discordant pairs, all for plain: 2 * 0.5**3
    assert lost.test == "mcnemar" and lost.p_value == 0.25  # type: ignore[union-attr]
    assert lost.p_adjusted == 0.25 and lost.significant is False  # type: ignore[union-attr]
    column = next(t for t in board.tasks if t.name == "hangman_sct")
    assert column.best == ["plain", "noted"] and column.shared == ["0", "1", "2"]


def test_a_users_task_enters_through_its_declared_metrics(known: Path) -> None:
    board = build_leaderboard(known)
    column = next(t for t in board.tasks if t.name == "guess")
    assert (column.metric, column.more) == ("solve_rate", ["guesses"])
    lost, plain = board.cell("lost", "guess"), board.cell("plain", "guess")
    assert plain is not None and lost is not None
    assert plain.value == 1.0 and plain.best and lost.value == 0.0

    def guesses(folder: str) -> dict[str, float]:
        files = trial_files(known / folder)
        return {str(f["trial"]): f["evaluation"]["guesses"] for f in files}

    mean = next(m for m in plain.more if m.metric == "guesses")
    assert mean.value == np.mean(list(guesses(plain.folder).values()))
    metric = next(t for t in read_manifest(known).tasks if t.name == "guess").metrics[1]
    assert (metric.name, metric.direction, metric.paired) == ("guesses", "lower", True)
    mine, theirs = guesses(plain.folder), guesses(lost.folder)
    shared = sorted(mine)
    by_hand = wilcoxon([mine[k] for k in shared], [theirs[k] for k in shared]).pvalue
    assert compare(metric, mine, theirs) == (by_hand, "wilcoxon")  # paired on the trial seed


def test_rows_aggregate_across_the_tasks_they_cover(known: Path) -> None:
    board = build_leaderboard(known)
    rows = {r.agent: r for r in board.rows}
    assert rows["lost"].tasks == ["hangman_sct", "revision", "guess"]
    assert rows["lost"].mean_win_rate == 0.0 and rows["lost"].mean_rank == 3.0
    assert rows["plain"].mean_win_rate == rows["noted"].mean_win_rate == 0.75
    assert rows["plain"].mean_rank == 1.5 and rows["plain"].normalised_mean == 1.0
    cells = [c for c in board.cells if c.agent == "plain"]
    assert rows["plain"].costs.calls == sum(c.calls for c in cells)
    assert rows["plain"].costs.money is not None and rows["lost"].costs.money is None


def test_cells_with_trial_files_removed_are_partial_or_pending_never_zero(
    known: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(known, copy)
    board = build_leaderboard(copy)
    noted = board.cell("noted", "hangman_sct")
    lost = board.cell("lost", "revision")
    files = sorted((copy / noted.folder).glob("*/trial_*.json"))  # type: ignore[union-attr]
    files[0].unlink()
    for path in (copy / lost.folder).glob("*/trial_*.json"):  # type: ignore[union-attr]
        path.unlink()
    write_leaderboard(copy)
    data = json.loads((copy / "leaderboard.json").read_text(encoding="utf-8"))
    cells = {(c["agent"], c["task"]): c for c in data["cells"]}
    assert cells["noted", "hangman_sct"]["status"] == "partial"
    assert cells["noted", "hangman_sct"]["n"] == 2 and cells["noted", "hangman_sct"]["value"] == 1
    assert cells["lost", "revision"]["status"] == "pending"
    assert cells["lost", "revision"]["value"] is None and cells["lost", "revision"]["n"] == 0
    rows = {r["agent"]: r for r in data["rows"]}
    assert "revision" not in rows["lost"]["tasks"]
    assert set(data) >= {"suite", "cells", "rows"} and data["suite"] == "known"
    markdown = (copy / "leaderboard.md").read_text(encoding="utf-8")
    high = f"{hand_wilson(0, 3)[1]:.3g}"
    assert f"| lost | 0 (0-{high}) n=3; 0 on the 2 shared | pending |" in markdown
    noted_high = f"{hand_wilson(2, 2)[0]:.3g}"
    assert f"| noted | 1 ({noted_high}-1) n=2 * (partial) |" in markdown
    assert "- hangman_sct: the 2 items in 2 clusters every measured cell has (1, 2)" in markdown


def test_the_files_are_written_and_link_each_cell_to_its_report(known: Path) -> None:
    for name in ("leaderboard.md", "leaderboard.csv", "leaderboard.json", "leaderboard.html"):
        assert (known / name).is_file()
    page = (known / "leaderboard.html").read_text(encoding="utf-8")
    board = build_leaderboard(known)
    for cell in board.cells:
        assert f'href="{cell.folder}/report/report.html"' in page
        assert (known / cell.folder / "report" / "report.html").is_file()
    assert page.count("<svg") == len(board.tasks) + 1 and 'class="pareto"' in page
    header = (known / "leaderboard.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("agent,task,metric,value,low,high,n,status")


def test_a_cell_whose_every_trial_failed_shows_as_failed(tmp_path: Path) -> None:
    config = SuiteConfig.model_validate(
        {
            "name": "broken",
            "trials": 2,
            "cache": False,
            "results_dir": tmp_path / "out",
            "providers": {
                "honest": {"kind": "fake", "fake": "honest"},
                "broken": {"kind": "fake", "fake": "tests.experiments.slow_fakes:broken_host"},
            },
            "tasks": [{"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3}],
            "agents": [
                {"name": "fine", "agent": "vanilla", "provider": "honest"},
                {"name": "down", "agent": "vanilla", "provider": "broken"},
            ],
        }
    )
    result = asyncio.run(run_suite(config, progress=False, reports=False))
    assert [c.failed for c in result.cells] == [0, 2]
    board = build_leaderboard(result.results_dir)
    down = board.cell("down", "hangman_sct")
    assert down is not None and down.status == "failed" and down.failed == 2
    # both failed trials count as failures, in the denominator: 0 of 2, never "no value"
    assert (down.value, down.n, down.failures) == (0.0, 2, 2)
    assert (down.low, down.high) == (0.0, hand_wilson(0, 2)[1])
    assert down.test == "mcnemar" and down.p_value == 0.5  # 2 discordant pairs: 2 * 0.5**2
    assert {r.agent: r.tasks for r in board.rows} == {
        "fine": ["hangman_sct"],
        "down": ["hangman_sct"],
    }
    assert "0 (0-0.658) n=2, 2 failed (failed)" in (
        result.results_dir / "leaderboard.md"
    ).read_text(encoding="utf-8")
