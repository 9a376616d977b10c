"""Every memory module forks into branches that never see each other's writes.

A trunk takes in two turns and forks into two branches; then the trunk and the branches (and a
fork of a branch) each write (ingest a turn of their own, retrieve, which some modules count as
a visit), in every order. Each one must end exactly as a fresh module that lived through its
own history alone: nothing written in a branch shows in the trunk or a sibling, and nothing
written in the trunk after the fork shows in a branch.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from cogarch.core.memory import MemoryModule, TurnRecord
from cogarch.memory import build_memory
from cogarch.tokens import count_tokens
from tests.memory import context
from tests.memory.test_module_state import CASES, LLM, TURNS, Case, _found, _same

Step = tuple[str, object]
"""``("ingest", TurnRecord)``, ``("retrieve", query)`` or ``("drive", None)``."""

OWN = {
    "trunk": TurnRecord(3, "The trunk books a table in Lisbon for Friday.", "Booked."),
    "left": TurnRecord(3, "The left branch rents a car at the Porto airport.", "Rented."),
    "right": TurnRecord(3, "The right branch cancels the hotel near the river.", "Cancelled."),
}
GRANDCHILD = TurnRecord(4, "The grandchild adds a museum visit in Sintra.", "Added.")


async def run(module: MemoryModule, steps: list[Step], case: Case) -> None:
    for kind, arg in steps:
        if kind == "ingest":
            assert isinstance(arg, TurnRecord)
            await module.ingest(arg, context(LLM))
        elif kind == "retrieve":
            await module.retrieve(str(arg), context(LLM))
        elif case.drive is not None:
            case.drive(module)


async def replayed(case: Case, steps: list[Step]) -> MemoryModule:
    fresh = build_memory(case.kind, case.params)
    await run(fresh, steps, case)
    return fresh


async def same_as_replay(module: MemoryModule, case: Case, steps: list[Step]) -> None:
    fresh = await replayed(case, steps)
    assert _same(module.save_state()) == _same(fresh.save_state())
    assert module.private_text() == fresh.private_text()
    assert module.render() == fresh.render()
    # sizes are counted once per content and the count is shared with forks: never stale
    assert module.size_tokens() == count_tokens(fresh.private_text()) == fresh.size_tokens()


def own_steps(name: str) -> list[Step]:
    return [("ingest", OWN[name]), ("retrieve", f"What did the {name} change?"), ("drive", None)]


async def writes_stay_where_they_were_made(
    case: Case, order: tuple[str, ...], *, count_sizes: bool = False
) -> None:
    """A trunk of two turns forks into two branches; each (and a fork of the left one, made
    after it wrote) then writes in ``order``, and each ends as a replay of its own history.
    With ``count_sizes``, every module counts its size before the branches write."""
    shared: list[Step] = [("ingest", TURNS[0]), ("ingest", TURNS[1]), ("retrieve", "hotel")]
    trunk = build_memory(case.kind, case.params)
    await run(trunk, shared, case)
    modules: dict[str, MemoryModule] = {"trunk": trunk}
    modules["left"], modules["right"] = trunk.fork(), trunk.fork()
    histories = {name: list(shared) for name in modules}
    if count_sizes:
        for module in modules.values():
            module.size_tokens()  # counted while the trunk and the branches still hold the same
    for name in order:
        await run(modules[name], own_steps(name), case)
        histories[name] += own_steps(name)
        if name == "left":  # a fork of a branch, written at once
            child = modules["left"].fork()
            grand: list[Step] = [("ingest", GRANDCHILD), ("retrieve", "museum")]
            await run(child, grand, case)
            modules["grandchild"], histories["grandchild"] = child, histories["left"] + grand
    for name, module in modules.items():
        await same_as_replay(module, case, histories[name])


ORDERS = list(itertools.permutations(["trunk", "left", "right"]))
MODULES = [*CASES, Case("raw_turns", {"embedder": "hash"})]
"""Every module that takes turns in (those that learn per game: see long_term/)."""


@pytest.mark.parametrize("case", MODULES, ids=lambda c: f"{c.kind}-{c.params.get('backend', '')}")
@pytest.mark.parametrize("order", ORDERS, ids="-".join)
async def test_writes_after_a_fork_stay_where_they_were_made(
    case: Case, order: tuple[str, ...]
) -> None:
    await writes_stay_where_they_were_made(case, order, count_sizes=True)


@pytest.mark.parametrize("case", MODULES, ids=lambda c: f"{c.kind}-{c.params.get('backend', '')}")
async def test_a_fork_answers_as_its_trunk_did_and_leaves_it_as_it_was(case: Case) -> None:
    lived: list[Step] = [*(("ingest", t) for t in TURNS), ("retrieve", "Where is the hotel?")]
    trunk = build_memory(case.kind, case.params)
    await run(trunk, lived, case)
    found = _found(list(getattr(trunk, "last_retrieved", ())))
    forks: list[Callable[[], MemoryModule]] = [trunk.fork, lambda: trunk.fork().fork()]
    for make in forks:
        branch = make()
        assert _same(branch.save_state()) == _same(trunk.save_state())
        assert _found(list(getattr(branch, "last_retrieved", ()))) == found
        await run(branch, own_steps("left"), case)
    await same_as_replay(trunk, case, lived)
