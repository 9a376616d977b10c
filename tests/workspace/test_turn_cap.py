"""A task may cap the specialist steps of one turn (``Percept.step_budget``: what is left of a
game's transition budget): the agent's walk stops there and its responder acts, within the
cap and never past its own step budget."""

from __future__ import annotations

import pytest

from cogarch.core.acting import Percept
from tests.workspace.episodex import Scripted, episodex

ACTIONS = ("go to desk 1", "go to shelf 1", "look")
LOOP = '{"next": "focus"}'


def percept(cap: int | None) -> Percept:
    return Percept(
        observation="You are in the middle of a room. Your task is to: put some mug on desk.",
        actions=ACTIONS,
        goal="put some mug on desk",
        game=0,
        step=0,
        step_budget=cap,
    )


@pytest.mark.parametrize(("cap", "steps"), [(None, 17), (40, 17), (5, 6), (1, 2)])
async def test_a_turn_walks_at_most_its_cap_then_acts(cap: int | None, steps: int) -> None:
    agent = episodex(Scripted(scripts={"router": [LOOP] * 100}))
    choice = await agent.act(percept(cap))
    assert choice.sent in ACTIONS
    walked = [s for s in agent.route_log.steps if s.turn == 1]
    assert len(walked) == steps == agent.last_reply().steps
    assert walked[-1].node == "motor"
    assert agent.workspace.acting.budget_ends == [(0, 1)]
