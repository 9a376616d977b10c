"""Every file a run writes into its results folder lands in the folder itself: an agent's
folder, or the trial-state folder, that is a link (or a file) is set aside, never written
through, and nothing outside the results changes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cogarch.experiments.results import iter_trials
from cogarch.experiments.run_config import RunConfig
from cogarch.experiments.runner import Runner

TASK = "tests.experiments.misbehaving_task:MisbehavingTask"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))


def run(results: Path) -> object:
    config = RunConfig.model_validate(
        {
            "name": "links",
            "task": {"kind": TASK},
            "trials": 2,
            "seed": 5,
            "cache": False,
            "results_dir": str(results),
            "providers": {"echo": {"kind": "fake", "fake": "misbehaving.echo"}},
            "agents": [{"name": "a", "agent": "vanilla", "provider": "echo"}],
        }
    )
    return asyncio.run(Runner(config, progress=False).run())


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_an_agent_folder_that_links_elsewhere_is_set_aside(tmp_path: Path) -> None:
    results, outside = tmp_path / "run", tmp_path / "outside"
    results.mkdir()
    outside.mkdir()
    (outside / "notes.txt").write_text("mine\n", encoding="utf-8")
    (results / "a").symlink_to(outside, target_is_directory=True)
    before = snapshot(outside)
    report = run(results)
    assert snapshot(outside) == before  # nothing written, renamed or removed there
    assert (results / "a").is_dir() and not (results / "a").is_symlink()
    assert (results / "a.unusable").is_symlink()
    assert any("agent 'a'" in w for w in report.warnings)  # type: ignore[attr-defined]
    assert sorted(r.status for _, r in iter_trials(results)) == ["complete", "complete"]  # type: ignore[union-attr]


def test_a_trial_file_linked_out_of_a_linked_folder_is_never_moved(tmp_path: Path) -> None:
    results, outside = tmp_path / "run", tmp_path / "outside"
    results.mkdir()
    outside.mkdir()
    (outside / "trial_0000.json").write_text("{not a trial", encoding="utf-8")
    (results / "a").symlink_to(outside, target_is_directory=True)
    run(results)
    assert (outside / "trial_0000.json").read_text(encoding="utf-8") == "{not a trial"
    assert sorted(p.name for p in outside.iterdir()) == ["trial_0000.json"]


def test_a_trial_state_folder_that_is_a_link_is_set_aside(tmp_path: Path) -> None:
    results, outside = tmp_path / "run", tmp_path / "outside"
    results.mkdir()
    outside.mkdir()
    (results / ".trial_state").symlink_to(outside, target_is_directory=True)
    run(results)
    assert not (results / ".trial_state").is_symlink() and list(outside.iterdir()) == []


def test_a_report_folder_that_links_elsewhere_is_set_aside(tmp_path: Path) -> None:
    from cogarch.experiments.report import build_report

    results, outside = tmp_path / "run", tmp_path / "outside"
    run(results)
    outside.mkdir()
    (outside / "report.md").write_text("mine\n", encoding="utf-8")
    (results / "report").symlink_to(outside, target_is_directory=True)
    build_report(results)
    assert snapshot(outside) == {"report.md": b"mine\n"}
    assert (results / "report" / "report.md").is_file()
    assert not (results / "report").is_symlink()


def test_a_figure_planted_as_a_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    from cogarch.experiments.report import build_report

    results, victim = tmp_path / "run", tmp_path / "victim.txt"
    run(results)
    victim.write_text("keep me\n", encoding="utf-8")
    figures = results / "report" / "figures"
    figures.mkdir(parents=True)
    (figures / "outcomes.png").symlink_to(victim)
    build_report(results)
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert (figures / "outcomes.png").read_bytes().startswith(b"\x89PNG")
