"""An agent as data: its full description, printed, drawn and compared with another's.

``describe`` gives everything an agent is made of (nodes with kind, provider and parameters,
edges with their conditions, routing, entry, responder, step budget, memory modules), in plain
types, so two agents (or two specs) can be diffed and an agent can be printed or drawn.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from cogarch.core import specialist as core
from cogarch.core.memory import MemoryModule

from .graph import NodeRouting, TransitionGraph
from .layout import Layout, layered, to_svg
from .layout_png import render_png


class Composed(Protocol):
    """What a description reads of an agent."""

    @property
    def name(self) -> str: ...
    @property
    def graph(self) -> TransitionGraph: ...
    @property
    def specialists(self) -> Mapping[str, core.Specialist[Any, Any]]: ...
    @property
    def memory(self) -> Mapping[str, MemoryModule]: ...
    @property
    def memory_params(self) -> Mapping[str, Mapping[str, Any]]: ...


def describe(agent: Composed) -> dict[str, Any]:
    """Everything the agent is made of, as plain data."""
    graph = agent.graph
    return {
        "name": agent.name,
        "entry": graph.entry,
        "responder": graph.responder,
        "step_budget": graph.step_budget,
        "nodes": {name: s.describe() for name, s in agent.specialists.items()},
        "edges": [
            {"source": a, "target": b, "when": graph.edge_condition(a, b)}
            for a, b in graph.graph.edges
        ],
        "routing": {
            node: _routing(route)
            for node, route in sorted(graph.routing.items())
            if route != NodeRouting()
        },
        "memory": {
            name: {"kind": m.kind, **agent.memory_params.get(name, _params(m))}
            for name, m in agent.memory.items()
        },
    }


def _routing(route: NodeRouting) -> dict[str, Any]:
    data = {
        "default": route.default,
        "chooser": route.chooser,
        "describe": route.describe,
        "end_when": route.end_when,
    }
    return {k: v for k, v in data.items() if v}


def _params(module: MemoryModule) -> dict[str, Any]:
    params = getattr(module, "params", None)
    return params.model_dump(exclude_defaults=True) if isinstance(params, BaseModel) else {}


def format_description(desc: Mapping[str, Any]) -> str:
    """A description as readable text (what ``cogarch agents NAME`` prints)."""
    budget = desc["step_budget"] if desc["step_budget"] is not None else "none"
    lines = [
        f"agent {desc['name']}",
        f"  entry: {desc['entry']}   responder: {desc['responder']}   step budget: {budget}",
        "  nodes:",
    ]
    for name, node in desc["nodes"].items():
        lines.append(f"    {name}: {_fields(node)}")
    lines.append("  edges:")
    for edge in desc["edges"]:
        when = f"  [when: {edge['when']}]" if edge["when"] else ""
        lines.append(f"    {edge['source']} -> {edge['target']}{when}")
    if not desc["edges"]:
        lines.append("    (none)")
    if desc["routing"]:
        lines.append("  routing:")
        lines += [f"    {node}: {_fields(r)}" for node, r in desc["routing"].items()]
    lines.append("  memory:" + ("" if desc["memory"] else " (none)"))
    lines += [f"    {name}: {_fields(m)}" for name, m in desc["memory"].items()]
    return "\n".join(lines)


def _fields(data: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in data.items() if v is not None) or "-"


def diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """What differs between two descriptions, one line each (empty when they agree).

    Nodes, memory modules and routing are compared by name, edges by their ends; a line reads
    ``path: left -> right`` with ``(absent)`` where one side lacks the entry.
    """
    out: list[str] = []
    for key in ("name", "entry", "responder", "step_budget"):
        if a[key] != b[key]:
            out.append(f"{key}: {a[key]!r} -> {b[key]!r}")
    for section in ("nodes", "routing", "memory"):
        _diff_named(section, a[section], b[section], out)
    edges_a = {(e["source"], e["target"]): e["when"] for e in a["edges"]}
    edges_b = {(e["source"], e["target"]): e["when"] for e in b["edges"]}
    for ends in sorted(edges_a.keys() | edges_b.keys()):
        label = f"edges.{ends[0]} -> {ends[1]}"
        if ends not in edges_b:
            out.append(f"{label}: present -> (absent)")
        elif ends not in edges_a:
            out.append(f"{label}: (absent) -> present")
        elif edges_a[ends] != edges_b[ends]:
            out.append(f"{label} when: {edges_a[ends]!r} -> {edges_b[ends]!r}")
    return out


def _diff_named(section: str, a: Mapping[str, Any], b: Mapping[str, Any], out: list[str]) -> None:
    absent = "(absent)"
    for name in sorted(a.keys() | b.keys()):
        if name not in a or name not in b:
            out.append(f"{section}.{name}: {a.get(name, absent)} -> {b.get(name, absent)}")
            continue
        for field in sorted(a[name].keys() | b[name].keys()):
            left, right = a[name].get(field, absent), b[name].get(field, absent)
            if left != right:
                out.append(f"{section}.{name}.{field}: {left!r} -> {right!r}")


def layout_of(agent: Composed) -> Layout:
    """The agent's transition graph laid out in layers (see ``cogarch.workspace.layout``)."""
    return layout_from_description(describe(agent))


def layout_from_description(desc: Mapping[str, Any]) -> Layout:
    """The layered layout of a description (``describe`` or ``spec.describe_spec``)."""
    budget = desc["step_budget"] if desc["step_budget"] is not None else "none"
    return layered(
        list(desc["nodes"]),
        [(e["source"], e["target"], e["when"]) for e in desc["edges"]],
        desc["entry"],
        desc["responder"],
        kinds={name: node.get("kind", "") for name, node in desc["nodes"].items()},
        defaults={n: r["default"] for n, r in desc["routing"].items() if r.get("default")},
        title=f"agent {desc['name']} (step budget: {budget})",
    )


def draw(agent: Composed, path: str | os.PathLike[str], *, dpi: int = 120) -> Path:
    """The transition graph as a picture: SVG when ``path`` ends in ``.svg``, else PNG.

    Both show the same layered layout as the viewer and the docs: the entry on top, loops in
    lanes at the right, each node's name and kind inside its box, conditions on the edges.
    """
    layout = layout_of(agent)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix.lower() == ".svg":
        target.write_text(to_svg(layout), encoding="utf-8")
    else:
        render_png(layout, target, dpi=dpi)
    return target
