"""The runner: trial files, metadata, failures recorded, resume, corrupt files never trusted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cogarch.core import TrialRecord
from cogarch.experiments.results.names import safe_name
from cogarch.experiments.results.trial_files import read_trial, trial_path, write_trial
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner, RunReport
from cogarch.experiments.running.worker import package_versions
from cogarch.seeds import trial_seed
from tests.experiments import slow_fakes

SEED = 11
TRIALS = 3


def make_config(results_dir: Path, **changes: Any) -> RunConfig:
    data: dict[str, Any] = {
        "name": "runner_test",
        "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
        "trials": TRIALS,
        "seed": SEED,
        "concurrency": 3,
        "results_dir": str(results_dir),
        "cache": False,
        "providers": {
            "honest": {"kind": "fake", "fake": "hangman.honest"},
            "flaky": {"kind": "fake", "fake": "tests.experiments.slow_fakes:flaky_honest"},
        },
        "agents": [
            {"name": "plain host", "agent": "vanilla", "provider": "honest"},
            {"name": "flaky", "agent": "vanilla", "provider": "flaky"},
        ],
    }
    data.update(changes)
    return RunConfig.model_validate(data)


async def run(config: RunConfig) -> RunReport:
    return await Runner(config, progress=False).run()


def trial_files(results_dir: Path) -> dict[Path, tuple[bytes, int]]:
    """Every trial file with its bytes and modification time (ns)."""
    return {
        p: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(results_dir.glob("*/trial_*"))
    }


def leftovers(results_dir: Path) -> list[Path]:
    return sorted(p for p in results_dir.rglob("*") if p.name.endswith(".tmp"))


@pytest.fixture
def failing() -> Iterator[set[int]]:
    """Seeds for which the ``flaky`` provider raises; emptied after the test."""
    slow_fakes.FAIL_SEEDS.clear()
    yield slow_fakes.FAIL_SEEDS
    slow_fakes.FAIL_SEEDS.clear()


async def test_one_json_file_per_agent_and_trial_id(tmp_path: Path, failing: set[int]) -> None:
    results = tmp_path / "run"
    report = await run(make_config(results))

    assert (report.ran, report.skipped, report.failed, report.corrupt) == (6, 0, 0, [])
    names = sorted(str(p.relative_to(results)) for p in results.glob("*/*"))
    assert names == [
        f"{agent}/trial_{i:04d}.json" for agent in ("flaky", "plain_host") for i in range(3)
    ]
    assert safe_name("plain host") == "plain_host"
    for path in results.glob("*/trial_*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))  # plain, valid JSON
        result = TrialRecord.model_validate(data)
        assert path == trial_path(results, result.agent, result.trial)
        assert result.status == "complete"
        assert result.run == "runner_test"
        assert result.task == "hangman_sct"
    assert leftovers(results) == []
    assert {row.agent: row.complete for row in report.rows} == {"plain host": 3, "flaky": 3}


async def test_metadata_records_config_hash_versions_and_seeds(
    tmp_path: Path, failing: set[int]
) -> None:
    config = make_config(tmp_path / "run")
    await run(config)

    run_meta = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    assert run_meta["config"] == config.model_dump(mode="json")
    assert run_meta["config_hash"] == config.digest()
    assert len(config.digest()) == 64
    assert "sha256" in run_meta["seed_rule"]
    versions = run_meta["versions"]
    assert versions == package_versions()
    assert {"python", "cogarch", "openai", "autogen-core", "pydantic"} <= set(versions)

    for i in range(TRIALS):
        result = read_trial(trial_path(tmp_path / "run", "plain host", i))
        meta = result.metadata.model_dump()
        assert result.seed == trial_seed(SEED, i)
        assert meta["config"]["seed"] == SEED
        assert meta["config_hash"] == config.digest()
        assert meta["versions"] == versions
        assert meta["provider"] == "honest"
        assert meta["provider_settings"]["fake"] == "hangman.honest"
        assert meta["agent_spec"]["name"] == "vanilla"
        assert meta["duration_s"] >= 0
    seeds = {read_trial(trial_path(tmp_path / "run", "flaky", i)).seed for i in range(TRIALS)}
    assert seeds == {trial_seed(SEED, i) for i in range(TRIALS)}  # same player for every agent


def test_a_changed_config_changes_the_hash(tmp_path: Path) -> None:
    a = make_config(tmp_path)
    assert a.digest() == make_config(tmp_path).digest()
    assert a.digest() != make_config(tmp_path, seed=SEED + 1).digest()


async def test_a_failed_trial_is_recorded_with_its_error_and_the_run_goes_on(
    tmp_path: Path, failing: set[int]
) -> None:
    results = tmp_path / "run"
    failing.add(trial_seed(SEED, 1))
    seen: list[tuple[str, int, str]] = []
    report = await Runner(make_config(results), progress=False).run(
        on_result=lambda r: seen.append((r.agent, r.trial, r.status))
    )

    assert (report.ran, report.failed) == (6, 1)
    assert sorted(seen) == sorted(
        [("plain host", i, "complete") for i in range(3)]
        + [("flaky", 0, "complete"), ("flaky", 1, "failed"), ("flaky", 2, "complete")]
    )
    failed = read_trial(trial_path(results, "flaky", 1))
    assert failed.status == "failed"
    assert failed.error is not None
    assert failed.error.type == "ModelCallError"
    assert f"scripted failure for seed {trial_seed(SEED, 1)}" in failed.error.message
    assert "ScriptedFailure" in failed.error.traceback
    assert failed.evaluation.evaluation_items() == [] and failed.evaluation.outcome is None
    assert failed.payload.kind == "other" and failed.turns == []
    assert failed.metadata.config_hash  # a failure is as traceable as a success
    assert read_trial(trial_path(results, "flaky", 2)).status == "complete"
    row = {r.agent: r for r in report.rows}["flaky"]
    assert (row.trials, row.complete, row.failed) == (3, 2, 1)
    assert leftovers(results) == []


async def test_resume_skips_complete_trials_untouched_and_reruns_failed_ones(
    tmp_path: Path, failing: set[int]
) -> None:
    results = tmp_path / "run"
    failing.add(trial_seed(SEED, 2))
    first = await run(make_config(results))
    assert first.failed == 1
    before = trial_files(results)
    failed_path = trial_path(results, "flaky", 2)

    failing.clear()  # the cause went away: the rerun succeeds
    second = await run(make_config(results))

    assert (second.ran, second.skipped, second.failed, second.corrupt) == (1, 5, 0, [])
    after = trial_files(results)
    assert set(after) == set(before)
    for path, (data, mtime) in before.items():
        if path != failed_path:
            assert after[path] == (data, mtime), f"{path} was rewritten"
    assert read_trial(failed_path).status == "complete"
    assert after[failed_path][0] != before[failed_path][0]

    third = await run(make_config(results))  # nothing left to do
    assert (third.ran, third.skipped) == (0, 6)
    assert trial_files(results) == after
    assert leftovers(results) == []


async def test_resume_with_more_trials_runs_only_the_new_ones(
    tmp_path: Path, failing: set[int]
) -> None:
    results = tmp_path / "run"
    await run(make_config(results, trials=2))
    before = trial_files(results)
    report = await run(make_config(results, trials=3))
    assert (report.ran, report.skipped) == (2, 4)
    after = trial_files(results)
    assert {p: after[p] for p in before} == before
    assert len(after) == 6


@pytest.mark.parametrize(
    "garbage",
    [
        pytest.param(None, id="truncated"),
        pytest.param("", id="empty"),
        pytest.param("[1, 2, 3]\n", id="not-an-object"),
        pytest.param('{"status": "complete"}\n', id="missing-fields"),
        pytest.param(
            '{"status": "done", "run": "r", "agent": "a", "task": "t", "trial": 0, "seed": 1}\n',
            id="bad-status",
        ),
    ],
)
async def test_a_corrupt_trial_file_is_reported_and_rerun_never_trusted(
    tmp_path: Path,
    failing: set[int],
    capsys: pytest.CaptureFixture[str],
    garbage: str | None,
) -> None:
    results = tmp_path / "run"
    await run(make_config(results))
    target = trial_path(results, "plain host", 1)
    good = target.read_text(encoding="utf-8")
    target.write_text(good[: len(good) // 2] if garbage is None else garbage, encoding="utf-8")
    bad_bytes = target.read_bytes()
    capsys.readouterr()

    report = await run(make_config(results))

    assert (report.ran, report.skipped) == (1, 5)
    assert len(report.corrupt) == 1
    assert str(target) in report.corrupt[0]
    err = capsys.readouterr().err
    assert "warning:" in err and str(target) in err and "rerun" in err
    rerun = read_trial(target)  # valid again, and a fresh result
    assert rerun.status == "complete" and rerun.trial == 1 and rerun.agent == "plain host"
    assert target.with_suffix(".corrupt").read_bytes() == bad_bytes  # kept for inspection
    assert leftovers(results) == []


async def test_a_trial_file_of_another_trial_is_not_trusted(
    tmp_path: Path, failing: set[int]
) -> None:
    results = tmp_path / "run"
    await run(make_config(results))
    target = trial_path(results, "plain host", 1)
    target.write_bytes(trial_path(results, "plain host", 0).read_bytes())

    report = await run(make_config(results))

    assert report.ran == 1
    assert read_trial(target).trial == 1


async def test_trials_played_with_other_task_settings_are_rerun(
    tmp_path: Path, failing: set[int], capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    await run(make_config(results))
    same = await run(make_config(results, concurrency=1))  # how it runs, not what it plays
    assert (same.ran, same.skipped) == (0, 6)
    capsys.readouterr()

    task = {"kind": "hangman_sct", "t_fork": 4, "n_candidates": 3}
    changed = await run(make_config(results, task=task))

    assert (changed.ran, changed.skipped, len(changed.corrupt)) == (6, 0, 6)
    assert "played with other task settings" in capsys.readouterr().err
    trial = read_trial(trial_path(results, "plain host", 0))
    assert (trial.metadata.config or {})["task"]["t_fork"] == 4
    assert trial_path(results, "plain host", 0).with_suffix(".corrupt").is_file()


async def test_trials_played_by_another_version_of_the_agent_are_rerun(
    tmp_path: Path, failing: set[int], capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    await run(make_config(results))
    agents = [
        {"name": "plain host", "agent": "public_cot", "provider": "honest"},
        {"name": "flaky", "agent": "vanilla", "provider": "flaky"},
    ]
    capsys.readouterr()
    report = await run(make_config(results, agents=agents))
    assert (report.ran, report.skipped) == (3, 3)  # only the changed agent's trials
    assert "played by another version of agent 'plain host'" in capsys.readouterr().err
    spec = read_trial(trial_path(results, "plain host", 2)).metadata.agent_spec
    assert spec is not None and spec["name"] == "public_cot"


def test_agent_names_that_share_a_folder_are_rejected(tmp_path: Path) -> None:
    agents = [
        {"name": "a b", "agent": "vanilla", "provider": "honest"},
        {"name": "a_b", "agent": "vanilla", "provider": "honest"},
    ]
    with pytest.raises(ValueError, match="a_b"):
        make_config(tmp_path, agents=agents)


def test_write_trial_is_atomic_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    result = TrialRecord(status="complete", run="r", agent="x", task="t", trial=0, seed=1)
    path = write_trial(tmp_path, result)
    assert read_trial(path) == result
    write_trial(tmp_path, result.model_copy(update={"seed": 2}))
    assert read_trial(path).seed == 2
    assert sorted(p.name for p in path.parent.iterdir()) == ["trial_0000.json"]


async def test_the_cache_lives_under_the_results_dir_and_makes_reruns_free(
    tmp_path: Path, failing: set[int]
) -> None:
    first_dir, second_dir = tmp_path / "a", tmp_path / "b"
    await run(make_config(first_dir, cache=True))
    cache = first_dir / ".cache"
    assert any(cache.rglob("*.json"))
    # A fresh run directory sharing the cache replays every seeded call from it.
    second_dir.mkdir()
    (second_dir / ".cache").symlink_to(cache, target_is_directory=True)
    await run(make_config(second_dir, cache=True))
    for i in range(TRIALS):
        result = read_trial(trial_path(second_dir, "plain host", i))
        calls = result.usage.calls
        assert calls and all(c.cached for c in calls)
        original = read_trial(trial_path(first_dir, "plain host", i))
        assert result.turns == original.turns


async def test_a_measuring_task_ends_with_its_metrics_per_scenario(tmp_path: Path) -> None:
    config = make_config(
        tmp_path,
        task={"kind": "constraints", "scenario": ["phishing_response", "clinic_pipeline"]},
        trials=2,
        helper_provider="judge",
        providers={
            "judge": {"kind": "fake", "fake": "tests.experiments.slow_fakes:terse_with_judge"}
        },
        agents=[{"name": "replay", "agent": "transcript", "provider": "judge"}],
    )
    report = await run(config)
    assert report.ran == 2 and report.failed == 0
    text = report.table()
    assert "SC %" not in text and "self_consistent" not in text
    assert [m.title for m in report.metrics] == [
        "scenario phishing_response, judged per-reply",  # one agent: each reply alone
        "scenario clinic_pipeline, judged per-reply",
    ]
    rows = {r[0]: r[1] for r in report.metrics[0].rows}
    assert rows["hallucination_rate"] == "0" and rows["outcome_means.coherence"] == "7"
    assert "scenario clinic_pipeline, judged per-reply (mean ± sd over complete trials):" in text
    first = read_trial(trial_path(tmp_path, "replay", 1))
    assert first.evaluation.scenario == "clinic_pipeline"
    assert len(first.turns) == 28
