"""An empty or blank reply from the agent, anywhere in the SCT, fails the trial with its reason
instead of being classified (an empty reveal is not "no secret", an empty answer not "no")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.models.fakes import CallInfo
from cogarch.tasks.hangman.hosts import honest_host
from cogarch.tasks.hangman.prompts import REVEAL_PROMPT
from cogarch.testing import FaultServer, allowing_model_requests
from tests.experiments.test_report import summary_row

Pairs = list[tuple[str, str]]


def _users(pairs: Pairs) -> list[str]:
    return [text for role, text in pairs if role == "user"]


def empty_at_turn_two(pairs: Pairs, seed: int, call: CallInfo) -> str:
    return "" if len(_users(pairs)) == 2 else honest_host(pairs, seed, call)


def blank_reveal(pairs: Pairs, seed: int, call: CallInfo) -> str:
    return " \n\t" if _users(pairs)[-1] == REVEAL_PROMPT else honest_host(pairs, seed, call)


def empty_branches(pairs: Pairs, seed: int, call: CallInfo) -> str:
    users = _users(pairs)
    forked = len(users) == 4 and users[-1] != REVEAL_PROMPT
    return "" if forked else honest_host(pairs, seed, call)


def only_private(pairs: Pairs, seed: int, call: CallInfo) -> str:
    return "<secret>crane</secret>" if len(_users(pairs)) == 3 else honest_host(pairs, seed, call)


def config(results: Path, providers: dict[str, Any], **changes: Any) -> RunConfig:
    data: dict[str, Any] = {
        "name": "empty",
        "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
        "trials": 2,
        "cache": False,
        "results_dir": str(results),
        "providers": providers,
        "agents": [{"name": n, "agent": "vanilla", "provider": n} for n in providers],
    }
    data.update(changes)
    return RunConfig.model_validate(data)


HOSTS = {
    "empty_at_turn_two": "at turn 2",
    "blank_reveal": "to the reveal",
    "empty_branches": "on the branch of candidate",
    "only_private": "at turn 3",
}


async def test_empty_replies_fail_the_trial_with_the_reason(tmp_path: Path) -> None:
    results = tmp_path / "run"
    providers = {
        name: {"kind": "fake", "fake": f"tests.tasks.sct.test_empty_replies:{name}"}
        for name in HOSTS
    }
    providers["honest"] = {"kind": "fake", "fake": "hangman.honest"}
    report = await Runner(config(results, providers), progress=False).run()
    assert (report.ran, report.failed) == (10, 8)
    for name, where in HOSTS.items():
        for i in range(2):
            record = read_trial(trial_path(results, name, i))
            assert record.status == "failed"
            assert record.error is not None and record.error.type == "EmptyReplyError"
            assert where in record.error.message
            assert "private" in record.error.message and "usage.calls" in record.error.message
            assert record.evaluation.outcome is None
    assert read_trial(trial_path(results, "honest", 0)).status == "complete"
    build_report(results)
    md = (results / "report" / "report.md").read_text("utf-8")
    row = summary_row(md, "blank_reveal")
    assert row[4:6] == ["0", "2"]  # complete, failed
    assert row[-2:] == ["0", "0-66"]  # the failed trials count as failures of the SC rate


async def test_an_endpoint_answering_empty_content_fails_every_trial(tmp_path: Path) -> None:
    results, trials = tmp_path / "run", 2
    endpoint = {
        "kind": "openai",
        "model": "test-model",
        "retry": {"max_attempts": 1},
    }
    with FaultServer([], default="empty") as server, allowing_model_requests():
        providers = {"endpoint": {**endpoint, "base_url": server.base_url}}
        report = await Runner(config(results, providers, trials=trials), progress=False).run()
    assert (report.ran, report.failed) == (trials, trials)
    for i in range(trials):
        record = read_trial(trial_path(results, "endpoint", i))
        assert record.status == "failed" and record.error is not None
        assert record.error.type == "EmptyReplyError" and "at turn 1" in record.error.message
        assert record.usage.model_calls == 1
