"""The leaderboard as tables of text: the main table, the costs and the metrics' lines.

A value every row of a table shares is said once above it (``main_shared``, ``cost_shared``)
rather than in every row: the main table drops an aggregate or its "tasks covered" column
when all rows hold the same, and the cost table any column but the agent and the task; a
column where rows differ keeps every row's value.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.core.views import Table

from .leaderboard import Cell, Costs, Leaderboard, Row

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
        cells = [cell_text(board.cell(row.agent, t.name)) for t in board.tasks]
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


def metric_lines(board: Leaderboard) -> list[str]:
    return [
        f"{t.name}: {t.metric or 'no metric declared'}"
        + (f" ({t.direction} is better, {t.interval} interval)" if t.metric else "")
        + (f"; also {', '.join(t.more)}" if t.more else "")
        + (f"; {t.description}" if t.description else "")
        for t in board.tasks
    ]


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
