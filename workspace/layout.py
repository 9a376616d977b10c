"""A transition graph laid out in layers, drawn as SVG: one picture for draw(), the docs and the
viewer.

The entry is on the top layer and every other node one layer below the deepest node that
leads to it along forward edges (edges that close a loop are set aside first, found by a
depth-first walk from the entry). Nodes of a layer are ordered to cross few edges (barycentre
sweeps). A forward edge runs down from its source's bottom to its target's top; an edge back
to an earlier layer, or to its own, is a loop drawn in a lane of its own right of the nodes,
so every loop stays visible. Labels sit inside boxes sized to their text; an edge's condition
is written on it over a white ground.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape

Point = tuple[float, float]

CHAR_W, SMALL_CHAR_W = 7.4, 6.4
NODE_H, LAYER_GAP, NODE_GAP, PAD, LANE = 42.0, 62.0, 28.0, 16.0, 26.0
TITLE_H = 28.0


@dataclass(frozen=True)
class PlacedNode:
    name: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    role: str
    """entry, responder or '' (an ordinary specialist)."""

    @property
    def cx(self) -> float:
        return self.x + self.w / 2


@dataclass(frozen=True)
class PlacedEdge:
    source: str
    target: str
    when: str | None
    label: str
    points: tuple[Point, ...]
    """Start point, then three points per cubic Bézier segment."""
    label_at: Point
    loop: bool

    @property
    def path(self) -> str:
        (x, y), rest = self.points[0], self.points[1:]
        parts = [f"M{x:.1f},{y:.1f}"]
        for i in range(0, len(rest), 3):
            seg = " ".join(f"{px:.1f},{py:.1f}" for px, py in rest[i : i + 3])
            parts.append(f"C{seg}")
        return " ".join(parts)


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    nodes: list[PlacedNode]
    edges: list[PlacedEdge]
    title: str | None = None


def text_width(text: str, small: bool = False) -> float:
    """An estimate of the text's width in pixels at the drawing's font sizes."""
    return len(text) * (SMALL_CHAR_W if small else CHAR_W)


def layered(
    nodes: Sequence[str],
    edges: Sequence[tuple[str, str, str | None]],
    entry: str,
    responder: str | None = None,
    *,
    kinds: Mapping[str, str] | None = None,
    defaults: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Layout:
    """Place the graph's nodes in layers and route its edges.

    ``kinds`` gives the second line of a node's box (its specialist kind); ``defaults`` names,
    per node with several successors, the successor taken by default (labelled ``default``).
    """
    kinds = kinds or {}
    defaults = defaults or {}
    order = list(dict.fromkeys([entry, *nodes, *(n for a, b, _ in edges for n in (a, b))]))
    succ: dict[str, list[str]] = {n: [] for n in order}
    for a, b, _ in edges:
        succ[a].append(b)
    layer = _layers(order, succ, entry)
    back = {(a, b) for a, b, _ in edges if layer[b] < layer[a] or a == b}
    level = {(a, b) for a, b, _ in edges if layer[b] == layer[a] and a != b}
    rows = _order_rows(order, layer, [(a, b) for a, b, _ in edges if layer[b] > layer[a]])

    top = PAD + (TITLE_H if title else 0.0)
    widths = {n: max(text_width(n), text_width(kinds.get(n, ""), small=True)) + 22 for n in order}
    row_w = {i: sum(widths[n] for n in row) + NODE_GAP * (len(row) - 1) for i, row in rows.items()}
    full = max(row_w.values(), default=0.0)
    placed: dict[str, PlacedNode] = {}
    for i, row in rows.items():
        x = PAD + (full - row_w[i]) / 2
        for name in row:
            role = "entry" if name == entry else "responder" if name == responder else ""
            y = top + i * (NODE_H + LAYER_GAP)
            placed[name] = PlacedNode(name, kinds.get(name, ""), x, y, widths[name], NODE_H, role)
            x += widths[name] + NODE_GAP

    left_lanes = sum(1 for a, b in back if placed[a].cx < PAD + full / 2 and a != b)
    shift = left_lanes * LANE
    if shift:
        placed = {n: replace(p, x=p.x + shift) for n, p in placed.items()}
    centre, right = PAD + shift + full / 2, PAD + shift + full
    routed: list[PlacedEdge] = []
    lanes = lefts = 0
    down = [(a, b) for a, b, _ in edges if layer[b] > layer[a]]
    out_count = {n: sum(1 for a, _ in down if a == n) for n in order}
    out_seen: dict[str, int] = {}
    for a, b, when in edges:
        label = f"when {when}" if when else "default" if defaults.get(a) == b else ""
        src, dst = placed[a], placed[b]
        if (a, b) in back and src.cx < centre and a != b:
            lefts += 1
            routed.append(_loop(src, dst, when, label, PAD + shift - lefts * LANE, left=True))
            continue
        if (a, b) in back:
            lanes += 1
            routed.append(_loop(src, dst, when, label, right + lanes * LANE))
            continue
        if (a, b) in level:
            routed.append(_level(src, dst, when, label, rows[layer[a]]))
            continue
        k = out_seen.get(a, 0)
        out_seen[a] = k + 1
        sx = src.x + src.w * (k + 1) / (out_count[a] + 1)
        start, end = (sx, src.y + src.h), (dst.cx, dst.y)
        bend = (end[1] - start[1]) / 2
        points = (start, (sx, start[1] + bend), (end[0], end[1] - bend), end)
        mid = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
        routed.append(PlacedEdge(a, b, when, label, points, mid, loop=False))

    label_right = max(
        (e.label_at[0] + text_width(e.label, small=True) / 2 for e in routed if e.label),
        default=0.0,
    )
    width = max(right + lanes * LANE, label_right, text_width(title or "")) + PAD * 2
    height = top + len(rows) * (NODE_H + LAYER_GAP) - LAYER_GAP + PAD
    return Layout(width, height, [placed[n] for n in order], routed, title)


def _layers(order: list[str], succ: Mapping[str, list[str]], entry: str) -> dict[str, int]:
    """Each node's distance from the entry (breadth first), so a forward edge spans one layer;
    a node the entry does not reach goes below, at its distance from the first such node."""
    layer: dict[str, int] = {}
    for root in [entry, *order]:
        if root in layer:
            continue
        base = max(layer.values(), default=-1) + 1
        layer[root] = base
        queue = [root]
        for node in queue:
            for nxt in succ[node]:
                if nxt not in layer:
                    layer[nxt] = layer[node] + 1
                    queue.append(nxt)
    return layer


def _order_rows(
    order: list[str], layer: Mapping[str, int], forward: list[tuple[str, str]]
) -> dict[int, list[str]]:
    rows: dict[int, list[str]] = {}
    for node in order:
        rows.setdefault(layer[node], []).append(node)
    up: dict[str, list[str]] = {n: [] for n in order}
    down: dict[str, list[str]] = {n: [] for n in order}
    for a, b in forward:
        down[a].append(b)
        up[b].append(a)
    depth = max(rows, default=0)
    for _ in range(4):
        for i in range(1, depth + 1):
            _sort_by(rows, i, i - 1, up)
        for i in range(depth - 1, -1, -1):
            _sort_by(rows, i, i + 1, down)
    return dict(sorted(rows.items()))


def _sort_by(rows: dict[int, list[str]], i: int, j: int, links: Mapping[str, list[str]]) -> None:
    if i not in rows or j not in rows:
        return
    where = {n: k for k, n in enumerate(rows[j])}
    row = rows[i]

    def key(item: tuple[int, str]) -> float:
        k, node = item
        near = [where[n] for n in links[node] if n in where]
        return sum(near) / len(near) if near else float(k)

    rows[i] = [n for _, n in sorted(enumerate(row), key=key)]


def _level(
    src: PlacedNode, dst: PlacedNode, when: str | None, label: str, row: list[str]
) -> PlacedEdge:
    """An edge within a layer: straight across to a neighbour, else an arc under the row."""
    rightward = dst.x > src.x
    if abs(row.index(src.name) - row.index(dst.name)) == 1:
        y = src.y + src.h / 2
        x1, x2 = (src.x + src.w, dst.x) if rightward else (src.x, dst.x + dst.w)
        third = (x2 - x1) / 3
        points = ((x1, y), (x1 + third, y), (x2 - third, y), (x2, y))
        return PlacedEdge(src.name, dst.name, when, label, points, ((x1 + x2) / 2, y - 10), False)
    bottom = src.y + src.h
    x1 = src.x + src.w * (0.8 if rightward else 0.2)
    x2 = dst.x + dst.w * (0.2 if rightward else 0.8)
    dip = bottom + LAYER_GAP * 0.55
    points = ((x1, bottom), (x1, dip), (x2, dip), (x2, bottom))
    return PlacedEdge(src.name, dst.name, when, label, points, ((x1 + x2) / 2, dip - 8), False)


def _loop(
    src: PlacedNode, dst: PlacedNode, when: str | None, label: str, lane: float, left: bool = False
) -> PlacedEdge:
    """An edge back up (or to its own node), run out to its lane beside the nodes."""
    sy, ty = src.y + src.h * 0.62, dst.y + dst.h * 0.38
    if left:
        start, end = (src.x, sy), (dst.x, ty)
    else:
        start, end = (src.x + src.w, sy), (dst.x + dst.w, ty)
    if src.name == dst.name:
        points = (start, (lane, sy + 18), (lane, ty - 18), end)
    else:
        points = (start, (lane, sy), (lane, ty), end)
    half = text_width(label, small=True) / 2 + 4
    label_at = (lane + half if left else lane - half, (sy + ty) / 2)
    return PlacedEdge(src.name, dst.name, when, label, points, label_at, loop=True)


STYLE = (
    ".graph .edge{fill:none;stroke:#7d8797;stroke-width:1.4}"
    ".graph .edge.visited{stroke:#c0392b;stroke-width:2.6}"
    ".graph .node rect{fill:#fff;stroke:#5f6b7d;stroke-width:1.2}"
    ".graph .node.entry rect{fill:#e6f4e6;stroke:#3c8d3c;stroke-dasharray:5 2}"
    ".graph .node.responder rect{fill:#fdf0df;stroke:#c47a1c}"
    ".graph .node.visited rect{fill:#fff1e6;stroke:#c0392b;stroke-width:2}"
    ".cg-name{font:600 12px sans-serif;fill:#1d2430}"
    ".cg-kind{font:11px sans-serif;fill:#5a6475}"
    ".cg-label{font:11px sans-serif;fill:#394150}"
    ".cg-label-bg{fill:#fff;opacity:.9}"
    ".cg-title{font:600 13px sans-serif;fill:#1d2430}"
)


def to_svg(
    layout: Layout,
    *,
    visited_nodes: Collection[str] = (),
    visited_edges: Collection[tuple[str, str]] = (),
    marker_id: str = "cg-arrow",
) -> str:
    """The layout as a standalone SVG document (its own styles; every text escaped)."""
    w, h = round(layout.width), round(layout.height)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" role="img" aria-label="transition graph">',
        f"<style>{STYLE}</style>",
        f'<defs><marker id="{marker_id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#5f6b7d"/></marker></defs>',
    ]
    if layout.title:
        out.append(f'<text class="cg-title" x="{PAD}" y="{PAD + 12}">{escape(layout.title)}</text>')
    for e in layout.edges:
        cls = "edge" + (" visited" if (e.source, e.target) in visited_edges else "")
        tip = f"{e.source} → {e.target}" + (f" [when {e.when}]" if e.when else "")
        out.append(
            f'<path class="{cls}" d="{e.path}" marker-end="url(#{marker_id})" '
            f'data-edge="{escape(e.source)}->{escape(e.target)}"><title>{escape(tip)}</title></path>'
        )
    for e in layout.edges:
        if not e.label:
            continue
        lw, (lx, ly) = text_width(e.label, small=True) + 6, e.label_at
        out.append(
            f'<rect class="cg-label-bg" x="{lx - lw / 2:.1f}" y="{ly - 8:.1f}" width="{lw:.1f}" '
            f'height="15" rx="3"/><text class="cg-label" x="{lx:.1f}" y="{ly + 4:.1f}" '
            f'text-anchor="middle">{escape(e.label)}</text>'
        )
    for n in layout.nodes:
        cls = f"node {n.role}".rstrip() + (" visited" if n.name in visited_nodes else "")
        name_y = n.y + (17 if n.kind else 25)
        out.append(
            f'<g class="{cls}" data-node="{escape(n.name)}"><rect x="{n.x:.1f}" y="{n.y:.1f}" '
            f'width="{n.w:.1f}" height="{n.h:.1f}" rx="6"/><text class="cg-name" '
            f'x="{n.cx:.1f}" y="{name_y:.1f}" text-anchor="middle">{escape(n.name)}</text>'
        )
        if n.kind:
            out.append(
                f'<text class="cg-kind" x="{n.cx:.1f}" y="{n.y + 32:.1f}" '
                f'text-anchor="middle">{escape(n.kind)}</text>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
