"""The on-disk response cache, seen through the real client and the fault server."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from cogarch.models import CallInfo, FunctionModel, Meter, Model, ResponseCache, user
from cogarch.models.cache import CachedCompletion, cache_key
from cogarch.testing import Step, allowing_model_requests
from tests.cogarch import LiveModels
from tests.deadline import deadline

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
    entry = CachedCompletion(content="x", tool_calls=[], finish_reason="stop", prompt_tokens=3)
    cache.put(key, entry)
    assert cache.get(key) == entry
    assert (tmp_path / key[:2] / f"{key}.json").is_file()
    (tmp_path / key[:2] / f"{key}.json").write_text("[1, 2]", encoding="utf-8")
    assert cache.get(key) is None  # valid JSON but not a record


def test_cache_key_ignores_dict_order() -> None:
    assert cache_key({"a": 1, "b": [1, 2]}) == cache_key({"b": [1, 2], "a": 1})
    assert cache_key({"a": 1}) != cache_key({"a": 2})


def counted(cache: ResponseCache) -> tuple[Model, list[int]]:
    """A fake model over ``cache`` that counts the calls it answers itself."""
    answered: list[int] = []

    def reply(messages: object, info: CallInfo) -> str:
        answered.append(1)
        return "fresh"

    return Model(FunctionModel(reply), provider="f", model="m", cache=cache, fake=True), answered


def entry_of(cache: ResponseCache) -> Path:
    (path,) = [p for p in cache.root.rglob("*.json") if p.parent != cache.root]
    return path


def hostile_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def hostile_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()
    (path / "x").write_text("x", encoding="utf-8")


def hostile_zero_link(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def hostile_infinity(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "prompt_tokens": float("inf")}), encoding="utf-8")


def hostile_negative(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "completion_tokens": -5}), encoding="utf-8")


@pytest.mark.parametrize(
    "spoil", [hostile_fifo, hostile_folder, hostile_zero_link, hostile_infinity, hostile_negative]
)
async def test_an_entry_it_cannot_use_is_set_aside_and_the_call_goes_on(
    tmp_path: Path, spoil: Callable[[Path], None]
) -> None:
    with deadline(20):
        cache = ResponseCache(tmp_path / "cache")
        model, answered = counted(cache)
        await model.complete(ASK, caller="host", seed=1)
        path = entry_of(cache)
        spoil(path)
        again = await model.complete(ASK, caller="host", seed=1)
        assert (again.content, again.usage.cached, len(answered)) == ("fresh", False, 2)
        assert os.path.lexists(path.with_name(path.name + ".unusable"))  # kept, not deleted
        third = await model.complete(ASK, caller="host", seed=1)  # stored afresh
        assert third.usage.cached and len(answered) == 2
        assert third.usage.prompt_tokens >= 0 and third.usage.completion_tokens >= 0


async def test_a_file_where_the_cache_folder_belongs_is_set_aside(tmp_path: Path) -> None:
    (tmp_path / ".cache").write_text("not a folder", encoding="utf-8")
    model, answered = counted(ResponseCache(tmp_path / ".cache"))
    first = await model.complete(ASK, caller="host", seed=2)
    again = await model.complete(ASK, caller="host", seed=2)
    assert first.content == again.content == "fresh" and again.usage.cached
    assert len(answered) == 1
    kept = tmp_path / ".cache.unusable"
    assert kept.read_text(encoding="utf-8") == "not a folder"


async def test_a_write_that_cannot_happen_is_skipped_not_a_failed_call(tmp_path: Path) -> None:
    blocked = tmp_path / "ro"
    blocked.mkdir()
    model, answered = counted(ResponseCache(blocked / "cache"))
    blocked.chmod(0o555)
    try:
        if os.access(blocked, os.W_OK):
            pytest.skip("this user writes to read-only folders")
        done = await model.complete(ASK, caller="host", seed=3)
    finally:
        blocked.chmod(0o755)
    assert done.content == "fresh" and len(answered) == 1
