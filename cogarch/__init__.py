"""cogarch: compose language agents from cognitive modules and measure their memory."""

from cogarch.errors import CogarchError, ConfigError, ModelCallError, UnknownNameError
from cogarch.models import Meter, Model, ProviderConfig, Providers

__version__ = "0.1.0"

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
