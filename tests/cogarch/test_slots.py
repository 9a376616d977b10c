"""Slot affinity: every call of a trial goes to one server slot (``id_slot``), trials running at
once get different slots, a slot is free again when its trial ends, and the slot never enters
the response cache's key."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cogarch.models import CallInfo, FunctionModel, Model, ProviderConfig, Providers, user
from cogarch.models.cache import ResponseCache
from cogarch.models.providers import build_model, load_providers_yaml
from cogarch.models.slots import SlotPool, current_slot, keeps_slots, pool_for, trial_affinity
from cogarch.testing import FaultServer, allowing_model_requests


def test_a_pool_hands_out_the_least_held_slot_and_takes_it_back() -> None:
    pool = SlotPool(3)
    assert [pool.acquire() for _ in range(4)] == [0, 1, 2, 0]
    pool.release(1)
    assert pool.acquire() == 1
    pool.release(0)
    pool.release(0)
    assert pool.acquire() == 0
    with pytest.raises(ValueError, match="at least one slot"):
        SlotPool(0)


def test_outside_a_trial_there_is_no_slot() -> None:
    assert current_slot("nowhere", 2) is None


def test_a_trial_keeps_one_slot_per_server_until_it_ends() -> None:
    pool = pool_for("test:keeps-one", 2)
    with trial_affinity():
        first = current_slot("test:keeps-one", 2)
        assert all(current_slot("test:keeps-one", 2) == first for _ in range(5))
        assert pool.holders[first] == 1
    assert pool.holders == [0, 0]


async def test_concurrent_trials_send_their_own_slot_on_every_call() -> None:
    with FaultServer() as server, allowing_model_requests():
        providers = Providers({"p": ProviderConfig(model="m", base_url=server.base_url, slots=2)})
        model = providers.get("p")

        async def trial(calls: int) -> None:
            with trial_affinity():
                for _ in range(calls):
                    await model.complete([user("hi")], caller="t")
                    await asyncio.sleep(0)

        try:
            await asyncio.gather(trial(3), trial(3))
            slots = [b["id_slot"] for b in server.bodies]
            assert sorted(slots) == [0, 0, 0, 1, 1, 1]
            await trial(2)  # both slots free again: the next trial takes slot 0
            assert [b["id_slot"] for b in server.bodies[6:]] == [0, 0]
            await model.complete([user("outside")], caller="t")
            assert "id_slot" not in server.bodies[-1]
        finally:
            await providers.aclose()


async def test_trials_started_from_one_trial_context_share_its_slot() -> None:
    seen: list[int] = []

    async def reply(_messages: object, info: CallInfo) -> str:
        seen.append(info.args["extra_body"]["id_slot"])
        return "ok"

    model = Model(FunctionModel(reply), provider="f", model="f", fake=True, slots=4)
    with trial_affinity():
        await asyncio.gather(*(model.complete([user(str(i))], caller="t") for i in range(4)))
    assert len(seen) == 4 and len(set(seen)) == 1


def test_local_providers_keep_slots_by_default_and_can_stop() -> None:
    local = build_model("local", ProviderConfig(kind="local", n_parallel=3))
    assert local.slots == 3 and keeps_slots(local)
    off = build_model("local", ProviderConfig(kind="local", slots=0))
    assert off.slots is None and not keeps_slots(off)
    remote = build_model("r", ProviderConfig(model="m", base_url="http://h/v1"))
    assert not keeps_slots(remote)
    with pytest.raises(Exception, match="slots"):
        load_providers_yaml({"r": {"model": "m", "slots": -1}})


async def test_the_slot_is_not_part_of_the_response_cache_key(tmp_path: Path) -> None:
    calls: list[int] = []

    def reply(_messages: object, info: CallInfo) -> str:
        calls.append(info.args["extra_body"]["id_slot"])
        return "answer"

    cache = ResponseCache(tmp_path)
    model = Model(FunctionModel(reply), provider="f", model="f", fake=True, slots=2, cache=cache)
    with trial_affinity():  # holds slot 0 while the next trial runs on slot 1
        await model.complete([user("q")], caller="t", seed=7)
        with trial_affinity():
            again = await model.complete([user("q")], caller="t", seed=7)
    assert calls == [0]
    assert again.usage.cached and again.content == "answer"


_OTHER_PROCESS = """
import sys, time
from pathlib import Path
from cogarch.models.slots import SlotPool
pool = SlotPool(2, Path(sys.argv[1]))
print(pool.acquire(), flush=True)
time.sleep(60)
"""


def test_processes_sharing_a_server_take_different_slots(tmp_path: Path) -> None:
    import subprocess
    import sys

    other = subprocess.Popen(
        [sys.executable, "-c", _OTHER_PROCESS, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None
        assert other.stdout.readline().strip() == "0"
        pool = SlotPool(2, tmp_path)
        assert pool.acquire() == 1  # slot 0 is the other process's
        assert pool.acquire() == 0  # every slot in use: share the one this process holds least
    finally:
        other.kill()
        other.wait()
        other.stdout.close()
    again = SlotPool(2, tmp_path)
    assert again.acquire() == 0  # the killed process's lock went with it


def test_a_dangling_lease_link_never_creates_its_target(tmp_path: Path) -> None:
    cache, outside = tmp_path / "cache", tmp_path / "outside"
    locks = cache / "slots" / "server"
    locks.mkdir(parents=True)
    outside.mkdir()
    (locks / "slot-0.lock").symlink_to(outside / "planted")
    pool = SlotPool(2, locks, within=cache)
    assert pool.acquire() == 0
    assert not (outside / "planted").exists()
    assert (locks / "slot-0.lock").is_file() and not (locks / "slot-0.lock").is_symlink()
    assert (locks / "slot-0.lock.unusable").is_symlink()  # set aside, not followed
    pool.release(0)


def test_a_lock_folder_that_leads_out_of_the_cache_is_not_used(tmp_path: Path) -> None:
    cache, outside = tmp_path / "cache", tmp_path / "outside"
    cache.mkdir()
    outside.mkdir()
    (cache / "slots").symlink_to(outside)
    pool = SlotPool(2, cache / "slots" / "server", within=cache)
    assert [pool.acquire(), pool.acquire()] == [0, 1]  # coordinated within this process only
    assert list(outside.iterdir()) == []


def test_pools_keep_their_lock_files_inside_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COGARCH_CACHE_DIR", str(tmp_path / "cache"))
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "slots").symlink_to(outside)
    pool = pool_for("test:dangling-cache", 1)
    assert pool.acquire() == 0
    pool.release(0)
    assert list(outside.iterdir()) == []
