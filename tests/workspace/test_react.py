"""The ReAct baseline: thought / action / observation over the workspace, then an answer."""

from __future__ import annotations

import json
from collections.abc import Sequence

from autogen_core.models import LLMMessage

from cogarch.models import CallInfo, as_pairs
from tests.workspace import make_agent


class Script:
    """Plays the steps in ``steps`` in order (the last repeats) and keeps every prompt."""

    def __init__(self, *steps: str) -> None:
        self.steps, self.seen = list(steps), list[list[tuple[str, str]]]()

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        self.seen.append(as_pairs(messages))
        return self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]


def step(action: str, text: str) -> str:
    return json.dumps({"thought": f"about to {action}", "action": action, "input": text})


async def test_search_note_and_answer_act_on_the_workspace() -> None:
    script = Script(
        step("answer", "Lisbon it is."),
        step("search_history", "Lisbon"),
        step("write_note", "destination is Lisbon"),
        step("answer", "You picked Lisbon."),
        step("answer", "Still Lisbon."),
    )
    agent = make_agent("react", script)
    assert await agent.respond("Make the destination Lisbon.") == "Lisbon it is."
    assert await agent.respond("Which city did I pick?") == "You picked Lisbon."
    last = script.seen[3][-1][1]
    assert "Observation 1: user: Make the destination Lisbon.\nassistant: Lisbon it is." in last
    assert "Observation 2: noted" in last
    assert agent.workspace.private["responder.notes"] == ["destination is Lisbon"]
    await agent.respond("And now?")
    assert "- destination is Lisbon" in script.seen[4][0][1]  # notes carried to later turns
    assert [r for r, _ in script.seen[4][1:-1]] == ["user", "assistant"] * 2  # the transcript
    assert agent.workspace.broadcasts["responder"] == "answer: Still Lisbon."


async def test_the_step_budget_forces_an_answer_and_prose_is_the_answer() -> None:
    looping = Script(step("search_history", "anything"))
    agent = make_agent("react", looping, max_steps=2)
    reply = await agent.respond("hello")
    assert reply == "anything" and len(looping.seen) == 3
    assert "Step budget spent" in looping.seen[-1][-1][1]
    prose = make_agent("react", Script("Just a plain reply."))
    assert await prose.respond("hi") == "Just a plain reply."
