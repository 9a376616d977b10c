"""Every task-graph operation: add, update with propagation, check, rollback, inactivate,
link, subgraph retrieval, rendering and state round trips."""

from __future__ import annotations

import pytest

from cogarch.memory.task_graph.graph import TaskGraph, slot_key
from cogarch.memory.task_graph.nodes import TaskGraphError


def trip() -> TaskGraph:
    g = TaskGraph()
    g.add("trip", "plan a trip", turn=1)
    g.add("destination", "Lisbon", turn=2, parent="trip")
    g.add("origin", "Denver", turn=3, parent="trip")
    g.add("hotel", "near the old town", turn=4, parent="trip", depends_on=["destination"])
    g.add("tour", "walking tour", turn=4, depends_on=["hotel"])
    return g


def test_add_records_slot_value_parent_dependencies_and_turn() -> None:
    g = trip()
    hotel = g.node("Hotel")
    assert (hotel.slot, hotel.value, hotel.parent, hotel.dependencies, hotel.turn) == (
        "hotel",
        "near the old town",
        "trip",
        ["destination"],
        4,
    )
    assert hotel.active and not hotel.stale and hotel.history == []
    assert [n.slot for n in g.nodes()] == ["trip", "destination", "origin", "hotel", "tour"]
    assert g.events[0].op == "add"


def test_add_refuses_duplicates_and_unknown_references() -> None:
    g = trip()
    with pytest.raises(TaskGraphError, match="already exists; use update"):
        g.add("destination", "Porto", turn=5)
    with pytest.raises(TaskGraphError, match=r"no slot 'budget'.*known slots: trip"):
        g.add("flight", "TP 123", turn=5, depends_on=["budget"])
    with pytest.raises(TaskGraphError, match="empty"):
        slot_key("  ")


def test_update_keeps_history_and_marks_every_dependant_for_review() -> None:
    g = trip()
    stale = g.update("destination", "Porto", turn=5)
    assert stale == ["hotel", "tour"]
    node = g.node("destination")
    assert node.value == "Porto" and node.turn == 5
    assert [(h.value, h.set_turn, h.replaced_turn) for h in node.history] == [("Lisbon", 2, 5)]
    assert g.node("tour").stale
    assert g.node("hotel").stale_reason == "destination changed to 'Porto' at turn 5"
    assert not g.node("origin").stale
    assert [(e.op, e.slot) for e in g.events[-3:]] == [
        ("update", "destination"),
        ("propagate", "hotel"),
        ("propagate", "tour"),
    ]
    g.update("hotel", "near the river", turn=6)
    assert not g.node("hotel").stale and g.node("tour").stale


def test_check_answers_from_the_graph_and_changes_nothing() -> None:
    g = trip()
    g.update("destination", "Porto", turn=5)
    before, events = g.to_dict(), len(g.events)
    assert g.check("origin", "Phoenix").claim_status == "never"
    assert g.check("destination", "porto").claim_status == "current"
    earlier = g.check("destination", "Lisbon")
    assert earlier.claim_status == "earlier" and earlier.earlier_values == ["Lisbon"]
    assert earlier.answer() == (
        "destination is Porto; earlier values: Lisbon; 'Lisbon' was an earlier value, since "
        "replaced"
    )
    assert not g.check("budget").found
    assert g.to_dict() == before and len(g.events) == events


def test_rollback_restores_the_previous_value_and_is_itself_undoable() -> None:
    g = trip()
    g.update("destination", "Porto", turn=5)
    assert g.rollback("destination", turn=7) == ["hotel", "tour"]
    node = g.node("destination")
    assert node.value == "Lisbon" and node.turn == 7
    assert [(h.value, h.how) for h in node.history] == [("Lisbon", "update"), ("Porto", "rollback")]
    g.rollback("destination", turn=8)
    assert g.node("destination").value == "Porto"
    with pytest.raises(TaskGraphError, match="no earlier value"):
        g.rollback("origin", turn=9)


