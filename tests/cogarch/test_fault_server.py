"""The fault server itself, and runs of calls under each fault kind.

For every fault kind, several calls are made through the real OpenAI client. Transient faults
are retried away; the only exception that may leave ``Model.complete`` is the documented
``ModelCallError`` (for non-retryable statuses at once, for persistent
transient faults after the last attempt).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from typing import Any

import pytest

from cogarch.core.model import Completion
from cogarch.errors import ModelCallError
from cogarch.models import Meter, user
from cogarch.testing import FAULT_KINDS, FaultServer, Step, allowing_model_requests
from tests.cogarch import LiveModels

TRANSIENT = ["429", "500", "503", "delay:3", "drop", "truncated", "malformed"]
ANSWERS = ["ok", "empty", "no_tool_call", "tool_call"]
FATAL = ["400"]
TOOLS: Any = [{"name": "guess", "description": "Guess a letter.", "parameters": {}}]


@pytest.fixture
async def live(_no_real_models: None) -> AsyncIterator[LiveModels]:
    """Real clients against local fault servers; requests allowed for these tests only."""
    with allowing_model_requests():
        async with LiveModels() as models:
            yield models


def post(server: FaultServer, body: object, path: str = "/v1/chat/completions") -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def test_every_named_kind_is_covered_here() -> None:
    covered = {k.split(":")[0] for k in TRANSIENT + ANSWERS + FATAL}
    assert set(FAULT_KINDS) <= covered


@pytest.mark.parametrize("fault", TRANSIENT)
async def test_transient_faults_are_retried_in_a_run(live: LiveModels, fault: str) -> None:
    server = live.serve([fault, "ok"] * 3)
    model = live.model(server)
    with Meter().active() as meter:
        for i in range(3):
            completion = await model.complete([user(f"turn {i}")], caller="run")
            assert completion.content == "Hello from the fault server."
    assert [r.attempts for r in meter.records] == [2, 2, 2]
    assert server.served == [fault, "ok"] * 3
    assert server.remaining == 0


@pytest.mark.parametrize("fault", TRANSIENT)
async def test_persistent_transient_faults_end_in_model_call_error(
    live: LiveModels, fault: str
) -> None:
    server = live.serve([fault] * 2, default="ok")
    model = live.model(server, retry={"max_attempts": 2, "base_delay_s": 0.01})
    with pytest.raises(ModelCallError, match="failed after 2 attempts"):
        await model.complete([user("hi")], caller="run")
    assert (await model.complete([user("hi")], caller="run")).usage.attempts == 1


@pytest.mark.parametrize("fault", ANSWERS)
async def test_answers_are_returned_as_they_are(live: LiveModels, fault: str) -> None:
    server = live.serve([fault] * 3)
    model = live.model(server)
    results: list[Completion] = []
    for i in range(3):
        results.append(await model.complete([user(f"turn {i}")], caller="run", tools=TOOLS))
    assert all(r.usage.attempts == 1 for r in results)
    if fault == "tool_call":
        assert all(r.tool_calls[0].name == "guess" and r.content == "" for r in results)
    else:
        assert all(r.tool_calls == () for r in results)
        assert all(bool(r.content) == (fault != "empty") for r in results)


@pytest.mark.parametrize("fault", FATAL)
async def test_fatal_faults_fail_that_call_only(live: LiveModels, fault: str) -> None:
    server = live.serve([fault, "ok", fault])
    model = live.model(server)
    outcomes: list[str] = []
    for _ in range(3):
        try:
            await model.complete([user("hi")], caller="run")
        except ModelCallError:
            outcomes.append("error")
        else:
            outcomes.append("ok")
    assert outcomes == ["error", "ok", "error"]
    assert server.hits == 3


def test_requests_are_recorded_and_counted() -> None:
    with FaultServer(["ok", Step("ok", content="second")], model="served-model") as server:
        first = post(server, {"model": "m", "seed": 3, "messages": [{"role": "user"}]})
        second = post(server, {"model": "m"})
        third = post(server, {"model": "m"})
        assert server.hits == 3
        assert server.bodies[0]["seed"] == 3
        assert server.requests[0].headers["content-type"] == "application/json"
    assert first["model"] == "served-model"
    assert first["usage"] == {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    assert second["choices"][0]["message"]["content"] == "second"
    assert third["choices"][0]["message"]["content"] == "Hello from the fault server."
    assert server.served == ["ok", "ok", "ok"]  # the default answers after the script


def test_error_statuses_have_openai_error_bodies() -> None:
    with FaultServer(["429", "404"]) as server:
        for status in (429, 404):
            with pytest.raises(urllib.error.HTTPError) as info:
                post(server, {})
            assert info.value.code == status
            error = json.loads(info.value.read())["error"]
            info.value.close()
            assert error["code"] == str(status)
        assert server.hits == 2


def test_model_list_and_unknown_routes() -> None:
    with FaultServer(["500"], model="m1") as server:
        with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as response:
            assert json.loads(response.read())["data"][0]["id"] == "m1"
        with pytest.raises(urllib.error.HTTPError) as info:
            post(server, {}, path="/v1/embeddings")
        assert info.value.code == 404
        info.value.close()
        assert (server.model_list_hits, server.hits, server.remaining) == (1, 0, 1)


@pytest.mark.parametrize("fault", ["drop", "truncated"])
def test_connection_faults_break_the_http_exchange(fault: str) -> None:
    with FaultServer([fault]) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        try:
            connection.request("POST", "/v1/chat/completions", body=b"{}")
            with pytest.raises((http.client.RemoteDisconnected, http.client.IncompleteRead)):
                connection.getresponse().read()
        finally:
            connection.close()


def test_closing_ends_a_pending_delay_at_once() -> None:
    server = FaultServer(["delay:30"]).start()
    errors: list[BaseException] = []

    def call() -> None:
        try:
            post(server, {})
        except Exception as exc:  # the late answer is dropped on close
            errors.append(exc)

    thread = threading.Thread(target=call)
    thread.start()
    while server.hits == 0:
        time.sleep(0.01)
    started = time.perf_counter()
    server.close()
    thread.join(timeout=5)
    assert time.perf_counter() - started < 2
    assert len(errors) == 1
    server.close()  # closing twice is harmless


def test_push_and_parse() -> None:
    server = FaultServer()
    server.push("503", "delay:0.25", Step("empty"))
    assert server.remaining == 3
    assert Step.parse("delay:0.25").delay_s == 0.25
    assert Step.parse(" 418 ").kind == "418"
    for bad in ("teapot", "delay:soon", "200", "delay:-1"):
        with pytest.raises(ValueError):
            Step.parse(bad)
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.base_url


def test_answers_report_a_prompt_cache_as_configured() -> None:
    script = [
        Step("ok", cached_tokens=4),
        Step("ok", cached_tokens=6, cache_report="timings"),
        Step("ok", cached_tokens=2, cache_report="both", prompt_tokens=5),
        Step("ok"),
    ]
    with FaultServer(script, prompt_tokens=10, cached_tokens=lambda body: body.get("n")) as server:
        details, timings, both, by_body = (post(server, {"model": "m", "n": 3}) for _ in range(4))
        unreported = post(server, {"model": "m"})  # the function says None: no report
    assert details["usage"]["prompt_tokens_details"] == {"cached_tokens": 4}
    assert "timings" not in details
    assert "prompt_tokens_details" not in timings["usage"]
    assert (timings["timings"]["cache_n"], timings["timings"]["prompt_n"]) == (6, 4)
    assert both["usage"]["prompt_tokens_details"] == {"cached_tokens": 2}
    assert (both["timings"]["cache_n"], both["timings"]["prompt_n"]) == (2, 3)
    assert by_body["usage"]["prompt_tokens_details"] == {"cached_tokens": 3}
    assert "prompt_tokens_details" not in unreported["usage"] and "timings" not in unreported


def test_without_cached_tokens_no_answer_reports_a_cache() -> None:
    with FaultServer(cache_report="both") as server:
        answer = post(server, {"model": "m"})
    assert "prompt_tokens_details" not in answer["usage"] and "timings" not in answer


def test_cache_report_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="cache report"):
        FaultServer(cache_report="usage")  # type: ignore[arg-type]
    for bad in (Step("ok", cache_report="usage"), Step("ok", cached_tokens=-1)):  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            Step.parse(bad)
