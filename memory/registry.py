"""Memory modules by short name (import paths, so nothing heavy loads until it is used)."""

from __future__ import annotations

from typing import Any

from cogarch.construction import Recipe, prepare
from cogarch.core.memory import MemoryModule
from cogarch.registry import ENTRY_POINT_GROUPS, Registry

MEMORY_MODULES: Registry[type[MemoryModule]] = Registry(
    "memory module", base=MemoryModule, entry_points=ENTRY_POINT_GROUPS["memory module"]
)
"""The memory modules cogarch ships, by the ``kind`` an agent spec's ``memory:`` names."""
BUILT_IN: dict[str, str] = {
    "working_memory": "cogarch.memory.working.module:WorkingMemory",
    "mem0": "cogarch.memory.retrieval.mem0:Mem0Memory",
    "amem": "cogarch.memory.retrieval.amem:AMemMemory",
    "lightmem": "cogarch.memory.retrieval.lightmem:LightMemMemory",
    "memoryos": "cogarch.memory.retrieval.memoryos:MemoryOSMemory",
    "mem0_lib": "cogarch.memory.retrieval.libs.mem0_lib:Mem0LibMemory",
    "memoryos_lib": "cogarch.memory.retrieval.libs.memoryos_lib:MemoryOSLibMemory",
    "amem_lib": "cogarch.memory.retrieval.libs.amem_lib:AMemLibMemory",
    "raw_turns": "cogarch.memory.retrieval.raw_turns:RawTurnMemory",
    "haystack": "cogarch.memory.retrieval.haystack:HaystackMemory",
    "ccs": "cogarch.memory.compressed.module:CompressorMemory",
    "task_graph": "cogarch.memory.task_graph.module:TaskMemory",
    "episodic": "cogarch.memory.long_term.episodic:EpisodicMemory",
    "conceptual": "cogarch.memory.long_term.conceptual:ConceptualMemory",
    "reflexion": "cogarch.memory.reflexion.module:ReflexionMemory",
}
"""The built-in modules: short name -> import path of the class."""
for _name, _path in BUILT_IN.items():
    MEMORY_MODULES.register(_name, _path)


def memory_recipe(kind: str, params: dict[str, Any], *, where: str = "") -> Recipe[MemoryModule]:
    """A memory module's class and validated parameters (``cogarch.construction.prepare``)."""
    return prepare(MEMORY_MODULES, kind, params, where=where)


def check_memory(kind: str, params: dict[str, Any], *, where: str = "") -> None:
    """Check a memory module's kind and parameters as data, building nothing."""
    memory_recipe(kind, params, where=where)


def build_memory(kind: str, params: dict[str, Any], *, where: str = "") -> MemoryModule:
    """A memory module built from its kind and parameters.

    Args:
        kind: A registered kind (``mem0``), an import path (``package.module:Class``) or a
            Python file's (``notes.py:NotesMemory``).
        params: The module's parameters, validated by its ``Params``.
        where: Where the entry was, for error messages (``memory.notes``).

    Returns:
        The module.

    Raises:
        ConfigError: When a parameter is unknown or invalid (the message names it).
        UnknownNameError: When ``kind`` names no memory module.
    """
    return memory_recipe(kind, params, where=where).build()
