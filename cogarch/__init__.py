"""cogarch: compose language agents from cognitive modules and measure their memory.

The heavy parts (the model layer and AutoGen behind it) load on first use of their names.
"""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.errors import CogarchError, ConfigError, ModelCallError, UnknownNameError
from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.models import Meter, Model, ProviderConfig, Providers

__version__ = "0.1.0"
"""The installed version of cogarch."""

__all__, __getattr__ = lazy_module(__name__)
