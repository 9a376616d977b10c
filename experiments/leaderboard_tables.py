"""The leaderboard as tables of text: the main table, the costs and the metrics' lines."""

from __future__ import annotations

from cogarch.core.views import Table

from .leaderboard import Cell, Costs, Leaderboard


def number(value: float | None, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}g}" if abs(value) < 1000 else f"{value:.0f}"


def cell_text(cell: Cell | None) -> str:
    """A cell as text: value (low-high) n, a dagger when it differs from the task's best,
    a star on the best; its status when it is not complete."""
    if cell is None:
        return "skipped"
    if cell.value is None:
        return cell.status
    mark = " *" if cell.best else " †" if cell.significant else ""
    text = f"{number(cell.value)} ({number(cell.low)}-{number(cell.high)}) n={cell.n}{mark}"
    return text if cell.status == "complete" else f"{text} ({cell.status})"


def main_table(board: Leaderboard) -> Table:
    header = ["agent", *(f"{t.name}: {t.metric or '-'}" for t in board.tasks)]
    header += ["mean win rate", "mean rank", "normalised mean", "tasks covered"]
    body = []
    for row in board.rows:
        cells = [cell_text(board.cell(row.agent, t.name)) for t in board.tasks]
        aggregates = [number(row.mean_win_rate), number(row.mean_rank), number(row.normalised_mean)]
        body.append([row.agent, *cells, *aggregates, ", ".join(row.tasks) or "none"])
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
