"""What must stay private does: model-written private blocks never reach a public reply, and
API keys never reach a file the framework writes.

The model may leak its secret in plain words; that is what the SCT measures. What the framework
guarantees is that reasoning, memory and ``<secret>`` blocks a model writes are not published,
whatever the agent.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.testing import FaultServer, allowing_model_requests
from tests.experiments.endpoint_runs import endpoint_config
from tests.experiments.slow_fakes import MEMORY_MARK, REASONING_MARK, SECRET_MARK

PRIVATE_TAGS = ("<secret", "</secret", "<think", "</think", "<working_memory", "</working_memory")
AGENTS = {
    "vanilla": ("vanilla", {}),
    "private_cot": ("private_cot", {}),
    "public_cot": ("public_cot", {}),
    "workflow": ("workflow", {"strategy": "overwrite"}),
    "autonomous": ("autonomous", {}),
    "gwt": ("gwt", {}),
}
KEY_ENV = "COGARCH_TEST_KEY"
KEY = "sk-test-123456"


def public_texts(path: Path) -> list[str]:
    """Every text of a trial file that a user saw: the replies before and after the fork."""
    result = read_trial(path)
    texts = [entry.reply for entry in result.turns]
    texts += [branch.reply for branch in result.branches]
    assert result.evaluation.reveal_reply == result.branches[0].reply
    return texts


async def test_private_blocks_never_reach_the_public_transcript(tmp_path: Path) -> None:
    results = tmp_path / "run"
    config = RunConfig.model_validate(
        {
            "name": "secrets",
            "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
            "trials": 2,
            "cache": False,
            "results_dir": str(results),
            "providers": {
                "decorated": {"kind": "fake", "fake": "tests.experiments.slow_fakes:decorated_host"}
            },
            "agents": [
                {"name": name, "agent": agent, "params": params, "provider": "decorated"}
                for name, (agent, params) in AGENTS.items()
            ],
        }
    )
    report = await Runner(config, progress=False).run()
    assert report.failed == 0

    for name in AGENTS:
        for trial in range(2):
            path = trial_path(results, name, trial)
            texts = public_texts(path)
            assert texts and all(texts[:3]), f"{name}: empty public replies"
            for text in texts:
                lowered = text.lower()
                for tag in PRIVATE_TAGS:
                    assert tag not in lowered, f"{name} published {tag!r}: {text!r}"
                assert SECRET_MARK not in lowered, f"{name} published the secret: {text!r}"
                assert MEMORY_MARK not in text, f"{name} published memory: {text!r}"
                if name != "public_cot":  # publishing its reasoning is what public CoT does
                    assert REASONING_MARK not in text, f"{name} published reasoning: {text!r}"
            # The replies still carry the host's public answer (the board) ...
            assert "_" in texts[1]
            # ... and the private blocks did reach the model's output, so the test is real.
            raw = json.loads(path.read_text(encoding="utf-8"))
            assert raw["usage"]["model_calls"] > 0
    public_cot = public_texts(trial_path(results, "public_cot", 0))
    assert any(REASONING_MARK in text for text in public_cot)
    private_cot = read_trial(trial_path(results, "private_cot", 0))
    assert REASONING_MARK in private_cot.turns[-1].private_state


def scan_for_key(root: Path) -> list[Path]:
    """Files under ``root`` whose bytes contain the key."""
    return [p for p in root.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]


def key_config(server: FaultServer, results: Path) -> RunConfig:
    retry = {"max_attempts": 2, "base_delay_s": 0.01, "max_delay_s": 0.05}
    agents = [{"name": a, "agent": a, "provider": "endpoint"} for a in ("vanilla", "workflow")]
    endpoint = {"api_key_env": KEY_ENV, "timeout": 0.5, "retry": retry}
    fields = {"trials": 2, "concurrency": 2, "cache": True, "agents": agents}
    return endpoint_config(server, results, endpoint, name="keys", **fields)


async def test_api_keys_never_reach_trial_files_run_json_cache_or_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    results = tmp_path / "run"
    # One trial fails on a rejected request (its error and traceback are written too).
    with FaultServer(["401"], content="Pattern: _ _ _ _ _") as server, allowing_model_requests():
        report = await Runner(key_config(server, results), progress=False).run()
        headers = [r.headers for r in server.requests]

    assert report.ran == 4 and report.failed == 1
    assert all(h.get("authorization") == f"Bearer {KEY}" for h in headers)  # the key was used
    cache = results / ".cache"
    assert any(cache.rglob("*.json")), "the run cached nothing, so the cache was not checked"
    assert (results / "run.json").is_file()
    failed = [
        r
        for r in (read_trial(trial_path(results, a, i)) for a in ("vanilla", "workflow")
                  for i in range(2))
        if r.status == "failed"
    ]  # fmt: skip
    assert len(failed) == 1 and failed[0].error is not None
    assert "401" in failed[0].error.message
    recorded = json.loads((results / "run.json").read_text(encoding="utf-8"))["config"]
    assert recorded["providers"]["endpoint"]["api_key_env"] == KEY_ENV  # the name, not the value

    if importlib.util.find_spec("cogarch.experiments.reports.report") is not None:
        from cogarch.experiments.reports.report import build_report

        written = build_report(results, tmp_path / "report")
        assert written
    assert scan_for_key(tmp_path) == []
