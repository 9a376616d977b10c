"""Specialists and ready-made agents by short name."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cogarch.registry import Registry
from workspace.specialist import Specialist

SPECIALISTS: Registry[type[Specialist]] = Registry("specialist")
for _kind, _path in {
    "responder": "workspace.specialists.responder:Responder",
    "memory_updater": "workspace.specialists.memory_updater:MemoryUpdater",
    "tool_responder": "workspace.specialists.tool_responder:ToolResponder",
    "conscious": "workspace.specialists.conscious:Conscious",
    "focus": "workspace.specialists.focus:Focus",
    "planner": "workspace.specialists.planner:Planner",
    "retrieval": "workspace.specialists.retrieval:RetrievalMemory",
    "compressor": "workspace.specialists.compressor:Compressor",
    "task_tracker": "workspace.specialists.task_tracker:TaskTracker",
}.items():
    SPECIALISTS.register(_kind, _path)


def agents_dir() -> Path:
    return Path(str(resources.files("workspace") / "agents"))


def ready_made_agents() -> dict[str, Path]:
    """Ready-made agent specs shipped in ``workspace/agents``, by file stem."""
    return {p.stem: p for p in sorted(agents_dir().glob("*.yaml"))}
