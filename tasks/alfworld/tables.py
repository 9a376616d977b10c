"""The report's tables of ALFWorld curricula, and the tidy export's column.

Each agent's games (over its complete trials) broken down: success with the efficiency of
won games and the inadmissible and repeated actions; success per split and per task type,
with counts; the learning curve (success by the game's place in the curriculum); and the cost
per game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import fmean

from cogarch.core.evaluation import Scalar
from cogarch.core.records import TrialRecord
from cogarch.core.views import Cell, Table

from .games import SPLITS
from .records import AlfworldPayload, GameResult
from .wheel import TASK_TYPES

CURVE_COLUMNS = 12
"""Learning curves longer than this are shown in blocks of consecutive games."""


def _played(records: Sequence[TrialRecord]) -> dict[str, list[AlfworldPayload]]:
    """The complete curricula of each agent, agents in the order of the records."""
    out: dict[str, list[AlfworldPayload]] = {}
    for r in records:
        if r.status == "complete" and isinstance(r.payload, AlfworldPayload):
            out.setdefault(r.agent, []).append(r.payload)
    return out


def _games(curricula: list[AlfworldPayload]) -> list[GameResult]:
    return [g for p in curricula for g in p.games]


def _percent(hits: int, total: int) -> float | None:
    return round(100 * hits / total, 1) if total else None


def _mean(values: Sequence[float], digits: int = 2) -> float | None:
    return round(fmean(values), digits) if values else None


def share(games: Sequence[GameResult]) -> str:
    """``won/played (rate%)``, or a dash when none was played."""
    if not games:
        return "-"
    won = sum(g.won for g in games)
    return f"{won}/{len(games)} ({100 * won / len(games):.0f}%)"


def success_table(played: dict[str, list[AlfworldPayload]]) -> Table:
    rows: list[list[Cell]] = []
    for agent, curricula in played.items():
        games = _games(curricula)
        won = [g for g in games if g.won]
        actions = sum(g.actions for g in games)
        rows.append(
            [
                agent,
                len(curricula),
                len(games),
                len(won),
                _percent(len(won), len(games)),
                _mean([g.actions for g in won]),
                _mean([g.plan_length for g in won]),
                _percent(sum(g.inadmissible_actions for g in games), actions),
                _percent(sum(g.repeated_actions for g in games), actions),
            ]
        )
    header = [
        "agent",
        "trials",
        "games",
        "won",
        "success %",
        "actions per won game",
        "planner's plan, same games",
        "inadmissible %",
        "repeated %",
    ]
    return Table("ALFWorld: success and actions per agent (complete trials)", header, rows)


def breakdown_table(
    played: dict[str, list[AlfworldPayload]],
    title: str,
    key: Callable[[GameResult], str],
    order: Sequence[str],
) -> Table:
    """Won of played games per agent, one column per value of ``key`` that was played."""
    seen = {key(g) for curricula in played.values() for g in _games(curricula)}
    columns = [c for c in order if c in seen] + sorted(seen - set(order))
    rows: list[list[Cell]] = []
    for agent, curricula in played.items():
        games = _games(curricula)
        rows.append([agent, *(share([g for g in games if key(g) == c]) for c in columns)])
    return Table(title, ["agent", *columns], rows)


def _blocks(length: int) -> list[range]:
    size = max(1, math.ceil(length / CURVE_COLUMNS))
    return [range(i, min(i + size, length)) for i in range(0, length, size)]


def curve_table(played: dict[str, list[AlfworldPayload]]) -> Table:
    """Success by the game's place in the curriculum (in blocks for long curricula), with the
    split of the place."""
    length = max((len(p.games) for ps in played.values() for p in ps), default=0)
    splits: dict[int, str] = {}
    for ps in played.values():
        for p in ps:
            for g in p.games:
                splits.setdefault(g.index, g.split)
    blocks = _blocks(length)
    header = ["agent", "trials"]
    for block in blocks:
        names = "/".join(dict.fromkeys(splits.get(i, "?") for i in block))
        place = str(block[0] + 1) if len(block) == 1 else f"{block[0] + 1}-{block[-1] + 1}"
        header.append(f"game {place} ({names}) %")
    rows: list[list[Cell]] = []
    for agent, curricula in played.items():
        cells: list[Cell] = [agent, len(curricula)]
        for block in blocks:
            games = [g for p in curricula for g in p.games if g.index in block]
            cells.append(_percent(sum(g.won for g in games), len(games)))
        rows.append(cells)
    title = "ALFWorld: learning curve, success by the game's place in the curriculum"
    return Table(title, header, rows)


def cost_table(played: dict[str, list[AlfworldPayload]]) -> Table:
    rows: list[list[Cell]] = []
    for agent, curricula in played.items():
        games = _games(curricula)
        rows.append(
            [
                agent,
                len(games),
                _mean([g.actions for g in games]),
                _mean([g.model_calls for g in games]),
                _mean([g.prompt_tokens for g in games], 0),
                _mean([g.completion_tokens for g in games], 0),
                _mean([g.seconds for g in games]),
            ]
        )
    header = [
        "agent",
        "games",
        "actions",
        "model calls",
        "prompt tokens",
        "completion tokens",
        "seconds",
    ]
    return Table("ALFWorld: cost per game (means)", header, rows)


def report_tables(records: Sequence[TrialRecord]) -> list[Table]:
    played = _played(records)
    if not played:
        return []
    return [
        success_table(played),
        breakdown_table(played, "ALFWorld: success per split", lambda g: g.split, SPLITS),
        breakdown_table(
            played, "ALFWorld: success per task type", lambda g: g.task_type, TASK_TYPES
        ),
        curve_table(played),
        cost_table(played),
    ]


def tidy_columns(record: TrialRecord) -> dict[str, Scalar]:
    """``won_by_game``: the games in curriculum order, 1 for won and 0 for lost (``1101``)."""
    payload = record.payload
    if not isinstance(payload, AlfworldPayload):
        return {"won_by_game": None}
    return {"won_by_game": "".join("1" if g.won else "0" for g in payload.games)}
