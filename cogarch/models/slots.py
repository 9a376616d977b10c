"""Slot affinity: every call of a trial goes to one slot of a llama.cpp-style server.

llama.cpp keeps one prompt cache per slot. A trial whose calls wander between slots finds its
dialogue in the other slot's cache and evaluates it again; a trial that keeps to one slot pays
for each new token once, and its forked branches reuse the trunk they share. A trial holds an
:class:`Affinity` while it runs (:func:`trial_affinity`); the first call it makes to a server
leases that server's least-busy slot, later calls send the same slot id (``id_slot`` in the
request body), and the lease ends with the trial.

Leases hold across the processes of one machine (the worker processes of a Ray node share the
node's embedded server): a slot in use is an exclusive ``flock`` on a file under the cache
directory, which the system releases if its process dies. When every slot is in use, a trial
shares the one this process holds least: it still gets the right answers, only less reuse.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from cogarch.files import set_aside
from cogarch.models.weights import model_cache_dir


class SlotPool:
    """The slots of one server, with how many running trials of this process hold each.

    With ``lock_dir``, a slot this process holds is also locked there, so other processes
    sharing the server pick other slots while any is free.
    """

    def __init__(
        self, slots: int, lock_dir: Path | None = None, *, within: Path | None = None
    ) -> None:
        if slots < 1:
            raise ValueError(f"a server has at least one slot, got {slots}")
        self.holders = [0] * slots
        self._lock_dir = lock_dir
        self._within = within
        self._files: dict[int, int] = {}
        self._lock = threading.Lock()

    def acquire(self) -> int:
        """A slot no one holds if there is one (the lowest id first), else the one this process
        holds least; now held once more."""
        with self._lock:
            order = sorted(range(len(self.holders)), key=lambda i: (self.holders[i], i))
            slot = next((i for i in order if self.holders[i] == 0 and self._claim(i)), order[0])
            self.holders[slot] += 1
            return slot

    def release(self, slot: int) -> None:
        with self._lock:
            self.holders[slot] = max(0, self.holders[slot] - 1)
            if self.holders[slot] == 0 and slot in self._files:
                os.close(self._files.pop(slot))  # closing drops the lock

    def _claim(self, slot: int) -> bool:
        if self._lock_dir is None:
            return True
        try:
            fd = self._open_lock(f"slot-{slot}.lock")
        except OSError:
            return True  # no lock files here: coordinate within this process only
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._files[slot] = fd
        return True

    def _open_lock(self, name: str) -> int:
        """The lock file ``name`` in the lock folder, opened (created if missing) without
        following a link: a link standing there is set aside, so nothing is ever created
        where a link points, and no lock file lies outside ``within``."""
        assert self._lock_dir is not None
        if self._within is not None:
            inside = os.path.realpath(self._within)
            where = os.path.realpath(self._lock_dir)
            if os.path.commonpath([inside, where]) != inside:
                raise OSError(f"lock folder {self._lock_dir} leads out of {self._within}")
        self._lock_dir.mkdir(parents=True, exist_ok=True)
        folder = os.open(self._lock_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            try:
                fd = os.open(name, flags, 0o600, dir_fd=folder)
            except OSError as exc:
                if exc.errno != errno.ELOOP:
                    raise
                set_aside(self._lock_dir / name)
                fd = os.open(name, flags | os.O_EXCL, 0o600, dir_fd=folder)
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise OSError(f"{self._lock_dir / name} is not a regular file")
            return fd
        finally:
            os.close(folder)


_pools: dict[tuple[str, int], SlotPool] = {}
_pools_lock = threading.Lock()


def pool_for(server: str, slots: int) -> SlotPool:
    """This process's pool for ``server`` (any stable name of it) with ``slots`` slots."""
    with _pools_lock:
        key = (server, slots)
        if key not in _pools:
            name = hashlib.sha256(f"{server}|{slots}".encode()).hexdigest()[:16]
            root = model_cache_dir()
            _pools[key] = SlotPool(slots, root / "slots" / name, within=root)
        return _pools[key]


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
