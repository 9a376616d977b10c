"""Mem0 itself as the memory module ``mem0_lib``, offline, against a scripted OpenAI-compatible
server the test starts: every call the library makes goes through cogarch's model layer."""

from __future__ import annotations

import itertools
import json

import pytest

from cogarch.core.memory import MemoryContext
from cogarch.errors import ConfigError
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.libs.mem0_lib import Mem0LibMemory
from cogarch.memory.retrieval.libs.offline import MEM0
from cogarch.testing.scripted_server import ScriptedServer
from tests.memory.libs import lib_checks as check
from tests.memory.libs.lib_checks import needs, turn

pytestmark = needs(MEM0)


def build() -> Mem0LibMemory:
    module = build_memory("mem0_lib", {"provider": "scripted"})
    assert isinstance(module, Mem0LibMemory)
    return module


def texts(module: Mem0LibMemory) -> set[str]:
    return {m.text for m in module.memories()}


async def test_add_and_search_go_through_the_model_layer(
    offline: list[str], server: ScriptedServer, ctx: MemoryContext
) -> None:
    module = build()
    meter, found = await check.metered_writes_and_search(module, ctx, "Where does Ada live?")
    # mem0ai 1.0.x: fact extraction, then the update decision, for each add
    assert server.hits == 4
    check.assert_through_the_model_layer(meter, server, "mem0_lib")
    for body in server.bodies:
        assert body["response_format"]["type"] == "json_schema"
    assert "User said: My sister Ada lives in Paris." in texts(module)
    assert found, "search returned nothing"
    assert found[0].text == "User said: My sister Ada lives in Paris."
    assert found[0].source_ids == ["d1"]
    assert module.last_retrieved == tuple(found)
    assert module.render().startswith("- User said: My sister Ada lives in Paris. @ 2025-01-06")
    assert module.stats["add"] == 4


async def test_the_window_goes_to_each_add(server: ScriptedServer, ctx: MemoryContext) -> None:
    module = build_memory("mem0_lib", {"provider": "scripted", "window": 2})
    for n in range(1, 4):
        await module.ingest(turn(n, f"Message number {n}."), ctx)
    extraction = server.bodies[-2]["messages"][-1]["content"]
    assert "user: Message number 3.\nassistant: Reply 3." in extraction
    assert "Reply 2." not in extraction  # m = 2 messages: the last turn's two


@pytest.mark.parametrize("order", list(itertools.permutations(["trunk", "left", "right"])))
async def test_forks_never_see_each_others_writes(
    order: tuple[str, ...], offline: list[str], ctx: MemoryContext
) -> None:
    trunk = build()
    await trunk.ingest(turn(1, "The secret plan is blue."), ctx)
    modules = check.forks_of(trunk)
    assert texts(modules["left"]) == texts(modules["trunk"]) == texts(modules["right"])
    said = "{0} wrote fact {1}.".format
    kept = "User said: {0} wrote fact {1}.".format
    await check.assert_writes_stay_in_their_fork(modules, order, ctx, texts, said, kept)
    # the history tables are copies too
    counts = {
        n: m.lib.db.connection.execute("SELECT COUNT(*) FROM history").fetchone()[0]
        for n, m in modules.items()
    }
    assert len(set(counts.values())) == 1 and counts["trunk"] == 4


async def test_save_and_load_restore_the_store(ctx: MemoryContext) -> None:
    module = build()
    await module.ingest(turn(1, "I was born in Lyon."), ctx)
    await module.retrieve("Where was I born?", ctx)
    state = json.loads(json.dumps(module.save_state()))
    assert state["data"]["library"] == "mem0ai"
    fresh = build()
    fresh.load_state(state)
    assert texts(fresh) == texts(module)
    assert fresh.render() == module.render()
    found = await fresh.retrieve("Where was I born?", ctx)
    assert found[0].text == "User said: I was born in Lyon."
    # the loaded store is the loader's own: writes do not reach the saved module
    await fresh.ingest(turn(2, "Now I live in Rome."), ctx)
    assert "User said: Now I live in Rome." not in texts(module)


async def test_a_bad_state_is_refused_and_changes_nothing(ctx: MemoryContext) -> None:
    module = build()
    await module.ingest(turn(1, "I play the cello."), ctx)
    kept = texts(module)
    state = module.save_state()
    broken = json.loads(json.dumps(state))
    broken["data"]["points"][0]["vector"] = [0.0, 1.0]
    with pytest.raises(ConfigError, match="cannot load"):
        module.load_state(broken)
    other = build_memory("mem0", {"embedder": "hash"}).save_state()
    with pytest.raises(ConfigError, match="'mem0' state into a 'mem0_lib' module"):
        module.load_state(other)
    foreign = {**state, "data": {"library": "memoryos-pro", "files": {}}}
    with pytest.raises(ConfigError, match="holds no mem0ai store"):
        module.load_state(foreign)
    assert texts(module) == kept


async def test_a_failed_model_call_is_a_model_call_error(
    ctx: MemoryContext, server: ScriptedServer
) -> None:
    from cogarch.errors import ModelCallError

    module = build()
    server.push("400")
    with pytest.raises(ModelCallError, match="mem0_lib"):
        await module.ingest(turn(1, "Hello there."), ctx)
    assert server.hits == 1  # the library's client does not retry a refused call


def test_the_library_must_be_one_of_the_supported_versions() -> None:
    assert MEM0.supported("1.0.11")
    assert not MEM0.supported("2.2.1") and not MEM0.supported("0.1.5")


async def test_many_modules_at_once_never_starve_their_own_answers(tmp_path: object) -> None:
    """Library calls wait for their answers in threads of their own: the answers, which write
    the response cache through the default executor's threads, always find one free."""
    import asyncio
    from pathlib import Path

    from cogarch.memory.retrieval.libs.fakes import with_library_memory
    from cogarch.models.cache import ResponseCache
    from cogarch.models.fakes import pairs_model
    from cogarch.models.model import Model

    def host(pairs: object, seed: int, call: object) -> str:
        return "plain"

    assert isinstance(tmp_path, Path)
    cached = Model(
        pairs_model(with_library_memory(host)),
        provider="scripted",
        model="fake",
        fake=True,
        cache=ResponseCache(tmp_path / "cache"),
    )
    context = MemoryContext(model=lambda _name: cached, seed=11)
    modules = [build() for _ in range(12)]  # more than the default executor's threads here
    writes = [m.ingest(turn(1, f"User {i} likes tea."), context) for i, m in enumerate(modules)]
    await asyncio.wait_for(asyncio.gather(*writes), timeout=300)
    assert all(texts(m) for m in modules)
