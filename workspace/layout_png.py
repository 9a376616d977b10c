"""A laid-out transition graph rendered to PNG with matplotlib: the SVG's geometry, pixel for
pixel (one drawing unit is one pixel at 100 dpi, scaled by ``dpi``)."""

from __future__ import annotations

from pathlib import Path

from .layout import PAD, Layout

_FILL = {"entry": ("#e6f4e6", "#3c8d3c"), "responder": ("#fdf0df", "#c47a1c")}


def render_png(layout: Layout, path: Path, *, dpi: int = 120) -> None:
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
    from matplotlib.path import Path as MPath

    unit = 72 / 100  # points per drawing pixel at 100 dpi
    figure = Figure(figsize=(layout.width / 100, layout.height / 100), dpi=100)
    axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    axes.set_xlim(0, layout.width)
    axes.set_ylim(layout.height, 0)
    axes.set_axis_off()
    if layout.title:
        axes.text(PAD, PAD + 12, layout.title, fontsize=13 * unit, weight="bold", va="baseline")
    for e in layout.edges:
        codes = [MPath.MOVETO] + [MPath.CURVE4] * (len(e.points) - 1)
        axes.add_patch(
            FancyArrowPatch(
                path=MPath(e.points, codes),
                arrowstyle="-|>",
                mutation_scale=12,
                color="#7d8797",
                linewidth=1.2,
                zorder=1,
            )
        )
    for e in layout.edges:
        if e.label:
            x, y = e.label_at
            axes.text(
                x,
                y,
                e.label,
                fontsize=11 * unit,
                ha="center",
                va="center",
                color="#394150",
                zorder=2,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.9},
            )
    for n in layout.nodes:
        fill, edge = _FILL.get(n.role, ("#ffffff", "#5f6b7d"))
        axes.add_patch(
            FancyBboxPatch(
                (n.x, n.y),
                n.w,
                n.h,
                boxstyle="round,pad=0,rounding_size=6",
                fc=fill,
                ec=edge,
                linewidth=1.2,
                linestyle="--" if n.role == "entry" else "-",
                zorder=3,
            )
        )
        name_y = n.y + (17 if n.kind else 25)
        axes.text(
            n.cx,
            name_y,
            n.name,
            fontsize=12 * unit,
            weight="bold",
            ha="center",
            va="baseline",
            zorder=4,
        )
        if n.kind:
            axes.text(
                n.cx,
                n.y + 32,
                n.kind,
                fontsize=11 * unit,
                ha="center",
                va="baseline",
                color="#5a6475",
                zorder=4,
            )
    figure.savefig(path, format="png", dpi=dpi)
