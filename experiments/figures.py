"""The paper's figures from a tidy run: outcomes, private-state size, answers, routing.

Every function takes the rows of ``experiments.tidy`` and a PNG path, draws with matplotlib's
object API on an Agg canvas (no display, no global pyplot state), and returns the path, or
``None`` without writing anything when the run holds no data for that figure.

- ``outcome_breakdown``: the Hangman paper's Figure 3, the five outcome classes per agent as
  stacked bars (failed and corrupt trials as separate hatched segments).
- ``private_state_size``: Figure 4, private-state tokens per turn, mean with a 95% band, log
  scale (agents whose private state is always empty cannot be drawn on it and are named).
- ``top_answers``: Figure 6, the top-k final answers of each agent (for the SCT, its
  revealed secrets; see ``Evaluation.final_answer``).
- ``transition_heatmap``: the Episodex paper's Figures 5-6 for a routed agent, its transition
  counts summed over trials.
- ``footprint``: per-turn footprint tokens of revision / constraint trials (read by
  ``experiments.tidy.footprint_of`` from the turns' footprints).
"""

from __future__ import annotations

import functools
import io
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter
from scipy.stats import t as student_t

from cogarch.files import real_folder
from cogarch.io import atomic_write_bytes

from . import spread
from .tidy import TidyRow

OUTCOME_STYLE: dict[str, tuple[str, str]] = {
    "self_consistent": ("Self-Consistent", "#2e9e44"),
    "leakage": ("Leakage", "#2f6db5"),
    "over_confirmation": ("Over-Confirmation", "#f2c12e"),
    "state_substitution": ("State Substitution", "#f07f22"),
    "all_denial": ("All Denial", "#d0312d"),
}
_EXTRA_COLOURS = ("#8c6bb1", "#41b6c4", "#c994c7", "#7f7f3f", "#e7969c")
_DPI = 120


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _plain_text(draw: Callable[_P, _R]) -> Callable[_P, _R]:
    """Draw with matplotlib's math text off: names and replies from a run are shown as
    written (a ``$`` in an agent name or a revealed secret is a dollar sign, not math)."""

    @functools.wraps(draw)
    def plain(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return plain


def _figure(width: float, height: float) -> Figure:
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _save(figure: Figure, path: str | Path) -> Path:
    target = Path(path)
    real_folder(target.parent)  # a link planted there is set aside, never written through
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=_DPI)
    return atomic_write_bytes(target, buffer.getvalue())


def agents_in(rows: Iterable[TidyRow]) -> list[str]:
    """Agent names in the order they first appear."""
    return list(dict.fromkeys(r.agent for r in rows))


@_plain_text
def outcome_breakdown(
    rows: Sequence[TidyRow], path: str | Path, *, title: str = "Outcomes per agent"
) -> Path | None:
    """Stacked horizontal bars: the share of each agent's trials in each outcome class.

    None when there is nothing to break down: no trial with an outcome and none failed or
    corrupt (tasks that only measure, such as constraint retention, in a clean run).
    """
    if not any(r.outcome or r.status != "complete" for r in rows):
        return None
    agents = agents_in(rows)
    classes: list[tuple[str, str, str, str | None]] = [
        (key, label, colour, None) for key, (label, colour) in OUTCOME_STYLE.items()
    ]
    seen = {r.outcome for r in rows if r.status == "complete" and r.outcome}
    others = sorted(o for o in seen if o not in OUTCOME_STYLE)
    classes += [
        (o, o.replace("_", " ").title(), _EXTRA_COLOURS[i % len(_EXTRA_COLOURS)], None)
        for i, o in enumerate(others)
    ]
    classes += [
        ("_no_outcome", "Complete, no outcome", "#d9d9d9", None),
        ("_failed", "Failed (not evaluated)", "#9e9e9e", "///"),
        ("_corrupt", "Corrupt trial file", "#5a5a5a", "xx"),
    ]

    def key_of(row: TidyRow) -> str:
        if row.status == "failed":
            return "_failed"
        if row.status == "corrupt":
            return "_corrupt"
        return row.outcome or "_no_outcome"

    tallies = {a: Counter(key_of(r) for r in rows if r.agent == a) for a in agents}
    present = [c for c in classes if any(t[c[0]] for t in tallies.values())]
    figure = _figure(10, 1.6 + 0.5 * len(agents))
    axes = figure.add_subplot()
    y = list(range(len(agents)))[::-1]
    left = [0.0] * len(agents)
    for key, label, colour, hatch in present:
        widths = [100 * tallies[a][key] / sum(tallies[a].values()) for a in agents]
        axes.barh(
            y,
            widths,
            left=left,
            color=colour,
            hatch=hatch,
            edgecolor="white",
            linewidth=0.8,
            label=label,
        )
        for yi, start, width, agent in zip(y, left, widths, agents, strict=True):
            if width >= 6:
                dark = colour in ("#2f6db5", "#d0312d", "#5a5a5a", "#2e9e44")
                axes.text(
                    start + width / 2,
                    yi,
                    str(tallies[agent][key]),
                    ha="center",
                    va="center",
                    fontsize=9,
                    color="white" if dark else "black",
                    bbox={"boxstyle": "round,pad=0.2", "fc": colour, "ec": "none"}
                    if hatch
                    else None,
                )
        left = [a + b for a, b in zip(left, widths, strict=True)]
    axes.set_yticks(y, [f"{a} (n={sum(tallies[a].values())})" for a in agents])
    axes.set_xlim(0, 100)
    axes.set_xlabel("trials (%); numbers in the bars are counts")
    axes.set_title(title)
    figure.legend(loc="outside lower center", ncols=min(4, len(present)), frameon=False, fontsize=9)
    return _save(figure, path)


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


