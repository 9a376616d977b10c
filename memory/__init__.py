"""Memory modules: private working memory, compressed state, task graph, retrieval baselines."""

from memory.base import MemoryContext, MemoryItem, MemoryModule, TurnRecord
from memory.registry import MEMORY_MODULES, build_memory
from memory.working import WorkingMemory

__all__ = [
    "MEMORY_MODULES",
    "MemoryContext",
    "MemoryItem",
    "MemoryModule",
    "TurnRecord",
    "WorkingMemory",
    "build_memory",
]
