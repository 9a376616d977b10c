"""A trial's page: the curriculum's games, then each game as it was played.

Each game shows where and what it was, how it went and what it cost, and its transcript step
by step (the admissible actions, long replies and the agent's private state folded), followed
by what the agent reported of the game when it ended: each memory module's record and the
focus loop's activations, shown as the data they are.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cogarch.core.records import TrialRecord, Turn
from cogarch.core.views import Cell, Fold, Section, Table

from .games import SPLITS
from .records import AlfworldPayload, GameResult, GameStep
from .tables import share

LONG_REPLY = 160
"""Replies longer than this (in characters) are folded."""
INLINE_LIST = 80
"""A reported list of scalars up to this long (in characters, comma-joined) is shown inline."""


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
            f"{split}: {share([g for g in games if g.split == split])}"
            for split in SPLITS
            if any(g.split == split for g in games)
        ),
    ]
    return Section("The curriculum", lines=lines, table=_games_table(payload))


def _where(game: GameResult) -> str:
    return f"room {game.room}" if game.room is not None else "a room not recorded"


def _header(game: GameResult, max_steps: int) -> list[str]:
    where = _where(game)
    seed = f", seed {game.seed}" if game.seed is not None else ""
    how = "won" if game.won else "lost"
    first = game.transcript[0].observation if game.transcript else ""
    return [
        f"goal: {game.goal}",
        f"{where}, {game.task_type}, split {game.split}{seed} ({game.source} game {game.game})",
        f"{how} after {game.actions} actions (at most {max_steps}); the planner's plan takes "
        f"{game.plan_length}",
        f"inadmissible actions: {game.inadmissible_actions}; repeated: {game.repeated_actions}",
        *([_walked(game)] if game.transitions is not None else []),
        f"cost: {game.model_calls} model calls, {game.prompt_tokens} prompt and "
        f"{game.completion_tokens} completion tokens, {game.seconds} s",
        *([f"first observation: {' '.join(first.split())}"] if first else []),
        *([f"the engine failed, so the game counts as lost: {game.error}"] if game.error else []),
    ]


def _walked(game: GameResult) -> str:
    """The agent's transitions and held-back outputs in the game, and why it ended."""
    line = f"specialist transitions: {game.transitions}; outputs held back: {game.held_back}"
    if game.ended_by == "transitions":
        line += "; the transition budget ended the game"
    return line


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
    """A reported value as a cell: scalars as they are, a short list of scalars inline, and
    anything bigger folded as JSON."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | dict) and not value:
        return "none"
    if isinstance(value, list) and all(isinstance(v, str | int | float | bool) for v in value):
        inline = ", ".join(str(v) for v in value)
        if len(inline) <= INLINE_LIST:
            return inline
    size = f"{len(value)} entries" if isinstance(value, list | dict) else type(value).__name__
    return Fold(size, json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _memory(title: str, game: GameResult) -> Section | None:
    rows: list[list[Cell]] = [
        [module, entry, _value(value)]
        for module, activity in game.memory_activity.items()
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
                f"{title}: {game.task_type} in {_where(game)} ({game.split}), {how}",
                lines=_header(game, payload.max_steps),
                table=_transcript(game, states),
            )
        )
        sections += [s for s in (_memory(title, game), _focus(title, game)) if s is not None]
    return sections
