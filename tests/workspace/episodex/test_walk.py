"""The Episodex agent's walk: one action per turn, only the paper's transitions, the focus loop
on hallucinated actions, the step budget, and the belief state as the private state."""

from __future__ import annotations

import json

import pytest

from cogarch.core.memory import EpisodeEnd
from cogarch.workspace import Agent, Workspace
from cogarch.workspace.actions import focus_summary
from tests.workspace import Brain, make_agent
from tests.workspace.episodex import Scripted, allowed_edges, episodex
from tests.workspace.episodex.house import apple_house, empty_house, mug_house, play, play_game

PAPER_EDGES = {
    ("planning", "motor"),
    ("motor", "external_perception"),
    ("external_perception", "conscious"),
    ("conscious", "planning"),
    ("conscious", "retrieve_memory"),
    ("conscious", "focus"),
    ("conscious", "learning"),
    ("conscious", "idea"),
    ("retrieve_memory", "internal_perception_3"),
    ("internal_perception_3", "idea"),
    ("internal_perception_3", "learning"),
    ("idea", "planning"),
    ("learning", "record_long_term_memory"),
    ("record_long_term_memory", "internal_perception_1"),
    ("internal_perception_1", "idea"),
    ("focus", "internal_perception_2"),
    ("internal_perception_2", "conscious"),
}
"""Episodex's allowed transitions, as its public code lists them."""


def test_the_graph_is_the_papers() -> None:
    agent = episodex(Scripted())
    assert allowed_edges() == PAPER_EDGES
    assert len(agent.specialists) == 12
    assert (agent.graph.entry, agent.graph.responder) == ("external_perception", "motor")


async def test_every_turn_ends_in_one_action_along_allowed_transitions_only() -> None:
    brain = Scripted(slip=0.3, detours=0.5)
    # the brain's detours follow its prompts; with the representatives alone in context these
    # houses never spend a turn's step budget (the budget's own cut is tested below)
    agent = episodex(brain, concepts_shown="representatives")
    houses = [apple_house(), mug_house(), empty_house(), apple_house()]
    replies = await play(agent, houses)

    turns = sum(len(r) for r in replies)
    sent = [a for a in agent.workspace.acting.actions if a.sent is not None]
    assert len(sent) == turns == agent.workspace.turn
    assert [a.sent for a in sent] == [reply for game in replies for reply in game]
    assert [a.turn for a in sent] == list(range(1, turns + 1))  # exactly one per turn
    taken = {(t.source, t.target) for t in agent.route_log.transitions if t.how != "entry"}
    assert taken <= PAPER_EDGES
    hows = {"entry", "resume", "single", "condition", "model"}
    assert {t.how for t in agent.route_log.transitions} <= hows
    # the detours and the focus loop were all taken somewhere
    assert {("conscious", "retrieve_memory"), ("conscious", "focus")} <= taken
    assert {("internal_perception_1", "idea"), ("motor", "external_perception")} <= taken
    # each turn starts at external perception: a game's first from the outside input, every
    # later one along motor -> external perception, as the action's observation comes back
    starts = [(t.source, t.target, t.how) for t in agent.route_log.transitions if t.step == 0]
    firsts = {sum(len(r) for r in replies[:game]) for game in range(len(replies))}
    assert starts == [
        ("<input>", "external_perception", "entry")
        if turn in firsts
        else ("motor", "external_perception", "resume")
        for turn in range(turns)
    ]
    counts = agent.transition_counts()  # the heatmap's: the turns' edge counted with the rest
    held_back = sum(a.sent is None for a in agent.workspace.acting.actions)
    assert counts[("motor", "external_perception")] == turns - len(replies) + held_back
    ends = {}
    for step in agent.route_log.steps:
        ends[step.turn] = step.node
    assert set(ends.values()) == {"motor"}


