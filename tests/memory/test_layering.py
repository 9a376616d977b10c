"""Memory sits below the workspace: its files import downward only, and without cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

import cogarch.memory
from cogarch.core.memory import MemoryModule
from cogarch.memory.registry import MEMORY_MODULES

ROOT = Path(cogarch.memory.__file__).resolve().parent
ABOVE = ("cogarch.workspace", "cogarch.tasks", "cogarch.experiments")
PENDING = {"retrieval/prompts.py"}
"""Files that still reach above memory: their prompts register into the workspace table."""


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(("cogarch.memory", *parts)).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (at any depth in the file), relative ones resolved."""
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


FILES = {_module(p): p for p in sorted(ROOT.rglob("*.py"))}


@pytest.mark.parametrize("name", sorted(FILES))
def test_no_memory_file_imports_a_layer_above(name: str) -> None:
    path = FILES[name]
    if str(path.relative_to(ROOT)) in PENDING:
        pytest.skip("still registers its prompts into the workspace table")
    upward = sorted(m for m in _imports(path) if m.startswith(ABOVE))
    assert upward == [], f"{path.relative_to(ROOT)} imports {upward}"


def test_the_files_of_memory_import_each_other_without_cycles() -> None:
    graph = nx.DiGraph()
    for name, path in FILES.items():
        graph.add_node(name)
        for target in _imports(path) & FILES.keys():
            if target != name and FILES[target].name != "__init__.py":
                graph.add_edge(name, target)
    assert list(nx.simple_cycles(graph)) == []
    assert graph.has_edge("cogarch.memory.working.tool_specs", "cogarch.memory.working.tools")
    assert not graph.has_edge(
        "cogarch.memory.working.tool_calls", "cogarch.memory.working.tool_specs"
    )


@pytest.mark.parametrize("kind", MEMORY_MODULES.names())
def test_every_registered_module_imports_and_has_its_kind(kind: str) -> None:
    cls = MEMORY_MODULES.get(kind)
    assert issubclass(cls, MemoryModule) and cls.kind == kind


@pytest.mark.parametrize("package", ["working", "retrieval", "compressed", "task_graph"])
def test_each_subpackage_says_what_it_holds(package: str) -> None:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text()))
    assert doc and len(doc.split()) >= 8
