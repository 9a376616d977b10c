"""Registries that map short names to objects or import paths ("module:attribute")."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

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
    registering them; what a path imports must be a subclass of ``base`` (when given) and pass
    ``check`` (when given), or the name is refused like an unknown one. An unknown name lists
    the valid ones.
    """

    def __init__(
        self,
        kind: str,
        *,
        lazy: bool = True,
        base: type | None = None,
        check: Callable[[Any], str | None] | None = None,
    ) -> None:
        self.kind = kind
        self.lazy = lazy
        """When true, a string entry is an import path resolved on first use."""
        self.base = base
        self.check = check
        """Why an imported object cannot serve (a short phrase), or None when it can."""
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
            return self._checked(name, import_object(name))
        valid = ", ".join(self.names()) or "(none registered)"
        raise UnknownNameError(
            f"unknown {self.kind} '{name}'; valid names: {valid} (or an import path 'module:name')"
        )

    def _checked(self, name: str, found: object) -> T:
        problem = None
        if self.base is not None and not (isinstance(found, type) and issubclass(found, self.base)):
            problem = f"is not a subclass of {self.base.__name__}"
        elif self.check is not None:
            problem = self.check(found)
        if problem is not None:
            valid = ", ".join(self.names()) or "(none registered)"
            raise UnknownNameError(
                f"'{name}' cannot be used as a {self.kind}: what it imports "
                f"({type(found).__name__}) {problem}; valid names: {valid}"
            )
        return found  # type: ignore[return-value]


def takes_positional(count: int) -> Callable[[Any], str | None]:
    """A ``check`` for registries of functions: callable with ``count`` positional arguments."""

    def check(found: Any) -> str | None:
        if not callable(found):
            return "is not a function"
        try:
            inspect.signature(found).bind(*range(count))
        except TypeError:
            return f"does not take {count} positional arguments"
        except ValueError:
            return None  # no signature to read (some builtins); it may still work
        return None

    return check
