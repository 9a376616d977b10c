"""MemoryOS itself as the memory module ``memoryos_lib``, offline, against a scripted
OpenAI-compatible server the test starts: every call the library makes goes through cogarch's
model layer."""

from __future__ import annotations

import itertools
import json

import pytest

from cogarch.core.memory import MemoryContext
from cogarch.errors import ConfigError
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.libs.memoryos_lib import MemoryOSLibMemory
from cogarch.memory.retrieval.libs.offline import MEMORYOS
from cogarch.models.metering import Meter
from cogarch.testing.scripted_server import ScriptedServer
from tests.memory.libs import lib_checks as check
from tests.memory.libs.lib_checks import ADA, needs, turn

pytestmark = needs(MEMORYOS)


def build(capacity: int = 2) -> MemoryOSLibMemory:
    module = build_memory("memoryos_lib", {"provider": "scripted", "short_term_capacity": capacity})
    assert isinstance(module, MemoryOSLibMemory)
    return module


def texts(module: MemoryOSLibMemory) -> list[str]:
    return sorted(m.text for m in module.memories())


async def test_pages_move_to_mid_term_with_the_librarys_calls(
    offline: list[str], server: ScriptedServer, ctx: MemoryContext
) -> None:
    module = build(capacity=2)
    meter = Meter()
    with meter.active():
        await module.ingest(turn(1, ADA), ctx)
        assert server.hits == 0  # short-term only: no model call yet
        for n, said in enumerate(["I keep two cats.", "I bake bread on Sundays."], start=2):
            await module.ingest(turn(n, said), ctx)
        found = await module.retrieve("Where does my sister Ada live?", ctx)
    assert server.hits > 0
    check.assert_through_the_model_layer(meter, server, "memoryos_lib")
    pages = [item for item in found if item.fields.get("tier") == "mid"]
    assert pages and pages[0].text == "Q: My sister Ada lives in Paris. A: Reply 1."
    assert pages[0].source_ids == ["d1"]
    block = module.render()
    assert "[Short-Term Memory]" in block and "[Mid-Term Memory]\n- Q: My sister Ada" in block
    assert "Q: I bake bread on Sundays. A: Reply 3." in texts(module)


@pytest.mark.parametrize("order", list(itertools.permutations(["trunk", "left", "right"])))
async def test_forks_never_see_each_others_writes(
    order: tuple[str, ...], offline: list[str], ctx: MemoryContext
) -> None:
    trunk = build(capacity=2)
    await trunk.ingest(turn(1, "The secret plan is blue."), ctx)
    modules = check.forks_of(trunk)
    folders = {m.lib.data_storage_path for m in modules.values()}
    assert len(folders) == 3  # every branch owns its files
    said = "{0} wrote {1}.".format
    kept = "Q: {0} wrote {1}. A: Reply {1}.".format
    await check.assert_writes_stay_in_their_fork(modules, order, ctx, texts, said, kept)


async def test_save_and_load_restore_the_files(ctx: MemoryContext) -> None:
    module = build(capacity=2)
    for n in range(1, 4):
        await module.ingest(turn(n, f"Fact {n} about the garden."), ctx)
    await module.retrieve("garden", ctx)
    state = json.loads(json.dumps(module.save_state()))
    fresh = build(capacity=2)
    fresh.load_state(state)
    assert texts(fresh) == texts(module)
    assert fresh.lib.data_storage_path != module.lib.data_storage_path
    found = await fresh.retrieve("Fact 1 about the garden", ctx)
    assert any(i.source_ids == ["d1"] for i in found)


async def test_a_bad_state_is_refused_and_changes_nothing(ctx: MemoryContext) -> None:
    module = build()
    await module.ingest(turn(1, "I play the cello."), ctx)
    kept = texts(module)
    state = module.save_state()
    escaping = json.loads(json.dumps(state))
    escaping["data"]["files"] = {"../../evil.json": {}}
    with pytest.raises(ConfigError, match="not a JSON file inside the store"):
        module.load_state(escaping)
    mem0_state = {**state, "kind": "mem0_lib"}
    with pytest.raises(ConfigError, match="'mem0_lib' state into a 'memoryos_lib' module"):
        module.load_state(mem0_state)
    assert texts(module) == kept


async def test_a_write_the_library_cannot_finish_leaves_the_turn_out(
    offline: list[str], monkeypatch: pytest.MonkeyPatch, server: ScriptedServer, ctx: MemoryContext
) -> None:
    # MemoryOS expects a JSON list of topics; a JSON object makes it fail inside
    monkeypatch.setattr(server, "answer", lambda body: '{"summary": "one topic"}')
    module = build(capacity=2)  # the second exchange fills the short term: eviction
    failed = await module.ingest_many([turn(1, "First."), turn(2, "Second.")], ctx)
    assert list(failed) == [2]
    assert "the library failed while writing: AttributeError" in failed[2]
    assert module.stats["library_errors"] == 1
