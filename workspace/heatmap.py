"""Transition-frequency heatmaps of routed agents (the Episodex paper's figures 5 and 6).

``RouteLog.counts()`` gives how often each ``(source, target)`` transition was taken in one
agent's route log; ``aggregate_counts`` sums those over many agents or trials,
``transition_matrix`` turns them into a square count matrix with its row-normalised transition
probabilities, and ``plot_transition_heatmap`` draws both side by side into a PNG file.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cogarch.errors import ConfigError

from .route_log import RouteLog

EdgeCounts = Mapping[tuple[str, str], int]


def aggregate_counts(logs: Iterable[RouteLog]) -> Counter[tuple[str, str]]:
    """The transition counts of many route logs (agents, trials, branches) added together."""
    total: Counter[tuple[str, str]] = Counter()
    for log in logs:
        total.update(log.counts())
    return total


def transition_matrix(
    counts: EdgeCounts, names: Sequence[str] | None = None
) -> tuple[list[str], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """``(names, counts, probabilities)``: rows are sources, columns are targets.

    ``names`` fixes the order of the rows and columns (for instance the graph's node order);
    by default every node that appears in ``counts`` is listed in sorted order. Each row of
    ``probabilities`` sums to 1, except the rows of nodes that were never left, which stay 0.
    """
    seen = sorted({node for pair in counts for node in pair})
    order = list(names) if names is not None else seen
    index = {name: i for i, name in enumerate(order)}
    missing = [name for name in seen if name not in index]
    if missing:
        raise ConfigError(
            f"the transition counts name nodes that are not in 'names': {', '.join(missing)}; "
            "add them to 'names' or leave 'names' out"
        )
    matrix = np.zeros((len(order), len(order)), dtype=np.int64)
    for (source, target), count in counts.items():
        if count < 0:
            raise ConfigError(f"transition {source} -> {target} has a negative count ({count})")
        matrix[index[source], index[target]] += count
    totals = matrix.sum(axis=1, keepdims=True)
    probabilities = np.divide(
        matrix, totals, out=np.zeros(matrix.shape, dtype=np.float64), where=totals > 0
    )
    return order, matrix, probabilities


def plot_transition_heatmap(
    counts: EdgeCounts,
    path: str | os.PathLike[str],
    *,
    title: str = "Transitions between specialists",
    names: Sequence[str] | None = None,
    dpi: int = 120,
) -> Path:
    """Write a PNG with two panels: transition counts and row-normalised probabilities.

    Drawing uses matplotlib's object API on an Agg canvas, so it needs no display, touches no
    global pyplot state and is safe to call from concurrent trials. Returns the file's path.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if not counts:
        raise ConfigError(
            "there are no transitions to plot; run the agent for at least one turn (entry "
            "transitions are not counted)"
        )
    order, matrix, probabilities = transition_matrix(counts, names)
    # fixed margins sized to the longest label: much cheaper than a layout engine
    label_in = 0.085 * max(len(name) for name in order)
    cell = 0.55
    side = max(2.5, cell * len(order))
    width = 2 * (label_in + 0.6 + side + 1.1)
    height = label_in * 0.75 + 0.7 + side + 0.9
    figure = Figure(figsize=(width, height))
    FigureCanvasAgg(figure)
    figure.subplots_adjust(
        left=(label_in + 0.6) / width,
        right=1 - 1.1 / width,
        bottom=(label_in * 0.75 + 0.7) / height,
        top=1 - 0.9 / height,
        wspace=(label_in + 1.7) / (side + 0.5),
    )
    panels = figure.subplots(1, 2)
    figure.suptitle(title)
    for axes, data, heading, fmt in (
        (panels[0], matrix.astype(np.float64), "Transition counts", "{:.0f}"),
        (panels[1], probabilities, "Transition probabilities (row-normalised)", "{:.2f}"),
    ):
        image = axes.imshow(data, cmap="viridis", aspect="equal")
        figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04)
        axes.set_title(heading)
        axes.set_xticks(range(len(order)), order, rotation=45, ha="right")
        axes.set_yticks(range(len(order)), order)
        axes.set_xlabel("to")
        axes.set_ylabel("from")
        peak = float(data.max()) if data.size else 0.0
        for row in range(len(order)):
            for col in range(len(order)):
                value = float(data[row, col])
                if value:
                    colour = "black" if value > 0.6 * peak else "white"
                    axes.text(col, row, fmt.format(value), ha="center", va="center", color=colour)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target, format="png", dpi=dpi)
    return target
