"""Per-turn series as a mean with a 95% band per agent: private-state size (the Hangman
paper's Figure 4, log scale) and the memory footprint of revision and constraint trials."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, NullFormatter
from scipy.stats import t as student_t

from ..tables import spread
from ..tables.tidy_table import TidyRow
from .canvas import new_figure, plain_text, save_png


def mean_band(
    series: Sequence[Sequence[float | int | None]],
) -> tuple[list[int], list[float], list[float], list[float]]:
    """Per-turn mean and 95% t-interval over trials: ``(turns, mean, low, high)``.

    Turn i (1-based) uses every trial that recorded a value for it; with one value the band
    collapses to the mean.
    """
    length = max((len(s) for s in series), default=0)
    turns: list[int] = []
    means: list[float] = []
    lows: list[float] = []
    highs: list[float] = []
    for i in range(length):
        values = [float(v) for s in series if i < len(s) and (v := s[i]) is not None]
        if not values:
            continue
        k = len(values)
        mean = spread.mean(values)
        half = 0.0
        if k > 1:
            half = float(student_t.ppf(0.975, k - 1)) * spread.sd(values) / math.sqrt(k)
        turns.append(i + 1)
        means.append(mean)
        lows.append(mean - half)
        highs.append(mean + half)
    return turns, means, lows, highs


@plain_text
def _band_plot(
    series_by_agent: dict[str, list[list[Any]]],
    path: str | Path,
    *,
    title: str,
    ylabel: str,
    log: bool,
) -> Path | None:
    drawable: dict[str, tuple[list[int], list[float], list[float], list[float]]] = {}
    skipped: list[str] = []
    for agent, series in series_by_agent.items():
        turns, means, lows, highs = mean_band(series)
        if not turns or (log and max(means) <= 0):
            skipped.append(agent)
            continue
        drawable[agent] = (turns, means, lows, highs)
    if not drawable:
        return None
    positive = [v for _, m, lo, _ in drawable.values() for v in (*m, *lo) if v > 0]
    floor = min(positive) / 2 if positive else 0.5
    figure = new_figure(9, 5.2)
    axes: Axes = figure.add_subplot()
    palette = [f"C{i}" for i in range(10)]
    for i, (agent, (turns, means, lows, highs)) in enumerate(drawable.items()):
        colour = palette[i % len(palette)]
        if log:
            means = [m if m > 0 else math.nan for m in means]
            lows = [max(lo, floor) for lo in lows]
            highs = [max(h, floor) for h in highs]
        else:
            lows = [max(lo, 0.0) for lo in lows]  # sizes are never negative
        axes.fill_between(turns, lows, highs, color=colour, alpha=0.22, linewidth=0)
        trials = len(series_by_agent[agent])
        axes.plot(
            turns, means, marker="o", markersize=4, color=colour, label=f"{agent} (n={trials})"
        )
    if log:
        axes.set_yscale("log")
        drawn = [v for _, m, lo, hi in drawable.values() for v in (*m, *lo, *hi) if v > 0]
        low = 10 ** math.floor(math.log10(max(min(drawn), floor)))
        high = 10 ** math.ceil(math.log10(max(drawn) * 1.05))
        axes.set_ylim(low, max(high, 10 * low))  # whole decades: the major ticks are labelled
        axes.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axes.yaxis.set_minor_formatter(NullFormatter())
    axes.set_xlabel("dialogue turn")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    all_turns = sorted({t for turns, *_ in drawable.values() for t in turns})
    if len(all_turns) <= 30:
        axes.set_xticks(all_turns)
    axes.legend(fontsize=9, loc="best", title="mean, shaded: 95% CI", title_fontsize=8)
    if skipped:
        reason = "private state always empty" if log else "no values"
        figure.supxlabel(f"not drawn ({reason}): {', '.join(skipped)}", fontsize=8, color="#555555")
    return save_png(figure, path)


def private_state_size(
    rows: Sequence[TidyRow],
    path: str | Path,
    *,
    title: str = "Private state size per turn",
) -> Path | None:
    """Mean private-state tokens per turn with a 95% band per agent, log scale."""
    series: dict[str, list[list[Any]]] = {}
    for r in rows:
        if r.status == "complete" and r.private_state_tokens:
            series.setdefault(r.agent, []).append(list(r.private_state_tokens))
    return _band_plot(
        series, path, title=title, ylabel="private state (tokens, log scale)", log=True
    )


def footprint(
    rows: Sequence[TidyRow],
    path: str | Path,
    *,
    title: str = "Memory footprint per turn",
    log: bool = False,
) -> Path | None:
    """Mean footprint tokens per turn with a 95% band, for trials that recorded footprints."""
    series: dict[str, list[list[Any]]] = {}
    for r in rows:
        if r.status == "complete" and any(v is not None for v in r.footprint_tokens):
            series.setdefault(r.agent, []).append(list(r.footprint_tokens))
    label = "footprint (tokens" + (", log scale)" if log else ")")
    return _band_plot(series, path, title=title, ylabel=label, log=log)
