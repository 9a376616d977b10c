"""Every memory module loads a state whole or not at all: another kind's state, a malformed
part and a state beyond the module's limits are refused naming the part, the module unchanged."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cogarch.core.memory import EpisodeEnd, MemoryModule, TurnRecord
from cogarch.core.state import StateError
from cogarch.memory import build_memory
from tests.memory import FakeLLM, context
from tests.memory.test_module_state import CASES, LLM, TURNS, Case, _same

REFLECT = FakeLLM(reply="Plan: look in the drawer first.")
EVERY = [*CASES, Case("raw_turns", {"embedder": "hash"}), Case("reflexion", {"provider": "fake"})]


async def _driven(case: Case) -> MemoryModule:
    module = build_memory(case.kind, case.params)
    for turn in TURNS:
        await module.ingest(turn, context(LLM))
    if case.drive:
        case.drive(module)
    if case.kind == "reflexion":
        for episode in range(2):
            await module.end_episode(EpisodeEnd(episode, False, "find the key"), context(REFLECT))
    return module


def _foreign(value: Any) -> Any:
    """A value of another JSON type than ``value``."""
    if isinstance(value, dict):
        return [1, 2]
    if isinstance(value, list):
        return "not a list"
    if isinstance(value, str):
        return ["not", "a", "text"]
    return {"not": "a number"}


def _mangled(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The state with one part of the wrong type, or one entry of a list malformed."""
    out = []
    for key, value in state.items():
        if key == "kind":
            continue
        out.append((f"{key} of another type", {**state, key: _foreign(value)}))
        if isinstance(value, list) and value:
            out.append((f"{key}[0] malformed", {**state, key: [{"x": object.__name__}, *value]}))
        if isinstance(value, dict):
            for inner, item in value.items():
                if isinstance(item, list) and item:
                    bad = {**value, inner: [{"x": "y"}, *item]}
                    out.append((f"{key}.{inner}[0] malformed", {**state, key: bad}))
    return out


def _ids(case: Case) -> str:
    return f"{case.kind}-{case.params.get('backend', '')}"


@pytest.mark.parametrize("case", EVERY, ids=_ids)
async def test_a_state_of_another_kind_or_not_an_object_is_refused(case: Case) -> None:
    module = await _driven(case)
    before = json.dumps(module.save_state(), sort_keys=True)
    for other in EVERY:
        if other.kind == case.kind:
            continue
        foreign = (await _driven(other)).save_state()
        with pytest.raises(StateError, match=case.kind):
            module.load_state(foreign)
        unkinded = {k: v for k, v in foreign.items() if k != "kind"}
        with pytest.raises(StateError):
            module.load_state(unkinded)
    for junk in (None, [], "state", 3):
        with pytest.raises(StateError, match="JSON object"):
            module.load_state(junk)  # type: ignore[arg-type]
    assert json.dumps(module.save_state(), sort_keys=True) == before


@pytest.mark.parametrize("case", EVERY, ids=_ids)
async def test_a_malformed_part_is_refused_naming_it_and_the_module_is_unchanged(
    case: Case,
) -> None:
    module = await _driven(case)
    state = json.loads(json.dumps(module.save_state()))
    before = json.dumps(state, sort_keys=True)
    for what, bad in _mangled(state):
        part = what.split(" ")[0].split(".")[0].split("[")[0]
        try:
            module.load_state(copy.deepcopy(bad))
        except StateError as exc:
            assert part in str(exc) or case.kind in str(exc), (what, str(exc))
        else:
            pytest.fail(f"{case.kind}: a state with {what} was loaded")
        assert json.dumps(module.save_state(), sort_keys=True) == before, what
    module.load_state(state)  # the good state still loads
    assert _same(module.save_state()) == _same(state)


async def test_reflexion_refuses_a_lesson_without_text_and_keeps_its_limit() -> None:
    module = build_memory("reflexion", {"provider": "fake", "max_reflections": 2})
    state = module.save_state()
    lessons = [{"episode": i, "task": "find the key", "text": f"lesson {i}"} for i in range(5)]
    module.load_state({**state, "reflections": lessons})
    assert [r["text"] for r in module.save_state()["reflections"]] == ["lesson 3", "lesson 4"]
    assert "lesson 2" not in module.render()
    for text in ("", "   ", None):
        with pytest.raises(StateError, match="reflections"):
            module.load_state({**state, "reflections": [{**lessons[0], "text": text}]})
    assert "lesson 4" in module.render()  # unchanged
    earlier = {k: v for k, v in module.save_state().items() if k != "kind"}
    module.load_state({**earlier, "reflections": lessons[:1]})  # as saved before states had kinds
    assert module.render().endswith("lesson 0")
    await module.ingest(TurnRecord(1, "a", "b"), context(LLM))
