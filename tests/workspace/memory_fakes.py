"""A fake model for every ready-made agent, memory agents included.

``MemoryBrain`` answers the compressor with a valid CCS, the task tracker with one ``new``
intent per message, the ReAct responder with a search step and then an answer, and leaves
every other role (responder, updater, router, planner, Autonomous) to ``Brain``. Its answers
never depend on the system prompt's wording, only on the role and the turn.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from autogen_core.models import LLMMessage

from cogarch.models import CallInfo, FakeReply, as_pairs
from tests.workspace import Brain


def ccs_answer(latest: str) -> str:
    return json.dumps(
        {
            "episodic_trace": [latest[:120]],
            "semantic_gist": "the task at hand",
            "focal_entities": [{"name": "user", "type": "person"}],
            "relational_map": [],
            "goal_orientation": "help the user",
            "constraints": ["keep the user's constraints"],
            "predictive_cue": ["next question"],
            "uncertainty_signal": {"level": "low", "gaps": []},
            "retrieved_artifacts": [],
        }
    )


@dataclass
class MemoryBrain:
    brain: Brain = field(default_factory=Brain)
    react_steps: int = 0

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str | FakeReply:
        pairs = as_pairs(messages)
        system = pairs[0][1]
        last = pairs[-1][1]
        if system.startswith("You are the cognitive compressor"):
            return ccs_answer(last.rsplit("User: ", 1)[-1].split("\n")[0])
        if system.startswith("You classify a user's message"):
            message = last.rsplit("Message: ", 1)[-1]
            slot = "detail_" + str(sum(1 for _ in message.split()))
            return json.dumps({"intents": [{"intent": "new", "slot": slot, "value": message}]})
        if "step by step (ReAct)" in system:
            return self._react(last)
        return self.brain(messages, info)

    def _react(self, last: str) -> str:
        if "Observation 1:" not in last:
            step: dict[str, Any] = {"thought": "look back", "action": "search_history"}
            return json.dumps({**step, "input": last.split("\n")[0]})
        self.react_steps += 1
        return json.dumps({"thought": "done", "action": "answer", "input": "react answer"})
