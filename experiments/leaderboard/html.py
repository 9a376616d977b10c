"""The leaderboard as one self-contained HTML page, with score-against-tokens figures.

Each task gets a scatter of its measured cells (tokens spent on the cell, against the main
metric's value, interval as a bar), and the suite one of each agent's tokens against its mean
win rate; agents on the Pareto front (no other agent both spends fewer tokens and scores
better) are filled and named in bold, controls are dashed lines (``leaderboard_figure``). The
figures are inline SVG: the page needs no file beside it. What every row of a table shares is
said once above it. Beside each score the cell shows the headroom it captured and the context
tokens its reader was shown per question; each column's header its judge audit, when the
suite ran one; the columns whose cells differ in reader, judge or budget are warned of above
the table; a table lists every cell's role, headroom, context tokens and settings. Links to
each cell's report and trials come from the caller (the suite's folder, the viewer and its
export link differently).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from cogarch.core.views import Table

from ..reports.page import table_html
from .board import Cell, Leaderboard, TaskColumn
from .figure import Point, scatter
from .tables import (
    audit_lines,
    cell_text,
    context_text,
    cost_shared,
    cost_table,
    headroom_text,
    interval_text,
    metric_lines,
    ranking_lines,
    rate_text,
    row_columns,
    settings_shared,
    settings_table,
    shared_value,
    split_shared,
    warning_lines,
)

Href = Callable[[Cell], str | None]
_CSS = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:1300px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2}td.best{background:#eef8ee}td.pending,td.failed{color:#999}"
    "td .links{font-size:.8em}figure{display:inline-block;margin:0 1em 1em 0}"
    "figure.scatter{max-width:460px;vertical-align:top}figcaption{overflow-wrap:anywhere}"
    "ol.legend{font-size:.8em;margin:.3em 0;padding-left:2.2em}"
    "p.shared{font-size:.9em}tr.control th{font-style:italic}"
    "td small.headroom{color:#1a5e20}td small.context{color:#555}th small.audit{color:#7a3d00}"
    "ul.warnings{color:#8a4b00;font-size:.9em}"
)


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


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
        + (f", {m.direction} is better" if m.direction else "")
        + "</small>"
        for m in cell.more
    )
    extra = f'<div class="links">{" · ".join(links)}</div>' if links else ""
    framed = ""
    if text := headroom_text(cell.headroom):
        framed += f'<br><small class="headroom">{html.escape(text)}</small>'
    if text := context_text(cell):
        framed += f'<br><small class="context">{html.escape(text)}</small>'
    return (
        f'<td class="cell {klass}" data-agent="{html.escape(cell.agent)}" '
        f'data-task="{html.escape(cell.task)}">{shown}{framed}{more}{extra}</td>'
    )


def _column_head(task: TaskColumn) -> str:
    """A column's header: its task, its metric and, when audited, its judge's error rates."""
    audit = ""
    if task.audit is not None:
        a = task.audit
        audit = (
            f'<br><small class="audit" title="{html.escape(a.file)}">judge audit: false '
            f"positives {html.escape(rate_text(a.false_positive))}; false negatives "
            f"{html.escape(rate_text(a.false_negative))}</small>"
        )
    return (
        f'<th data-task="{html.escape(task.name)}">{html.escape(task.name)}<br>'
        f"<small>{html.escape(task.metric or '-')}</small>{audit}</th>"
    )


def _warnings(board: Leaderboard) -> str:
    lines = warning_lines(board)
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    said = '<p class="warnings">Settings differ within a column:</p>'
    return f'{said}<ul class="warnings">{items}</ul>'


def _audits(board: Leaderboard) -> str:
    lines = audit_lines(board)
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
    return f'<h2>Judge audit</h2><ul class="audits">{items}</ul>'


def _shared(pairs: Sequence[tuple[str, str]]) -> str:
    """What every row of the next table shares, said once."""
    if not pairs:
        return ""
    said = "; ".join(
        f"<b>{html.escape(header)}</b>: {html.escape(shared_value(value))}"
        for header, value in pairs
    )
    return f'<p class="shared">Every row: {said}.</p>'


def _table(table: Table, shared: Sequence[tuple[str, str]]) -> str:
    return f"<h2>{html.escape(table.title)}</h2>{_shared(shared)}{table_html(table)}"


def _figures(board: Leaderboard) -> list[str]:
    figures = []
    for task in board.tasks:
        points = [
            Point(c.agent, c.tokens, c.value, _or(c.low, c.value), _or(c.high, c.value), c.control)
            for c in board.cells
            if c.task == task.name and c.value is not None
        ]
        title = f"{task.name}: {task.metric}"
        figures.append(scatter(title, points, task.direction != "lower", task.metric or "value"))
    overall = [
        Point(r.agent, r.costs.tokens, v, v, v)
        for r in board.rows
        if (v := r.mean_win_rate) is not None and r.control is None
    ]
    figures.append(scatter("all tasks: mean win rate", overall, True, "mean win rate"))
    return figures


def leaderboard_page(
    board: Leaderboard,
    *,
    report_href: Href = lambda cell: None,
    trials_href: Href = lambda cell: None,
    head: str = "",
) -> str:
    """The page; ``head`` is put at the top of the body (the viewer's navigation)."""
    header = "".join(_column_head(t) for t in board.tasks)
    kept, shared = split_shared(row_columns(board))
    header += "".join(f"<th>{html.escape(h)}</th>" for h, _ in kept)
    rows = []
    for i, row in enumerate(board.rows):
        cells = "".join(
            _cell_html(board.cell(row.agent, t.name), report_href, trials_href) for t in board.tasks
        )
        cells += "".join(f"<td>{html.escape(values[i])}</td>" for _, values in kept)
        agent = html.escape(row.agent)
        if row.control is not None:
            agent += f"<br><small>control: {html.escape(row.control)}</small>"
        klass = ' class="control"' if row.control is not None else ""
        rows.append(f"<tr{klass}><th>{agent}</th>{cells}</tr>")
    title = f"Leaderboard: {html.escape(board.suite)}"
    lines = [*metric_lines(board), *ranking_lines(board), *board.notes]
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in lines)
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{_CSS}</style></head><body>{head}<h1>{title}</h1>{_shared(shared)}"
        f'{_warnings(board)}<table class="leaderboard">'
        f"<thead><tr><th>agent</th>{header}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<p>* tied with the task's best cell; † differs significantly from it (Holm, alpha "
        f"{board.alpha}); headroom: the share of the gap from the no-memory control to the "
        "oracle that the cell closes, with its 95% paired-bootstrap interval.</p>"
        f"{_audits(board)}<h2>Score against tokens</h2>{''.join(_figures(board))}"
        f"{_table(settings_table(board), settings_shared(board))}"
        f"{_table(cost_table(board), cost_shared(board))}<h2>How to read it</h2><ul>{notes}</ul>"
        "</body></html>"
    )
