"""Every memory module's state is plain JSON, and loading it into a fresh module restores it.

Each kind is built by the registry, driven through a few turns by a fake model, exported,
sent through ``json.dumps`` / ``json.loads`` and loaded into a freshly built module with the
same parameters. From then on the two must behave alike: same rendering, same retrieval, same
state after the next turn, and forks of either that match.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from cogarch.core.memory import MemoryItem, MemoryModule, TurnRecord
from cogarch.memory import build_memory
from cogarch.memory.working.module import WorkingMemory
from tests.memory import FakeLLM, context

TURNS = [
    TurnRecord(1, "Let's plan a trip to Lisbon with the family.", "Great, Lisbon it is."),
    TurnRecord(2, "We fly out of Denver on the fifth of May.", "Noted: Denver, May 5."),
    TurnRecord(3, "Book a hotel near the old town of Lisbon.", "I will look near Alfama."),
]
NEXT = TurnRecord(4, "Change the hotel to one near the river.", "Near the river, then.")
QUERY = "Where is the hotel in Lisbon?"


def _words(prompt: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]{5,}", prompt.lower())][:4] or ["nothing"]


def _ccs(prompt: str) -> dict[str, Any]:
    turn = prompt.rsplit('<interaction turn="', 1)[-1].split('"', 1)[0]
    return {
        "episodic_trace": [f"turn {turn}"],
        "semantic_gist": "plan a family trip",
        "focal_entities": [{"name": "Lisbon", "type": "place"}],
        "relational_map": [],
        "goal_orientation": "plan the Lisbon trip",
        "constraints": ["fly out of Denver"],
        "predictive_cue": ["book the hotel"],
        "uncertainty_signal": {"level": "low", "gaps": []},
        "retrieved_artifacts": [],
    }


def _intents(prompt: str) -> dict[str, Any]:
    message = prompt.rsplit("Message: ", 1)[-1]
    slot = "hotel" if "hotel" in message else "trip" if "trip" in message else "flight"
    return {"intents": [{"intent": "new", "slot": slot, "value": message[:40]}]}


def _add_every_fact(prompt: str) -> dict[str, Any]:
    facts = json.loads(prompt.split("New facts:")[1].split("Return ONLY")[0])
    return {"memory": [{"id": "new", "text": f, "event": "ADD"} for f in facts]}


def _facts(prompt: str) -> dict[str, Any]:
    messages = prompt.split("\nMessages:\n")[1]
    lines = re.findall(r"^\[(\d+)\] .*?: (.*)$", messages, re.MULTILINE)
    return {"facts": [{"source": int(n), "fact": f"User said: {t}"} for n, t in lines]}


LLM = FakeLLM(
    FactList=lambda p: {"facts": re.findall(r"^user: (.*)$", p, re.MULTILINE)[-1:]},
    UpdatePlan=_add_every_fact,
    NoteAnalysis=lambda p: {"keywords": _words(p), "context": "travel", "tags": ["trip"]},
    Evolution={"should_evolve": False},
    FactBatch=_facts,
    PageSummary={"summary": "the hotel in Lisbon for the trip", "keywords": ["hotel", "lisbon"]},
    ProfileUpdate={"profile": "Plans family trips."},
    Knowledge={"user_knowledge": ["Flies from Denver"], "assistant_knowledge": []},
    CCSDraft=_ccs,
    Trim=_intents,
)


@dataclass(frozen=True)
class Case:
    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    drive: Callable[[MemoryModule], None] | None = None


def _edit(module: MemoryModule) -> None:
    assert isinstance(module, WorkingMemory)
    module.apply("append_in_memory", {"section_title": "Active Notes", "lines": ["- Lisbon"]})


CASES = [
    Case("working_memory", {"strategy": "append_delete"}, _edit),
    Case("ccs", {"provider": "fake"}),
    Case("ccs", {"provider": "fake", "backend": "chroma_hash"}),
    Case("task_graph", {"provider": "fake"}),
    Case("mem0", {"embedder": "hash", "provider": "fake"}),
    Case("amem", {"embedder": "hash", "provider": "fake"}),
    Case("lightmem", {"embedder": "hash", "provider": "fake", "extract_each_turn": True}),
    Case("memoryos", {"embedder": "hash", "provider": "fake", "short_term_capacity": 1}),
    Case("episodic", {"embedder": "hash"}),
    Case("conceptual", {"embedder": "hash", "provider": "fake"}),
]


def _plain(value: object) -> bool:
    """Only the types JSON has: a tuple or a model object would not survive a round trip."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


def _same(state: object) -> object:
    """``state`` with floats rounded: chromadb renormalises the vectors it stores (float32),
    so a vector loaded back may differ from the exported one in its last bit."""
    if isinstance(state, dict) and set(state) == {"dtype", "rows", "base64"}:
        values = np.frombuffer(base64.b64decode(state["base64"]), dtype="<f4")
        return [round(float(v), 6) for v in values]  # a store's vectors, saved as one block
    if isinstance(state, dict):
        return {k: _same(v) for k, v in state.items()}
    if isinstance(state, list):
        return [_same(v) for v in state]
    return round(state, 6) if isinstance(state, float) else state


def _found(items: list[MemoryItem]) -> list[tuple[str, str, float]]:
    return [(i.id, i.text, round(i.score, 5)) for i in items]


async def _turn(module: MemoryModule, turn: TurnRecord) -> None:
    await module.ingest(turn, context(LLM))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.kind}-{c.params.get('backend', '')}")
async def test_state_is_json_and_restores_identical_behaviour(case: Case) -> None:
    original = build_memory(case.kind, case.params)
    for turn in TURNS:
        await _turn(original, turn)
    if case.drive:
        case.drive(original)
    found = _found(await original.retrieve(QUERY, context(LLM)))

    state = original.save_state()
    assert _plain(state)
    restored = build_memory(case.kind, case.params)
    restored.load_state(json.loads(json.dumps(state)))

    assert _same(restored.save_state()) == _same(state)
    assert restored.render() == original.render() and restored.render(20) == original.render(20)
    assert restored.private_text() == original.private_text()
    assert _found(await restored.retrieve(QUERY, context(LLM))) == found
    for module in (original, restored):
        await _turn(module, NEXT)
    assert _same(restored.save_state()) == _same(original.save_state())
    assert restored.render() == original.render()

    left, right = original.fork(), restored.fork()
    assert _same(left.save_state()) == _same(right.save_state()) == _same(original.save_state())
    await _turn(left, TurnRecord(5, "Add a day trip to Sintra.", "Sintra added."))
    assert _same(original.save_state()) == _same(restored.save_state())