@pytest.mark.parametrize(
    ("hallucination", "reason"),
    [
        ("", "empty"),
        ("fly to the moon", "off_task"),
        ("I think\nit is done", "off_task"),
        ("go to spaceship 1", "unknown_name"),
        ("I cannot do this, the task is impossible.", "refusal"),
        ("ACTION: [go to shelf 1]\nACTION: [go to box 1]", "several"),
    ],
)
async def test_a_hallucinated_action_is_held_back_and_the_agent_acts_again(
    hallucination: str, reason: str
) -> None:
    brain = Scripted({"motor": [hallucination]})
    agent = episodex(brain)
    house = apple_house()
    reply = await agent.respond(house.prompt(house.start()))

    assert reply in house.admissible()
    first, second = agent.workspace.acting.actions
    assert (first.problem, first.sent) == (reason, None)
    assert (second.problem, second.sent) == (None, reply)
    (activation,) = agent.workspace.acting.focus_log
    assert (activation.reason, activation.attempt) == (reason, 0)
    assert (activation.next_action, activation.next_admissible) == (reply, True)
    assert (activation.next_valid, activation.next_sent) == (True, reply)
    walk = [s.node for s in agent.route_log.steps]
    assert walk == [
        "external_perception",
        "conscious",
        "planning",
        "motor",
        "external_perception",
        "conscious",
        "focus",
        "internal_perception_2",
        "conscious",
        "planning",
        "motor",
    ]
    focus = [t for t in agent.route_log.transitions if t.target == "focus"]
    assert [t.how for t in focus] == ["condition"]
    # the replay: the task and the last valid observation, seen by the planner that follows
    replay = brain.shown("action_planner")[-1]
    assert "[focus] Refocus on the task and the environment." in replay
    assert "Your task: put some apple on box" in replay
    assert "The last valid observation: You are in the middle of a room." in replay
    # the conscious node took in the feedback as a new belief, but not the replay
    assert [b.turn for b in agent.memory["episodic"].beliefs] == [1, 1]  # type: ignore[attr-defined]


async def test_the_focus_loop_repeats_until_an_action_is_admissible() -> None:
    brain = Scripted({"motor": ["", "jump", None]})
    agent = episodex(brain)
    house = apple_house()
    reply = await agent.respond(house.prompt(house.start()))
    assert reply in house.admissible()
    log = agent.workspace.acting.focus_log
    assert [(f.reason, f.next_valid, f.next_sent) for f in log] == [
        ("empty", False, None),
        ("off_task", True, reply),
    ]
    assert focus_summary(log, episode=0) == focus_summary(log)
    summary = focus_summary(log)
    assert (summary.activations, summary.recovered, summary.failed) == (2, 1, 1)
    assert agent.workspace.reground_count == 0  # the focus loop is no reground


async def test_when_the_budget_is_spent_the_motor_still_acts_once() -> None:
    brain = Scripted({"motor": ["fly"] * 10})
    agent = episodex(brain)
    house = apple_house()
    reply = await agent.respond(house.prompt(house.start()))
    assert reply == "fly"  # text outside the task goes to the environment as it is
    cut = [t for t in agent.route_log.transitions if t.how == "budget"]
    assert len(cut) == 1 and cut[0].target == "motor"
    assert [a.sent for a in agent.workspace.acting.actions].count("fly") == 1
    last = agent.workspace.acting.actions[-1]
    assert (last.problem, last.forced) == ("off_task", True)
    assert not any(a.forced for a in agent.workspace.acting.actions[:-1])
    # the turn's activations say the budget ended it; the agent reports the turn per game
    log = agent.workspace.acting.focus_log
    assert log and all(f.ended_by_budget for f in log)
    assert list(agent.workspace.acting.budget_ends) == [(0, 1)]
    report = await agent.end_episode(EpisodeEnd(0, False, label=house.task, steps=1))
    assert report.budget_turns == [1]
    assert all(f["ended_by_budget"] for f in report.focus)

    agent = episodex(Scripted({"motor": [""] * 10}))
    house = apple_house()
    assert await agent.respond(house.prompt(house.start())) == "look"  # no action: the idle one


async def test_with_focus_off_hallucinated_actions_go_to_the_environment() -> None:
    agent = episodex(Scripted({"motor": ["fly to the moon", ""]}), focus=False)
    house = apple_house()
    assert await agent.respond(house.prompt(house.start())) == "fly to the moon"
    assert await agent.respond(house.prompt(house.act("fly to the moon"))) == "look"
    assert agent.workspace.acting.focus_log == []
    assert [a.problem for a in agent.workspace.acting.actions] == ["off_task", "empty"]
    assert all(t.target != "focus" for t in agent.route_log.transitions)


