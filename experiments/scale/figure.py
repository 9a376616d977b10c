"""The scale curves as one SVG: four panels sharing a logarithmic x axis of history tokens
(accuracy, retrieval recall, context tokens per question, ingestion seconds), one line per
memory, a control dashed.

Each panel is a ``<g class="panel" data-metric="...">`` with its frame (``rect.plot-area``);
each memory's curve in it is a ``<g class="series" data-agent="...">`` holding a polyline
through its points (a point without the value breaks the line) and one circle per point,
each naming the memory, the length and the value on hover (``<title>``). The legend above
the panels names every memory with its colour and dash. Shares (accuracy, recall) run from
0 to 1; counts from 0 to a round number above the largest.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..figures.labels import FONT, text_width
from .curves import Scale, ScalePoint, points_of

PANEL_W, PANEL_H = 340.0, 220.0
LEFT, RIGHT, TOP, BOTTOM = 56.0, 14.0, 26.0, 38.0
"""The frame's margins inside a panel: tick labels left, title above, x ticks below."""
INSET = 16.0
"""How far inside the frame the shortest and longest history sit."""
SIZE = 10.0
LEGEND_ROW = 18.0
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")


@dataclass(frozen=True)
class Panel:
    metric: str
    title: str
    value: Callable[[ScalePoint], float | None]
    share: bool


def panels(scale: Scale) -> list[Panel]:
    return [
        Panel("accuracy", "accuracy", lambda p: p.accuracy, True),
        Panel("recall", f"recall ({scale.recall_metric})", lambda p: p.recall, True),
        Panel("context_tokens", "context tokens / question", lambda p: p.context_tokens, False),
        Panel("ingest_seconds", "ingestion seconds", lambda p: p.ingest_seconds, False),
    ]


def tokens_label(tokens: float) -> str:
    """``8k``, ``128k``, ``1.5M``: a history length as its tick says it."""
    for unit, size in (("M", 1e6), ("k", 1e3)):
        if tokens >= size:
            shown = f"{tokens / size:.1f}".removesuffix(".0")
            return shown + unit
    return f"{tokens:.0f}"


