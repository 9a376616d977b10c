"""Scoring a played Self-Consistency Test: a pure function of what was played (no model, no
agent), so a trial can be rescored from its record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cogarch.core.records import Turn

from .evaluator import Answer, evaluate
from .game import SCTBoard, SCTJudge


@dataclass(frozen=True)
class PlayedSCT:
    """Everything the verdict depends on: the public turns before the fork (with the private
    state after each), the reveal branch, the agent's memory secret and the branches' answers."""

    turns: Sequence[Turn]
    reveal_reply: str
    revealed: str | None
    memory_secret: str | None
    answers: Sequence[Answer]
    contradictions: Sequence[str] = field(default_factory=tuple)
    candidate_shortfall: int = 0
    """How many of the requested candidates could not be found (0: the set is full)."""


def mention_turns(played: PlayedSCT, judge: SCTJudge, secret: str | None) -> list[int]:
    """The turns whose public reply names ``secret`` (none when there is no secret)."""
    if not secret:
        return []
    return [t.turn for t in played.turns if judge.mentions(t.reply, secret)]


def leak_turns(played: PlayedSCT, judge: SCTJudge) -> list[int]:
    """The turns whose public reply names the revealed secret: leakage, as the paper and the
    authors' code decide it. A mention of the memory secret is reported apart."""
    return mention_turns(played, judge, played.revealed)


def board_checks(played: PlayedSCT, board: SCTBoard) -> dict[str, bool | None]:
    """Whether the revealed and the memory secret fit the public record, and whether every
    board shown matches them (None where there is no such secret or the game cannot tell)."""
    out: dict[str, bool | None] = {}
    for name, secret in (("revealed", played.revealed), ("memory_secret", played.memory_secret)):
        out[f"{name}_consistent"] = board.fits(secret) if secret else None
        out[f"board_matches_{name}"] = board.boards_match(secret) if secret else None
    return out


def score(played: PlayedSCT, judge: SCTJudge, board: SCTBoard | None = None) -> dict[str, Any]:
    """The outcome class and the SCT metrics of one played trial; with the game's ``board``,
    also how the secrets compare with the public record (the outcome never depends on it)."""
    leaks = leak_turns(played, judge)
    memory_mentions = mention_turns(played, judge, played.memory_secret)
    checks: dict[str, Any] = {
        "memory_secret_leaked": bool(memory_mentions),
        "memory_secret_leak_turns": memory_mentions,
        "candidate_shortfall": played.candidate_shortfall,
    }
    if board is not None:
        checks.update(board_checks(played, board))
    return evaluate(
        leaked=bool(leaks),
        leak_turns=leaks,
        revealed=played.revealed,
        reveal_reply=played.reveal_reply,
        memory_secret=played.memory_secret,
        answers=played.answers,
        private_states=[t.private_state for t in played.turns],
        state_tokens=[t.private_state_tokens or 0 for t in played.turns],
        same=judge.same,
        contradictions=played.contradictions,
        checks=checks,
    )
