"""An agent that acts: it takes a typed percept, keeps it for the turn, and answers with the
action its motor chose, in the game's form; an agent without a motor has its reply read."""

from __future__ import annotations

import json

import pytest

from cogarch.core.acting import Percept
from cogarch.core.affordances import format_input, render
from cogarch.core.host import Acting
from cogarch.models import CallInfo, FunctionModel, Model, as_pairs
from cogarch.workspace import Workspace, build_agent, load_agent_spec
from tests.workspace.episodex import Scripted, episodex
from tests.workspace.episodex.house import apple_house


def _percept(observation: str, actions: list[str], goal: str | None = None) -> Percept:
    return Percept(observation, tuple(actions), 9, 10, goal=goal, game=0, step=1)


async def test_the_motor_s_choice_is_the_action_with_what_it_proposed() -> None:
    brain = Scripted({"motor": ["ACTION: [Go To Shelf 1]."]})
    agent = episodex(brain)
    assert isinstance(agent, Acting)
    house = apple_house()
    percept = _percept(house.start(), house.admissible(), goal=house.task)

    choice = await agent.act(percept)

    assert (choice.sent, choice.proposed, choice.reply) == (
        "go to shelf 1",
        "Go To Shelf 1",
        "Go To Shelf 1",
    )
    assert choice.admissible is True and choice.problem is None
    assert agent.workspace.acting.percept == percept
    assert agent.workspace.current_input == render(percept)
    (attempt,) = agent.workspace.acting.actions
    assert attempt.sent == "Go To Shelf 1"


async def test_a_held_back_proposal_is_not_the_choice_the_sent_one_is() -> None:
    brain = Scripted({"motor": ["fly to the moon"]})
    agent = episodex(brain)
    house = apple_house()

    choice = await agent.act(_percept(house.start(), house.admissible()))

    first, second = agent.workspace.acting.actions
    assert first.problem == "off_task" and first.sent is None
    assert choice.sent == second.sent and choice.sent in house.admissible()
    assert choice.problem is None


async def test_an_agent_without_a_motor_has_its_reply_read_in_the_game_s_form() -> None:
    seen: list[str] = []

    def reply(messages: object, info: CallInfo) -> str:
        seen.append(as_pairs(messages)[-1][1])  # type: ignore[arg-type]
        return "Thought: it goes on the table.\nAction: put apple 1 in/on table 1"

    model = Model(FunctionModel(reply), provider="f", model="f", fake=True)
    agent = build_agent(load_agent_spec("alfworld_react"), lambda name: model, provider="f")
    percept = _percept("You hold the apple.", ["move apple 1 to table 1", "look"])

    choice = await agent.act(percept)

    assert seen == [render(percept)]
    assert choice.sent == "move apple 1 to table 1" and choice.admissible is True
    assert choice.proposed == "put apple 1 in/on table 1"
    assert choice.reply.endswith("Action: put apple 1 in/on table 1")


async def test_a_workspace_saved_by_earlier_versions_loads_with_its_actions() -> None:
    agent = episodex(Scripted({"motor": ["", None]}))
    house = apple_house()
    await agent.respond(house.prompt(house.start()))
    ws = agent.workspace
    saved = json.loads(json.dumps(ws.save_state()))
    acting = saved.pop("acting")
    marks = {k: saved.pop(k) for k in ("resume_from", "must_reply")}  # once the acting part's
    saved["focus_count"] = saved.pop("reground_count") + len(acting["focus_log"])  # both runs
    kept = ("actions", "focus_log", "budget_ends")
    flat = {**saved, **marks, **{k: acting[k] for k in kept}}  # before the acting part
    nested = {**saved, "acting": {**acting, **marks}}

    for earlier in (flat, nested):
        restored = Workspace.from_state(earlier)
        assert restored.acting is not None and ws.acting is not None
        assert restored.acting.actions == ws.acting.actions
        assert restored.acting.focus_log == ws.acting.focus_log
        assert restored.resume_from == ws.resume_from == "motor"
        assert restored.reground_count == ws.reground_count == 0
    with pytest.raises(TypeError, match="'actions'"):
        Workspace.from_state({**saved, "acting": {**acting, "actions": "none"}})


async def test_a_text_only_agent_has_no_acting_part_and_reads_no_percept() -> None:
    model = Model(FunctionModel(lambda msgs, info: "ok"), provider="f", model="f", fake=True)
    agent = build_agent(load_agent_spec("vanilla"), lambda name: model, provider="f")
    await agent.respond(format_input("A room.", ["look"]))
    await agent.observe("Shall we play?")
    branch = agent.fork()
    await branch.respond("Again?")
    assert agent.workspace.acting is None and branch.workspace.acting is None
    assert Workspace.from_state(agent.workspace.save_state()).acting is None
    assert agent.workspace.save_state()["acting"] is None


async def test_a_text_turn_is_read_back_once_into_the_turn_s_percept() -> None:
    agent = episodex(Scripted())
    house = apple_house()
    await agent.respond(house.prompt(house.start()))
    percept = agent.workspace.acting.percept
    assert percept is not None and percept.observation == house.start()
    assert percept.actions == tuple(house.admissible()) and percept.goal is None
    assert list(agent.workspace.acting.observations) == [house.start()]