def _round_up(value: float) -> float:
    """The least of 1, 2, 2.5, 5 times a power of ten at or above ``value`` (1 for 0)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= value)


class _Axes:
    def __init__(self, left: float, top: float, tokens: Sequence[float], y_max: float) -> None:
        self.left, self.top = left + LEFT, top + TOP
        self.right, self.bottom = left + PANEL_W - RIGHT, top + PANEL_H - BOTTOM
        self.lo, self.hi = math.log10(min(tokens)), math.log10(max(tokens))
        self.y_max = y_max

    def x(self, tokens: float) -> float:
        if self.hi == self.lo:
            return (self.left + self.right) / 2
        inner = self.right - self.left - 2 * INSET
        return self.left + INSET + (math.log10(tokens) - self.lo) / (self.hi - self.lo) * inner

    def y(self, value: float) -> float:
        return self.bottom - value / self.y_max * (self.bottom - self.top)


def _tick_text(value: float, share: bool) -> str:
    return f"{100 * value:.0f}%" if share else f"{value:,.6g}"


def _hover(point: ScalePoint, panel: Panel, value: float) -> str:
    shown = f"{100 * value:.0f}%" if panel.share else f"{value:,.1f}"
    extra = f" ({point.correct}/{point.questions})" if panel.metric == "accuracy" else ""
    return (
        f"{point.agent} at {point.history_tokens:,} history tokens ({point.task}): "
        f"{panel.title} {shown}{extra}"
    )


def _panel(
    panel: Panel, left: float, top: float, curves: dict[str, list[ScalePoint]], tokens: list[float]
) -> list[str]:
    values = [v for ps in curves.values() for p in ps if (v := panel.value(p)) is not None]
    y_max = 1.0 if panel.share else _round_up(max(values, default=0.0))
    axes = _Axes(left, top, tokens, y_max)
    parts = [
        f'<g class="panel" data-metric="{panel.metric}">',
        f'<text class="panel-title" x="{axes.left:.1f}" y="{top + TOP - 8:.1f}" '
        f'font-weight="bold">{html.escape(panel.title)}</text>',
        f'<rect class="plot-area" x="{axes.left:.1f}" y="{axes.top:.1f}" '
        f'width="{axes.right - axes.left:.1f}" height="{axes.bottom - axes.top:.1f}" '
        f'fill="none" stroke="#ccc"/>',
    ]
    for level in (0.0, y_max / 2, y_max):
        y = axes.y(level)
        parts.append(
            f'<line class="grid" x1="{axes.left:.1f}" y1="{y:.1f}" x2="{axes.right:.1f}" '
            f'y2="{y:.1f}" stroke="#eee"/><text class="tick" x="{axes.left - 4:.1f}" '
            f'y="{y + 3:.1f}" text-anchor="end">{_tick_text(level, panel.share)}</text>'
        )
    last = -math.inf
    for length in tokens:
        x = axes.x(length)
        label = tokens_label(length)
        if x - last < text_width(label, SIZE) + 4:  # too close to the previous tick to name
            continue
        last = x
        parts.append(
            f'<text class="tick x-tick" x="{x:.1f}" y="{axes.bottom + 13:.1f}" '
            f'text-anchor="middle">{label}</text>'
        )
    parts.append(
        f'<text class="axis" x="{(axes.left + axes.right) / 2:.1f}" y="{top + PANEL_H - 8:.1f}" '
        'text-anchor="middle">history tokens (log scale)</text>'
    )
    for index, (agent, points) in enumerate(curves.items()):
        colour = COLOURS[index % len(COLOURS)]
        dash = ' stroke-dasharray="5 3"' if points[0].control else ""
        parts.append(f'<g class="series" data-agent="{html.escape(agent)}">')
        run: list[str] = []
        runs: list[list[str]] = [run]
        for point in points:
            value = panel.value(point)
            if value is None:
                run = []
                runs.append(run)
                continue
            run.append(f"{axes.x(point.history_tokens):.1f},{axes.y(value):.1f}")
        for line in runs:
            if len(line) > 1:
                parts.append(
                    f'<polyline points="{" ".join(line)}" fill="none" stroke="{colour}" '
                    f'stroke-width="1.8"{dash}/>'
                )
        for point in points:
            value = panel.value(point)
            if value is None:
                continue
            parts.append(
                f'<circle cx="{axes.x(point.history_tokens):.1f}" cy="{axes.y(value):.1f}" '
                f'r="3.5" fill="{colour}"><title>{html.escape(_hover(point, panel, value))}'
                "</title></circle>"
            )
        parts.append("</g>")
    parts.append("</g>")
    return parts


def _legend(curves: dict[str, list[ScalePoint]], width: float) -> tuple[list[str], float]:
    """The legend's parts and its height: one swatch and name per memory, in rows."""
    parts = ['<g class="legend">']
    x, y = LEFT, LEGEND_ROW
    for index, (agent, points) in enumerate(curves.items()):
        name = agent + (f" (control: {points[0].control})" if points[0].control else "")
        span = 28 + text_width(name, SIZE) + 18
        if x > LEFT and x + span > width:
            x, y = LEFT, y + LEGEND_ROW
        colour = COLOURS[index % len(COLOURS)]
        dash = ' stroke-dasharray="5 3"' if points[0].control else ""
        parts.append(
            f'<g class="legend-item" data-agent="{html.escape(agent)}">'
            f'<line x1="{x:.1f}" y1="{y - 4:.1f}" x2="{x + 22:.1f}" y2="{y - 4:.1f}" '
            f'stroke="{colour}" stroke-width="2"{dash}/>'
            f'<text x="{x + 28:.1f}" y="{y:.1f}">{html.escape(name)}</text></g>'
        )
        x += span
    parts.append("</g>")
    return parts, y + 8


def scale_svg(scale: Scale) -> str:
    """The figure of ``scale`` as a standalone SVG document (a note saying there is nothing
    to draw yet when no cell has a complete trial)."""
    width = 2 * PANEL_W
    curves = dict(points_of(scale))
    title = f"Scale curves: {scale.suite}"
    if not curves:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="40" '
            f'font-family="{FONT}" font-size="{SIZE:g}" role="img"><title>{html.escape(title)}'
            '</title><text x="10" y="24">no cell has a complete trial yet</text></svg>\n'
        )
    tokens = sorted({float(p.history_tokens) for p in scale.points})
    legend, legend_h = _legend(curves, width)
    body: list[str] = []
    for index, panel in enumerate(panels(scale)):
        left, top = (index % 2) * PANEL_W, legend_h + (index // 2) * PANEL_H
        body += _panel(panel, left, top, curves, tokens)
    height = legend_h + 2 * PANEL_H
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
            f'font-family="{FONT}" font-size="{SIZE:g}">',
            f"<title>{html.escape(title)}</title>",
            '<rect width="100%" height="100%" fill="white"/>',
            *legend,
            *body,
            "</svg>\n",
        ]
    )
