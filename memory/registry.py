"""Memory modules by short name (import paths, so nothing heavy loads until it is used)."""

from __future__ import annotations

from typing import Any

from cogarch.construction import Recipe, prepare
from cogarch.core.memory import MemoryModule
from cogarch.registry import Registry

MEMORY_MODULES: Registry[type[MemoryModule]] = Registry("memory module", base=MemoryModule)
MEMORY_MODULES.register("working_memory", "cogarch.memory.working.module:WorkingMemory")
MEMORY_MODULES.register("mem0", "cogarch.memory.retrieval.mem0:Mem0Memory")
MEMORY_MODULES.register("amem", "cogarch.memory.retrieval.amem:AMemMemory")
MEMORY_MODULES.register("lightmem", "cogarch.memory.retrieval.lightmem:LightMemMemory")
MEMORY_MODULES.register("memoryos", "cogarch.memory.retrieval.memoryos:MemoryOSMemory")
MEMORY_MODULES.register("mem0_lib", "cogarch.memory.retrieval.libs.mem0_lib:Mem0LibMemory")
MEMORY_MODULES.register(
    "memoryos_lib", "cogarch.memory.retrieval.libs.memoryos_lib:MemoryOSLibMemory"
)
MEMORY_MODULES.register("amem_lib", "cogarch.memory.retrieval.libs.amem_lib:AMemLibMemory")
MEMORY_MODULES.register("raw_turns", "cogarch.memory.retrieval.raw_turns:RawTurnMemory")
MEMORY_MODULES.register("ccs", "cogarch.memory.compressed.module:CompressorMemory")
MEMORY_MODULES.register("task_graph", "cogarch.memory.task_graph.module:TaskMemory")
MEMORY_MODULES.register("episodic", "cogarch.memory.long_term.episodic:EpisodicMemory")
MEMORY_MODULES.register("conceptual", "cogarch.memory.long_term.conceptual:ConceptualMemory")
MEMORY_MODULES.register("reflexion", "cogarch.memory.reflexion.module:ReflexionMemory")


def memory_recipe(kind: str, params: dict[str, Any], *, where: str = "") -> Recipe[MemoryModule]:
    """A memory module's class and validated parameters (``cogarch.construction.prepare``);
    a module without a ``Params`` model ignores parameters, as it always has."""
    return prepare(MEMORY_MODULES, kind, params, where=where, unused="ignore")


def check_memory(kind: str, params: dict[str, Any], *, where: str = "") -> None:
    """Check a memory module's kind and parameters as data, building nothing."""
    memory_recipe(kind, params, where=where)


def build_memory(kind: str, params: dict[str, Any], *, where: str = "") -> MemoryModule:
    return memory_recipe(kind, params, where=where).build()
