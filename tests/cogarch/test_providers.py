"""Providers: names, YAML validation, fakes, and API keys that never leak."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
import yaml

from cogarch.errors import ConfigError, ModelCallError, UnknownNameError
from cogarch.models import CallInfo, Meter, ProviderConfig, Providers, ResponseCache, system, user
from cogarch.models.providers import FakeTable, build_model, load_providers_yaml
from cogarch.registry import Registry
from cogarch.testing import allowing_model_requests
from tests.cogarch import LiveModels

SECRET = "sk-test-DO-NOT-LEAK-4f9a27c1"
KEY_ENV = "COGARCH_TEST_API_KEY"


def echo_fake(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
    """A ``kind: fake`` model: repeats the last user turn with the seed."""
    assert call.caller == "t"
    return f"{pairs[-1][1]} (seed {seed})"


@pytest.fixture
async def live(_no_real_models: None) -> AsyncIterator[LiveModels]:
    """Real clients against local fault servers; requests allowed for these tests only."""
    with allowing_model_requests():
        async with LiveModels() as models:
            yield models


def test_an_unknown_provider_lists_the_valid_names() -> None:
    providers = Providers({"remote": ProviderConfig(model="m", base_url="http://x/v1")})
    with pytest.raises(UnknownNameError) as info:
        providers.get("remtoe")
    message = str(info.value)
    assert "unknown provider 'remtoe'" in message
    assert "valid names: local, remote" in message


def test_provider_yaml_gives_one_line_per_problem() -> None:
    data = yaml.safe_load(
        """
        good:
          model: m
          base_url: http://127.0.0.1:9/v1
        bad:
          model: m
          tempreature: 0.5
          timeout: soon
          temperature: 7
          retry: {max_attempts: 0}
        """
    )
    with pytest.raises(ConfigError) as info:
        load_providers_yaml(data)
    head, *lines = str(info.value).splitlines()
    assert head == "invalid configuration:"
    assert len(lines) == 4
    by_key = {line.strip().split(":", 1)[0]: line for line in lines}
    assert set(by_key) == {
        "providers.bad.tempreature",
        "providers.bad.timeout",
        "providers.bad.temperature",
        "providers.bad.retry.max_attempts",
    }
    assert "unknown key" in by_key["providers.bad.tempreature"]
    assert "'soon'" in by_key["providers.bad.timeout"]
    assert "less than or equal to 2" in by_key["providers.bad.temperature"]
    assert "greater than or equal to 1" in by_key["providers.bad.retry.max_attempts"]


def test_provider_yaml_that_is_valid_loads() -> None:
    loaded = load_providers_yaml({"vllm": {"model": "qwen", "base_url": "http://h/v1"}})
    assert loaded["vllm"].model == "qwen"
    assert loaded["vllm"].kind == "openai"


def test_an_openai_provider_needs_a_model_name() -> None:
    with pytest.raises(ConfigError, match=r"providers\.remote: .*needs 'model'"):
        load_providers_yaml({"remote": {"base_url": "http://h/v1"}})


async def test_fake_providers_resolve_from_the_table_they_are_given() -> None:
    registry: FakeTable = Registry("fake model")
    registry.register("test.echo", echo_fake)
    registry.register("test.lazy", f"{__name__}:echo_fake")
    providers = Providers(
        load_providers_yaml({"e": {"kind": "fake", "fake": "test.echo"}}), fakes=registry
    )
    model = providers.get("e")
    assert model.fake and model.model == "fake:test.echo"
    reply = await model.complete([system("s"), user("hello")], caller="t", seed=3)
    assert reply.content == "hello (seed 3)"
    lazy = build_model("l", ProviderConfig(kind="fake", fake="test.lazy"), fakes=registry)
    assert (await lazy.complete([user("hi")], caller="t")).content == "hi (seed 0)"
    with pytest.raises(UnknownNameError, match=r"valid names: test\.echo, test\.lazy"):
        build_model("x", ProviderConfig(kind="fake", fake="test.nope"), fakes=registry)
    with pytest.raises(UnknownNameError, match=r"unknown fake model 'test\.echo'"):
        Providers(load_providers_yaml({"e": {"kind": "fake", "fake": "test.echo"}})).check("e")


async def test_fake_providers_resolve_from_an_import_path() -> None:
    cfg = ProviderConfig(kind="fake", fake=f"{__name__}:echo_fake")
    model = build_model("path", cfg)
    assert (await model.complete([user("ping")], caller="t", seed=8)).content == "ping (seed 8)"


def test_a_fake_provider_needs_a_fake_name() -> None:
    with pytest.raises(ConfigError, match=r"providers\.f: .*needs 'fake': a fake's name"):
        load_providers_yaml({"f": {"kind": "fake"}})


async def test_the_api_key_comes_from_the_named_variable(
    live: LiveModels, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    server = live.serve(["ok"])
    await live.model(server, api_key_env=KEY_ENV).complete([user("hi")], caller="t")
    assert server.requests[0].headers["authorization"] == f"Bearer {SECRET}"


async def test_a_missing_key_variable_is_named(
    live: LiveModels, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    server = live.serve(["ok"])
    model = live.model(server, name="paid", api_key_env=KEY_ENV)
    with pytest.raises(ConfigError) as info:
        await model.complete([user("hi")], caller="t")
    message = str(info.value)
    assert f"${KEY_ENV}" in message and "provider 'paid'" in message
    assert server.hits == 0


async def test_the_api_key_never_leaks(
    live: LiveModels, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    server = live.serve(["ok", "401"])
    cache = ResponseCache(tmp_path / "cache")
    model = live.model(server, api_key_env=KEY_ENV, cache=cache)
    with Meter().active() as meter:
        reply = await model.complete([user("hi")], caller="t", seed=1)
        await model.complete([user("hi")], caller="t", seed=1)
        with pytest.raises(ModelCallError) as info:
            await model.complete([user("again")], caller="t", seed=2)
    assert server.requests[0].headers["authorization"].endswith(SECRET)  # it was used
    files = list(cache.root.rglob("*"))
    assert any(f.is_file() for f in files)
    artifacts = [
        repr(model),
        repr(vars(model)),
        repr(reply),
        json.dumps(meter.summary()),
        repr(meter.records),
        str(info.value),
        *(f.read_text(encoding="utf-8") for f in files if f.is_file()),
        *(f.name for f in files),
    ]
    for text in artifacts:
        assert SECRET not in text
