"""Every registered memory module loads with its own kind; every subsystem says what it holds.

The layering of memory below the workspace is checked with the whole package in
``tests/test_layers.py``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cogarch.memory
from cogarch.core.memory import MemoryModule
from cogarch.memory.registry import MEMORY_MODULES

ROOT = Path(cogarch.memory.__file__).resolve().parent


@pytest.mark.parametrize("kind", MEMORY_MODULES.names())
def test_every_registered_module_imports_and_has_its_kind(kind: str) -> None:
    cls = MEMORY_MODULES.get(kind)
    assert issubclass(cls, MemoryModule) and cls.kind == kind


@pytest.mark.parametrize("package", ["working", "retrieval", "compressed", "task_graph"])
def test_each_subpackage_says_what_it_holds(package: str) -> None:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text()))
    assert doc and len(doc.split()) >= 8
