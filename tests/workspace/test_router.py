"""The router: a chooser model cannot take the walk outside the graph.

The agents here are built from tiny test specialists so that every step is visible: ``Note``
records that it ran, ``Answer`` writes the reply. Only the chooser is a (fake) model.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import ClassVar

from autogen_core.models import LLMMessage

from cogarch.models import CallInfo, as_pairs
from cogarch.workspace import Agent, BaseSpecialist, StepContext, Workspace
from cogarch.workspace.graph import Edge, NodeRouting, TransitionGraph
from tests.workspace import Brain, make_agent, providers


class Note(BaseSpecialist):
    kind: ClassVar[str] = "note"

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        ws.broadcasts[self.name] = f"{self.name} ran"


class Answer(BaseSpecialist):
    kind: ClassVar[str] = "answer"

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        ws.reply = f"reply to {ws.current_input}"


class Chooser:
    """Answers the router prompt with scripted proposals; remembers what it was offered."""

    def __init__(self, proposals: Sequence[str]) -> None:
        self.proposals = list(proposals)
        self.offered: list[list[str]] = []
        self.prompts: list[list[tuple[str, str]]] = []

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        assert info.response_format is not None
        schema = info.response_format["json_schema"]["schema"]
        self.offered.append(list(schema["properties"]["next"]["enum"]))
        self.prompts.append(as_pairs(messages))
        index = len(self.offered) - 1
        return self.proposals[min(index, len(self.proposals) - 1)]


def hub_agent(
    chooser: Chooser,
    *,
    default: str = "a",
    budget: int = 30,
    extra: Sequence[Edge] = (),
    nodes: Sequence[str] = (),
) -> Agent:
    """hub -> a | b | answer; a -> hub; b -> hub; the hub asks the chooser."""
    names = ["hub", "a", "b", "answer", *nodes]
    graph = TransitionGraph.build(
        names,
        [
            *extra,
            Edge("hub", "a"),
            Edge("hub", "b"),
            Edge("hub", "answer"),
            Edge("a", "hub"),
            Edge("b", "hub"),
        ],
        entry="hub",
        responder="answer",
        step_budget=budget,
        routing={"hub": NodeRouting(default=default, chooser="fake")},
    )
    specialists: dict[str, BaseSpecialist] = {n: Note(n) for n in names if n != "answer"}
    specialists["answer"] = Answer("answer")
    found, _ = providers(chooser)
    return Agent("routed", graph, specialists, found.get)


def assert_walk_stays_in_graph(agent: Agent) -> None:
    for t in agent.route_log.transitions:
        if t.how == "entry":
            assert (t.source, t.target) == ("<input>", agent.graph.entry)
        elif t.how != "budget":
            assert agent.graph.graph.has_edge(t.source, t.target), t


async def test_illegal_and_garbage_proposals_fall_back_and_are_recorded() -> None:
    chooser = Chooser(
        [
            json.dumps({"next": "a"}),
            json.dumps({"next": "ghost"}),  # not a node
            "I think we should plan first!",  # prose, no JSON
            json.dumps({"next": " b "}),  # legal once stripped
            json.dumps({"next": "hub"}),  # a node, but not a successor of hub
            "",  # nothing at all
            json.dumps({"choice": "a"}),  # JSON of the wrong shape
            '```json\n{"next": "answer"}\n```',  # fenced but legal
        ]
    )
    agent = hub_agent(chooser)

    reply = await agent.respond("hello")

    assert reply == "reply to hello"
    assert_walk_stays_in_graph(agent)
    hub_moves = [
        (t.target, t.how, t.proposal) for t in agent.route_log.transitions if t.source == "hub"
    ]
    assert hub_moves == [
        ("a", "model", None),
        ("a", "fallback", "ghost"),
        ("a", "fallback", "I think we should plan first!"),
        ("b", "model", None),
        ("a", "fallback", "hub"),
        ("a", "fallback", "<unparsable>"),
        ("a", "fallback", "{'choice': 'a'}"),
        ("answer", "model", None),
    ]
    assert [t.proposal for t in agent.route_log.fallbacks()] == [
        "ghost",
        "I think we should plan first!",
        "hub",
        "<unparsable>",
        "{'choice': 'a'}",
    ]
    # the chooser was offered exactly the hub's successors every time, nothing else
    assert len(chooser.offered) == 8
    assert all(sorted(names) == ["a", "answer", "b"] for names in chooser.offered)


async def test_the_router_prompt_lists_only_the_successors() -> None:
    chooser = Chooser([json.dumps({"next": "answer"})])
    agent = hub_agent(chooser)
    await agent.respond("what now")
    system_text = chooser.prompts[0][0][1]
    assert '{"next": "<one of: a, b, answer>"}' in system_text
    assert "- hub" not in system_text
    assert "Current input:\nwhat now" in chooser.prompts[0][1][1]


async def test_a_fallback_to_the_default_responder_ends_the_turn() -> None:
    chooser = Chooser(["nonsense"])
    agent = hub_agent(chooser, default="answer")
    assert await agent.respond("hi") == "reply to hi"
    assert [(t.source, t.target, t.how) for t in agent.route_log.transitions] == [
        ("<input>", "hub", "entry"),
        ("hub", "answer", "fallback"),
    ]


async def test_edge_conditions_take_precedence_over_the_chooser() -> None:
    chooser = Chooser([json.dumps({"next": "answer"})])
    agent = hub_agent(
        chooser,
        nodes=["clarify"],
        extra=[Edge("hub", "clarify", when="is_question"), Edge("clarify", "answer")],
        default="answer",
    )

    assert await agent.respond("is it a cat?") == "reply to is it a cat?"
    assert chooser.offered == []  # the condition decided; the model was never asked
    first = agent.route_log.transitions[1]
    assert (first.source, first.target, first.how) == ("hub", "clarify", "condition")

    assert await agent.respond("tell me more") == "reply to tell me more"
    assert len(chooser.offered) == 1
    assert sorted(chooser.offered[0]) == ["a", "answer", "b", "clarify"]
    last = agent.route_log.transitions[-1]
    assert (last.source, last.target, last.how) == ("hub", "answer", "model")
    assert_walk_stays_in_graph(agent)


async def test_without_a_chooser_the_default_is_taken_and_recorded() -> None:
    graph = TransitionGraph.build(
        ["hub", "a", "answer"],
        [Edge("hub", "a"), Edge("hub", "answer"), Edge("a", "answer")],
        entry="hub",
        responder="answer",
        routing={"hub": NodeRouting(default="answer")},
    )
    agent = Agent(
        "plain",
        graph,
        {"hub": Note("hub"), "a": Note("a"), "answer": Answer("answer")},
        providers(Chooser(["a"]))[0].get,
    )
    await agent.respond("x")
    moves = [(t.source, t.target, t.how, t.proposal) for t in agent.route_log.transitions[1:]]
    assert moves == [("hub", "answer", "fallback", None)]


async def test_the_step_budget_ends_a_looping_turn_and_the_responder_still_answers() -> None:
    chooser = Chooser([json.dumps({"next": "a"})])  # always loops back
    agent = hub_agent(chooser, budget=5)

    reply = await agent.respond("loop forever")

    assert reply == "reply to loop forever"
    steps = [s.node for s in agent.route_log.steps]
    assert steps == ["hub", "a", "hub", "a", "hub", "answer"]
    last = agent.route_log.transitions[-1]
    assert (last.source, last.target, last.how) == ("hub", "answer", "budget")
    assert [t.how for t in agent.route_log.transitions].count("budget") == 1
    assert_walk_stays_in_graph(agent)

    # the next turn starts afresh with the whole budget
    chooser.proposals = [json.dumps({"next": "answer"})]
    chooser.offered.clear()
    assert await agent.respond("now answer") == "reply to now answer"
    assert [s.node for s in agent.route_log.steps if s.turn == 2] == ["hub", "answer"]


async def test_the_gwt_agent_loops_through_focus_and_planning_within_its_budget() -> None:
    brain = Brain(route=("focus", "nonsense", "planner"))
    agent = make_agent("gwt", brain)

    await agent.respond("first question")
    await agent.respond("second question")

    moves = [(t.source, t.target, t.how) for t in agent.route_log.transitions]
    assert moves[:7] == [
        ("<input>", "perception", "entry"),
        ("perception", "conscious", "single"),
        ("conscious", "focus", "model"),
        ("focus", "conscious", "single"),
        ("conscious", "responder", "fallback"),  # "nonsense" falls back to the default
        ("responder", "updater", "single"),
        ("<input>", "perception", "entry"),
    ]
    assert agent.route_log.fallbacks()[0].proposal == "nonsense"
    brain = Brain(route=("planner",))
    agent = make_agent("gwt", brain)
    await agent.respond("plan first")
    moves = [(t.source, t.target, t.how) for t in agent.route_log.transitions]
    assert ("planner", "responder", "single") in moves  # planning hands over to the responder
    assert ("planner", "conscious", "single") not in moves
    assert_walk_stays_in_graph(agent)


async def test_a_looping_gwt_turn_is_cut_by_the_budget() -> None:
    brain = Brain(route=("focus",))
    agent = make_agent("gwt", brain)
    reply = await agent.respond("hello")
    assert reply.startswith("answer 1")
    budget = agent.graph.step_budget
    assert budget is not None
    # the budget's steps, then the forced responder and the updater that follows it
    assert len(agent.route_log.steps) == budget + 2
    assert [t.how for t in agent.route_log.transitions[-2:]] == ["budget", "single"]
    assert agent.route_log.transitions[-1].target == "updater"


class Hesitant(BaseSpecialist):
    """Replies only on its ``patience``-th run in a turn, or when the budget says it must."""

    kind: ClassVar[str] = "hesitant"

    def __init__(self, name: str, patience: int) -> None:
        super().__init__(name)
        self.patience = patience

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        if ws.visits[self.name] >= self.patience or ws.must_reply:
            ws.reply = f"done after {ws.visits[self.name]} (forced: {ws.must_reply})"


def hesitant_agent(patience: int, budget: int) -> Agent:
    """hub -> answer -> hub, the turn ending at answer once it has replied."""
    graph = TransitionGraph.build(
        ["hub", "answer"],
        [Edge("hub", "answer"), Edge("answer", "hub")],
        entry="hub",
        responder="answer",
        step_budget=budget,
        routing={"answer": NodeRouting(end_when="has_reply")},
    )
    found, _ = providers(Chooser([]))
    return Agent(
        "hesitant", graph, {"hub": Note("hub"), "answer": Hesitant("answer", patience)}, found.get
    )


async def test_a_node_with_an_end_condition_ends_the_turn_once_it_holds() -> None:
    agent = hesitant_agent(patience=2, budget=10)
    assert await agent.respond("go") == "done after 2 (forced: False)"
    assert [s.node for s in agent.route_log.steps] == ["hub", "answer", "hub", "answer"]
    assert_walk_stays_in_graph(agent)


async def test_at_the_budget_a_responder_that_held_back_must_reply() -> None:
    agent = hesitant_agent(patience=5, budget=4)
    assert await agent.respond("go") == "done after 3 (forced: True)"
    last = agent.route_log.transitions[-1]
    assert (last.source, last.target, last.how) == ("answer", "answer", "budget")
    # the next turn is not forced from its start: it again replies at the cut
    assert await agent.respond("again") == "done after 3 (forced: True)"
