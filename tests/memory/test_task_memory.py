"""The task-graph memory module: TRIM classification applied to the graph, and the tracker."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from autogen_core.models import LLMMessage

from cogarch.core.memory import MemoryContext, TurnRecord
from cogarch.errors import ConfigError, ModelCallError
from cogarch.memory.task_graph.intents import Intent, Trim
from cogarch.memory.task_graph.module import TaskMemory
from cogarch.memory.working.module import WorkingMemory
from cogarch.models import FunctionModel, Model, ScriptedModel, as_pairs
from cogarch.models.fakes import CallInfo
from cogarch.workspace.agent import Agent
from cogarch.workspace.graph import Edge, TransitionGraph
from cogarch.workspace.spec import build_agent, load_agent_spec
from cogarch.workspace.specialists.responder import Responder
from cogarch.workspace.specialists.task_tracker import TaskTracker

TRIP: dict[str, list[dict[str, Any]]] = {
    "Plan a trip to Portugal.": [{"intent": "new", "slot": "trip", "value": "Portugal trip"}],
    "Make the destination Lisbon.": [
        {"intent": "new", "slot": "destination", "value": "Lisbon", "parent": "trip"}
    ],
    "I fly out of Denver.": [
        {"intent": "new", "slot": "origin", "value": "Denver", "parent": "trip"}
    ],
    "A hotel near the old town.": [
        {
            "intent": "new",
            "slot": "hotel",
            "value": "near the old town",
            "parent": "trip",
            "depends_on": ["destination"],
        }
    ],
    "Change the destination to Porto.": [
        {"intent": "update", "slot": "destination", "value": "Porto", "replaces": "Lisbon"}
    ],
    "Go back to the first destination.": [
        {"intent": "update", "slot": "destination", "action": "rollback"}
    ],
    "Wasn't I flying out of Phoenix?": [{"intent": "check", "slot": "origin", "value": "Phoenix"}],
    "Give me the whole plan.": [{"intent": "check", "slot": "all"}],
}


def classifier(script: dict[str, list[dict[str, Any]]]) -> Model:
    def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        message = as_pairs(messages)[-1][1].rsplit("Message: ", 1)[1]
        return json.dumps({"intents": script[message]})

    return Model(FunctionModel(reply), provider="fake", model="fake", fake=True)


def ctx(model: Model) -> MemoryContext:
    return MemoryContext(model=lambda name: model, caller="task_tracker")


async def play(mem: TaskMemory, model: Model, inputs: Sequence[str]) -> None:
    for turn, text in enumerate(inputs, start=1):
        await mem.observe(text, turn, ctx(model), provider="fake")


async def test_classified_intents_build_and_revise_the_graph() -> None:
    mem, model = TaskMemory(), classifier(TRIP)
    await play(mem, model, list(TRIP)[:6])
    assert mem.task_values() == {
        "trip": "Portugal trip",
        "destination": "Lisbon",
        "origin": "Denver",
        "hotel": "near the old town",
    }
    history = [(h.value, h.how) for h in mem.graph.node("destination").history]
    assert history == [("Lisbon", "update"), ("Porto", "rollback")]
    assert [a.op for a in mem.reports[4].applied] == ["update"]
    assert mem.reports[4].applied[0].stale == ["hotel"]
    assert mem.graph.node("hotel").stale


async def test_a_check_is_answered_from_the_graph_and_changes_nothing() -> None:
    mem, model = TaskMemory(), classifier(TRIP)
    await play(mem, model, list(TRIP)[:4])
    before = mem.graph.to_dict()
    report = await mem.observe("Wasn't I flying out of Phoenix?", 5, ctx(model), provider="fake")
    assert mem.graph.to_dict() == before
    assert [c.answer() for c in report.checks] == [
        "origin is Denver; 'Phoenix' was never recorded for it"
    ]
    text = mem.render()
    assert "- origin: Denver" in text and "Checks: origin is Denver" in text
    assert "hotel" not in text  # only the subgraph the input is about (plus its ancestors)


async def test_the_rendered_context_is_the_relevant_subgraph_with_current_values() -> None:
    mem, model = TaskMemory(), classifier(TRIP)
    await play(mem, model, list(TRIP)[:5])
    update = mem.render()
    assert "- destination: Porto" in update and "hotel" in update and "origin" not in update
    assert "Changes this turn: destination update Lisbon -> Porto" in update
    await mem.observe("Give me the whole plan.", 6, ctx(model), provider="fake")
    summary = mem.render()
    assert all(v in summary for v in ("Porto", "Denver", "near the old town"))
    assert "Lisbon" not in summary
    assert "earlier: Lisbon" in mem.private_text()


async def test_a_substitution_without_a_known_slot_replaces_the_value_everywhere() -> None:
    mem = TaskMemory()
    mem.apply(
        [
            Intent(intent="new", slot="stew_veg", value="peel and dice carrots", parent="stew"),
            Intent(intent="new", slot="rice_extra", value="carrots", parent="fried_rice"),
            Intent(intent="new", slot="rice_protein", value="prawns", parent="fried_rice"),
        ],
        turn=1,
    )
    report = mem.apply(
        [Intent(intent="update", slot="vegetable", value="parsnips", replaces="carrots")], turn=2
    )
    assert report.applied[0].slots == ["stew_veg", "rice_extra"]
    values = mem.task_values()
    assert values["stew_veg"] == "peel and dice parsnips" and values["rice_extra"] == "parsnips"
    assert mem.graph.check("stew_veg", "peel and dice carrots").claim_status == "earlier"
    missing = mem.apply([Intent(intent="update", slot="x", value="y", replaces="celery")], turn=3)
    assert missing.applied[0].op == "skip"


async def test_remove_and_restore_items() -> None:
    mem = TaskMemory(TaskMemory.Params(root="cart"))
    mem.apply(
        [Intent(intent="new", slot=s, value=s.replace("_", " ")) for s in ("mat", "bands")], turn=1
    )
    mem.apply([Intent(intent="update", slot="bands", action="remove")], turn=2)
    assert mem.task_values() == {"cart": "cart", "mat": "mat"}
    mem.apply([Intent(intent="update", slot="bands", action="restore")], turn=3)
    assert mem.task_values() == {"cart": "cart", "mat": "mat", "bands": "bands"}
    skipped = mem.apply([Intent(intent="update", slot="lamp", action="remove")], turn=4)
    assert skipped.applied[0].op == "skip" and "no slot 'lamp'" in skipped.applied[0].note


def test_the_intent_schema_accepts_common_shapes() -> None:
    bare = Trim.model_validate([{"intent_type": "check", "slot": "origin"}])
    assert bare.intents[0].intent == "check"
    single = Trim.model_validate({"intent": "new", "slot": "venue", "value": "hall"})
    assert single.intents[0].value == "hall"


async def test_invalid_classifier_output_is_retried_then_skipped_or_raised() -> None:
    client = ScriptedModel(["not json", json.dumps({"intents": TRIP["Plan a trip to Portugal."]})])
    mem = TaskMemory()
    model = Model(client, provider="fake", model="fake", fake=True)
    await mem.observe("Plan a trip to Portugal.", 1, ctx(model), provider="fake")
    assert mem.task_values() == {"trip": "Portugal trip"}
    assert "not valid" in as_pairs(client.calls[1])[-1][1]

    bad = Model(ScriptedModel(["{}"] * 2), provider="fake", model="fake", fake=True)
    skipping = TaskMemory(TaskMemory.Params(attempts=2))
    report = await skipping.observe("hello", 1, ctx(bad), provider="fake")
    assert report.error and len(skipping.graph) == 0
    raising = TaskMemory(TaskMemory.Params(attempts=1, on_invalid="raise"))
    with pytest.raises(ModelCallError):
        await raising.observe(
            "hello",
            1,
            ctx(Model(ScriptedModel(["{}"]), provider="fake", model="fake", fake=True)),
            provider="fake",
        )


async def test_each_turn_is_applied_once_and_ingest_reuses_it() -> None:
    mem, model = TaskMemory(), classifier(TRIP)
    first = await mem.observe("Plan a trip to Portugal.", 1, ctx(model), provider="fake")
    await mem.ingest(TurnRecord(1, "Plan a trip to Portugal.", "ok"), ctx(model))
    assert mem.reports == [first]
    with pytest.raises(ConfigError, match="set 'provider'"):
        await mem.ingest(TurnRecord(2, "Make the destination Lisbon.", "ok"), ctx(model))


async def test_state_round_trip_and_retrieve() -> None:
    mem, model = TaskMemory(), classifier(TRIP)
    await play(mem, model, list(TRIP)[:4])
    copy = TaskMemory()
    copy.load_state(json.loads(json.dumps(mem.save_state())))
    assert copy.task_values() == mem.task_values() and copy.render() == mem.render()
    items = await mem.retrieve("where is the hotel?", ctx(model))
    assert [i.id for i in items] == ["trip", "destination", "hotel"]


def tme_models(calls: list[tuple[str, list[tuple[str, str]]]]) -> Callable[[str], Model]:
    classify = classifier(TRIP)

    async def reply(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        pairs = as_pairs(messages)
        if pairs[0][1].startswith("You classify"):
            calls.append(("tracker", pairs))
            completion = await classify.complete(messages, caller="inner")
            return completion.content
        calls.append(("responder", pairs))
        return "Done."

    model = Model(FunctionModel(reply), provider="fake", model="fake", fake=True)
    return lambda name: model


async def test_the_tme_agent_answers_from_the_subgraph_not_the_transcript() -> None:
    calls: list[tuple[str, list[tuple[str, str]]]] = []
    agent = build_agent(load_agent_spec("tme"), tme_models(calls), provider="fake")
    for text in list(TRIP)[:5]:
        await agent.respond(text)
    assert [who for who, _ in calls] == ["tracker", "responder"] * 5
    prompt = calls[-1][1]
    assert [role for role, _ in prompt] == ["system", "user"]
    assert "- destination: Porto" in prompt[0][1] and "Denver" not in prompt[0][1]
    assert agent.workspace.broadcasts["tasks"] == agent.memory["tasks"].render()


async def test_the_tracker_refuses_a_module_of_another_kind() -> None:
    specialists = {
        "tracker": TaskTracker("tracker", "fake", TaskTracker.Params(memory="notes")),
        "responder": Responder("responder", "fake"),
    }
    graph = TransitionGraph.build(specialists, [Edge("tracker", "responder")], entry="tracker")
    agent = Agent("x", graph, specialists, tme_models([]), {"notes": WorkingMemory()})
    with pytest.raises(ConfigError, match="kind 'task_graph'"):
        await agent.respond("hi")
