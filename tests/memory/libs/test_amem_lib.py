"""A-Mem itself (the a-mem library) as the memory module ``amem_lib``, offline, against a
scripted OpenAI-compatible server the test starts: every call the library makes goes through
cogarch's model layer."""

from __future__ import annotations

import itertools
import json

import pytest

from cogarch.core.memory import MemoryContext
from cogarch.errors import ConfigError
from cogarch.memory.registry import build_memory
from cogarch.memory.retrieval.libs.amem_lib import AMemLibMemory
from cogarch.memory.retrieval.libs.offline import AMEM
from cogarch.testing.scripted_server import ScriptedServer
from tests.memory.libs import lib_checks as check
from tests.memory.libs.lib_checks import needs, turn

pytestmark = needs(AMEM)


def build() -> AMemLibMemory:
    module = build_memory("amem_lib", {"provider": "scripted"})
    assert isinstance(module, AMemLibMemory)
    return module


def texts(module: AMemLibMemory) -> set[str]:
    return {m.text for m in module.notes()}


async def test_notes_are_added_and_found_through_the_model_layer(
    offline: list[str], server: ScriptedServer, ctx: MemoryContext
) -> None:
    module = build()
    meter, found = await check.metered_writes_and_search(
        module, ctx, "Where does my sister Ada live?"
    )
    # a note's analysis, then (once a neighbour exists) its evolution
    assert server.hits == 3
    check.assert_through_the_model_layer(meter, server, "amem_lib")
    assert texts(module) == {"My sister Ada lives in Paris.", "I keep two cats at home."}
    assert found[0].text == "My sister Ada lives in Paris." and found[0].source_ids == ["d1"]
    assert module.render().startswith("- Content: My sister Ada lives in Paris.\nKeywords: ")
    assert module.prompt_key == "notes_block"


@pytest.mark.parametrize("order", list(itertools.permutations(["trunk", "left", "right"])))
async def test_forks_never_see_each_others_writes(
    order: tuple[str, ...], offline: list[str], ctx: MemoryContext
) -> None:
    trunk = build()
    await trunk.ingest(turn(1, "The secret plan is blue."), ctx)
    written = "{0} wrote {1}.".format
    await check.assert_writes_stay_in_their_fork(
        check.forks_of(trunk), order, ctx, texts, written, written
    )


async def test_save_load_and_bad_states(ctx: MemoryContext) -> None:
    module = build()
    await module.ingest(turn(1, "I was born in Lyon."), ctx)
    state = json.loads(json.dumps(module.save_state()))
    fresh = build()
    fresh.load_state(state)
    assert texts(fresh) == texts(module)
    found = await fresh.retrieve("Where was I born?", ctx)
    assert found[0].source_ids == ["d1"]
    broken = json.loads(json.dumps(state))
    broken["data"]["collection"]["embeddings"] = [[0.5]]
    with pytest.raises(ConfigError, match="384 dimensions"):
        fresh.load_state(broken)
    with pytest.raises(ConfigError, match="'mem0_lib' state into a 'amem_lib' module"):
        fresh.load_state({**state, "kind": "mem0_lib"})
    assert texts(fresh) == {"I was born in Lyon."}
