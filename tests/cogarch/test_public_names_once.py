"""Each public module writes each of its names once: the import that brings it in (under
``if TYPE_CHECKING:`` for the lazy ones) is read back as ``__all__`` and as the lazy map."""

from __future__ import annotations

import ast
import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from cogarch.experiments.docsite.pages import PUBLIC_MODULES
from cogarch.lazy import public_names

SOURCE = """
from __future__ import annotations
from typing import TYPE_CHECKING
from cogarch.errors import ConfigError
from cogarch.lazy import lazy_module
if TYPE_CHECKING:
    from cogarch.models import Model
    from .registry import build_thing, _private
__version__ = "1"
_hidden = 2
__all__, __getattr__ = lazy_module(__name__)
"""


def test_public_names_are_the_own_imports_and_assignments_and_the_lazy_map_the_guarded() -> None:
    names, lazy = public_names(SOURCE)
    assert names == ["ConfigError", "Model", "__version__", "build_thing"]
    assert lazy == {"Model": "cogarch.models", "build_thing": ".registry"}


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_each_public_name_is_written_once(module: str) -> None:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    written = Counter(
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    )
    strings = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier()
    ]
    names, _ = public_names(Path(spec.origin).read_text(encoding="utf-8"))
    for name in names:
        assert written[name] + strings.count(name) <= 1, f"{module} writes {name!r} twice"