@_plain_text
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
    figure = _figure(9, 5.2)
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
    return _save(figure, path)


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


@_plain_text
def top_answers(
    rows: Sequence[TidyRow],
    path: str | Path,
    *,
    top_k: int = 10,
    title: str = "Final answers",
    noun: str = "answered",
) -> Path | None:
    """One panel per agent: how often each of its top-k final answers came up."""
    tallies: dict[str, Counter[str]] = {}
    for r in rows:
        if r.status == "complete" and r.answer:
            tallies.setdefault(r.agent, Counter())[r.answer.strip().lower()] += 1
    if not tallies:
        return None
    ncols = min(3, len(tallies))
    nrows = math.ceil(len(tallies) / ncols)
    longest = max(len(k) for c in tallies.values() for k in c)
    rows_shown = min(top_k, max(len(c) for c in tallies.values()))
    figure = _figure(3.6 * ncols + 0.07 * longest * ncols, 0.9 + nrows * (0.9 + 0.28 * rows_shown))
    figure.suptitle(f"{title} (top {top_k} per agent)")
    grid = figure.subplots(nrows, ncols, squeeze=False)
    for axes, (agent, counter) in zip(grid.flat, tallies.items(), strict=False):
        top = counter.most_common(top_k)
        labels = [k for k, _ in top][::-1]
        values = [v for _, v in top][::-1]
        axes.barh(range(len(top)), values, color="#4c72b0")
        axes.set_yticks(range(len(top)), labels, fontsize=9)
        axes.set_title(
            f"{agent}\n{sum(counter.values())} {noun}, {len(counter)} distinct", fontsize=9
        )
        axes.set_xlabel("trials", fontsize=9)
        axes.xaxis.get_major_locator().set_params(integer=True)
    for axes in list(grid.flat)[len(tallies) :]:
        axes.set_visible(False)
    return _save(figure, path)


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


@_plain_text
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


@_plain_text
def _own_heatmap(counts: Counter[tuple[str, str]], path: str | Path, title: str) -> Path:
    names = sorted({n for pair in counts for n in pair})
    index = {n: i for i, n in enumerate(names)}
    grid = [[0] * len(names) for _ in names]
    for (source, target), n in counts.items():
        grid[index[source]][index[target]] += n
    side = max(3.5, 0.6 * len(names) + 2)
    figure = _figure(side + 1.2, side)
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
    return _save(figure, path)


__all__ = [
    "OUTCOME_STYLE",
    "agents_in",
    "footprint",
    "mean_band",
    "outcome_breakdown",
    "private_state_size",
    "routed_agents",
    "top_answers",
    "transition_counts",
    "transition_heatmap",
]
