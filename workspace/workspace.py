"""The blackboard every specialist of an agent reads and writes."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class Message:
    role: Literal["user", "assistant"]
    content: str


@dataclass
class Workspace:
    """Public dialogue, the current input, this turn's broadcasts and persistent private entries.

    Only ``reply`` ever reaches the user; everything in ``broadcasts`` and ``private`` stays
    inside the agent.
    """

    dialogue: list[Message] = field(default_factory=list)
    current_input: str = ""
    turn: int = 0
    broadcasts: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] = field(default_factory=dict)
    reply: str | None = None
    thought: str | None = None

    def begin_turn(self, user_text: str) -> None:
        self.turn += 1
        self.current_input = user_text
        self.broadcasts = {}
        self.reply = None
        self.thought = None

    def end_turn(self) -> None:
        self.dialogue.append(Message("user", self.current_input))
        self.dialogue.append(Message("assistant", self.reply or ""))

    def history(self, window: int | None = None) -> list[Message]:
        """Earlier public messages, oldest first; the last ``window`` of them when given."""
        if window is None or window >= len(self.dialogue):
            return list(self.dialogue)
        return self.dialogue[-window:] if window > 0 else []

    def copy(self) -> Workspace:
        return copy.deepcopy(self)
