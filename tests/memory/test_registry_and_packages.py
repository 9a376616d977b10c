"""Every registered memory module loads with its own kind; every subsystem says what it holds.

The layering of memory below the workspace is checked with the whole package in
``tests/test_layers.py``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Any

import pytest

import cogarch.memory
from cogarch.core.memory import MemoryModule
from cogarch.errors import ConfigError
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


class Plain(MemoryModule):
    """A module of one's own that declares no parameters."""

    def render(self, budget_tokens: int | None = None) -> str:
        return ""

    def save_state(self) -> dict[str, Any]:
        return {}

    def load_state(self, state: dict[str, Any]) -> None:
        pass


def test_an_unknown_parameter_names_the_module_and_its_parameters() -> None:
    with pytest.raises(ConfigError) as info:
        build_memory("working_memory", {"stratgy": "overwrite"}, where="memory.wm")
    assert str(info.value).splitlines()[1:] == [
        "  memory.wm.stratgy: unknown key (remove it or check its spelling); "
        "valid keys of memory module 'working_memory': initial, strategy"
    ]


def test_a_module_named_by_import_path_without_params_refuses_them() -> None:
    kind = f"{__name__}:Plain"
    assert isinstance(build_memory(kind, {}), Plain)
    with pytest.raises(ConfigError, match=rf"^memory\.p: memory module '{kind}' takes no param"):
        build_memory(kind, {"provider": "fake"}, where="memory.p")
