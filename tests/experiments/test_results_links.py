"""Every file a run writes into its results folder lands in the folder itself: an agent's
folder, or the trial-state folder, that is a link (or a file) is set aside, never written
through, and nothing outside the results changes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from tests.experiments.misbehaving_runs import misbehaving_config


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))


def run(results: Path) -> object:
    config = RunConfig.model_validate(misbehaving_config(results, "links", trials=2, concurrency=2))
    return asyncio.run(Runner(config, progress=False).run())


def link_out(tmp_path: Path, name: str, files: dict[str, str] | None = None) -> tuple[Path, Path]:
    """The results folder ``tmp_path / "run"`` whose entry ``name`` links to a folder outside
    it holding ``files`` (name: text); both folders."""
    results, outside = tmp_path / "run", tmp_path / "outside"
    results.mkdir(exist_ok=True)
    outside.mkdir()
    for file, text in (files or {}).items():
        (outside / file).write_text(text, encoding="utf-8")
    (results / name).symlink_to(outside, target_is_directory=True)
    return results, outside


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_an_agent_folder_that_links_elsewhere_is_set_aside(tmp_path: Path) -> None:
    results, outside = link_out(tmp_path, "a", {"notes.txt": "mine\n"})
    before = snapshot(outside)
    report = run(results)
    assert snapshot(outside) == before  # nothing written, renamed or removed there
    assert (results / "a").is_dir() and not (results / "a").is_symlink()
    assert (results / "a.unusable").is_symlink()
    assert any("agent 'a'" in w for w in report.warnings)  # type: ignore[attr-defined]
    assert sorted(r.status for _, r in iter_trials(results)) == ["complete", "complete"]  # type: ignore[union-attr]


def test_a_trial_file_linked_out_of_a_linked_folder_is_never_moved(tmp_path: Path) -> None:
    results, outside = link_out(tmp_path, "a", {"trial_0000.json": "{not a trial"})
    run(results)
    assert (outside / "trial_0000.json").read_text(encoding="utf-8") == "{not a trial"
    assert sorted(p.name for p in outside.iterdir()) == ["trial_0000.json"]


def test_a_trial_state_folder_that_is_a_link_is_set_aside(tmp_path: Path) -> None:
    results, outside = link_out(tmp_path, ".trial_state")
    run(results)
    assert not (results / ".trial_state").is_symlink() and list(outside.iterdir()) == []


def test_a_report_folder_that_links_elsewhere_is_set_aside(tmp_path: Path) -> None:
    from cogarch.experiments.reports.report import build_report

    run(tmp_path / "run")
    results, outside = link_out(tmp_path, "report", {"report.md": "mine\n"})
    build_report(results)
    assert snapshot(outside) == {"report.md": b"mine\n"}
    assert (results / "report" / "report.md").is_file()
    assert not (results / "report").is_symlink()


def test_a_figure_planted_as_a_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    from cogarch.experiments.reports.report import build_report

    results, victim = tmp_path / "run", tmp_path / "victim.txt"
    run(results)
    victim.write_text("keep me\n", encoding="utf-8")
    figures = results / "report" / "figures"
    figures.mkdir(parents=True)
    (figures / "outcomes.png").symlink_to(victim)
    build_report(results)
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert (figures / "outcomes.png").read_bytes().startswith(b"\x89PNG")
