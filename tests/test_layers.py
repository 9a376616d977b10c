"""The package's own imports: layers only point down, no file imports itself in a circle, and
the sibling folders are reached only through the ``cogarch`` import root."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parents[1]
SIBLINGS = ("workspace", "memory", "tasks", "experiments")

LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "cogarch.errors",
        "cogarch.tokens",
        "cogarch.io",
        "cogarch.files",
        "cogarch.seeds",
        "cogarch.registry",
        "cogarch.config",
        "cogarch.lazy",
        "cogarch.words",
    ),
    ("cogarch.core",),
    ("cogarch.models", "cogarch.testing", "cogarch"),
    ("cogarch.memory",),
    ("cogarch.workspace",),
    ("cogarch.tasks",),
    (
        "cogarch.experiments.results",
        "cogarch.experiments.estimates",
        "cogarch.experiments.papers",
        "cogarch.experiments.otel",
    ),
    ("cogarch.experiments.tables",),
    ("cogarch.experiments.figures",),
    ("cogarch.experiments.running", "cogarch.experiments.judge_audit"),
    ("cogarch.experiments.reports",),
    ("cogarch.experiments.suites", "cogarch.experiments.leaderboard"),
    ("cogarch.experiments.scale",),
    ("cogarch.experiments.cli", "cogarch.experiments.viewer"),
    ("cogarch.experiments",),
    ("cogarch.bridges",),
)
"""Bottom to top; a module belongs to the layer of its longest matching prefix. The bridges
are the top layer: nothing of the framework imports them (the runner names a framework's
host builder by import path, ``cogarch.experiments.running.framework_hosts.FRAMEWORKS``)."""


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name, read from the real folders."""
    found: dict[str, Path] = {}
    roots = [("cogarch", REPO / "cogarch")] + [(f"cogarch.{s}", REPO / s) for s in SIBLINGS]
    for prefix, root in roots:
        for path in root.rglob("*.py"):
            rel = path.relative_to(root).with_suffix("")
            if rel.parts and rel.parts[0] in SIBLINGS and prefix == "cogarch":
                continue  # the links to the sibling folders
            parts = [p for p in rel.parts if p != "__init__"]
            found[".".join([prefix, *parts])] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of the package that ``name`` imports (at any depth, lazy ones included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            targets = [
                f"{stem}.{a.name}" if f"{stem}.{a.name}" in modules else stem for a in node.names
            ]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def layer(name: str) -> int:
    best, level = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, level = len(prefix), i
    return level


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    modules = module_files()
    g = nx.DiGraph()
    for name, path in modules.items():
        g.add_node(name)
        for target in imports_of(name, path, modules):
            g.add_edge(name, target)
    return g


def test_every_import_points_down_or_stays_in_its_layer(graph: nx.DiGraph) -> None:
    upward = sorted(f"{a} -> {b}" for a, b in graph.edges if layer(b) > layer(a))
    assert upward == []


def test_the_bridges_are_the_top_layer(graph: nx.DiGraph) -> None:
    assert layer("cogarch.bridges.agent_framework.hosting") == len(LAYERS) - 1
    into = sorted(
        f"{a} -> {b}"
        for a, b in graph.edges
        if b.startswith("cogarch.bridges") and not a.startswith("cogarch.bridges")
    )
    assert into == []


def test_no_import_cycles(graph: nx.DiGraph) -> None:
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert cycles == []


def test_sibling_folders_are_imported_only_through_the_cogarch_root() -> None:
    bare = []
    for folder in ("cogarch", *SIBLINGS, "tests", "benchmarks", "examples"):
        for path in (REPO / folder).rglob("*.py"):
            if folder == "cogarch" and path.relative_to(REPO / folder).parts[0] in SIBLINGS:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                bare += [f"{path}: {n}" for n in names if n.split(".")[0] in SIBLINGS]
    assert bare == []


def test_the_links_under_cogarch_point_at_the_sibling_folders() -> None:
    for sibling in SIBLINGS:
        link = REPO / "cogarch" / sibling
        assert link.is_symlink() and link.resolve() == (REPO / sibling).resolve()


def top_folder(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in SIBLINGS else "cogarch"


def relative_crossings(modules: dict[str, Path]) -> list[str]:
    """Relative imports whose target lies in another top-level folder than the importer."""
    found = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
                if top_folder(target) != top_folder(name):
                    found.append(f"{name}:{node.lineno} -> {target}")
    return found


def test_imports_between_top_level_folders_are_absolute() -> None:
    assert relative_crossings(module_files()) == []


def test_a_relative_import_across_folders_is_found(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from ..memory.working import WorkingMemory\nfrom .prompts import X\n")
    found = relative_crossings({"cogarch.workspace.bad": bad})
    assert found == ["cogarch.workspace.bad:1 -> cogarch.memory.working"]
