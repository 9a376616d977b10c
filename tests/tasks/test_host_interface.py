"""Tasks talk to agents only through the capability interface of ``cogarch.core.host``: no
attribute probe of an agent, no reach into its workspace, memory, specialists or graph, and no
import of the workspace layer that builds agents."""

from __future__ import annotations

import ast
from pathlib import Path

TASKS = Path(__file__).resolve().parents[2] / "tasks"
INTERNALS = {
    "workspace",
    "memory",
    "specialists",
    "graph",
    "route_log",
    "state_sizes",
    "memory_footprints",
    "last_retrieved",
}
"""Parts of a composed agent (and of its memory modules) a task has no business reading."""


def _sources() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(TASKS.rglob("*.py"))]


def test_no_task_probes_an_object_for_attributes_it_may_lack() -> None:
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and node.args
                and isinstance(node.args[0], ast.Name | ast.Call | ast.Attribute)
            ):
                target = ast.unparse(node.args[0])
                if any(word in target for word in ("agent", "host", "fork", "base", "model")):
                    found.append(f"{path.relative_to(TASKS)}:{node.lineno} {ast.unparse(node)}")
    assert found == []


def test_no_task_reaches_into_an_agents_parts() -> None:
    found = [
        f"{path.relative_to(TASKS)}:{node.lineno} .{node.attr}"
        for path, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in INTERNALS
    ]
    assert found == []


def test_no_task_imports_the_workspace_layer() -> None:
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                name = ("." * node.level) + (node.module or "")
                if "workspace" in name:
                    found.append(f"{path.relative_to(TASKS)}:{node.lineno} {name}")
            elif isinstance(node, ast.Import):
                found += [a.name for a in node.names if "workspace" in a.name]
    assert found == []
