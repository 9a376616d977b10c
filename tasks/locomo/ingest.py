"""Feeding a LoCoMo conversation to an agent.

Each dialog turn becomes one completed turn of the agent (``[date] speaker: text``, carrying
its dialog id as source id): it joins the public history the responder sees and is taken in
by every memory module of the agent (a retrieval module with the provider of the specialist
that drives it), exactly once, as the retrieval specialist would take it in before answering.
A session's turns reach each module together (``ingest_many``), so a module can embed them in
one batch; the cost is linear in the length of the conversation.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from cogarch.core.cow import CowList
from cogarch.core.memory import TurnRecord
from cogarch.models.metering import Meter
from cogarch.tokens import count_tokens

from ...workspace.agent import Agent
from ...workspace.workspace import IngestFailure, Message
from .data import DialogTurn


def _drivers(agent: Agent) -> dict[str, str | None]:
    """Provider of the specialist driving each memory module, by module name."""
    found: dict[str, str | None] = {}
    for specialist in agent.specialists.values():
        name = getattr(getattr(specialist, "params", None), "memory", None)
        if isinstance(name, str):
            found.setdefault(name, getattr(specialist, "provider", None))
    return found


async def ingest_turns(agent: Agent, turns: Sequence[DialogTurn]) -> None:
    """Append ``turns`` to the agent's history and let every memory module take them in."""
    ws = agent.workspace
    ctx = agent.context()
    drivers = _drivers(agent)
    for module_name, module in agent.memory.items():
        use_provider = getattr(module, "use_provider", None)
        if callable(use_provider):
            use_provider(drivers.get(module_name))
    records = []
    for turn in turns:
        ws.turn += 1
        record = TurnRecord(ws.turn, turn.line(), "", source_ids=(turn.dia_id,), time=turn.time)
        ws.turns.append(record)
        ws.dialogue.append(Message("user", record.user))
        records.append(record)
    for name, module in agent.memory.items():
        failed = await module.ingest_many(records, ctx.memory_context(f"memory:{module.kind}"))
        # a turn a module's model gave nothing usable for is not stored, as in the retrieval
        # specialist
        ws.ingest_failures.extend(IngestFailure(name, i, e) for i, e in failed.items())
        if records:
            ws.ingested[name] = records[-1].index
        await asyncio.sleep(0)  # other trials of the run go on between modules


def trim_history(agent: Agent, budget_tokens: int | None) -> None:
    """Keep only the latest public messages that fit ``budget_tokens`` (the model's context)."""
    if budget_tokens is None:
        return
    dialogue = agent.workspace.dialogue
    used, keep = 0, 0
    for message in reversed(dialogue):
        used += count_tokens(message.content)
        if used > budget_tokens:
            break
        keep += 1
    agent.workspace.dialogue = CowList(dialogue[len(dialogue) - keep :])


class IngestCost:
    """Model calls, tokens and seconds spent on ingestion (across interrupted runs too)."""

    def __init__(self, data: dict[str, float] | None = None) -> None:
        self.data = dict(data or {"model_calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
        self.data.setdefault("seconds", 0.0)

    def add(self, meter: Meter, seconds: float) -> None:
        """Add the calls in ``meter`` and the ``seconds`` they took; a call the response cache
        served counts the latency of the original call, as its tokens do."""
        summary = meter.summary()
        for key in ("model_calls", "prompt_tokens", "completion_tokens"):
            self.data[key] += summary[key]
        replayed = sum(r.latency_s for r in meter.records if r.cached)
        self.data["seconds"] = round(self.data["seconds"] + seconds + replayed, 3)

    def merge(self, other: IngestCost) -> None:
        """Add another cost (a session's) to this one."""
        for key, value in other.data.items():
            self.data[key] = round(self.data.get(key, 0) + value, 3)


def clock() -> float:
    return time.perf_counter()


__all__ = ["IngestCost", "clock", "ingest_turns", "trim_history"]
