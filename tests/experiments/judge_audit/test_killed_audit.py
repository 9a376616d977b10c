"""A judge audit killed part-way (SIGKILL, in another process) is resumed by the same command,
which asks no judge again about an item the log kept."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from cogarch.experiments.judge_audit.audit import AUDIT_FILE
from cogarch.experiments.judge_audit.log import LOG
from tests.experiments.killed_runs import NEEDS_SIGKILL, command, environment

from .scripted import CALLS_FILE_ENV, write_questions

SLOW = "tests.experiments.judge_audit.scripted:slow_counting"


@NEEDS_SIGKILL
def test_a_killed_audit_resumes_without_judging_again(tmp_path: Path) -> None:
    results = tmp_path / "run"
    config = {
        "name": "killed_audit",
        "task": {"kind": "longmemeval", "data": str(write_questions(tmp_path / "q.json"))},
        "trials": 10,
        "cache": False,
        "providers": {
            "reader": {"kind": "fake", "fake": "longmemeval.reader"},
            "judge": {"kind": "fake", "fake": SLOW},
            "again": {"kind": "fake", "fake": SLOW},
        },
        "helper_provider": "judge",
        "agents": [{"name": "full", "agent": "longmemeval_full", "provider": "reader"}],
        "audit_judge": {"second_judge": "again", "concurrency": 1},
    }
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    cmd = command(path, results)
    log = results / LOG
    env = {**environment(), CALLS_FILE_ENV: str(tmp_path / "first.txt")}
    process = subprocess.Popen(cmd, cwd=tmp_path, env=env, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not log.exists() or log.read_bytes().count(b"\n") < 1 + 12:
            if process.poll() is not None:
                pytest.fail(f"the run ended before it could be killed: {process.stderr!r}")
            if time.monotonic() > deadline:
                pytest.fail("the audit wrote no verdicts within 120 s")
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert not (results / AUDIT_FILE).exists()
    kept = log.read_bytes().count(b"\n") - 1  # whole verdict lines (a torn one is asked again)
    assert 12 <= kept < 60

    env[CALLS_FILE_ENV] = str(tmp_path / "second.txt")
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    asked = (tmp_path / "second.txt").read_text(encoding="utf-8").splitlines()
    assert len(asked) == 60 - kept  # the trials were complete: every call is the audit's
    audit = json.loads((results / AUDIT_FILE).read_text(encoding="utf-8"))
    assert [len(j["verdicts"]) for j in audit["judges"]] == [30, 30]
    assert [j["usage"]["cache_hits"] for j in audit["judges"]] == [min(kept, 30), max(kept - 30, 0)]
