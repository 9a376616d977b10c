"""The built-in provider kinds: ``openai`` (an OpenAI-compatible endpoint), ``local`` (the
embedded llama.cpp server) and ``fake`` (a scripted fake). They share one config model,
:class:`~cogarch.models.providers.ProviderConfig`, whose fields a run config has always
written (so its recorded settings and digest stay what they were)."""

from __future__ import annotations

import os
from typing import ClassVar

from autogen_core.models import ChatCompletionClient

from cogarch.errors import ConfigError
from cogarch.models.endpoints import EMBEDDED_ENDPOINT
from cogarch.models.fake_callers import by_caller
from cogarch.models.fakes import PairsFn, pairs_model
from cogarch.models.model import Model
from cogarch.models.provider import Provider, ProviderSettings
from cogarch.models.providers import (
    ProviderConfig,
    local_settings,
    no_fakes,
    openai_client,
    own_local_server,
)


class _Builtin(Provider):
    Params: ClassVar[type[ProviderSettings]] = ProviderConfig
    config: ProviderConfig

    @property
    def served(self) -> str:
        return self.config.model or self.config.fake or "qwen2.5-coder-1.5b-q4_k_m"

    @property
    def where(self) -> str:
        return self.config.base_url or self.config.kind


class OpenAIProvider(_Builtin):
    """An OpenAI-compatible endpoint (``base_url``, or several ``base_urls``, one a replica)."""

    def replicas(self) -> int:
        return len(self.config.endpoints())

    def client(self, replica: int) -> ChatCompletionClient:
        cfg = self.config
        api_key = self._env(cfg.api_key_env, "API key", "...") if cfg.api_key_env else "not-needed"
        url = cfg.endpoints()[replica]
        if cfg.base_url_env:
            url = self._env(cfg.base_url_env, "base URL", "https://your-endpoint/v1")
        return openai_client(cfg.model or "", url, api_key, cfg)

    def _env(self, var: str, what: str, example: str) -> str:
        value = os.environ.get(var, "")
        if not value:
            raise ConfigError(
                f"provider '{self.name}' reads its {what} from ${var}, which is not set; "
                f"export {var}={example} before running"
            )
        return value

    def model(self, replica: int = 0) -> Model:
        url = self.config.endpoints()[replica]
        return Model(
            lambda: self.client(replica),
            model=self.config.model or "",
            endpoint=url,
            slots=self.config.slots,
            slot_server=url or self.config.base_url_env,
            **self.model_options(),
        )


class LocalProvider(_Builtin):
    """The embedded llama.cpp server (the ``local`` extra), started on first use."""

    @property
    def where(self) -> str:
        return EMBEDDED_ENDPOINT

    def client(self, replica: int) -> ChatCompletionClient:
        source = self.context.local_server or own_local_server
        model_name, base_url = source(local_settings(self.config))
        return openai_client(model_name, base_url, "local", self.config)

    def model(self, replica: int = 0) -> Model:
        cfg = self.config
        return Model(
            lambda: self.client(replica),
            model="local-gguf",
            endpoint=EMBEDDED_ENDPOINT,
            slots=cfg.n_parallel if cfg.slots is None else cfg.slots,
            slot_server=f"local:{cfg.gguf_path}:{cfg.n_ctx}:{cfg.n_parallel}:{cfg.n_threads}",
            **self.model_options(),
        )


class FakeProvider(_Builtin):
    """A scripted fake: a name in the run's table of fakes, or an import path to one; other
    fakes may play some callers' calls (``callers``, see :mod:`cogarch.models.fake_callers`)."""

    offline = True

    def check(self) -> None:
        self._fake()

    def _fake(self) -> PairsFn:
        assert self.config.fake is not None
        table = self.context.fakes or no_fakes()
        fn = table.get(self.config.fake)
        if not self.config.callers:
            return fn
        callers = {pattern: table.get(name) for pattern, name in self.config.callers.items()}
        return by_caller(fn, callers)

    def model(self, replica: int = 0) -> Model:
        name = f"fake:{self.config.fake}"
        if self.config.callers:  # another script is another model (and another cache key)
            name += "[" + ",".join(f"{p}={f}" for p, f in self.config.callers.items()) + "]"
        return Model(pairs_model(self._fake()), model=name, fake=True, **self.model_options())
