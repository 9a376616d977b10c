"""A whole run against a misbehaving OpenAI-compatible endpoint.

The Hangman task with a vanilla agent runs on a real OpenAI client pointed at a
:class:`~cogarch.testing.FaultServer`. Transient faults (429, 5xx, a delay past the timeout,
dropped connections, malformed and truncated bodies) are retried away; a trial whose fault
persists past the retries is recorded as failed with its error and the run goes on; every
trial file is whole and valid, and no temporary file is left behind.

With one trial at a time and the faults placed on the sequential calls (the turns before the
fork and the reveal), the script maps to the calls exactly: a trial with ``t_fork: 3`` makes
three turn calls, one reveal call and then three candidate calls in parallel.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.testing import FaultServer, allowing_model_requests
from tests.experiments.endpoint_runs import endpoint_config

CONTENT = "Pattern: _ _ _ _ _\nRemaining lives: 6"
"""The server's answer: a board that names no word, so the reveal reads as no word at all."""

TRIAL_0 = [
    "429", "ok",                               # turn 1: rate limited once
    "500", "500", "ok",                        # turn 2: two server errors
    "delay:3", "ok",                           # turn 3: slower than the 2 s timeout
    "drop", "malformed", "truncated", "ok",    # reveal: three transport faults in a row
    "ok", "ok", "ok",                          # the three candidate branches
]  # fmt: skip
TRIAL_1 = ["500", "500", "500", "500"]  # turn 1 fails for good: 4 attempts, all 500
TRIAL_2 = ["503", "ok"]  # then the default answers everything
SCRIPT = TRIAL_0 + TRIAL_1 + TRIAL_2


def fault_config(server: FaultServer, results: Path, **changes: Any) -> RunConfig:
    retry = {"max_attempts": 4, "base_delay_s": 0.01, "max_delay_s": 0.05}
    fields = {"trials": 3, "seed": 3, "concurrency": 1, "cache": False, **changes}
    return endpoint_config(
        server, results, {"timeout": 2.0, "retry": retry}, name="fault_run", **fields
    )


def assert_whole_and_valid(results: Path) -> None:
    """Every file is complete JSON; no temporary file remains (the run's lock file stays)."""
    files = [p for p in results.rglob("*") if p.is_file() and p.name != ".lock"]
    assert not [p for p in files if p.name.endswith(".tmp") or p.name.startswith(".")]
    for path in files:
        json.loads(path.read_text(encoding="utf-8"))


async def test_a_run_survives_transient_and_persistent_faults(tmp_path: Path) -> None:
    results = tmp_path / "run"
    with FaultServer(SCRIPT, content=CONTENT) as server, allowing_model_requests():
        report = await Runner(fault_config(server, results), progress=False).run()
        served = server.served

    assert (report.ran, report.failed, report.skipped, report.corrupt) == (3, 1, 0, [])
    assert served[: len(SCRIPT)] == SCRIPT  # every scripted fault was met
    assert set(served[len(SCRIPT) :]) == {"ok"}

    first = read_trial(trial_path(results, "vanilla", 0))
    assert first.status == "complete" and first.error is None
    attempts = [call.attempts for call in first.usage.calls]
    assert attempts == [2, 3, 2, 4, 1, 1, 1]  # retried, and each call metered once
    assert first.usage.model_calls == 7
    replies = [entry.reply for entry in first.turns]
    assert replies == [CONTENT] * 3
    candidate_replies = [b.reply for b in first.branches if b.kind == "candidate"]
    assert candidate_replies == [CONTENT] * 3  # empty answers fail a trial: test_empty_replies
    assert first.evaluation.answers_parsed_rate == 0.0
    assert first.evaluation.revealed is None
    assert first.evaluation.outcome == "all_denial"

    failed = read_trial(trial_path(results, "vanilla", 1))
    assert failed.status == "failed"
    assert failed.error is not None and failed.error.type == "ModelCallError"
    assert "failed after 4 attempts" in failed.error.message
    assert "500" in failed.error.message
    assert failed.usage.model_calls == 0

    last = read_trial(trial_path(results, "vanilla", 2))
    assert last.status == "complete"
    assert last.usage.calls[0].attempts == 2

    assert sorted(p.name for p in (results / "vanilla").iterdir()) == [
        "trial_0000.json",
        "trial_0001.json",
        "trial_0002.json",
    ]
    assert_whole_and_valid(results)


async def test_a_rerun_on_a_healthy_endpoint_completes_only_the_failed_trial(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run"
    with FaultServer(SCRIPT, content=CONTENT) as server, allowing_model_requests():
        await Runner(fault_config(server, results), progress=False).run()
    before = {i: trial_path(results, "vanilla", i).read_bytes() for i in (0, 2)}

    with FaultServer(content=CONTENT) as healthy, allowing_model_requests():
        report = await Runner(fault_config(healthy, results), progress=False).run()
        hits = healthy.hits

    assert (report.ran, report.skipped, report.failed) == (1, 2, 0)
    assert hits == 7  # only trial 1 was played again
    assert read_trial(trial_path(results, "vanilla", 1)).status == "complete"
    assert {i: trial_path(results, "vanilla", i).read_bytes() for i in (0, 2)} == before
    assert_whole_and_valid(results)


async def test_an_endpoint_that_is_down_fails_every_trial_but_finishes_the_run(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run"
    with FaultServer(default="drop", content=CONTENT) as server, allowing_model_requests():
        config = fault_config(server, results, trials=2, concurrency=2)
        report = await Runner(config, progress=False).run()
        hits = server.hits

    assert (report.ran, report.failed) == (2, 2)
    assert hits == 8  # 4 attempts for the first call of each trial, then the trial stops
    for i in range(2):
        result = read_trial(trial_path(results, "vanilla", i))
        assert result.status == "failed" and result.error is not None
        assert "failed after 4 attempts" in result.error.message
    assert_whole_and_valid(results)
