"""The paper's figures from a tidy run: outcomes, private-state size, answers, routing.

Every function takes the rows of ``experiments.tables.tidy`` and a PNG path, draws with matplotlib's
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
  ``experiments.tables.tidy.footprint_of`` from the turns' footprints).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ..tables.tidy_table import TidyRow
from .canvas import agents_in, new_figure, plain_text, save_png

OUTCOME_STYLE: dict[str, tuple[str, str]] = {
    "self_consistent": ("Self-Consistent", "#2e9e44"),
    "leakage": ("Leakage", "#2f6db5"),
    "over_confirmation": ("Over-Confirmation", "#f2c12e"),
    "state_substitution": ("State Substitution", "#f07f22"),
    "all_denial": ("All Denial", "#d0312d"),
}
_EXTRA_COLOURS = ("#8c6bb1", "#41b6c4", "#c994c7", "#7f7f3f", "#e7969c")


@plain_text
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
    figure = new_figure(10, 1.6 + 0.5 * len(agents))
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
    return save_png(figure, path)


@plain_text
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
    figure = new_figure(
        3.6 * ncols + 0.07 * longest * ncols, 0.9 + nrows * (0.9 + 0.28 * rows_shown)
    )
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
    return save_png(figure, path)
