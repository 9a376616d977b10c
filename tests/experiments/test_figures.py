"""Every figure from a small synthetic run, and a clean skip when its data is absent."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

from cogarch.experiments.figures import bands as figure_bands
from cogarch.experiments.figures import outcomes as figures
from cogarch.experiments.figures import routing as figure_routing
from cogarch.experiments.tables.tidy import tidy_run
from cogarch.experiments.tables.tidy_table import TidyRow
from tests.experiments import make_trial, write_corrupt, write_run

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def assert_png(path: Path | None, min_bytes: int = 8_000) -> tuple[int, int]:
    assert path is not None and path.is_file()
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert len(data) > min_bytes
    width, height = struct.unpack(">II", data[16:24])
    assert width > 300 and height > 200
    return width, height


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list[TidyRow]:
    root = tmp_path_factory.mktemp("run")
    secrets = ["range", "homer", "range", "imply", "range", "homer"]
    outcomes = ["self_consistent", "self_consistent", "over_confirmation", "leakage"]
    trials = []
    for i in range(6):
        trials.append(
            make_trial(
                "workflow_overwrite",
                i,
                outcome=outcomes[i % 4],
                revealed=secrets[i],
                tokens=[60 + 3 * i, 80 + 5 * i, 90 + 9 * i, 95 + 12 * i],
                transitions={("responder", "updater"): 4, ("updater", "responder"): 3},
            )
        )
        trials.append(
            make_trial(
                "private_cot",
                i,
                outcome=outcomes[(i + 1) % 4],
                revealed=secrets[-1 - i],
                tokens=[400 * (t + 1) + 50 * i for t in range(4)],
            )
        )
        trials.append(make_trial("vanilla", i, outcome="all_denial", tokens=[0, 0, 0, 0]))
    trials.append(make_trial("vanilla", 6, failed=True))
    for i in range(3):
        footprint = [100 + 10 * t + 7 * i for t in range(5)]
        trials.append(make_trial("tme", i, task="revision", footprint=footprint))
    write_run(root, trials)
    write_corrupt(root, "private_cot", 9)
    return tidy_run(root).rows


def test_outcome_breakdown(rows: list[TidyRow], tmp_path: Path) -> None:
    assert_png(figures.outcome_breakdown(rows, tmp_path / "outcomes.png"))


def test_private_state_size_on_a_log_scale(rows: list[TidyRow], tmp_path: Path) -> None:
    assert_png(figure_bands.private_state_size(rows, tmp_path / "state.png"))


def test_top_answers(rows: list[TidyRow], tmp_path: Path) -> None:
    width, height = assert_png(figures.top_answers(rows, tmp_path / "secrets.png", top_k=2))
    assert width > height  # four agents side by side in one row of up to three panels


def test_transition_heatmap(rows: list[TidyRow], tmp_path: Path) -> None:
    assert figure_routing.routed_agents(rows) == ["workflow_overwrite"]
    counts = figure_routing.transition_counts(rows)["workflow_overwrite"]
    assert counts == {("responder", "updater"): 24, ("updater", "responder"): 18}
    assert_png(
        figure_routing.transition_heatmap(rows, tmp_path / "t.png", agent="workflow_overwrite")
    )


def test_transition_heatmap_without_the_workspace_module(
    rows: list[TidyRow], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        sys.modules, "cogarch.workspace.heatmap", None
    )  # import now raises ImportError
    assert_png(figure_routing.transition_heatmap(rows, tmp_path / "own.png"), min_bytes=4_000)


def test_footprint(rows: list[TidyRow], tmp_path: Path) -> None:
    assert_png(figure_bands.footprint(rows, tmp_path / "footprint.png"))


def test_mean_band_is_a_95_percent_t_interval() -> None:
    turns, means, lows, highs = figure_bands.mean_band([[1, 10], [3, None], [5]])
    assert turns == [1, 2] and means == [3.0, 10.0]
    # three values 1, 3, 5: sd 2, t(0.975, 2) = 4.303 -> half-width 4.303 * 2 / sqrt(3)
    assert highs[0] - means[0] == pytest.approx(4.9686, abs=1e-3)
    assert lows[0] == pytest.approx(3.0 - 4.9686, abs=1e-3)
    assert lows[1] == highs[1] == 10.0  # one value: no band
    assert figure_bands.mean_band([]) == ([], [], [], [])


def test_every_figure_skips_without_its_data(rows: list[TidyRow], tmp_path: Path) -> None:
    bare = [r for r in rows if r.agent == "vanilla"]  # empty private state, no routes, ...
    no_secrets = [
        TidyRow(run=r.run, agent=r.agent, task=r.task, trial=r.trial, seed=r.seed, status=r.status)
        for r in bare
    ]
    assert figure_bands.private_state_size(bare, tmp_path / "a.png") is None
    assert figure_routing.transition_heatmap(bare, tmp_path / "b.png") is None
    assert figure_bands.footprint(bare, tmp_path / "c.png") is None
    assert figures.top_answers(no_secrets, tmp_path / "d.png") is None
    assert figures.outcome_breakdown([], tmp_path / "e.png") is None
    measured = [
        TidyRow(run="r", agent="acc", task="constraints", trial=i, seed=i, status="complete")
        for i in range(2)
    ]
    assert figures.outcome_breakdown(measured, tmp_path / "f.png") is None
    assert not list(tmp_path.iterdir())


def test_failed_only_agents_still_get_an_outcome_bar(rows: list[TidyRow], tmp_path: Path) -> None:
    failed = [r for r in rows if r.status != "complete"]
    assert {r.status for r in failed} == {"failed", "corrupt"}
    assert_png(figures.outcome_breakdown(failed, tmp_path / "failed.png"), min_bytes=4_000)
