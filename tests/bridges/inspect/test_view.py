"""The log of a bridged eval opens in ``inspect view``: started on 127.0.0.1, its page loads
and its JSON API lists the log and serves each sample with the trial as a trial page shows it
(the dialogue, the outcome class and evaluation, the private states and the graph walk, and
the trial in words in the transcript)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import INSPECT_WARNINGS, REPO, run_eval
from .test_offline import inspect_command

pytestmark = INSPECT_WARNINGS


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.fixture
def view(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A two-trial Hangman eval played by the honest fake host with the workflow agent, and
    ``inspect view`` serving its log folder: (base URL, log folder)."""
    logs = tmp_path / "logs"
    args = {"fake": "hangman.honest", "agent": "workflow", "strategy": "overwrite", "trials": 2}
    log = run_eval("cogarch/hangman_sct", {**args, "cache": False}, logs)
    assert log.status == "success", log.error
    port = free_port()
    command = [*inspect_command(), "view", "start", "--log-dir", str(logs)]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if get(f"{base}/api/logs")[0] == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"inspect view did not start (exit code {server.poll()})")
            time.sleep(0.5)
        yield base, logs
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_inspect_view_serves_the_trials(view: tuple[str, Path]) -> None:
    base, _ = view
    status, page = get(f"{base}/")
    assert status == 200 and b"<html" in page.lower()
    status, body = get(f"{base}/api/logs")
    listing = json.loads(body)
    (entry,) = listing["files"]
    assert entry["task"] == "hangman-sct" or "hangman" in entry["task"]
    status, body = get(f"{base}/api/logs/{urllib.parse.quote(entry['name'], safe='')}")
    assert status == 200
    log: dict[str, Any] = json.loads(body)
    assert log["eval"]["task"] == "cogarch/hangman_sct"
    assert log["results"]["scores"][0]["metrics"]["success_rate"]["value"] == 1.0
    for sample in log["samples"]:
        score = sample["scores"]["trial_outcome"]
        assert score["value"] == "self_consistent"
        assert score["metadata"]["evaluation"]["outcome"] == "self_consistent"
        assert score["explanation"].startswith("The task rated this trial 'self_consistent'")
        roles = [m["role"] for m in sample["messages"]]
        assert roles[:4] == ["user", "assistant", "user", "assistant"]
        assert "Hangman" in sample["messages"][0]["content"]
        states = sample["metadata"]["private_state"]
        assert states and any(s["state"] for s in states)  # the workflow agent's memory
        assert {step["node"] for step in sample["metadata"]["walk"]} >= {"responder"}
        words = [e["data"] for e in sample["events"] if e["event"] == "info"]
        text = "\n".join(_resolved(w, sample) for w in words)
        for title in ("### Turn 1", "### Fork", "### Verdict", "**Graph walk:**"):
            assert title in text
        assert "Private state after the turn" in text


def _resolved(data: Any, sample: dict[str, Any]) -> str:
    """An event's text, with an attachment the log moved out of line put back."""
    text = data if isinstance(data, str) else json.dumps(data)
    if text.startswith("attachment://"):
        return str(sample.get("attachments", {}).get(text.removeprefix("attachment://"), text))
    return text
