"""Slot affinity: every call of a trial goes to one slot of a llama.cpp-style server.

llama.cpp keeps one prompt cache per slot. A trial whose calls wander between slots finds its
dialogue in the other slot's cache and evaluates it again; a trial that keeps to one slot pays
for each new token once, and its forked branches reuse the trunk they share. A trial holds an
:class:`Affinity` while it runs (:func:`trial_affinity`); the first call it makes to a server
leases that server's least-busy slot, later calls send the same slot id (``id_slot`` in the
request body), and the lease ends with the trial.

Leases are per process. Trials of two processes sharing one server may share slots; they
still get the right answers, only less reuse.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class SlotPool:
    """The slots of one server, with how many running trials hold each."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"a server has at least one slot, got {slots}")
        self.holders = [0] * slots
        self._lock = threading.Lock()

    def acquire(self) -> int:
        """The least-held slot (the lowest id on a tie), now held once more."""
        with self._lock:
            slot = min(range(len(self.holders)), key=self.holders.__getitem__)
            self.holders[slot] += 1
            return slot

    def release(self, slot: int) -> None:
        with self._lock:
            self.holders[slot] = max(0, self.holders[slot] - 1)


_pools: dict[tuple[str, int], SlotPool] = {}
_pools_lock = threading.Lock()


def pool_for(server: str, slots: int) -> SlotPool:
    """This process's pool for ``server`` (any stable name of it) with ``slots`` slots."""
    with _pools_lock:
        return _pools.setdefault((server, slots), SlotPool(slots))


class Affinity:
    """One trial's slot on each server it calls, leased on first use."""

    def __init__(self) -> None:
        self._held: dict[tuple[str, int], tuple[SlotPool, int]] = {}
        self._lock = threading.Lock()

    def slot(self, server: str, slots: int) -> int:
        key = (server, slots)
        with self._lock:
            if key not in self._held:
                pool = pool_for(server, slots)
                self._held[key] = (pool, pool.acquire())
            return self._held[key][1]

    def release(self) -> None:
        with self._lock:
            for pool, slot in self._held.values():
                pool.release(slot)
            self._held.clear()


_current: ContextVar[Affinity | None] = ContextVar("cogarch_slot_affinity", default=None)


@contextmanager
def trial_affinity() -> Iterator[Affinity]:
    """Keep every call made in this context (tasks started in it included) to one slot per
    server, until the context ends."""
    affinity = Affinity()
    token = _current.set(affinity)
    try:
        yield affinity
    finally:
        _current.reset(token)
        affinity.release()


def current_slot(server: str, slots: int) -> int | None:
    """The slot the running trial keeps to on ``server``, or None outside a trial."""
    affinity = _current.get()
    return None if affinity is None else affinity.slot(server, slots)


def keeps_slots(model: object) -> bool:
    """Whether ``model`` keeps each trial to one server slot (then the trial's requests queue
    on that slot, and asking forked branches one at a time loses nothing)."""
    return bool(getattr(model, "slots", None))


__all__ = ["Affinity", "SlotPool", "current_slot", "keeps_slots", "pool_for", "trial_affinity"]
