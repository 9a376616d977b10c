"""Public modules that import each of their names from its own file on first use."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import Any


def lazy_names(package: str, where: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports each name of ``where`` (module ->
    names; one not under ``cogarch.`` is a submodule of ``package``) when it is first asked for."""
    found = {name: module for module, names in where.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name not in found:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = found[name]
        if not module.startswith("cogarch."):
            module = f"{package}.{module}"
        return getattr(import_module(module), name)

    return __getattr__