async def test_the_belief_state_is_the_agents_private_state_turn_by_turn() -> None:
    agent = episodex(Scripted())
    house = apple_house()
    observation = house.start()
    states = []
    for _ in range(3):
        reply = await agent.respond(house.prompt(observation))
        states.append(agent.private_state())
        observation = house.act(reply)
    beliefs = agent.memory["episodic"].beliefs  # type: ignore[attr-defined]
    for step, (state, belief) in enumerate(zip(states, beliefs, strict=True)):
        assert state.startswith(f"Game 0, step {step}. Task: put some apple on box")
        assert belief.text in state
    assert len(set(states)) == 3


def snapshot(agent: Agent) -> str:
    state = {name: module.save_state() for name, module in agent.memory.items()}
    return json.dumps({**state, "workspace": agent.workspace.save_state()})


async def test_a_forked_agent_shares_nothing() -> None:
    trunk = episodex(Scripted(), max_episodes=2)
    await play(trunk, [apple_house(), mug_house()])
    house = apple_house()
    await trunk.respond(house.prompt(house.start()))
    before = snapshot(trunk)
    left, right = trunk.fork(), trunk.fork()
    await play_game(left, house)
    await left.end_episode(EpisodeEnd(2, house.won, label=house.task, steps=house.steps))
    assert snapshot(trunk) == before == snapshot(right)
    assert len(left.memory["episodic"].archive) == 3  # type: ignore[attr-defined]


async def test_the_workspace_state_keeps_actions_and_focus_activations() -> None:
    agent = episodex(Scripted({"motor": ["", None]}))
    house = apple_house()
    await agent.respond(house.prompt(house.start()))
    state = json.loads(json.dumps(agent.workspace.save_state()))
    restored = Workspace.from_state(state)
    assert restored.acting.actions == agent.workspace.acting.actions
    assert restored.acting.focus_log == agent.workspace.acting.focus_log
    assert restored.save_state() == agent.workspace.save_state()


def entry_of(agent: Agent) -> tuple[str, str]:
    """How the latest turn entered the graph: its first step's source and how."""
    first = next(s for s in agent.walk() if s.turn == agent.workspace.turn)
    assert first.node == "external_perception"
    return first.source, first.how


async def test_a_turn_resumes_from_the_motor_only_while_its_game_goes_on() -> None:
    brain = Scripted()
    agent = episodex(brain)
    house = apple_house()
    reply = await agent.respond(house.prompt(house.start()))
    assert entry_of(agent) == ("<input>", "entry")  # a game's first observation
    observation = house.prompt(house.act(reply))
    saved = json.loads(json.dumps(agent.save_state()))
    branch = agent.fork()

    await agent.respond(observation)
    assert entry_of(agent) == ("motor", "resume")  # what the motor's action led to
    await branch.respond(observation)
    assert entry_of(branch) == ("motor", "resume")
    restored = episodex(brain)
    restored.load_state(saved)
    await restored.respond(observation)
    assert entry_of(restored) == ("motor", "resume")

    await agent.end_episode(EpisodeEnd(episode=0, won=False, label=house.task))
    other = mug_house()
    await agent.respond(other.prompt(other.start()))
    assert entry_of(agent) == ("<input>", "entry")  # a new game: no action led here
    await agent.observe("A note taken in without a reply.")
    await agent.respond(other.prompt(other.start()))
    assert entry_of(agent) == ("<input>", "entry")


async def test_an_agent_without_an_edge_back_to_its_entry_always_enters_from_the_input() -> None:
    agent = make_agent("workflow", Brain())
    await agent.respond("Shall we play a game?")
    await agent.respond("Is the word long?")
    firsts = [s for s in agent.walk() if s.step == 1]
    assert [(s.source, s.how) for s in firsts] == [("<input>", "entry")] * 2
    assert all(source != "<input>" for source, _ in agent.transition_counts())
