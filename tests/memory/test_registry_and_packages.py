"""Every registered memory module loads with its own kind; every subsystem says what it holds.

The layering of memory below the workspace is checked with the whole package in
``tests/test_layers.py``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import cogarch.memory
from cogarch.core.memory import MemoryModule
from cogarch.memory.registry import MEMORY_MODULES, build_memory

ROOT = Path(cogarch.memory.__file__).resolve().parent


@pytest.mark.parametrize("kind", MEMORY_MODULES.names())
def test_every_registered_module_imports_and_has_its_kind(kind: str) -> None:
    cls = MEMORY_MODULES.get(kind)
    assert issubclass(cls, MemoryModule) and cls.kind == kind


@pytest.mark.parametrize("package", ["working", "retrieval", "compressed", "task_graph"])
def test_each_subpackage_says_what_it_holds(package: str) -> None:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text()))
    assert doc and len(doc.split()) >= 8


def test_each_retrieval_baseline_ingests_what_its_reference_agent_stores() -> None:
    """Mem0 and LightMem are handed the window of both roles by the Hangman paper's agents,
    A-Mem a note of the user's latest message, MemoryOS question-answer pairs; the RAG
    baseline (raw_turns) stores every turn."""
    expected = {
        "mem0": ("user", "assistant"),
        "lightmem": ("user", "assistant"),
        "amem": ("user",),
        "memoryos": ("user", "assistant"),
        "raw_turns": ("user", "assistant"),
    }
    for kind, roles in expected.items():
        module = build_memory(kind, {"embedder": "hash"})
        assert module.params.ingest_roles == roles, kind  # type: ignore[attr-defined]
        doc = sys.modules[type(module).__module__].__doc__ or ""
        assert "Ingests:" in doc, kind
