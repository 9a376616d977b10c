"""How ALFWorld curricula are shown: the report's tables, a trial's page and its tidy columns.

The report breaks each agent's games down (over its complete trials): success with the
efficiency of won games and the inadmissible and repeated actions; success per split and per
task type with counts; the learning curve (success by the game's place in the curriculum);
and the cost per game. A trial's page lists its games, then each game: where and what it was,
how it went, what it cost, and its transcript step by step (the admissible actions and the
agent's private state folded), followed by what the agent reported of the game when it ended
(each memory module's record, the focus loop's activations).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from statistics import fmean
from typing import Any

from cogarch.core.evaluation import Scalar
from cogarch.core.records import TrialRecord, Turn
from cogarch.core.views import Cell, Fold, Section, Table

from .games import SPLITS
from .records import AlfworldPayload, GameResult, GameStep
from .wheel import TASK_TYPES

CURVE_COLUMNS = 12
"""Learning curves longer than this are shown in blocks of consecutive games."""
LONG_REPLY = 160
"""Replies longer than this (in characters) are folded on a game's page."""


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


def _share(games: Sequence[GameResult]) -> str:
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
        rows.append([agent, *(_share([g for g in games if key(g) == c]) for c in columns)])
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


# -- a trial's page ---------------------------------------------------------------------------


def _games_table(payload: AlfworldPayload) -> Table:
    rows: list[list[Cell]] = [
        [
            g.index + 1,
            g.split,
            g.task_type,
            g.room,
            g.goal,
            g.won,
            g.actions,
            g.inadmissible_actions,
            g.repeated_actions,
            g.plan_length,
            g.model_calls,
            g.tokens,
        ]
        for g in payload.games
    ]
    header = [
        "game",
        "split",
        "task type",
        "room",
        "goal",
        "won",
        "actions",
        "inadmissible",
        "repeated",
        "planner's plan",
        "model calls",
        "tokens",
    ]
    return Table("games in playing order", header, rows)


def _curriculum(payload: AlfworldPayload) -> Section:
    games = payload.games
    lines = [
        f"{sum(g.won for g in games)} of {len(games)} games won; at most {payload.max_steps} "
        "actions per game.",
        *(
            f"{split}: {_share([g for g in games if g.split == split])}"
            for split in SPLITS
            if any(g.split == split for g in games)
        ),
    ]
    return Section("The curriculum", lines=lines, table=_games_table(payload))


def _header(game: GameResult, max_steps: int) -> list[str]:
    where = f"room {game.room}" if game.room is not None else "room not recorded"
    seed = f", seed {game.seed}" if game.seed is not None else ""
    how = "won" if game.won else "lost"
    first = game.transcript[0].observation if game.transcript else ""
    return [
        f"goal: {game.goal}",
        f"{where}, {game.task_type}, split {game.split}{seed} ({game.source} game {game.game})",
        f"{how} after {game.actions} actions (at most {max_steps}); the planner's plan takes "
        f"{game.plan_length}",
        f"inadmissible actions: {game.inadmissible_actions}; repeated: {game.repeated_actions}",
        f"cost: {game.model_calls} model calls, {game.prompt_tokens} prompt and "
        f"{game.completion_tokens} completion tokens, {game.seconds} s",
        *([f"first observation: {' '.join(first.split())}"] if first else []),
    ]


def _flags(step: GameStep, last: bool, won: bool) -> str:
    flags = [
        *(["inadmissible"] if step.inadmissible else []),
        *(["repeated"] if step.repeated else []),
        *(["won"] if last and won else []),
    ]
    return ", ".join(flags)


def _reply(text: str) -> Cell:
    if not text.strip():
        return "(empty)"
    if len(text) <= LONG_REPLY:
        return text
    return Fold(" ".join(text[:LONG_REPLY].split()) + " …", text)


class _States:
    """The agent's private state turn by turn, from the record's turns (each records it when
    it changed, within the trial's budget, and its size on every turn)."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.by_turn = {t.turn: t for t in turns}
        self.current: str | None = None
        self.tokens: int | None = None

    def cell(self, step: GameStep, first: bool) -> Cell:
        turn = self.by_turn.get(step.turn) if step.turn is not None else None
        tokens = turn.private_state_tokens if turn is not None else None
        size = f"{tokens} tokens" if tokens is not None else "size not recorded"
        if turn is not None and turn.private_state is not None:
            self.current, self.tokens = turn.private_state, tokens
            return Fold(f"changed: {size}", turn.private_state)
        if tokens is not None and self.tokens is not None and tokens != self.tokens:
            return f"changed, not recorded: {size}"
        if self.current is None:
            return "-"
        return Fold(f"carried: {size}", self.current) if first else "unchanged"


def _transcript(game: GameResult, states: _States) -> Table:
    last = len(game.transcript) - 1
    rows: list[list[Cell]] = [
        [
            s.step,
            Fold(f"{len(s.admissible)} actions", "\n".join(s.admissible)),
            _reply(s.reply),
            s.action or "(none)",
            s.feedback,
            _flags(s, i == last, game.won),
            states.cell(s, i == 0),
        ]
        for i, s in enumerate(game.transcript)
    ]
    header = ["step", "admissible", "reply", "action read", "the game's answer", "flags", "memory"]
    return Table("transcript", header, rows)


def _value(value: Any) -> Cell:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    size = f"{len(value)} entries" if isinstance(value, list | dict) else type(value).__name__
    return Fold(size, json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _memory(title: str, game: GameResult) -> Section | None:
    rows: list[list[Cell]] = [
        [module, entry, _value(value)]
        for module, activity in game.memory.items()
        for entry, value in activity.items()
    ]
    if not rows:
        return None
    table = Table("by memory module", ["module", "entry", "value"], rows)
    return Section(f"{title}: what memory did", table=table)


def _focus(title: str, game: GameResult) -> Section | None:
    if not game.focus:
        return None
    keys = list(dict.fromkeys(k for f in game.focus for k in f))
    rows = [[_value(f.get(k)) for k in keys] for f in game.focus]
    return Section(f"{title}: focus loop", table=Table("activations", keys, rows))


def trial_sections(record: TrialRecord) -> list[Section]:
    """The curriculum, then each game: header, transcript, memory and focus."""
    payload = record.payload
    if not isinstance(payload, AlfworldPayload):
        return []
    states = _States(record.turns)
    sections = [_curriculum(payload)]
    for game in payload.games:
        title = f"Game {game.index + 1} of {len(payload.games)}"
        how = "won" if game.won else "lost"
        sections.append(
            Section(
                f"{title}: {game.task_type} in room {game.room} ({game.split}), {how}",
                lines=_header(game, payload.max_steps),
                table=_transcript(game, states),
            )
        )
        sections += [s for s in (_memory(title, game), _focus(title, game)) if s is not None]
    return sections


__all__ = ["report_tables", "tidy_columns", "trial_sections"]
