"""Feeding a LoCoMo conversation to an agent, and keeping what a rerun needs to go on.

Each dialog turn becomes one completed turn of the agent (``[date] speaker: text``, carrying
its dialog id as source id), taken in without a reply (the host's ``observe``): it joins the
public history the responder sees and every memory module of the agent takes it in, exactly
once, as the retrieval specialist would before answering.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, ValidationError

from cogarch.core.host import DialogueTrimming, Observing
from cogarch.files import MAX_STATE_BYTES, FileRefusedError, read_json, set_aside
from cogarch.io import atomic_write_json
from cogarch.models.metering import Meter
from cogarch.models.types import Usage

from .data import DialogTurn
from .records import LocomoAnswer, LocomoHost


async def ingest_turns(agent: Observing, turns: Sequence[DialogTurn]) -> None:
    """Let the agent take ``turns`` in, in order, without replying."""
    for turn in turns:
        await agent.observe(turn.line(), source_ids=(turn.dia_id,), time=turn.time)


def trim_history(agent: DialogueTrimming, budget_tokens: int | None) -> None:
    """Keep only the latest public messages that fit ``budget_tokens`` (the model's context)."""
    if budget_tokens is not None:
        agent.trim_dialogue(budget_tokens)


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


class _Sidecar(BaseModel):
    """What every sidecar holds: its trial's fingerprint and the calls behind it."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)
    fingerprint: dict[str, Any]
    calls: list[Usage] = []


class _MemorySidecar(_Sidecar):
    sessions_done: StrictInt = Field(ge=0)
    ingest: dict[str, StrictInt | StrictFloat]
    agent: dict[str, Any]


class _AnswersSidecar(_Sidecar):
    answers: dict[str, LocomoAnswer]


class TrialState:
    """The sidecar of one trial: the agent's state after the last ingested session, the
    ingestion cost so far, the answers given, and with each the model calls spent to reach it
    (each file written atomically)."""

    def __init__(self, directory: Path | None, fingerprint: dict[str, Any]) -> None:
        self.directory = directory
        self.fingerprint = fingerprint

    def _read(self, name: str, shape: type[_Sidecar]) -> dict[str, Any] | None:
        """The sidecar ``name`` if it is of this trial and of ``shape``; one that cannot be
        used is set aside (``<name>.unusable``) and costs only the work it held."""
        if self.directory is None:
            return None
        path = self.directory / name
        if not os.path.lexists(path):
            return None
        try:
            data = read_json(path, within=self.directory.parent, max_bytes=MAX_STATE_BYTES)
        except FileRefusedError:
            self._set_aside(path)
            return None
        if not isinstance(data, dict) or data.get("fingerprint") != self.fingerprint:
            return None  # another trial's or another setting's: rewritten as this one goes on
        try:
            shape.model_validate(data)
        except ValidationError:
            self._set_aside(path)
            return None
        return data

    def _set_aside(self, path: Path) -> None:
        with contextlib.suppress(OSError):
            set_aside(path)

    def _write(self, name: str, data: dict[str, Any]) -> None:
        if self.directory is not None:
            atomic_write_json(self.directory / name, {"fingerprint": self.fingerprint, **data})

    def save_agent(
        self, agent: LocomoHost, sessions_done: int, cost: IngestCost, calls: list[dict[str, Any]]
    ) -> None:
        state = agent.save_state()
        self._write(
            "memory.json",
            {"sessions_done": sessions_done, "ingest": cost.data, "agent": state, "calls": calls},
        )

    def load_agent(self, agent: LocomoHost) -> tuple[int, IngestCost, list[dict[str, Any]]] | None:
        """Restore the saved agent into ``agent``; the sessions done, the cost so far and the
        calls behind them. A saved state the agent cannot take is set aside and ``agent`` is
        left as it was built."""
        data = self._read("memory.json", _MemorySidecar)
        if data is None:
            return None
        fresh = agent.save_state()
        try:
            agent.load_state(data["agent"])
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            agent.load_state(fresh)
            if self.directory is not None:
                self._set_aside(self.directory / "memory.json")
            return None
        return data["sessions_done"], IngestCost(data["ingest"]), _calls(data)

    def answers(self) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
        """The saved answers by key, and every call to the last of them (ingestion's too)."""
        data = self._read("answers.json", _AnswersSidecar)
        return (dict(data["answers"]), _calls(data)) if data else ({}, [])

    def save_answers(self, answers: dict[str, dict[str, Any]], calls: list[dict[str, Any]]) -> None:
        self._write("answers.json", {"answers": answers, "calls": calls})


def _calls(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in data.get("calls", []) if isinstance(c, dict)]


def clock() -> float:
    return time.perf_counter()


__all__ = ["IngestCost", "TrialState", "clock", "ingest_turns", "trim_history"]
