"""The agent's transition graph laid out for drawing, with one turn's walk marked on it.

The layout is ``cogarch.workspace.layout``'s (entry on top, loops in lanes beside the nodes),
the same picture ``agent.draw()`` and the docs show; the template embeds the SVG.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cogarch.core.records import TransitionCount, WalkStep
from cogarch.workspace.layout import layered, to_svg


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
    svg: str
    """The picture: an SVG element whose texts are escaped."""


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

        from cogarch.workspace.spec import AgentSpec

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
    """The graph in the layered layout ``agent.draw()`` and the docs use, this turn's walk
    marked on it."""
    steps = list(visited_steps)
    taken = {(s.source, s.node) for s in steps}
    seen_nodes = {s.node for s in steps}
    layout = layered(shape.nodes, shape.edges, shape.entry, shape.responder)
    boxes = [
        NodeBox(n.name, round(n.x), round(n.y), n.name in seen_nodes, n.role) for n in layout.nodes
    ]
    lines = [
        EdgeLine(e.source, e.target, e.path, e.when, (e.source, e.target) in taken)
        for e in layout.edges
    ]
    svg = to_svg(layout, visited_nodes=seen_nodes, visited_edges=taken)
    return Drawing(round(layout.width), round(layout.height), boxes, lines, svg)
