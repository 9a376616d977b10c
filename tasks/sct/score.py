"""Scoring a played Self-Consistency Test: a pure function of what was played (no model, no
agent), so a trial can be rescored from its record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cogarch.core.records import Turn

from .evaluator import Answer, evaluate
from .game import SCTJudge


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


def leak_turns(played: PlayedSCT, judge: SCTJudge) -> list[int]:
    """The turns whose public reply names the revealed or the memory secret."""
    secrets = [s for s in (played.revealed, played.memory_secret) if s]
    return [t.turn for t in played.turns if any(judge.mentions(t.reply, s) for s in secrets)]


def score(played: PlayedSCT, judge: SCTJudge) -> dict[str, Any]:
    """The outcome class and the SCT metrics of one played trial."""
    leaks = leak_turns(played, judge)
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
    )


__all__ = ["PlayedSCT", "leak_turns", "score"]