def test_inactivate_keeps_the_node_for_history_and_flags_dependants() -> None:
    g = trip()
    assert g.inactivate("hotel", turn=5, reason="booked elsewhere") == ["tour"]
    assert "hotel" not in g.current_values()
    assert not g.node("hotel").active and g.node("tour").stale
    assert g.check("hotel").answer() == "hotel is removed (was near the old town)"
    assert g.inactivate("hotel", turn=6) == []
    assert g.activate("hotel", turn=7) == ["tour"]
    assert g.current_values()["hotel"] == "near the old town"


def test_links_may_not_close_a_cycle() -> None:
    g = trip()
    g.link("origin", "destination", turn=5)
    assert g.dependants("destination") == ["origin", "hotel", "tour"]
    with pytest.raises(TaskGraphError, match="cycle"):
        g.link("destination", "tour", turn=6)
    with pytest.raises(TaskGraphError, match="cycle"):
        g.link("hotel", "hotel", turn=6)


def test_subgraph_is_the_relevant_nodes_plus_what_they_build_on() -> None:
    g = trip()
    assert [n.slot for n in g.subgraph(query="Is the walking tour booked?")] == [
        "trip",
        "destination",
        "hotel",
        "tour",
    ]
    assert [n.slot for n in g.subgraph(["origin"])] == ["trip", "origin"]
    everything = ["trip", "destination", "origin", "hotel", "tour"]
    assert [n.slot for n in g.subgraph(query="Give me a summary of the plan")] == everything
    assert [n.slot for n in g.subgraph(query="zzz")] == everything
    g.inactivate("origin", turn=5)
    assert "origin" not in [n.slot for n in g.subgraph(query="summary please")]


def test_render_indents_children_and_shows_history_only_when_asked() -> None:
    g = trip()
    g.update("destination", "Porto", turn=5)
    g.inactivate("origin", turn=6)
    text = g.render(g.nodes(), history=["destination"])
    assert text.splitlines()[:3] == [
        "- trip: plan a trip",
        "  - destination: Porto (earlier: Lisbon)",
        "  - origin: Denver [removed]",
    ]
    assert "[needs review: destination changed to 'Porto' at turn 5]" in text
    assert "Lisbon" not in g.render()
    assert TaskGraph().render() == "(no tasks recorded yet)"


def test_state_round_trips_through_plain_data() -> None:
    g = trip()
    g.update("destination", "Porto", turn=5)
    copy = TaskGraph.from_dict(g.to_dict())
    assert copy.to_dict() == g.to_dict()
    assert copy.dependants("destination") == ["hotel", "tour"]


EDITS = {
    "update": lambda g: g.update("destination", "Porto", turn=5),
    "rollback": lambda g: (g.update("hotel", "by the river", turn=5), g.rollback("hotel", turn=6)),
    "inactivate": lambda g: g.inactivate("hotel", turn=5),
    "activate": lambda g: (g.inactivate("tour", turn=5), g.activate("tour", turn=6)),
    "link": lambda g: g.link("tour", "origin", turn=5),
    "add": lambda g: g.add("budget", "900 euros", turn=5, parent="trip"),
}


@pytest.mark.parametrize("first", sorted(EDITS))
@pytest.mark.parametrize("second", sorted(EDITS))
def test_a_fork_and_its_trunk_never_see_each_others_changes(first: str, second: str) -> None:
    trunk = trip()
    branch = trunk.fork()
    EDITS[first](branch)  # the branch changes first, then the trunk, then a fork of the branch
    EDITS[second](trunk)
    grandchild = branch.fork()
    later = [second] if second != first else []  # the same edit twice would be refused
    for name in later:
        EDITS[name](grandchild)
    for graph, edits in ((trunk, [second]), (branch, [first]), (grandchild, [first, *later])):
        expected = trip()
        for name in edits:
            EDITS[name](expected)
        assert graph.to_dict() == expected.to_dict()
        assert graph.render(history=True) == expected.render(history=True)
