"""Public modules that import each of their names from its own file on first use."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import Any


def lazy_names(package: str, where: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports each name of ``where`` (module ->
    names; one not under ``cogarch.`` is a submodule of ``package``) when it is first asked for.
    The module's ``dir()`` lists those names too, and a name it does not have is refused with
    the nearest names it has."""
    found = {name: module for module, names in where.items() for name in names}
    owner = sys.modules.get(package)

    def names() -> list[str]:
        return sorted({*(vars(owner) if owner is not None else {}), *found})

    def __getattr__(name: str) -> Any:
        if name not in found:
            close = difflib.get_close_matches(name, [n for n in names() if n[:1] != "_"], n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise AttributeError(f"module {package!r} has no attribute {name!r}{hint}")
        module = found[name]
        if not module.startswith("cogarch."):
            module = f"{package}.{module}"
        return getattr(import_module(module), name)

    if owner is not None:
        setattr(owner, "__dir__", names)  # noqa: B010 (a module-level __dir__, PEP 562)
    return __getattr__
