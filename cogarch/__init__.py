"""cogarch: compose language agents from cognitive modules and measure their memory.

The heavy parts (the model layer and AutoGen behind it) load on first use of their names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cogarch.errors import CogarchError, ConfigError, ModelCallError, UnknownNameError

if TYPE_CHECKING:
    from cogarch.models import Meter, Model, ProviderConfig, Providers

__version__ = "0.1.0"
"""The installed version of cogarch."""

_LAZY = {"Meter", "Model", "ProviderConfig", "Providers"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from cogarch import models

        return getattr(models, name)
    raise AttributeError(f"module 'cogarch' has no attribute {name!r}")


__all__ = [
    "CogarchError",
    "ConfigError",
    "Meter",
    "Model",
    "ModelCallError",
    "ProviderConfig",
    "Providers",
    "UnknownNameError",
    "__version__",
]
