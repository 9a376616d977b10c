"""The model layer: one :class:`Model` over any AutoGen ``ChatCompletionClient``, the
:class:`Providers` that build models by name, a provider kind of your own (:class:`Provider`
with its :class:`ProviderSettings`), and scripted models for tests (:class:`FunctionModel`,
:class:`ScriptedModel`, :func:`pairs_model`). Each name is imported from its file on first use,
so ``import cogarch.models`` loads no model client."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_names

if TYPE_CHECKING:
    from cogarch.models.cache import ResponseCache
    from cogarch.models.fakes import CallInfo, FakeReply, FunctionModel, ScriptedModel, pairs_model
    from cogarch.models.messages import as_pairs, assistant, system, user
    from cogarch.models.metering import Meter
    from cogarch.models.model import Model
    from cogarch.models.provider import Provider, ProviderContext, ProviderSettings
    from cogarch.models.providers import ProviderConfig, Providers
    from cogarch.models.retry import RetryPolicy

_FROM = {
    "cache": ("ResponseCache",),
    "fakes": ("CallInfo", "FakeReply", "FunctionModel", "ScriptedModel", "pairs_model"),
    "messages": ("as_pairs", "assistant", "system", "user"),
    "metering": ("Meter",),
    "model": ("Model",),
    "provider": ("Provider", "ProviderContext", "ProviderSettings"),
    "providers": ("ProviderConfig", "Providers"),
    "retry": ("RetryPolicy",),
}
__getattr__ = lazy_names(__name__, _FROM)

__all__ = [
    "CallInfo",
    "FakeReply",
    "FunctionModel",
    "Meter",
    "Model",
    "Provider",
    "ProviderConfig",
    "ProviderContext",
    "ProviderSettings",
    "Providers",
    "ResponseCache",
    "RetryPolicy",
    "ScriptedModel",
    "as_pairs",
    "assistant",
    "pairs_model",
    "system",
    "user",
]
