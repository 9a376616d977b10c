"""What a task, memory module or specialist is written against: the public names of the core.

A task subclasses :class:`Task` and returns a :class:`TrialOutput` (its :class:`TaskPayload`,
:class:`Evaluation`, :class:`Turn` list); it talks to the agent through the host capabilities
(:class:`Host`, :class:`Acting`, :class:`Forking`, ...), and one that judges answers against
gold ones declares its judge for the judge audit (:class:`AuditedJudge`,
:class:`AuditQuestion`). A memory module subclasses
:class:`MemoryModule` and forks by the copy-on-write convention (:class:`CowList`,
:class:`CowDict`, :func:`fork_fields`). The rest of ``cogarch.core`` is internal, one concept
per file; each name here is imported from its file on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_names

if TYPE_CHECKING:
    from cogarch.core.acting import ActionChoice, TaskSpace, read_action
    from cogarch.core.cow import CowDict, CowList, fork_fields
    from cogarch.core.evaluation import Evaluation
    from cogarch.core.host import (
        Acting,
        AgentHost,
        DialogueTrimming,
        EpisodeAware,
        EpisodeReport,
        Forking,
        Host,
        Observation,
        Observing,
        PrivateState,
        ReplyReport,
        ReplyReporting,
        Retrieved,
        StateSaving,
        Walking,
    )
    from cogarch.core.judge_audit import AuditedJudge, AuditQuestion
    from cogarch.core.leaderboard import LeaderboardMetric
    from cogarch.core.memory import EpisodeEnd, MemoryContext, MemoryItem, MemoryModule, TurnRecord
    from cogarch.core.model import ChatModel
    from cogarch.core.payload import TaskPayload
    from cogarch.core.records import Branch, Scoring, TrialOutput, TrialRecord, Turn
    from cogarch.core.state import StateError, state_items
    from cogarch.core.task import Task, TrialContext
    from cogarch.core.views import Fold, Section, Table
    from cogarch.tokens import count_tokens

_FROM = {
    "acting": ("ActionChoice", "TaskSpace", "read_action"),
    "cow": ("CowDict", "CowList", "fork_fields"),
    "evaluation": ("Evaluation",),
    "host": (
        "Acting", "AgentHost", "DialogueTrimming", "EpisodeAware", "EpisodeReport", "Forking",
        "Host", "Observation", "Observing", "PrivateState", "ReplyReport", "ReplyReporting",
        "Retrieved", "StateSaving", "Walking",
    ),
    "judge_audit": ("AuditedJudge", "AuditQuestion"),
    "leaderboard": ("LeaderboardMetric",),
    "memory": ("EpisodeEnd", "MemoryContext", "MemoryItem", "MemoryModule", "TurnRecord"),
    "model": ("ChatModel",),
    "payload": ("TaskPayload",),
    "records": ("Branch", "Scoring", "TrialOutput", "TrialRecord", "Turn"),
    "state": ("StateError", "state_items"),
    "task": ("Task", "TrialContext"),
    "views": ("Fold", "Section", "Table"),
    "cogarch.tokens": ("count_tokens",),
}  # fmt: skip
__getattr__ = lazy_names(__name__, _FROM)

__all__ = [
    "Acting",
    "ActionChoice",
    "AgentHost",
    "AuditQuestion",
    "AuditedJudge",
    "Branch",
    "ChatModel",
    "CowDict",
    "CowList",
    "DialogueTrimming",
    "EpisodeAware",
    "EpisodeEnd",
    "EpisodeReport",
    "Evaluation",
    "Fold",
    "Forking",
    "Host",
    "LeaderboardMetric",
    "MemoryContext",
    "MemoryItem",
    "MemoryModule",
    "Observation",
    "Observing",
    "PrivateState",
    "ReplyReport",
    "ReplyReporting",
    "Retrieved",
    "Scoring",
    "Section",
    "StateError",
    "StateSaving",
    "Table",
    "Task",
    "TaskPayload",
    "TaskSpace",
    "TrialContext",
    "TrialOutput",
    "TrialRecord",
    "Turn",
    "TurnRecord",
    "Walking",
    "count_tokens",
    "fork_fields",
    "read_action",
    "state_items",
]
