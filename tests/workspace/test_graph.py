"""Transition-graph validation: bad graphs are refused with messages that name the nodes."""

from __future__ import annotations

import pytest

from cogarch.errors import ConfigError
from cogarch.workspace.graph import Edge, NodeRouting, TransitionGraph


def arrows(*texts: str) -> list[Edge]:
    """``"a -> b"`` strings as edges (``"a -> b ? pred"`` adds a condition)."""
    out = []
    for arrow in texts:
        pair, _, when = arrow.partition("?")
        source, target = (part.strip() for part in pair.split("->"))
        out.append(Edge(source, target, when.strip() or None))
    return out


def refused(
    nodes: list[str],
    edges: list[Edge],
    *,
    entry: str,
    responder: str = "responder",
    step_budget: int | None = None,
    routing: dict[str, NodeRouting] | None = None,
) -> str:
    """The message of the ``ConfigError`` that building this graph raises."""
    with pytest.raises(ConfigError) as info:
        TransitionGraph.build(
            nodes,
            edges,
            entry=entry,
            responder=responder,
            step_budget=step_budget,
            routing=routing,
        )
    return str(info.value)


def test_a_valid_routed_graph_is_built_with_its_routing() -> None:
    graph = TransitionGraph.build(
        ["perceive", "hub", "plan", "responder", "updater"],
        arrows(
            "perceive -> hub",
            "hub -> plan",
            "hub -> responder",
            "plan -> hub",
            "responder -> updater",
        ),
        entry="perceive",
        step_budget=6,
        routing={"hub": NodeRouting(default="responder", chooser="fake")},
    )
    assert graph.successors("hub") == ["plan", "responder"]
    assert graph.successors("updater") == []
    assert graph.edge_condition("hub", "plan") is None
    assert graph.routing["hub"].chooser == "fake"


def test_an_edge_to_an_unknown_node_names_the_edge_and_the_node() -> None:
    message = refused(
        nodes=["responder", "planner"],
        edges=arrows("planner -> responder", "planner -> ghost"),
        entry="planner",
    )
    assert "edge planner -> ghost names unknown node 'ghost'" in message
    assert "(nodes: planner, responder)" in message


def test_unknown_entry_responder_and_routing_nodes_are_named() -> None:
    message = refused(
        nodes=["a", "b"],
        edges=arrows("a -> b"),
        entry="start",
        responder="answer",
        routing={"c": NodeRouting(default="b")},
    )
    assert "entry node 'start' is not a specialist" in message
    assert "responder node 'answer' is not a specialist" in message
    assert "routing names unknown node 'c'" in message


def test_an_unreachable_node_is_named() -> None:
    message = refused(
        nodes=["responder", "orphan", "lonely"],
        edges=arrows("orphan -> lonely"),
        entry="responder",
    )
    assert "nodes not reachable from entry 'responder': lonely, orphan" in message


def test_a_graph_without_a_path_to_the_responder_is_refused() -> None:
    message = refused(
        nodes=["planner", "focus", "responder"],
        edges=arrows("planner -> focus"),
        entry="planner",
    )
    assert "no path from entry 'planner' to responder 'responder'" in message
    assert "nodes not reachable from entry 'planner': responder" in message


def test_a_cycle_needs_a_step_budget() -> None:
    nodes = ["hub", "focus", "responder"]
    cyclic = arrows("hub -> focus", "focus -> hub", "hub -> responder")
    routing = {"hub": NodeRouting(default="responder")}
    message = refused(nodes=nodes, edges=cyclic, entry="hub", routing=routing)
    assert "needs a step_budget" in message
    assert "hub -> focus -> hub" in message or "focus -> hub -> focus" in message
    graph = TransitionGraph.build(nodes, cyclic, entry="hub", routing=routing, step_budget=5)
    assert graph.step_budget == 5


def test_a_self_loop_is_a_cycle_too() -> None:
    message = refused(
        nodes=["think", "responder"],
        edges=arrows("think -> think", "think -> responder"),
        entry="think",
        routing={"think": NodeRouting(default="responder")},
    )
    assert "cycle think -> think needs a step_budget" in message


