"""Public modules that name each of their names once and import it from its own file on first
use.

A public module (``cogarch.core``, ``cogarch.memory``...) lists its names as imports under
``if TYPE_CHECKING:``, where type checkers and the API reference read them, and ends with
``__all__, __getattr__ = lazy_module(__name__)``: :func:`public_names` reads those imports
back from the module's source, so the import line is the only place a name is written.
"""

from __future__ import annotations

import ast
import difflib
import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

_MACHINERY = frozenset({"__all__", "__getattr__", "__dir__"})


def _own_module(node: ast.ImportFrom) -> str | None:
    """The module an import takes its names from when it is the package's own code
    (``cogarch.…`` or a relative import, written as dots), else None."""
    if node.level:
        return "." * node.level + (node.module or "")
    if node.module and (node.module == "cogarch" or node.module.startswith("cogarch.")):
        return node.module
    return None


def _public(name: str) -> bool:
    if name.startswith("__") and name.endswith("__"):
        return name not in _MACHINERY
    return not name.startswith("_")


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in (
        "TYPE_CHECKING",
        "typing.TYPE_CHECKING",
    )


def public_names(source: str) -> tuple[list[str], dict[str, str]]:
    """The public names a public module's source defines, and where the lazy ones come from.

    Args:
        source: The module's Python source.

    Returns:
        Every public name, sorted (each name the module imports from cogarch's own code, at the
        top level or under ``if TYPE_CHECKING:``, and each it assigns; none starting with
        ``_`` but dunders such as ``__version__``), and, for the names imported only under
        ``if TYPE_CHECKING:``, the module each is imported from (relative ones as dots).
    """
    names: set[str] = set()
    lazy: dict[str, str] = {}
    for node in ast.parse(source).body:
        guarded = _is_type_checking(node)
        for stmt in node.body if guarded and isinstance(node, ast.If) else [node]:
            module = _own_module(stmt) if isinstance(stmt, ast.ImportFrom) else None
            if isinstance(stmt, ast.ImportFrom) and module not in (None, __name__):
                for alias in stmt.names:
                    name = alias.asname or alias.name
                    if _public(name):
                        names.add(name)
                        if guarded and module is not None:
                            lazy[name] = module
            elif isinstance(stmt, ast.Assign | ast.AnnAssign) and not guarded:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name) and _public(t.id))
    return sorted(names), lazy


def lazy_module(package: str) -> tuple[list[str], Callable[[str], Any]]:
    """The ``__all__`` and module ``__getattr__`` of the public module ``package``.

    Args:
        package: The module's ``__name__``; its source is read from its ``__file__``.

    Returns:
        ``__all__`` (its :func:`public_names`) and a ``__getattr__`` that imports each name
        listed under ``if TYPE_CHECKING:`` from its module when it is first asked for. The
        module's ``dir()`` lists those names too, and a name it does not have is refused with
        the nearest names it has.
    """
    owner = sys.modules[package]
    if owner.__file__ is None:
        raise ImportError(f"the public module {package!r} has no source file to read its names")
    exported, found = public_names(Path(owner.__file__).read_text(encoding="utf-8"))

    def names() -> list[str]:
        return sorted({*vars(owner), *found})

    def __getattr__(name: str) -> Any:
        if name not in found:
            close = difflib.get_close_matches(name, [n for n in names() if n[:1] != "_"], n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise AttributeError(f"module {package!r} has no attribute {name!r}{hint}")
        module = found[name]
        if module.startswith("."):
            return getattr(import_module(module, package), name)
        return getattr(import_module(module), name)

    setattr(owner, "__dir__", names)  # noqa: B010 (a module-level __dir__, PEP 562)
    return exported, __getattr__
