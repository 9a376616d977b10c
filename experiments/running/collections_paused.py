"""Fewer and cheaper garbage collections while a run's trials play.

A run keeps many objects alive at once (the imported libraries, the task's data, every trial in
flight), and CPython's cyclic collector walks all of them on each full collection and collects
the youngest generation every 700 allocations; against an endpoint at concurrency 64 that was
about a sixth of the run's own CPU time. While the trials play, the objects that exist when they
start are moved out of the collector's sight (``gc.freeze``) and the youngest generation is
collected less often; both are undone when the trials end (runs that overlap in one process share
the pause). Reference counting still frees everything that forms no cycle at once.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNGEST_THRESHOLD = 10_000
"""Allocations between collections of the youngest generation while trials play (CPython's
default is 700)."""

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, ...] | None = None
"""The thresholds to restore once no run is playing (None: the collector was left alone)."""


@contextmanager
def collections_paused() -> Iterator[None]:
    """Within: set-up objects frozen, young collections rarer (see the module). Runs that
    overlap in one process share the pause: the first to start begins it, the last to end
    undoes it."""
    global _depth, _saved
    with _lock:
        _depth += 1
        if _depth == 1 and gc.isenabled():
            _saved = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(max(_saved[0], YOUNGEST_THRESHOLD), *_saved[1:])
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                gc.unfreeze()
                _saved = None
