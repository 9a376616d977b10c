"""The embedded model for real: default weights, llama.cpp server, OpenAI client.

Slow (a 1.1 GB model on CPU); run with ``--e2e``. Timings go to stdout (``-s`` shows them).
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from openai import AsyncOpenAI
from pydantic import BaseModel, ConfigDict

from cogarch.models.local import (
    LocalServer,
    LocalServerError,
    LocalServerSettings,
    get_local_server,
    stop_local_servers,
)
from cogarch.models.weights import (
    DEFAULT_GGUF_NAME,
    DEFAULT_GGUF_SHA256,
    DEFAULT_GGUF_SIZE,
    ensure_default_weights,
    sha256_file,
)

pytestmark = pytest.mark.e2e

SETTINGS = LocalServerSettings(n_ctx=4096, n_parallel=2)


class Capital(BaseModel):
    model_config = ConfigDict(extra="forbid")

    country: str
    capital: str
    population_millions: float


def _report(label: str, value: str) -> None:
    print(f"\n[local model] {label}: {value}")


def _rss_mib() -> float | None:
    try:
        status = Path(f"/proc/{os.getpid()}/status").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def _tokens_per_second(extra: dict[str, object] | None) -> str:
    timings = (extra or {}).get("timings")
    if not isinstance(timings, dict):
        return "n/a"
    return (
        f"prompt {timings.get('prompt_n')} tok at {timings.get('prompt_per_second', 0):.1f} tok/s, "
        f"generated {timings.get('predicted_n')} tok "
        f"at {timings.get('predicted_per_second', 0):.1f} tok/s"
    )


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    began = time.perf_counter()
    weights = ensure_default_weights()
    _report("weights ready (assembly or stamp check)", f"{time.perf_counter() - began:.2f} s")
    began = time.perf_counter()
    shared = get_local_server(SETTINGS)
    _report(
        "server start",
        f"{time.perf_counter() - began:.2f} s (model load {shared.load_seconds:.2f} s)",
    )
    _report("RSS with the model loaded", f"{_rss_mib():.0f} MiB")
    assert shared.model_path == weights.resolve()
    yield shared
    stop_local_servers()
    with pytest.raises(LocalServerError, match=r"call start\(\)"):
        _ = shared.base_url


async def test_chat_completion_answers(server: LocalServer) -> None:
    async with AsyncOpenAI(base_url=server.base_url, api_key="local") as client:
        began = time.perf_counter()
        reply = await client.chat.completions.create(
            model=server.model_name,
            messages=[
                {"role": "system", "content": "Answer with the number only."},
                {"role": "user", "content": "What is 2 + 3?"},
            ],
            temperature=0,
            max_tokens=16,
        )
        latency = time.perf_counter() - began
    content = reply.choices[0].message.content or ""
    _report("short answer latency", f"{latency:.2f} s ({content!r})")
    _report("speed", _tokens_per_second(reply.model_extra))
    assert "5" in content
    assert reply.usage is not None and reply.usage.completion_tokens > 0


async def test_json_schema_output_validates(server: LocalServer) -> None:
    async with AsyncOpenAI(base_url=server.base_url, api_key="local") as client:
        began = time.perf_counter()
        reply = await client.chat.completions.create(
            model=server.model_name,
            messages=[
                {"role": "user", "content": "Give France's capital and its population."},
            ],
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "capital", "schema": Capital.model_json_schema()},
            },
            temperature=0,
            max_tokens=80,
        )
        latency = time.perf_counter() - began
    content = reply.choices[0].message.content or ""
    _report("json_schema answer", f"{latency:.2f} s, {content!r}")
    answer = Capital.model_validate(json.loads(content))
    assert answer.capital.strip().lower() == "paris"


async def test_two_concurrent_requests_succeed(server: LocalServer) -> None:
    questions = ["Name a primary color.", "Name a planet of the solar system."]
    async with AsyncOpenAI(base_url=server.base_url, api_key="local") as client:
        began = time.perf_counter()
        replies = await asyncio.gather(
            *(
                client.chat.completions.create(
                    model=server.model_name,
                    messages=[{"role": "user", "content": question}],
                    temperature=0,
                    max_tokens=24,
                )
                for question in questions
            )
        )
        elapsed = time.perf_counter() - began
    _report("two concurrent requests", f"{elapsed:.2f} s together")
    for reply in replies:
        assert reply.choices[0].finish_reason in {"stop", "length"}
        assert (reply.choices[0].message.content or "").strip()


def test_server_reports_its_model_and_health(server: LocalServer) -> None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{server.address}/health", timeout=5) as response:
        assert json.loads(response.read())["status"] == "ok"
    with opener.open(f"{server.base_url}/models", timeout=5) as response:
        listed = json.loads(response.read())
    assert server.model_name in [entry["id"] for entry in listed["data"]]
    assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")


def test_shared_server_is_reused(server: LocalServer) -> None:
    found: list[LocalServer] = []
    threads = [
        threading.Thread(target=lambda: found.append(get_local_server(SETTINGS))) for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [server] * 3
    assert get_local_server(LocalServerSettings(n_ctx=4096, n_parallel=2)) is server


def test_assembled_file_matches_the_published_hash(server: LocalServer) -> None:
    path = server.model_path
    assert path.name == DEFAULT_GGUF_NAME
    assert path.stat().st_size == DEFAULT_GGUF_SIZE
    began = time.perf_counter()
    assert sha256_file(path) == DEFAULT_GGUF_SHA256
    _report("full SHA-256 check", f"{time.perf_counter() - began:.2f} s")
