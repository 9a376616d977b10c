"""The curriculum's evaluation, a pure function of the games played."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from statistics import fmean

from .records import AlfworldEvaluation, AlfworldPayload, GameResult


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _mean(values: Sequence[float]) -> float | None:
    return round(fmean(values), 4) if values else None


def _by(games: Sequence[GameResult], key: Callable[[GameResult], str]) -> dict[str, float]:
    groups: dict[str, list[bool]] = defaultdict(list)
    for g in games:
        groups[key(g)].append(g.won)
    return {name: round(sum(won) / len(won), 4) for name, won in sorted(groups.items())}


def evaluate(payload: AlfworldPayload) -> AlfworldEvaluation:
    """The numbers of the curriculum ``payload`` records (see :class:`AlfworldEvaluation`)."""
    games = payload.games
    won = [g for g in games if g.won]
    actions = sum(g.actions for g in games)
    inadmissible = sum(g.inadmissible_actions for g in games)
    repeated = sum(g.repeated_actions for g in games)
    curve, wins = [], 0
    for n, g in enumerate(games, start=1):
        wins += g.won
        curve.append(round(wins / n, 4))
    return AlfworldEvaluation(
        games=len(games),
        won=len(won),
        success_rate=_rate(len(won), len(games)),
        success_by_split=_by(games, lambda g: g.split),
        success_by_task_type=_by(games, lambda g: g.task_type),
        actions=actions,
        inadmissible_actions=inadmissible,
        repeated_actions=repeated,
        actions_per_won_game=_mean([g.actions for g in won]),
        plan_length_per_won_game=_mean([g.plan_length for g in won]),
        inadmissible_rate=_rate(inadmissible, actions),
        repeated_rate=_rate(repeated, actions),
        learning_curve=curve,
        model_calls_per_game=_mean([g.model_calls for g in games]),
        tokens_per_game=_mean([g.tokens for g in games]),
    )