def test_several_successors_need_a_default() -> None:
    message = refused(
        nodes=["hub", "focus", "responder"],
        edges=arrows("hub -> focus", "hub -> responder", "focus -> responder"),
        entry="hub",
    )
    assert (
        "node 'hub' has several successors (focus, responder) but no 'default' to fall back on"
        in message
    )


def test_a_default_must_be_one_of_the_successors() -> None:
    message = refused(
        nodes=["hub", "focus", "planner", "responder"],
        edges=arrows("hub -> focus", "hub -> responder", "focus -> responder", "planner -> hub"),
        entry="planner",
        routing={"hub": NodeRouting(default="planner"), "focus": NodeRouting(default="hub")},
    )
    assert (
        "default 'planner' of node 'hub' is not one of its successors (focus, responder)" in message
    )
    assert "default 'hub' of node 'focus' is not one of its successors (responder)" in message


def test_every_problem_is_reported_at_once() -> None:
    message = refused(
        nodes=["hub", "a", "b", "responder", "island"],
        edges=arrows("hub -> a", "hub -> b", "a -> hub", "b -> responder"),
        entry="hub",
    )
    lines = [line for line in message.splitlines() if line.startswith("  - ")]
    assert len(lines) == 3, message
    assert any("not reachable" in line and "island" in line for line in lines)
    assert any("needs a step_budget" in line for line in lines)
    assert any("node 'hub' has several successors" in line for line in lines)


def test_a_graph_where_no_node_ends_the_turn_is_refused() -> None:
    message = refused(
        nodes=["responder", "updater"],
        edges=arrows("responder -> updater", "updater -> responder"),
        entry="responder",
        step_budget=4,
    )
    assert "no node ends a turn" in message


def test_nodes_that_cannot_reach_a_turn_end_are_named() -> None:
    message = refused(
        nodes=["hub", "trap", "spin", "responder"],
        edges=arrows("hub -> trap", "hub -> responder", "trap -> spin", "spin -> trap"),
        entry="hub",
        step_budget=8,
        routing={"hub": NodeRouting(default="responder")},
    )
    assert "nodes from which no turn-ending node is reachable: spin, trap" in message


def test_conditions_are_kept_on_their_edges() -> None:
    graph = TransitionGraph.build(
        ["hub", "clarify", "responder"],
        arrows("hub -> clarify ? is_question", "hub -> responder", "clarify -> responder"),
        entry="hub",
        routing={"hub": NodeRouting(default="responder")},
    )
    assert graph.edge_condition("hub", "clarify") == "is_question"
    assert graph.edge_condition("hub", "responder") is None


def test_an_unknown_condition_is_refused_when_the_graph_is_built() -> None:
    message = refused(
        nodes=["hub", "clarify", "responder"],
        edges=arrows("hub -> clarify ? is_questoin", "hub -> responder", "clarify -> responder"),
        entry="hub",
        routing={"hub": NodeRouting(default="responder")},
    )
    assert "is_questoin" in message
    assert "is_question" in message


def test_a_node_with_an_end_condition_can_end_a_turn_of_a_loop() -> None:
    # the loop responder -> check -> responder has no node without successors
    graph = TransitionGraph.build(
        ["responder", "check"],
        arrows("responder -> check", "check -> responder"),
        entry="responder",
        step_budget=6,
        routing={"responder": NodeRouting(end_when="has_reply")},
    )
    assert graph.routing["responder"].end_when == "has_reply"


def test_an_unknown_end_condition_is_refused_with_the_valid_names() -> None:
    message = refused(
        nodes=["responder", "check"],
        edges=arrows("responder -> check", "check -> responder"),
        entry="responder",
        step_budget=6,
        routing={"responder": NodeRouting(end_when="replied")},
    )
    assert "routing of node 'responder' has unknown end_when condition 'replied'" in message
    assert "has_reply" in message
