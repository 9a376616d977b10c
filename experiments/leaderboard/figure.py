"""A score-against-tokens figure as inline SVG: one point per agent (tokens spent, against the
value, its interval as a bar), the Pareto front filled, controls as dashed horizontal lines.

Every name is placed by ``figure_labels`` inside the plot's frame (``rect.plot-area``) where
it overlaps nothing; a name with no room is drawn as a number, listed in the legend under the
figure; each point and each label names its agents on hover (``<title>``). A control (the
reader with no memory, the oracle) frames the others: it is a reference line at its value,
named on the line, and is never on the Pareto front.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..figures.labels import (
    FONT,
    Anchor,
    Box,
    Label,
    marker_box,
    place_labels,
    text_origin,
)

W, H = 460, 300
FRAME = Box(58.0, 12.0, W - 12.0, H - 40.0)
"""The plot's frame: every point, line and label is inside it."""
INSET = 14.0
"""How far inside the frame the extreme points sit."""
SIZE = 10.0
"""The labels' font size, in pixels."""
RADIUS = 4.0


@dataclass(frozen=True)
class Point:
    name: str
    tokens: float
    value: float
    low: float
    high: float
    control: str | None = None
    """The control role: drawn as a line at ``value``, never on the Pareto front."""


def pareto(points: Sequence[tuple[str, float, float]], higher: bool) -> set[str]:
    """The names of ``(name, tokens, score)`` points no other point dominates (fewer or
    equal tokens and a better or equal score, one of them strictly)."""
    front = set()
    for name, tokens, score in points:
        dominated = False
        for other, t, s in points:
            if other == name:
                continue
            as_good = s >= score if higher else s <= score
            strictly = (s > score if higher else s < score) or t < tokens
            if t <= tokens and as_good and strictly:
                dominated = True
                break
        if not dominated:
            front.add(name)
    return front


def _span(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high > low:
        return low, high
    half = abs(low) / 2 or 0.5
    return low - half, high + half


class _Axes:
    def __init__(self, points: Sequence[Point]) -> None:
        compared = [p for p in points if p.control is None] or list(points)
        xs = [p.tokens for p in compared]
        ys = [v for p in points for v in (p.value, p.low, p.high)]
        self.x_ticks = sorted({min(xs), max(xs)})
        self.y_ticks = sorted({min(ys), max(ys)})
        self.x0, self.x1 = _span(xs)
        self.y0, self.y1 = _span(ys)

    def x(self, tokens: float) -> float:
        inner = FRAME.width - 2 * INSET
        return FRAME.left + INSET + (tokens - self.x0) / (self.x1 - self.x0) * inner

    def y(self, value: float) -> float:
        inner = FRAME.height - 2 * INSET
        return FRAME.bottom - INSET - (value - self.y0) / (self.y1 - self.y0) * inner


def _hover(point: Point) -> str:
    role = f" (control: {point.control})" if point.control else ""
    interval = f" ({point.low:.3g}-{point.high:.3g})" if point.low != point.high else ""
    return f"{point.name}{role}: {point.value:.3g}{interval}, {point.tokens:.0f} tokens"


def _frame_parts(title: str, axes: _Axes, metric: str) -> list[str]:
    f = FRAME
    mid_y = (f.top + f.bottom) / 2
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" role="img" '
        f'font-family="{FONT}" font-size="{SIZE:g}">',
        f"<title>{html.escape(title)}</title>",
        f'<rect class="plot-area" x="{f.left}" y="{f.top}" width="{f.width}" '
        f'height="{f.height}" fill="none" stroke="#ddd"/>',
        f'<line x1="{f.left}" y1="{f.bottom}" x2="{f.right}" y2="{f.bottom}" stroke="#888"/>',
        f'<line x1="{f.left}" y1="{f.top}" x2="{f.left}" y2="{f.bottom}" stroke="#888"/>',
        *(
            f'<text class="tick" x="{f.left - 4}" y="{axes.y(v) + 3:.1f}" '
            f'text-anchor="end">{v:.3g}</text>'
            for v in axes.y_ticks
        ),
        *(
            f'<text class="tick" x="{axes.x(v):.1f}" y="{f.bottom + 13}" '
            f'text-anchor="middle">{v:.0f}</text>'
            for v in axes.x_ticks
        ),
        f'<text class="axis" x="{(f.left + f.right) / 2}" y="{H - 8}" '
        f'text-anchor="middle">tokens</text>',
        f'<text class="axis" transform="translate(14 {mid_y}) rotate(-90)" '
        f'text-anchor="middle">{html.escape(metric)}</text>',
    ]


