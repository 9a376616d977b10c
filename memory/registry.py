"""Memory modules by short name (import paths, so nothing heavy loads until it is used)."""

from __future__ import annotations

from typing import Any

from cogarch.config import validate_mapping
from cogarch.registry import Registry
from memory.base import MemoryModule

MEMORY_MODULES: Registry[type[MemoryModule]] = Registry("memory module")
MEMORY_MODULES.register("working_memory", "memory.working:WorkingMemory")
MEMORY_MODULES.register("mem0", "memory.mem0:Mem0Memory")
MEMORY_MODULES.register("amem", "memory.amem:AMemMemory")
MEMORY_MODULES.register("lightmem", "memory.lightmem:LightMemMemory")
MEMORY_MODULES.register("memoryos", "memory.memoryos:MemoryOSMemory")
MEMORY_MODULES.register("ccs", "memory.compressor:CompressorMemory")
MEMORY_MODULES.register("task_graph", "memory.task_memory:TaskMemory")


def build_memory(kind: str, params: dict[str, Any], *, where: str = "") -> MemoryModule:
    cls = MEMORY_MODULES.get(kind)
    param_model = getattr(cls, "Params", None)
    if param_model is None:
        return cls()
    return cls(validate_mapping(param_model, params, where=where))  # type: ignore[call-arg]
