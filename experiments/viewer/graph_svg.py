"""The agent's transition graph laid out for drawing, with one turn's walk marked on it.

Nodes are placed in columns by their distance from the entry; an edge that goes back to an
earlier or the same column is drawn as an arc. The template draws the result as SVG.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from cogarch.core.records import TransitionCount, WalkStep

COLUMN, ROW, PAD, NODE_W, NODE_H = 150, 56, 12, 116, 30


@dataclass(frozen=True)
class NodeBox:
    name: str
    x: int
    y: int
    visited: bool
    role: str
    """entry, responder or '' (an ordinary specialist)."""


@dataclass(frozen=True)
class EdgeLine:
    source: str
    target: str
    path: str
    when: str | None
    visited: bool


@dataclass(frozen=True)
class Drawing:
    width: int
    height: int
    nodes: list[NodeBox]
    edges: list[EdgeLine]
    node_w: int = NODE_W
    node_h: int = NODE_H


@dataclass(frozen=True)
class Shape:
    """The graph itself: nodes, edges with their conditions, entry and responder."""

    nodes: list[str]
    edges: list[tuple[str, str, str | None]]
    entry: str
    responder: str


def shape_of(
    agent_spec: Mapping[str, Any] | None,
    transitions: Sequence[TransitionCount],
    walk: Sequence[WalkStep],
) -> Shape | None:
    """The graph from the recorded agent spec, else from the edges the trial took. A recorded
    spec that is not one, or whose edges or entry name a node it lacks, is drawn as it is
    (every name it uses becomes a node) or, failing that, from the edges taken."""
    if agent_spec and isinstance(agent_spec.get("specialists"), Mapping):
        from pydantic import ValidationError

        from ...workspace.spec import AgentSpec

        try:
            spec = AgentSpec.model_validate(agent_spec)
        except ValidationError:
            spec = None
        if spec is not None:
            edges = [(e.source, e.target, e.when) for e in spec.edges]
            named = [spec.entry, *(n for a, b, _ in edges for n in (a, b))]
            nodes = list(dict.fromkeys([*spec.specialists, *named]))
            return Shape(nodes, edges, spec.entry, spec.responder)
    pairs = [(t.source, t.target) for t in transitions]
    pairs += [(s.source, s.node) for s in walk if s.source != "<input>"]
    nodes = list(dict.fromkeys([*(s.node for s in walk), *(n for p in pairs for n in p)]))
    if not nodes:
        return None
    entry = next((s.node for s in walk if s.source == "<input>"), nodes[0])
    return Shape(nodes, [(a, b, None) for a, b in dict.fromkeys(pairs)], entry, "responder")


def draw(shape: Shape, visited_steps: Iterable[WalkStep]) -> Drawing:
    steps = list(visited_steps)
    taken = {(s.source, s.node) for s in steps}
    seen_nodes = {s.node for s in steps}
    graph = nx.DiGraph()
    graph.add_nodes_from(shape.nodes)
    graph.add_edges_from((a, b) for a, b, _ in shape.edges)
    depth: dict[str, int] = dict(nx.single_source_shortest_path_length(graph, shape.entry))
    last = max(depth.values(), default=0)
    for node in shape.nodes:
        if node not in depth:
            last += 1
            depth[node] = last
    columns: dict[int, list[str]] = {}
    for node in shape.nodes:
        columns.setdefault(depth[node], []).append(node)
    pos: dict[str, tuple[int, int]] = {}
    for col, names in columns.items():
        for row, name in enumerate(names):
            pos[name] = (PAD + col * COLUMN, PAD + 18 + row * ROW)
    boxes = [
        NodeBox(
            name,
            *pos[name],
            visited=name in seen_nodes,
            role="entry" if name == shape.entry else "responder" if name == shape.responder else "",
        )
        for name in shape.nodes
    ]
    lines = [
        EdgeLine(a, b, _path(pos[a], pos[b]), when, (a, b) in taken) for a, b, when in shape.edges
    ]
    width = PAD * 2 + max(x for x, _ in pos.values()) + NODE_W
    height = PAD * 2 + max(y for _, y in pos.values()) + NODE_H + 30
    return Drawing(width, height, boxes, lines)


def _path(a: tuple[int, int], b: tuple[int, int]) -> str:
    (ax, ay), (bx, by) = a, b
    if bx > ax:
        x1, y1, x2, y2 = ax + NODE_W, ay + NODE_H // 2, bx, by + NODE_H // 2
        mid = (x1 + x2) // 2
        return f"M{x1},{y1} C{mid},{y1} {mid},{y2} {x2},{y2}"
    x1, x2 = ax + NODE_W // 2, bx + NODE_W // 2
    y1, y2 = ay + NODE_H, by + NODE_H
    drop = max(y1, y2) + 26
    return f"M{x1},{y1} C{x1},{drop} {x2},{drop} {x2 + 6},{y2 + 2}"


__all__ = ["Drawing", "EdgeLine", "NodeBox", "Shape", "draw", "shape_of"]
