"""What the real-library memory tests check alike: a turn as they write it, calls that went
through cogarch's model layer, and writes after a fork that stay where they were made."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

import pytest

from cogarch.core.memory import MemoryContext, MemoryItem, MemoryModule, TurnRecord
from cogarch.memory.retrieval.libs.offline import Library
from cogarch.models.metering import Meter
from cogarch.testing.scripted_server import ScriptedServer

ADA = "My sister Ada lives in Paris."
CATS = "I keep two cats at home."


def needs(library: Library) -> pytest.MarkDecorator:
    """Skip a test module when its library is not installed, saying how to install it."""
    return pytest.mark.skipif(
        library.version() is None,
        reason=f"{library.distribution} is not installed; install it with `{library.install}`",
    )


def turn(n: int, user: str, assistant: str = "") -> TurnRecord:
    return TurnRecord(n, user, assistant or f"Reply {n}.", source_ids=(f"d{n}",))


async def metered_writes_and_search(
    module: MemoryModule, ctx: MemoryContext, query: str
) -> tuple[Meter, list[MemoryItem]]:
    """Two turns written (Ada in Paris, two cats), then ``query`` searched, under a meter."""
    meter = Meter()
    with meter.active():
        await module.ingest(turn(1, ADA), ctx)
        await module.ingest(turn(2, CATS), ctx)
        found = await module.retrieve(query, ctx)
    return meter, found


def assert_through_the_model_layer(meter: Meter, server: ScriptedServer, kind: str) -> None:
    """Every call the server answered was metered, for the module, with the trial's seed."""
    assert meter.model_calls == server.hits
    assert set(meter.summary()["by_caller"]) == {f"memory:{kind}"}
    assert all(body["seed"] == 7 for body in server.bodies)


def forks_of(trunk: MemoryModule) -> dict[str, Any]:
    return {"trunk": trunk, "left": trunk.fork(), "right": trunk.fork()}


async def assert_writes_stay_in_their_fork(
    modules: dict[str, Any],
    order: Sequence[str],
    ctx: MemoryContext,
    texts: Callable[[Any], Collection[str]],
    said: Callable[[str, int], str],
    kept: Callable[[str, int], str],
) -> None:
    """Each module of ``order`` in turn takes in a turn (``said``) and then holds ``kept``,
    while every other module still holds what it held before."""
    before = {name: texts(m) for name, m in modules.items()}
    for step, name in enumerate(order, start=2):
        await modules[name].ingest(turn(step, said(name, step)), ctx)
        grown = texts(modules[name])
        assert kept(name, step) in grown
        for other, module in modules.items():
            if other != name:
                assert texts(module) == before[other], f"{other} saw {name}'s write"
        before[name] = grown
