"""cogarch: compose language agents from cognitive modules and measure their memory.

The heavy parts (the model layer and AutoGen behind it) load on first use of their names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.errors import CogarchError, ConfigError, ModelCallError, UnknownNameError
from cogarch.lazy import lazy_names

if TYPE_CHECKING:
    from cogarch.models import Meter, Model, ProviderConfig, Providers

__version__ = "0.1.0"
"""The installed version of cogarch."""

__getattr__ = lazy_names(
    __name__, {"cogarch.models": ("Meter", "Model", "ProviderConfig", "Providers")}
)


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
