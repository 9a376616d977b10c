"""The leaderboard as tables of text: the main table, the costs and the metrics' lines."""

from __future__ import annotations

from cogarch.core.views import Table

from .leaderboard import Cell, Costs, Leaderboard


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


def main_table(board: Leaderboard) -> Table:
    header = ["agent", *(f"{t.name}: {t.metric or '-'}" for t in board.tasks)]
    header += ["mean win rate", "mean rank", "normalised mean", "tasks covered (items)"]
    body = []
    for row in board.rows:
        cells = [cell_text(board.cell(row.agent, t.name)) for t in board.tasks]
        aggregates = [number(row.mean_win_rate), number(row.mean_rank), number(row.normalised_mean)]
        covered = ", ".join(f"{t} ({row.items[t]})" if t in row.items else t for t in row.tasks)
        body.append([row.agent, *cells, *aggregates, covered or "none"])
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


def cost_table(board: Leaderboard) -> Table:
    header = ["agent", "task", "status", "trials", "model calls", "prompt tokens"]
    header += ["completion tokens", "memory calls", "wall s", "tokens per success"]
    header.append(f"cost ({board.currency})")
    body = []
    for cell in board.cells:
        c = cell.costs
        body.append(
            [
                cell.agent,
                cell.task,
                cell.status,
                f"{cell.complete}/{cell.trials}",
                *_cost_cells(c),
            ]
        )
    for row in board.rows:
        c = row.costs
        body.append(
            [
                row.agent,
                "all tasks",
                "",
                "",
                *_cost_cells(c),
            ]
        )
    return Table("costs per cell and per agent", header, body)


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
