"""Provider kinds: classes with their own config model, by short name or import path."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import ClassVar

import pytest
from autogen_core.models import ChatCompletionClient

from cogarch.errors import ConfigError
from cogarch.models import Providers, user
from cogarch.models.fakes import pairs_model
from cogarch.models.provider import Provider, ProviderSettings
from cogarch.models.provider_kinds import FakeProvider, LocalProvider, OpenAIProvider
from cogarch.models.providers import PROVIDER_KINDS, ProviderConfig, load_providers_yaml


class ShoutConfig(ProviderSettings):
    word: str


class ShoutProvider(Provider):
    """Answers every call with its configured word, in capitals."""

    Params: ClassVar[type[ProviderSettings]] = ShoutConfig
    offline = True
    config: ShoutConfig

    @property
    def served(self) -> str:
        return "shout"

    def client(self, replica: int) -> ChatCompletionClient:
        word = self.config.word.upper()

        def reply(pairs: Sequence[tuple[str, str]], seed: int, call: object) -> str:
            return f"{word} ({len(pairs)})"

        return pairs_model(reply)


class NotAProvider:
    pass


KIND = f"{__name__}:ShoutProvider"


def test_the_built_in_kinds_are_classes_by_short_name() -> None:
    assert PROVIDER_KINDS.names() == ["fake", "local", "openai"]
    assert PROVIDER_KINDS.get("openai") is OpenAIProvider
    assert PROVIDER_KINDS.get("local") is LocalProvider
    assert PROVIDER_KINDS.get("fake") is FakeProvider


def test_a_kind_named_by_import_path_validates_and_builds_with_its_own_config() -> None:
    loaded = load_providers_yaml({"loud": {"kind": KIND, "word": "hello", "max_tokens": 9}})
    cfg = loaded["loud"]
    assert isinstance(cfg, ShoutConfig) and cfg.word == "hello" and cfg.max_tokens == 9
    providers = Providers(loaded)
    model = providers.get("loud", seed=3)
    assert model.fake and model.model == "shout" and model.provider == "loud"
    completion = asyncio.run(model.complete([user("hi")], caller="test"))
    assert completion.content == "HELLO (1)"


def test_a_kinds_own_fields_are_checked_where_they_are() -> None:
    with pytest.raises(ConfigError) as info:
        load_providers_yaml({"loud": {"kind": KIND, "wrod": "x"}})
    lines = {line.split(":")[0].strip(): line for line in str(info.value).splitlines()[1:]}
    assert set(lines) == {"providers.loud.word", "providers.loud.wrod"}
    assert lines["providers.loud.wrod"].endswith(
        f"unknown key (remove it or check its spelling); valid keys of provider kind '{KIND}': "
        "extra_body, kind, max_in_flight, max_tokens, reasoning, retry, temperature, word"
    )


def test_an_unknown_kind_or_a_class_that_is_no_provider_is_refused_at_kind() -> None:
    with pytest.raises(
        ConfigError,
        match=r"providers\.r\.kind: unknown provider kind 'banana'; valid names: fake, local, ",
    ):
        load_providers_yaml({"r": {"kind": "banana"}})
    with pytest.raises(ConfigError, match=r"providers\.r\.kind: .*not a subclass of Provider"):
        load_providers_yaml({"r": {"kind": f"{__name__}:NotAProvider"}})


def test_a_built_in_entry_keeps_the_fields_it_always_recorded() -> None:
    cfg = load_providers_yaml({"p": {"kind": "fake", "fake": "hangman.honest"}})["p"]
    assert type(cfg) is ProviderConfig
    assert set(cfg.model_dump()) == {
        "kind", "model", "base_url", "base_url_env", "base_urls", "max_in_flight",
        "api_key_env", "temperature", "max_tokens", "timeout", "extra_body", "reasoning",
        "model_info", "retry", "gguf_path", "n_ctx", "n_parallel", "n_threads", "speculative",
        "slots", "fake",
    }  # fmt: skip


def test_a_reply_cap_is_recorded_only_when_set() -> None:
    capped = load_providers_yaml({"p": {"kind": "local", "reply_cap": 32}})["p"]
    assert capped.model_dump()["reply_cap"] == 32
    assert ProviderConfig.model_validate(capped.model_dump()) == capped
