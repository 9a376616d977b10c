"""``--trace otlp`` into a real collector: Arize Phoenix, started by the test on loopback ports
with a fresh working folder, takes a fake run's spans over OTLP (HTTP and gRPC), and its REST
API gives them back: every trial's root, the model calls, the memory operations, the tree.

Phoenix runs from its own environment (it pins packages cogarch's environment must not
follow): ``COGARCH_PHOENIX`` names its ``phoenix`` command, as ``.ci/run`` sets it up;
otherwise a ``phoenix`` on PATH is used. Without either the test is skipped, except in CI.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.results.trial_files import iter_trials

pytestmark = pytest.mark.otlp

REPO = Path(__file__).resolve().parents[3]
HANGMAN = str(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")
START_S = 180.0
"""How long Phoenix may take to start on a loaded 2-core machine."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def phoenix_command() -> str:
    found = os.environ.get("COGARCH_PHOENIX") or shutil.which("phoenix")
    if found and Path(found).exists():
        return found
    missing = "Arize Phoenix is not installed (set COGARCH_PHOENIX to its phoenix command)"
    if os.environ.get("CI"):
        pytest.fail(f"{missing}; .ci/run installs it")
    pytest.skip(missing)


@dataclass
class Phoenix:
    http: str
    grpc: str

    def spans(self, project: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        cursor = None
        while True:
            params: dict[str, Any] = {"limit": 1000, **({"cursor": cursor} if cursor else {})}
            page = httpx.get(f"{self.http}/v1/projects/{project}/spans", params=params, timeout=30)
            if page.status_code == 404:  # the project appears with its first span
                return found
            page.raise_for_status()
            body = page.json()
            found += body["data"]
            cursor = body.get("next_cursor")
            if not cursor:
                return found


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phoenix]:
    command = phoenix_command()
    http, grpc = free_port(), free_port()
    env = {
        **os.environ,
        "PHOENIX_WORKING_DIR": str(tmp_path_factory.mktemp("phoenix")),
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(http),
        "PHOENIX_GRPC_PORT": str(grpc),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    log = tmp_path_factory.mktemp("phoenix-log") / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [command, "serve"], env=env, stdout=out, stderr=subprocess.STDOUT, cwd=log.parent
        )
    try:
        base = f"http://127.0.0.1:{http}"
        deadline = time.monotonic() + START_S
        while True:
            if server.poll() is not None:
                pytest.fail(f"Phoenix exited at start:\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"Phoenix did not start in {START_S:.0f} s:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield Phoenix(base, f"http://127.0.0.1:{grpc}")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)


@pytest.mark.parametrize("protocol", ["http/protobuf", "grpc"])
def test_a_fake_run_sent_over_otlp_reads_back_from_phoenix(
    phoenix: Phoenix, protocol: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = f"cogarch-{protocol.replace('/', '-')}"
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
    endpoint = phoenix.grpc if protocol == "grpc" else phoenix.http
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", f"openinference.project.name={project}")
    argv = ["run", HANGMAN, "--trials", "1", "--results-dir", str(tmp_path), "--quiet"]
    assert main([*argv, "--trace", "otlp"]) == 0

    records = [r for _, r in iter_trials(tmp_path) if not isinstance(r, Exception)]
    calls = sum(r.usage.model_calls for r in records)
    spans: list[dict[str, Any]] = []
    deadline = time.monotonic() + 60  # Phoenix stores what it receives in the background
    while time.monotonic() < deadline:
        spans = phoenix.spans(project)
        if len([s for s in spans if s["name"].startswith("chat ")]) >= calls:
            break
        time.sleep(0.5)

    roots = [s for s in spans if s["parent_id"] is None]
    assert len(roots) == len(records) == 6
    assert {r["name"] for r in roots} == {"trial hangman_sct"}
    outcomes = {r.agent: r.evaluation.outcome for r in records}
    found = {
        r["attributes"]["cogarch.agent"]: r["attributes"]["cogarch.trial.outcome"] for r in roots
    }
    assert found == outcomes

    chats = [s for s in spans if s["name"].startswith("chat ")]
    assert len(chats) == calls
    first = chats[0]["attributes"]
    assert first["gen_ai.operation.name"] == "chat"
    assert first["gen_ai.provider.name"] == "cogarch.fake"
    assert first["gen_ai.usage.input_tokens"] > 0
    assert any(s["name"] == "update_memory" for s in spans)
    assert len([s for s in spans if s["name"].startswith("sct branch")]) == 6 * 6

    ids = {s["context"]["span_id"] for s in spans}
    assert all(s["parent_id"] in ids for s in spans if s["parent_id"] is not None)
    traces = {r["context"]["trace_id"] for r in roots}
    assert {s["context"]["trace_id"] for s in spans} == traces