def _point_parts(point: Point, axes: _Axes, on_front: bool) -> str:
    hover = f"<title>{html.escape(_hover(point))}</title>"
    agent = html.escape(point.name)
    if point.control is not None:
        y = axes.y(point.value)
        band = ""
        if point.low != point.high:
            top, bottom = axes.y(point.high), axes.y(point.low)
            band = (
                f'<rect x="{FRAME.left}" y="{top:.1f}" width="{FRAME.width}" '
                f'height="{bottom - top:.1f}" fill="#999" fill-opacity="0.08"/>'
            )
        return (
            f'<g class="control" data-agent="{agent}">{hover}{band}'
            f'<line x1="{FRAME.left}" y1="{y:.1f}" x2="{FRAME.right}" y2="{y:.1f}" '
            f'stroke="#777" stroke-dasharray="5 3"/></g>'
        )
    x = axes.x(point.tokens)
    return (
        f'<g class="agent" data-agent="{agent}">{hover}'
        f'<line x1="{x:.1f}" y1="{axes.y(point.low):.1f}" x2="{x:.1f}" '
        f'y2="{axes.y(point.high):.1f}" stroke="#99c"/>'
        f'<circle class="{"pareto" if on_front else "point"}" cx="{x:.1f}" '
        f'cy="{axes.y(point.value):.1f}" r="{RADIUS:g}" fill="{"#2a6" if on_front else "white"}" '
        f'stroke="#246"/></g>'
    )


def _label_parts(label: Label, points: Sequence[Point], bold: set[str]) -> str:
    if label.box is None:
        return ""
    named = [points[i] for i in label.anchors]
    hover = html.escape("\n".join(_hover(p) for p in named))
    agents = html.escape("\n".join(p.name for p in named))
    leader = ""
    if label.leader is not None:
        x0, y0, x1, y1 = label.leader
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        x0, y0 = x0 + (x1 - x0) * RADIUS / length, y0 + (y1 - y0) * RADIUS / length
        leader = (
            f'<line class="leader" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
            f'stroke="#aaa" stroke-width="0.8"/>'
        )
    x, y = text_origin(label.box, SIZE)
    weight = ' font-weight="bold"' if any(p.name in bold for p in named) else ""
    return (
        f'<g class="label"><title>{hover}</title>{leader}<text class="label" '
        f'data-agents="{agents}" x="{x:.1f}" y="{y:.1f}"{weight}>'
        f"{html.escape(label.text)}</text></g>"
    )


def _legend(points: Sequence[Point], labels: Sequence[Label], numbers: dict[int, int]) -> str:
    if not numbers:
        return ""
    unplaced = {i for label in labels if label.box is None for i in label.anchors}
    items = []
    for i, number in sorted(numbers.items(), key=lambda item: item[1]):
        note = " <small>(no room on the plot: hover its point)</small>" if i in unplaced else ""
        items.append(f'<li value="{number}">{html.escape(points[i].name)}{note}</li>')
    return f'<ol class="legend">{"".join(items)}</ol>'


def scatter(title: str, points: Sequence[Point], higher: bool, metric: str = "value") -> str:
    """The figure of ``points`` (a ``<figure>`` with its caption and legend), or "" when
    there is none."""
    if not points:
        return ""
    axes = _Axes(points)
    compared = [p for p in points if p.control is None]
    front = pareto([(p.name, p.tokens, p.value) for p in compared], higher)
    order = sorted(
        range(len(points)),
        key=lambda i: (
            0 if points[i].name in front and points[i].control is None else 1,
            0 if points[i].control is not None else 1,
            points[i].tokens if points[i].name in front else 0.0,
            i,
        ),
    )
    ordered = [points[i] for i in order]
    anchors = [
        Anchor(p.name, FRAME.left, axes.y(p.value), FRAME.right)
        if p.control is not None
        else Anchor(p.name, axes.x(p.tokens), axes.y(p.value))
        for p in ordered
    ]
    markers = [marker_box(a.x, a.y, RADIUS) for a in anchors if a.to is None]
    placed = place_labels(anchors, FRAME, size=SIZE, radius=RADIUS, markers=markers)
    parts = _frame_parts(title, axes, metric)
    parts += [_point_parts(p, axes, p.name in front and p.control is None) for p in ordered]
    parts += [_label_parts(label, ordered, front) for label in placed.labels]
    parts.append("</svg>")
    keys = ["filled: Pareto front"]
    if len(compared) < len(points):
        keys.append("dashed: a control, not ranked")
    caption = f"{html.escape(title)} ({'; '.join(keys)})"
    legend = _legend(ordered, placed.labels, placed.numbers)
    return (
        f'<figure class="scatter">{"".join(parts)}<figcaption>{caption}{legend}</figcaption>'
        "</figure>"
    )
