"""The on-disk response cache, seen through the real client and the fault server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogarch.models import Meter, ResponseCache, user
from cogarch.models.cache import cache_key
from cogarch.testing import Step, allowing_model_requests
from tests.cogarch import LiveModels

ASK = [user("Pick a secret word.")]


@pytest.fixture
async def live(_no_real_models: None) -> AsyncIterator[LiveModels]:
    """Real clients against local fault servers; requests allowed for these tests only."""
    with allowing_model_requests():
        async with LiveModels() as models:
            yield models


@pytest.fixture
def cache(tmp_path: Path) -> ResponseCache:
    return ResponseCache(tmp_path / "cache")


def cache_files(cache: ResponseCache) -> list[Path]:
    return sorted(cache.root.rglob("*.json"))


async def test_same_call_and_seed_is_served_from_the_cache(
    live: LiveModels, cache: ResponseCache
) -> None:
    server = live.serve([Step("ok", content="Ready.", reasoning="I chose PLANT.")])
    model = live.model(server, cache=cache)
    first = await model.complete(ASK, caller="host", seed=3)
    with Meter().active() as meter:
        again = await model.complete(ASK, caller="host", seed=3)
    assert server.hits == 1
    assert (meter.requests, meter.model_calls) == (0, 1)  # consumed, but not requested now
    assert [r.cached for r in meter.records] == [True]
    assert again.usage.cached and again.usage.attempts == 0
    assert (again.content, again.thought) == (first.content, first.thought)
    assert again.usage.prompt_tokens == first.usage.prompt_tokens
    assert again.usage.latency_s == first.usage.latency_s  # the original call's
    assert (meter.summary()["cache_hits"], meter.summary()["model_calls"]) == (1, 1)
    assert len(cache_files(cache)) == 1


async def test_the_cache_outlives_the_model(live: LiveModels, cache: ResponseCache) -> None:
    server = live.serve(["ok"])
    await live.model(server, cache=cache).complete(ASK, caller="host", seed=1)
    rerun = await live.model(server, cache=ResponseCache(cache.root)).complete(
        ASK, caller="host", seed=1
    )
    assert rerun.usage.cached
    assert server.hits == 1


async def test_a_different_seed_makes_a_new_call(live: LiveModels, cache: ResponseCache) -> None:
    server = live.serve([])
    model = live.model(server, cache=cache)
    await model.complete(ASK, caller="host", seed=1)
    second = await model.complete(ASK, caller="host", seed=2)
    assert not second.usage.cached
    assert [b["seed"] for b in server.bodies] == [1, 2]


async def test_a_different_message_or_temperature_makes_a_new_call(
    live: LiveModels, cache: ResponseCache
) -> None:
    server = live.serve([])
    model = live.model(server, cache=cache)
    await model.complete(ASK, caller="host", seed=1)
    await model.complete([user("Pick another word.")], caller="host", seed=1)
    await model.complete(ASK, caller="host", seed=1, temperature=1.5)
    await model.complete(ASK, caller="host", seed=1, max_tokens=10)
    assert server.hits == 4
    await model.complete(ASK, caller="other-caller", seed=1, temperature=1.5)
    assert server.hits == 4  # the caller is metering, not part of the key
    assert len(cache_files(cache)) == 4


async def test_unseeded_calls_are_never_cached(live: LiveModels, cache: ResponseCache) -> None:
    server = live.serve([])
    model = live.model(server, cache=cache)
    await model.complete(ASK, caller="host")
    await model.complete(ASK, caller="host")
    assert server.hits == 2
    assert cache_files(cache) == []


async def test_a_corrupted_cache_file_is_a_miss(live: LiveModels, cache: ResponseCache) -> None:
    server = live.serve([Step("ok", content="first"), Step("ok", content="second")])
    model = live.model(server, cache=cache)
    await model.complete(ASK, caller="host", seed=5)
    (file,) = cache_files(cache)
    file.write_text('{"content": "fir', encoding="utf-8")
    again = await model.complete(ASK, caller="host", seed=5)
    assert (again.content, again.usage.cached) == ("second", False)
    assert server.hits == 2
    third = await model.complete(ASK, caller="host", seed=5)  # rewritten and readable again
    assert (third.content, third.usage.cached) == ("second", True)


async def test_tool_calls_survive_the_cache(live: LiveModels, cache: ResponseCache) -> None:
    server = live.serve([Step("tool_call", tool_name="guess", tool_arguments={"letter": "e"})])
    model = live.model(server, cache=cache)
    live_call = await model.complete(ASK, caller="host", seed=9)
    cached = await model.complete(ASK, caller="host", seed=9)
    assert cached.usage.cached
    assert cached.tool_calls == live_call.tool_calls
    assert cached.tool_calls[0].arguments == {"letter": "e"}


def test_cache_get_and_put(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    key = cache_key({"model": "m", "seed": 1})
    assert cache.get(key) is None
    cache.put(key, {"content": "x"})
    assert cache.get(key) == {"content": "x"}
    assert (tmp_path / key[:2] / f"{key}.json").is_file()
    (tmp_path / key[:2] / f"{key}.json").write_text("[1, 2]", encoding="utf-8")
    assert cache.get(key) is None  # valid JSON but not a record


def test_cache_key_ignores_dict_order() -> None:
    assert cache_key({"a": 1, "b": [1, 2]}) == cache_key({"b": [1, 2], "a": 1})
    assert cache_key({"a": 1}) != cache_key({"a": 2})
