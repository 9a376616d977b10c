"""Specialists and ready-made agents by short name."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cogarch.registry import ENTRY_POINT_GROUPS, Registry

from .specialist import BaseSpecialist

SPECIALISTS: Registry[type[BaseSpecialist]] = Registry(
    "specialist", base=BaseSpecialist, entry_points=ENTRY_POINT_GROUPS["specialist"]
)
"""The specialists cogarch ships, by the ``kind`` an agent spec's ``specialists:`` names."""
for _kind, _path in {
    "responder": "cogarch.workspace.specialists.responder:Responder",
    "memory_updater": "cogarch.workspace.specialists.memory_updater:MemoryUpdater",
    "tool_responder": "cogarch.workspace.specialists.tool_responder:ToolResponder",
    "hub": "cogarch.workspace.specialists.hub:Hub",
    "reground": "cogarch.workspace.specialists.reground:Reground",
    "planner": "cogarch.workspace.specialists.planner:Planner",
    "retrieval": "cogarch.workspace.specialists.retrieval:RetrievalMemory",
    "history_reader": "cogarch.workspace.specialists.history_reader:HistoryReader",
    "compressor": "cogarch.workspace.specialists.compressor:Compressor",
    "task_tracker": "cogarch.workspace.specialists.task_tracker:TaskTracker",
    "react": "cogarch.workspace.specialists.react:ReAct",
    "belief": "cogarch.workspace.specialists.episodex.belief:BeliefConscious",
    "external_perception": "cogarch.workspace.specialists.episodex.perception:ExternalPerception",
    "internal_perception": "cogarch.workspace.specialists.episodex.perception:InternalPerception",
    "action_planner": "cogarch.workspace.specialists.episodex.planning:ActionPlanner",
    "motor": "cogarch.workspace.specialists.episodex.motor:Motor",
    "replay_focus": "cogarch.workspace.specialists.episodex.focus:ReplayFocus",
    "recall": "cogarch.workspace.specialists.episodex.recall:Recall",
    "idea": "cogarch.workspace.specialists.episodex.reflection:Idea",
    "learning": "cogarch.workspace.specialists.episodex.reflection:Learning",
    "record_concept": "cogarch.workspace.specialists.episodex.record:RecordConcept",
}.items():
    SPECIALISTS.register(_kind, _path)


def agents_dir() -> Path:
    return Path(str(resources.files("cogarch.workspace") / "agents"))


def ready_made_agents() -> dict[str, Path]:
    """The ready-made agent specs that ship with cogarch.

    Returns:
        Each spec file (under ``workspace/agents``) by its name, the file's stem.
    """
    return {p.stem: p for p in sorted(agents_dir().glob("*.yaml"))}
