"""Memory modules: private working memory, compressed state, task graph, retrieval baselines.

The interface they implement lives in :mod:`cogarch.core.memory` and is re-exported here.
"""

from cogarch.core.memory import MemoryContext, MemoryItem, MemoryModule, TurnRecord

from .registry import MEMORY_MODULES, build_memory
from .working.module import WorkingMemory

__all__ = [
    "MEMORY_MODULES",
    "MemoryContext",
    "MemoryItem",
    "MemoryModule",
    "TurnRecord",
    "WorkingMemory",
    "build_memory",
]
