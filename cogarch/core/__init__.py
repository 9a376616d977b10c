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

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

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

__all__, __getattr__ = lazy_module(__name__)
