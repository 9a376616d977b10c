"""The leaderboard as one self-contained HTML page, with score-against-tokens figures.

Each task gets a scatter of its measured cells (tokens spent on the cell, against the main
metric's value, interval as a bar), and the suite one of each agent's tokens against its mean
win rate; agents on the Pareto front (no other agent both spends fewer tokens and scores
better) are filled and named in bold. The figures are inline SVG: the page needs no file
beside it. Links to each cell's report and trials come from the caller (the suite's folder,
the viewer and its export link differently).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from cogarch.core.views import Table

from .leaderboard import Cell, Leaderboard
from .leaderboard_tables import (
    cell_text,
    cost_table,
    interval_text,
    metric_lines,
    number,
    ranking_lines,
)
from .report_page import table_html

Href = Callable[[Cell], str | None]
_CSS = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:1300px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2}td.best{background:#eef8ee}td.pending,td.failed{color:#999}"
    "td .links{font-size:.8em}figure{display:inline-block;margin:0 1em 1em 0}"
    "svg text{font-size:10px}"
)
W, H, PAD = 340, 220, 40


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


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


def scatter(title: str, points: list[tuple[str, float, float, float, float]], higher: bool) -> str:
    """An SVG scatter of ``(name, tokens, value, low, high)``, the Pareto front marked."""
    if not points:
        return ""
    xs = [p[1] for p in points]
    ys = [v for p in points for v in (p[2], p[3], p[4])]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    x1, y1 = (x1 if x1 > x0 else x0 + 1), (y1 if y1 > y0 else y0 + 1)

    def px(x: float) -> float:
        return PAD + (x - x0) / (x1 - x0) * (W - 2 * PAD)

    def py(y: float) -> float:
        return H - PAD - (y - y0) / (y1 - y0) * (H - 2 * PAD)

    front = pareto([(p[0], p[1], p[2]) for p in points], higher)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" role="img">',
        f"<title>{html.escape(title)}</title>",
        f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" stroke="#888"/>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{H - PAD}" stroke="#888"/>',
        f'<text x="{W / 2}" y="{H - 8}" text-anchor="middle">tokens</text>',
        f'<text x="{PAD}" y="{PAD - 8}">{y1:.3g}</text>',
        f'<text x="{PAD}" y="{H - PAD + 12}">{y0:.3g}</text>',
        f'<text x="{W - PAD}" y="{H - PAD + 12}" text-anchor="end">{x1:.0f}</text>',
    ]
    for name, tokens, value, low, high in points:
        on = name in front
        weight = ' font-weight="bold"' if on else ""
        parts.append(
            f'<line x1="{px(tokens):.1f}" y1="{py(low):.1f}" x2="{px(tokens):.1f}" '
            f'y2="{py(high):.1f}" stroke="#99c"/>'
            f'<circle class="{"pareto" if on else "point"}" cx="{px(tokens):.1f}" '
            f'cy="{py(value):.1f}" r="4" fill="{"#2a6" if on else "white"}" stroke="#246"/>'
            f'<text x="{px(tokens) + 6:.1f}" y="{py(value) - 4:.1f}"'
            f"{weight}>{html.escape(name)}</text>"
        )
    parts.append("</svg>")
    caption = f"{html.escape(title)} (filled: Pareto front)"
    return f"<figure>{''.join(parts)}<figcaption>{caption}</figcaption></figure>"


def _cell_html(cell: Cell | None, report_href: Href, trials_href: Href) -> str:
    if cell is None:
        return '<td class="pending">skipped</td>'
    links = []
    if (href := report_href(cell)) is not None:
        links.append(f'<a class="report" href="{html.escape(href)}">report</a>')
    if (href := trials_href(cell)) is not None:
        links.append(f'<a class="trials" href="{html.escape(href)}">trials</a>')
    klass = "best" if cell.best else cell.status
    shown = html.escape(cell_text(cell))
    more = "".join(
        f"<br><small>{html.escape(m.metric)}: "
        + ("-" if m.value is None else f"{m.value:.3g} {interval_text(m.low, m.high)}")
        + "</small>"
        for m in cell.more
    )
    extra = f'<div class="links">{" · ".join(links)}</div>' if links else ""
    return (
        f'<td class="cell {klass}" data-agent="{html.escape(cell.agent)}" '
        f'data-task="{html.escape(cell.task)}">{shown}{more}{extra}</td>'
    )


def _table(table: Table) -> str:
    return f"<h2>{html.escape(table.title)}</h2>{table_html(table)}"


def leaderboard_page(
    board: Leaderboard,
    *,
    report_href: Href = lambda cell: None,
    trials_href: Href = lambda cell: None,
    head: str = "",
) -> str:
    """The page; ``head`` is put at the top of the body (the viewer's navigation)."""
    header = "".join(
        f"<th>{html.escape(t.name)}<br><small>{html.escape(t.metric or '-')}</small></th>"
        for t in board.tasks
    )
    rows = []
    for row in board.rows:
        cells = "".join(
            _cell_html(board.cell(row.agent, t.name), report_href, trials_href) for t in board.tasks
        )
        aggregates = "".join(
            f"<td>{number(v) or '-'}</td>"
            for v in (row.mean_win_rate, row.mean_rank, row.normalised_mean)
        )
        covered = html.escape(
            ", ".join(f"{t} ({row.items.get(t, '-')})" for t in row.tasks) or "none"
        )
        rows.append(
            f"<tr><th>{html.escape(row.agent)}</th>{cells}{aggregates}<td>{covered}</td></tr>"
        )
    figures = []
    for task in board.tasks:
        points = [
            (c.agent, float(c.tokens), c.value, _or(c.low, c.value), _or(c.high, c.value))
            for c in board.cells
            if c.task == task.name and c.value is not None
        ]
        figures.append(scatter(f"{task.name}: {task.metric}", points, task.direction != "lower"))
    overall = [
        (r.agent, float(r.costs.tokens), r.mean_win_rate, r.mean_win_rate, r.mean_win_rate)
        for r in board.rows
        if r.mean_win_rate is not None
    ]
    figures.append(scatter("all tasks: mean win rate", overall, True))
    title = f"Leaderboard: {html.escape(board.suite)}"
    lines = [*metric_lines(board), *ranking_lines(board), *board.notes]
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in lines)
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{_CSS}</style></head><body>{head}<h1>{title}</h1>"
        f'<table class="leaderboard"><thead><tr><th>agent</th>{header}<th>mean win rate</th>'
        f"<th>mean rank</th><th>normalised mean</th><th>tasks covered (items)</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<p>* tied with the task's best cell; † differs significantly from it (Holm, alpha "
        f"{board.alpha}).</p><h2>Score against tokens</h2>{''.join(figures)}"
        f"{_table(cost_table(board))}<h2>How to read it</h2><ul>{notes}</ul></body></html>"
    )
