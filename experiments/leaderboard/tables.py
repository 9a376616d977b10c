"""The leaderboard as tables of text: the main table, the costs, the metrics' lines and
the further metrics' values (``more_table``).

A value every row of a table shares is said once above it (``main_shared``, ``cost_shared``)
rather than in every row: the main table drops an aggregate or its "tasks covered" column
when all rows hold the same, and the cost table any column but the agent and the task; a
column where rows differ keeps every row's value. Beside a score: the headroom it captured
(``headroom_text``); per cell, the settings on record and the context tokens per question
(``settings_table``); per column, where its cells' settings differ and its judge audit
(``column_lines``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.core.views import Table

from ..judge_audit.measures import Rate
from ..running.cell_settings import settings_budget_text
from .board import Cell, ColumnAudit, Costs, HeadroomValue, Leaderboard, Row

COVERED = "tasks covered (items)"


def number(value: float | None, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}g}" if abs(value) < 1000 else f"{value:.0f}"


def interval_text(low: float | None, high: float | None) -> str:
    """``(low-high)``, or ``(not estimable)`` (the cell's ``interval_note`` says why)."""
    if low is None or high is None:
        return "(not estimable)"
    return f"({number(low)}-{number(high)})"


def cell_text(cell: Cell | None) -> str:
    """A cell as text: value (low-high) n, its clusters when they hold several items, its
    failures, a star on every best cell, a dagger when it differs from the best; its value
    over the shared items and its status when it is not complete."""
    if cell is None:
        return "skipped"
    if cell.value is None:
        return cell.status + (f" ({cell.failures} failed items)" if cell.failures else "")
    mark = " *" if cell.best else " †" if cell.significant else ""
    text = f"{number(cell.value)} {interval_text(cell.low, cell.high)}"
    text += f" n={cell.n}"
    if cell.clusters != cell.n:
        text += f" in {cell.clusters} cluster{'s' * (cell.clusters != 1)}"
    if cell.failures:
        text += f", {cell.failures} failed"
    if cell.ranked_value is not None and cell.ranked_n != cell.n:
        text += f"; {number(cell.ranked_value)} on the {cell.ranked_n} shared"
    text += mark
    return text if cell.status == "complete" else f"{text} ({cell.status})"


def headroom_text(found: HeadroomValue | None) -> str:
    """``headroom 0.6 (0.2-1)`` of a compared cell, or "" where its column has no
    no-memory and oracle controls on its reader."""
    if found is None:
        return ""
    if found.value is None:
        return "headroom undefined (the oracle scores as no memory)"
    return f"headroom {number(found.value)} {interval_text(found.low, found.high)}"


def context_text(cell: Cell) -> str:
    """``context 1341 tokens/question (p95 1350)``, or "" for a task that counts none."""
    if cell.context_tokens_mean is None:
        return ""
    p95 = "" if cell.context_tokens_p95 is None else f" (p95 {number(cell.context_tokens_p95, 4)})"
    return f"context {number(cell.context_tokens_mean, 4)} tokens/question{p95}"


def summary_text(cell: Cell | None) -> str:
    """A cell as text with the headroom it captured beside its score."""
    shown = headroom_text(cell.headroom) if cell is not None else ""
    return cell_text(cell) + (f"; {shown}" if shown else "")


def rate_text(rate: Rate | None) -> str:
    """``1/11 = 9.1% (1.6-37.7)``, or ``no items``."""
    return "no items" if rate is None or rate.rate is None else rate.text()


def audit_text(audit: ColumnAudit) -> str:
    """The column's judge audit in one line."""
    text = (
        f"judge audit of {audit.metric} ({audit.provider}, {audit.model}; {audit.probes} "
        f"answers made from {audit.questions} questions): false positives "
        f"{rate_text(audit.false_positive)}, false negatives {rate_text(audit.false_negative)}"
    )
    if audit.second is not None:
        kappa = "undefined" if audit.kappa is None else f"{audit.kappa:.3f}"
        text += (
            f"; second judge {audit.second}: false positives "
            f"{rate_text(audit.second_false_positive)}, false negatives "
            f"{rate_text(audit.second_false_negative)}; Cohen's kappa {kappa}"
        )
    if audit.unjudged:
        text += f"; {audit.unjudged} items not judged (run the suite again to ask them)"
    return text + f"; {audit.calls} calls metered apart, in {audit.file}"


def warning_lines(board: Leaderboard) -> list[str]:
    """Per column, where its cells differ in reader, judge or retrieval budget."""
    return [f"{t.name}: {line}" for t in board.tasks for line in t.settings_warnings]


def audit_lines(board: Leaderboard) -> list[str]:
    """Per audited column, its judge audit."""
    return [f"{t.name}: {audit_text(t.audit)}" for t in board.tasks if t.audit is not None]


def _budget(cell: Cell) -> str:
    return "not on record" if cell.settings is None else settings_budget_text(cell.settings)


def _settings_split(board: Leaderboard) -> tuple[Table, list[tuple[str, str]]]:
    header = ["agent", "task", "role", "score", "headroom captured"]
    header += ["context tokens/question (mean)", "context tokens/question (p95)"]
    header += ["reader", "judge", "retrieval budget"]
    body = []
    for c in board.cells:
        s = c.settings
        body.append(
            [
                c.agent,
                c.task,
                f"control: {c.control}" if c.control else "compared",
                number(c.value) or "-",
                headroom_text(c.headroom).removeprefix("headroom ") or "-",
                number(c.context_tokens_mean, 4) or "-",
                number(c.context_tokens_p95, 4) or "-",
                "not on record" if s is None else str(s.reader_model or s.reader_provider or "-"),
                "not on record" if s is None else str(s.judge_model or s.judge_provider or "none"),
                _budget(c),
            ]
        )
    columns = [(h, [r[i] for r in body]) for i, h in enumerate(header)]
    kept, shared = split_shared(columns[4:])
    kept = columns[:4] + kept
    rows = [[values[i] for _, values in kept] for i in range(len(body))]
    title = "controls, headroom and settings per cell"
    return Table(title, [h for h, _ in kept], rows), shared


def settings_table(board: Leaderboard) -> Table:
    """Each cell's role, score, headroom captured, context tokens per question (mean and
    95th percentile), reader, judge and budget, without the columns every row shares."""
    return _settings_split(board)[0]


def settings_shared(board: Leaderboard) -> list[tuple[str, str]]:
    """The settings table's columns every row shares, as ``(header, value)``."""
    return _settings_split(board)[1]


def agent_text(row: Row) -> str:
    """The row's agent, marked when it is a control."""
    return row.agent if row.control is None else f"{row.agent} (control: {row.control})"


def row_columns(board: Leaderboard) -> list[tuple[str, list[str]]]:
    """The main table's columns after the tasks: each row's aggregates and the tasks they
    cover ("-" where an aggregate is missing; a control's row says it is not ranked)."""
    columns: list[tuple[str, list[str]]] = [
        ("mean win rate", []),
        ("mean rank", []),
        ("normalised mean", []),
        (COVERED, []),
    ]
    for row in board.rows:
        values = (row.mean_win_rate, row.mean_rank, row.normalised_mean)
        for (_, out), value in zip(columns, values, strict=False):
            out.append(number(value) or "-")
        covered = ", ".join(f"{t} ({row.items[t]})" if t in row.items else t for t in row.tasks)
        columns[-1][1].append("not ranked (a control)" if row.control else covered or "none")
    return columns


def split_shared(
    columns: Sequence[tuple[str, list[str]]],
) -> tuple[list[tuple[str, list[str]]], list[tuple[str, str]]]:
    """``columns`` where rows differ, and ``(header, value)`` for each column whose every row
    holds the same value (with at least two rows; with one, nothing is shared)."""
    kept, shared = [], []
    for header, values in columns:
        if len(values) >= 2 and len(set(values)) == 1:
            shared.append((header, values[0]))
        else:
            kept.append((header, values))
    return kept, shared


def shared_value(value: str) -> str:
    return "none" if value in ("", "-") else value


def shared_text(shared: Sequence[tuple[str, str]]) -> str:
    """The sentence stating the values every row shares, or "" when there is none."""
    if not shared:
        return ""
    said = "; ".join(f"{header}: {shared_value(value)}" for header, value in shared)
    return f"Every row: {said}."


def main_shared(board: Leaderboard) -> list[tuple[str, str]]:
    """The main table's columns every row shares, as ``(header, value)``."""
    return split_shared(row_columns(board))[1]


def main_table(board: Leaderboard) -> Table:
    """The agents as rows, the tasks as columns, then the aggregates every row does not
    share (``main_shared`` has the others)."""
    kept, _ = split_shared(row_columns(board))
    header = ["agent", *(f"{t.name}: {t.metric or '-'}" for t in board.tasks)]
    header += [h for h, _ in kept]
    body = []
    for i, row in enumerate(board.rows):
        cells = [summary_text(board.cell(row.agent, t.name)) for t in board.tasks]
        body.append([agent_text(row), *cells, *(values[i] for _, values in kept)])
    return Table("leaderboard", header, body)


def _cost_cells(c: Costs) -> list[str]:
    """A cell's or a row's costs as the cost table's last seven columns."""
    return [
        str(c.calls),
        str(c.prompt_tokens),
        str(c.completion_tokens),
        str(c.memory_calls),
        f"{c.seconds:.1f}",
        number(c.tokens_per_success, 4) or "-",
        "-" if c.money is None else f"{c.money:.4f}",
    ]


def _cost_split(board: Leaderboard) -> tuple[Table, list[tuple[str, str]]]:
    header = ["agent", "task", "status", "trials", "model calls", "prompt tokens"]
    header += ["completion tokens", "memory calls", "wall s", "tokens per success"]
    header.append(f"cost ({board.currency})")
    body = [
        [c.agent, c.task, c.status, f"{c.complete}/{c.trials}", *_cost_cells(c.costs)]
        for c in board.cells
    ]
    body += [[row.agent, "all tasks", "", "", *_cost_cells(row.costs)] for row in board.rows]
    columns = [(h, [r[i] for r in body]) for i, h in enumerate(header)]
    kept, shared = split_shared(columns[2:])
    kept = columns[:2] + kept
    rows = [[values[i] for _, values in kept] for i in range(len(body))]
    return Table("costs per cell and per agent", [h for h, _ in kept], rows), shared


def cost_table(board: Leaderboard) -> Table:
    """Each cell's and each agent's costs, without the columns every row shares
    (``cost_shared`` states them)."""
    return _cost_split(board)[0]


def cost_shared(board: Leaderboard) -> list[tuple[str, str]]:
    """The cost table's columns every row shares, as ``(header, value)``."""
    return _cost_split(board)[1]


def _more_kinds(board: Leaderboard, task: str) -> dict[str, str]:
    """Each further metric of ``task`` with which way is better and its interval."""
    return {
        m.metric: f"{m.direction} is better, {m.interval_kind} interval"
        for c in board.cells
        if c.task == task
        for m in c.more
    }


def metric_lines(board: Leaderboard) -> list[str]:
    lines = []
    for t in board.tasks:
        kinds = _more_kinds(board, t.name)
        more = ", ".join(f"{m} ({kinds[m]})" if m in kinds else m for m in t.more)
        lines.append(
            f"{t.name}: {t.metric or 'no metric declared'}"
            + (f" ({t.direction} is better, {t.interval} interval)" if t.metric else "")
            + (f"; also {more}" if t.more else "")
            + (f"; {t.description}" if t.description else "")
        )
    return lines


def more_table(board: Leaderboard) -> Table:
    """Every cell's further metrics: value (95% interval) and items, and which way is better."""
    body = [
        [
            c.agent,
            c.task,
            m.metric,
            "-" if m.value is None else f"{number(m.value)} {interval_text(m.low, m.high)} n={m.n}",
            f"{m.direction} is better" if m.direction else "",
        ]
        for c in board.cells
        for m in c.more
    ]
    return Table("further metrics", ["agent", "task", "metric", "value", "better"], body)


def ranking_lines(board: Leaderboard) -> list[str]:
    """Per task, which items the best cell, the tests and the aggregates used."""
    lines = []
    for t in board.tasks:
        if t.metric is None:
            continue
        clusters = f"clusters: {t.cluster}"
        if t.shared is None:
            used = "each cell's own items (an unpaired metric)"
        elif not t.shared:
            used = "no item every measured cell has: not ranked"
        else:
            used = (
                f"the {t.shared_items} items in {t.shared_clusters} cluster"
                f"{'s' * (t.shared_clusters != 1)} every measured cell has ({_keys(t.shared)})"
            )
        ranked = "" if t.ranked or not t.shared else "; fewer than two measured cells: not ranked"
        lines.append(f"{t.name}: {used}{ranked}; {clusters}")
    return lines


def _keys(keys: list[str], shown: int = 8) -> str:
    head = ", ".join(keys[:shown])
    return head if len(keys) <= shown else f"{head}, ... {len(keys) - shown} more"
