"""Routing figures: each agent's transition counts between specialists, summed over its
complete trials, drawn as a heatmap (the Episodex paper's Figures 5-6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..tables.tidy_table import TidyRow
from .canvas import new_figure, plain_text, save_png


def routed_agents(rows: Iterable[TidyRow]) -> list[str]:
    """Agents with at least one recorded transition between specialists."""
    return [a for a, c in transition_counts(rows).items() if c]


def transition_counts(rows: Iterable[TidyRow]) -> dict[str, Counter[tuple[str, str]]]:
    """Per agent, ``(source, target)`` counts summed over complete trials."""
    out: dict[str, Counter[tuple[str, str]]] = {}
    for r in rows:
        if r.status != "complete":
            continue
        total = out.setdefault(r.agent, Counter())
        for source, target, n in r.transitions:
            if n > 0:
                total[(source, target)] += n
    return out


@plain_text
def transition_heatmap(
    rows: Sequence[TidyRow], path: str | Path, *, agent: str | None = None
) -> Path | None:
    """Transition counts and probabilities of ``agent`` (all agents when None), over trials."""
    counts: Counter[tuple[str, str]] = Counter()
    for name, c in transition_counts(rows).items():
        if agent is None or name == agent:
            counts.update(c)
    if not counts:
        return None
    trials = sum(1 for r in rows if r.status == "complete" and (agent is None or r.agent == agent))
    title = f"Transitions of {agent or 'all agents'} over {trials} trials"
    try:
        from cogarch.workspace.heatmap import plot_transition_heatmap
    except ImportError:
        return _own_heatmap(counts, path, title)
    return plot_transition_heatmap(counts, path, title=title)


@plain_text
def _own_heatmap(counts: Counter[tuple[str, str]], path: str | Path, title: str) -> Path:
    names = sorted({n for pair in counts for n in pair})
    index = {n: i for i, n in enumerate(names)}
    grid = [[0] * len(names) for _ in names]
    for (source, target), n in counts.items():
        grid[index[source]][index[target]] += n
    side = max(3.5, 0.6 * len(names) + 2)
    figure = new_figure(side + 1.2, side)
    axes = figure.add_subplot()
    image = axes.imshow(grid, cmap="viridis")
    figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04)
    axes.set_xticks(range(len(names)), names, rotation=45, ha="right")
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel("to")
    axes.set_ylabel("from")
    axes.set_title(title)
    peak = max(max(r) for r in grid)
    for i, row in enumerate(grid):
        for j, n in enumerate(row):
            if n:
                axes.text(
                    j,
                    i,
                    str(n),
                    ha="center",
                    va="center",
                    color="black" if n > 0.6 * peak else "white",
                )
    return save_png(figure, path)
