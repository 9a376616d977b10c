"""Replicas and in-flight bounds: a trial keeps to one of a provider's ``base_urls`` (chosen by
its seed), and no process holds more than ``max_in_flight`` requests open per endpoint."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from cogarch.errors import ConfigError
from cogarch.models import CallInfo, Model, ProviderConfig, Providers, pairs_model, user
from cogarch.models.endpoints import replica_index
from cogarch.models.providers import load_providers_yaml
from cogarch.testing import FaultServer, allowing_model_requests


async def test_each_trial_keeps_to_the_replica_its_seed_picks() -> None:
    with FaultServer() as a, FaultServer() as b, FaultServer() as c, allowing_model_requests():
        servers = [a, b, c]
        urls = [s.base_url for s in servers]
        providers = Providers({"r": ProviderConfig(model="m", base_urls=urls, timeout=5)})
        try:
            for seed in (0, 4, 11, 2**62 + 1):
                models = providers.for_trial(seed)
                assert models("r") is models("r")  # one model, one replica, all trial long
                before = [s.hits for s in servers]
                for _ in range(2):
                    await models("r").complete([user("hi")], caller="t")
                grew = [s.hits - n for s, n in zip(servers, before, strict=True)]
                assert grew == [2 if i == seed % 3 else 0 for i in range(3)]
                assert models("r").endpoint == urls[replica_index(seed, 3)]
        finally:
            await providers.aclose()
    assert sorted({replica_index(seed, 3) for seed in range(30)}) == [0, 1, 2]


def test_a_single_endpoint_provider_is_the_same_for_every_trial() -> None:
    providers = Providers({"one": ProviderConfig(model="m", base_url="http://h/v1")})
    assert providers.for_trial(1)("one") is providers.for_trial(2)("one") is providers.get("one")


@pytest.mark.parametrize(
    ("block", "problem"),
    [
        ({"model": "m", "base_urls": ["http://a/v1"], "base_url": "http://b/v1"}, "not both"),
        ({"model": "m", "base_urls": ["http://a/v1", "http://a/v1"]}, "more than once"),
        ({"model": "m", "base_urls": ["a:8000/v1"]}, "must be an http(s) URL"),
        ({"kind": "local", "base_urls": ["http://a/v1"]}, "'openai' providers only"),
        ({"model": "m", "max_in_flight": 0}, "greater than or equal to 1"),
    ],
)
def test_bad_replica_settings_name_the_problem(block: dict[str, object], problem: str) -> None:
    with pytest.raises(ConfigError, match=r"providers\.r") as caught:
        load_providers_yaml({"r": block})
    assert problem in str(caught.value)


async def test_requests_in_flight_per_endpoint_are_bounded_across_models() -> None:
    running, peak = 0, 0

    async def slow(pairs: Sequence[tuple[str, str]], seed: int, call: CallInfo) -> str:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1
        return "ok"

    def model(name: str, endpoint: str) -> Model:
        fake = pairs_model(slow)
        return Model(fake, provider=name, model="m", endpoint=endpoint, fake=True, max_in_flight=2)

    shared = [model("p", "http://e/v1"), model("q", "http://e/v1")]
    await asyncio.gather(*(m.complete([user("x")], caller="t") for m in shared * 4))
    assert peak == 2
    peak = 0
    apart = [model("p", "http://e1/v1"), model("q", "http://e2/v1")]
    await asyncio.gather(*(m.complete([user("x")], caller="t") for m in apart * 4))
    assert peak == 4  # two endpoints, two slots each
