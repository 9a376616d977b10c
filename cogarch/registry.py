"""Registries that map short names to objects or import paths ("module:attribute")."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Generic, TypeVar

from cogarch.errors import UnknownNameError

T = TypeVar("T")


def import_object(path: str) -> object:
    """Import ``"package.module:attribute"`` (or ``"package.module.attribute"``)."""
    module_name, sep, attr = path.partition(":")
    if not sep:
        module_name, _, attr = path.rpartition(".")
    if not module_name or not attr:
        raise UnknownNameError(f"'{path}' is not an import path; write it as 'package.module:name'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownNameError(f"cannot import module '{module_name}' for '{path}': {exc}") from exc
    try:
        return getattr(module, attr)
    except AttributeError as exc:
        raise UnknownNameError(f"module '{module_name}' has no attribute '{attr}'") from exc


class Registry(Generic[T]):
    """Short name -> object, where the object may be given lazily as an import path.

    ``get`` also accepts any import path, so users can plug in their own classes without
    registering them. An unknown name lists the valid ones.
    """

    def __init__(self, kind: str, *, lazy: bool = True) -> None:
        self.kind = kind
        self.lazy = lazy
        """When true, a string entry is an import path resolved on first use."""
        self._entries: dict[str, T | str] = {}

    def register(self, name: str, target: T | str) -> None:
        self._entries[name] = target

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._entries))

    def names(self) -> list[str]:
        return sorted(self._entries)

    def get(self, name: str) -> T:
        if name in self._entries:
            target = self._entries[name]
            if self.lazy and isinstance(target, str):
                resolved = import_object(target)
                self._entries[name] = resolved  # type: ignore[assignment]
                return resolved  # type: ignore[return-value]
            return target  # type: ignore[return-value]
        if self.lazy and ":" in name:
            return import_object(name)  # type: ignore[return-value]
        valid = ", ".join(self.names()) or "(none registered)"
        raise UnknownNameError(
            f"unknown {self.kind} '{name}'; valid names: {valid} (or an import path 'module:name')"
        )
