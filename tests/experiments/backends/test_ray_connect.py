"""Reaching Ray: an address where nothing listens fails at once, a cluster that never answers
fails at the deadline, Ctrl-C and SIGTERM end the wait, a local instance that cannot start is
one line, and a worker that cannot import what the run needs is a few plain lines."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from cogarch.errors import CogarchError, ConfigError
from cogarch.experiments.running.backends.ray_connect import Joining, one_line, probe
from tests.experiments.backends.conftest import RayCluster
from tests.experiments.killed_runs import command, environment

CONFIG = """\
name: connect_test
task: {{kind: hangman_sct, t_fork: 2, n_candidates: 2}}
trials: 1
cache: false
providers: {{p: {{kind: fake, fake: {fake}}}}}
agents: [{{name: a, agent: vanilla, provider: p}}]
{execution}
"""


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never says a word (no Ray behind it)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    yield server.getsockname()[1]
    server.close()


def write(tmp_path: Path, execution: str = "", fake: str = "hangman.honest") -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(CONFIG.format(fake=fake, execution=execution), encoding="utf-8")
    return path


def errors(stderr: str) -> list[str]:
    return [
        line
        for line in stderr.splitlines()
        if line.strip() and not line.startswith(("warning:", "["))  # Ray's own log lines
    ]


def test_nothing_listening_fails_at_once() -> None:
    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        port = spare.getsockname()[1]  # closed again: nothing listens there
    start = time.monotonic()
    with pytest.raises(ConfigError, match=rf"nothing answers at 127\.0\.0\.1:{port}"):
        probe(f"127.0.0.1:{port}")
    with pytest.raises(ConfigError, match=r"nothing answers at 127\.0\.0\.1:10001"):
        probe("ray://127.0.0.1")
    assert time.monotonic() - start < 5
    probe("auto")  # left to Ray


async def test_a_join_that_never_ends_is_given_up_at_the_deadline() -> None:
    stuck = threading.Event()
    fake_ray = SimpleNamespace(init=lambda **_: stuck.wait(30))
    joining = Joining(fake_ray, "10.0.0.1:6379", timeout_s=0.3)  # type: ignore[arg-type]
    start = time.monotonic()
    with pytest.raises(ConfigError, match=r"within 0\.3 s; .*connect_timeout_s"):
        await joining.ready()
    assert time.monotonic() - start < 3 and not joining.joined
    stuck.set()


async def test_waiting_for_a_join_can_be_cancelled() -> None:
    stuck = threading.Event()
    joining = Joining(SimpleNamespace(init=lambda **_: stuck.wait(30)), "h:1", 600)  # type: ignore[arg-type]
    waiting = asyncio.ensure_future(joining.ready())
    await asyncio.sleep(0.2)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    stuck.set()


async def test_a_failed_join_is_one_line_without_colour_codes() -> None:
    def refuse(**_: object) -> None:
        raise ConnectionError("\x1b[31mGCS\x1b[0m unreachable\n  (retried 5 times)")

    joining = Joining(SimpleNamespace(init=refuse), "h:1", 5)  # type: ignore[arg-type]
    with pytest.raises(ConfigError) as raised:
        await joining.ready()
    message = str(raised.value)
    assert "ConnectionError: GCS unreachable (retried 5 times)" in message
    assert "\x1b" not in message and "\n" not in message
    assert one_line(RuntimeError("x" * 1000), limit=50).endswith("...")


@pytest.mark.ray
def test_an_address_where_nothing_listens_is_one_line_at_once(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    start = time.monotonic()
    done = subprocess.run(
        [
            *command(write(tmp_path), tmp_path / "out"),
            "--backend",
            "ray",
            "--address",
            "127.0.0.1:1",
        ],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert errors(done.stderr) == [
        "error: nothing answers at 127.0.0.1:1 (Connection refused); check --address "
        "(execution.address), or start the cluster there with 'ray start --head'"
    ]
    assert time.monotonic() - start < 60


@pytest.mark.ray
def test_a_cluster_that_never_answers_is_given_up_at_the_deadline(
    tmp_path: Path, silent_port: int
) -> None:
    pytest.importorskip("ray")
    execution = (
        f"execution: {{backend: ray, address: '127.0.0.1:{silent_port}', connect_timeout_s: 3}}"
    )
    done = subprocess.run(
        command(write(tmp_path, execution), tmp_path / "out"),
        env=environment(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    (line,) = errors(done.stderr)
    assert line.startswith(f"error: could not join the Ray cluster at 127.0.0.1:{silent_port}")
    assert "within 3 s" in line


def _as_from_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.ray
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_end_the_wait_for_a_cluster(
    tmp_path: Path, silent_port: int, sig: int
) -> None:
    pytest.importorskip("ray")
    execution = (
        f"execution: {{backend: ray, address: '127.0.0.1:{silent_port}', connect_timeout_s: 600}}"
    )
    results = tmp_path / "out"
    process = subprocess.Popen(
        command(write(tmp_path, execution), results),
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_as_from_a_terminal,
    )
    try:
        deadline = time.monotonic() + 90
        while not (results / "run.json").exists():  # written just before the backend starts
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the run never started"
            time.sleep(0.05)
        time.sleep(2)  # now waiting for the cluster
        sent = time.monotonic()
        process.send_signal(sig)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert time.monotonic() - sent < 15
    if sig == signal.SIGINT:
        assert process.returncode == 130
        assert b"interrupted; rerun the same command to resume" in err
    else:
        assert process.returncode in (-signal.SIGTERM, 128 + signal.SIGTERM)


@pytest.mark.ray
def test_a_local_instance_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    done = subprocess.run(
        [*command(write(tmp_path), tmp_path / "out"), "--backend", "ray"],
        env={**environment(), "RAY_TMPDIR": str(blocker)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    (line,) = errors(done.stderr)
    assert line.startswith("error: could not start a local Ray instance (NotADirectoryError")
    assert "Traceback" not in done.stderr


WORKER_ONLY_MISSING = """\
from cogarch.tasks.hangman.hosts import honest_host as host
"""


@pytest.mark.ray
async def test_a_worker_that_cannot_import_the_run_s_code_is_a_few_plain_lines(
    ray_cluster: RayCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cogarch.experiments.running.backends.ray import RayWorkerError
    from cogarch.experiments.running.run_config import load_run_config
    from cogarch.experiments.running.runner import Runner

    driver_only = tmp_path / "driver_only"
    driver_only.mkdir()
    (driver_only / "driver_only_fakes.py").write_text(WORKER_ONLY_MISSING, encoding="utf-8")
    monkeypatch.syspath_prepend(str(driver_only))  # the driver imports it; no worker can
    config = load_run_config(
        write(tmp_path, "execution: {backend: ray}", fake="'driver_only_fakes:host'")
    )
    config = config.model_copy(update={"results_dir": tmp_path / "out"})
    with pytest.raises(RayWorkerError) as raised:
        await Runner(config, progress=False).run()
    message = str(raised.value)
    assert isinstance(raised.value, CogarchError)
    assert "a Ray worker could not play trial 0 of agent 'a'" in message
    assert "driver_only_fakes" in message and "every node needs cogarch" in message
    assert "\x1b" not in message and len(message.splitlines()) <= 3
    assert len(message) < 800
