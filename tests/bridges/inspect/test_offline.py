"""``inspect eval cogarch/hangman_sct --model mockllm/model -T trials=2``, as a user types it,
completes with two scored samples on a machine without network: every socket beyond
127.0.0.1 is refused (and each attempt noted), and tiktoken's cache is an empty folder that
stays empty (its encodings would have to be downloaded)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO

NO_NETWORK = """
import os, socket

_LOG = os.environ["COGARCH_TEST_BLOCKED_LOG"]
_LOCAL = ("127.", "::1", "localhost")


def _note(what):
    with open(_LOG, "a", encoding="utf-8") as out:
        out.write(repr(what) + "\\n")


def _local(address):
    host = address[0] if isinstance(address, tuple) else address
    return not isinstance(host, str) or host.startswith(_LOCAL)


def _guard(real):
    def connect(self, address):
        if self.family != getattr(socket, "AF_UNIX", None) and not _local(address):
            _note(address)
            raise OSError("network blocked for this test: " + repr(address))
        return real(self, address)
    return connect


socket.socket.connect = _guard(socket.socket.connect)
socket.socket.connect_ex = _guard(socket.socket.connect_ex)
_getaddrinfo = socket.getaddrinfo


def getaddrinfo(host, *args, **kwargs):
    if host is not None and not str(host).startswith(_LOCAL):
        _note(host)
        raise socket.gaierror("network blocked for this test: " + str(host))
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = getaddrinfo
"""


def inspect_command() -> list[str]:
    found = shutil.which("inspect", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "inspect_ai"]


def test_mock_model_completes_offline_with_two_scored_samples(tmp_path: Path) -> None:
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(NO_NETWORK, encoding="utf-8")
    tiktoken_cache, blocked, logs = (
        tmp_path / "tiktoken",
        tmp_path / "blocked.txt",
        tmp_path / "logs",
    )
    tiktoken_cache.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(guard), str(REPO)]),
        "COGARCH_TEST_BLOCKED_LOG": str(blocked),
        "TIKTOKEN_CACHE_DIR": str(tiktoken_cache),
        "DATA_GYM_CACHE_DIR": str(tiktoken_cache),
        "INSPECT_LOG_DIR": str(logs),
        "NO_COLOR": "1",
    }
    for variable in (
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "INSPECT_EVAL_MODEL",
    ):
        env.pop(variable, None)
    command = [
        *inspect_command(),
        "eval",
        "cogarch/hangman_sct",
        "--model",
        "mockllm/model",
        "-T",
        "trials=2",
        "--log-format",
        "json",
        "--display",
        "plain",
    ]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert not blocked.exists(), blocked.read_text(encoding="utf-8")
    assert list(tiktoken_cache.iterdir()) == []
    (log_file,) = logs.glob("*.json")
    log = json.loads(log_file.read_text(encoding="utf-8"))
    assert log["status"] == "success"
    assert log["eval"]["task"] == "cogarch/hangman_sct"
    samples = log["samples"]
    assert [s["id"] for s in samples] == ["trial_0", "trial_1"]
    for sample in samples:
        score = sample["scores"]["trial_outcome"]
        assert isinstance(score["value"], str) and score["value"]
        assert score["metadata"]["status"] in ("complete", "failed")
    metrics = log["results"]["scores"][0]["metrics"]
    assert {"success_rate", "success_ci_low", "success_ci_high"} <= set(metrics)


@pytest.mark.parametrize("probe", ["example.com", ("93.184.216.34", 80)])
def test_the_guard_refuses_the_network(tmp_path: Path, probe: object) -> None:
    """The test above means something: the guard it installs does refuse a connection."""
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(NO_NETWORK, encoding="utf-8")
    script = (
        "import socket\n"
        f"probe = {probe!r}\n"
        "try:\n"
        "    socket.create_connection(probe if isinstance(probe, tuple) else (probe, 80), 2)\n"
        "except OSError as exc:\n"
        "    print('refused', 'blocked' in str(exc))\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(guard),
        "COGARCH_TEST_BLOCKED_LOG": str(tmp_path / "blocked.txt"),
    }
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "refused True"
    assert (tmp_path / "blocked.txt").exists()
