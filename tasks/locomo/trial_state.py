"""What a LoCoMo trial keeps on disk so that a rerun goes on where an interrupted one stopped.

Two files in the trial's state directory:

- ``log.jsonl``, append-only: a header line with the trial's fingerprint, then one line per
  ingested session (its number of sessions done, its ingestion cost and the model calls it
  made) and one per answer (its key, the answer and its calls). A line is written whole, as
  the work it records ends, and never rewritten, so the log grows with the trial and costs the
  same per answer at any length.
- ``agent.json``: the agent's state after the last ingested session, written atomically from
  a fork of the agent (O(1)) in a worker thread, while the trial goes on.

A kill at any point leaves a log whose last line may be cut short (it is ignored, and cut off
before the next write) and an ``agent.json`` that is whole but may be a session behind the
log: session lines past the snapshot are ignored and their session is ingested again. Files of
another trial (another fingerprint) or damaged beyond that are set aside as ``*.stale``, so
nothing is mixed into this trial. The sidecars of earlier versions (``memory.json``,
``answers.json``) are read once and carried over.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from cogarch.io import atomic_write_json

from ...workspace.agent import Agent
from ...workspace.autogen_adapter import agent_state, load_agent_state

LOG = "log.jsonl"
SNAPSHOT = "agent.json"


@dataclass
class Progress:
    """What a rerun keeps: the sessions ingested, their cost, the answers given, and the model
    calls behind all of it (to replay into the trial's usage)."""

    sessions_done: int = 0
    cost: dict[str, float] = field(default_factory=dict)
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)
    resumed: bool = False


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


def _calls(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in data.get("calls", []) if isinstance(c, dict)]


def _add_cost(total: dict[str, float], part: dict[str, Any]) -> None:
    for key, value in part.items():
        if isinstance(value, int | float):
            total[key] = round(total.get(key, 0) + value, 6)


class TrialState:
    """The sidecar files of one trial (see the module docstring); ``directory=None`` keeps
    nothing."""

    def __init__(self, directory: Path | None, fingerprint: dict[str, Any]) -> None:
        self.directory = directory
        self.fingerprint = fingerprint
        self._log: TextIO | None = None
        self._snapshot: asyncio.Task[None] | None = None

    # -- reading -------------------------------------------------------------------------
    async def restore(self, agent: Agent) -> Progress:
        """Load the saved agent into ``agent`` and read what the log keeps."""
        if self.directory is None:
            return Progress()
        self._carry_over_old_sidecar()
        lines = self._lines()
        snapshot = _read_json(self.directory / SNAPSHOT)
        if not isinstance(snapshot, dict) or snapshot.get("fingerprint") != self.fingerprint:
            snapshot = None
        progress = Progress(resumed=snapshot is not None or bool(lines))
        if snapshot is not None:
            load_agent_state(agent, snapshot["agent"])
            progress.sessions_done = int(snapshot["sessions_done"])
        sessions: dict[int, dict[str, Any]] = {}
        for line in lines:
            if "session" in line and int(line["session"]) <= progress.sessions_done:
                sessions[int(line["session"])] = line  # a session redone: the last line counts
            elif "answer" in line and isinstance(line.get("value"), dict):
                progress.answers[str(line["answer"])] = line["value"]
                progress.calls += _calls(line)
        for n in sorted(sessions):
            _add_cost(progress.cost, sessions[n].get("cost", {}))
        progress.calls = [c for n in sorted(sessions) for c in _calls(sessions[n])] + [
            *progress.calls
        ]
        return progress

    def _lines(self) -> list[dict[str, Any]]:
        """The log's whole lines after a header of this trial's (a torn last line is cut)."""
        assert self.directory is not None
        path = self.directory / LOG
        try:
            raw = path.read_bytes()
        except OSError:
            return []
        whole, _, torn = raw.rpartition(b"\n")
        if torn:  # a write cut short by a kill: drop it before appending again
            with open(path, "r+b") as handle:
                handle.truncate(len(whole) + 1 if whole else 0)
        parsed = []
        for text in whole.split(b"\n") if whole else []:
            try:
                parsed.append(json.loads(text))
            except (UnicodeDecodeError, json.JSONDecodeError):
                parsed.append(None)
        if not parsed or not isinstance(parsed[0], dict) or parsed[0] != self._header():
            self._set_aside(path)
            return []
        return [p for p in parsed[1:] if isinstance(p, dict)]

    def _header(self) -> dict[str, Any]:
        return {"fingerprint": self.fingerprint}

    def _set_aside(self, path: Path) -> None:
        if path.exists():
            os.replace(path, path.with_name(path.name + ".stale"))

    def _carry_over_old_sidecar(self) -> None:
        """Rewrite the sidecar of an earlier version (``memory.json``, ``answers.json``) as a
        log and a snapshot, once."""
        assert self.directory is not None
        old_memory, old_answers = self.directory / "memory.json", self.directory / "answers.json"
        if (self.directory / LOG).exists() or not old_memory.exists():
            return
        memory, answers = _read_json(old_memory), _read_json(old_answers)
        if isinstance(memory, dict) and memory.get("fingerprint") == self.fingerprint:
            done, kept = int(memory["sessions_done"]), _calls(memory)
            atomic_write_json(
                self.directory / SNAPSHOT,
                {"fingerprint": self.fingerprint, "sessions_done": done, "agent": memory["agent"]},
                indent=None,
            )
            lines = [{"session": done, "cost": memory.get("ingest", {}), "calls": kept}]
            if isinstance(answers, dict) and answers.get("fingerprint") == self.fingerprint:
                spent = _calls(answers)[len(kept) :]
                for n, (key, value) in enumerate(dict(answers.get("answers", {})).items()):
                    lines.append({"answer": key, "value": value, "calls": [] if n else spent})
            with open(self.directory / LOG, "w", encoding="utf-8") as out:
                for line in [self._header(), *lines]:
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
        for path in (old_memory, old_answers):
            self._set_aside(path)

    # -- writing -------------------------------------------------------------------------
    def _append(self, line: dict[str, Any]) -> None:
        if self.directory is None:
            return
        if self._log is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / LOG
            fresh = not path.exists() or path.stat().st_size == 0
            self._log = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed in close())
            if fresh:
                self._log.write(json.dumps(self._header(), ensure_ascii=False) + "\n")
        self._log.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._log.flush()

    async def session_done(
        self, agent: Agent, done: int, cost: dict[str, Any], calls: list[dict[str, Any]]
    ) -> None:
        """Record an ingested session: its log line now, then the agent's snapshot in a worker
        thread (the previous snapshot is awaited first, so they land in order)."""
        if self.directory is None:
            return
        self._append({"session": done, "cost": cost, "calls": calls})
        await self.settle()
        snapshot = agent.fork()
        self._snapshot = asyncio.ensure_future(
            asyncio.to_thread(self._write_snapshot, snapshot, done)
        )

    def _write_snapshot(self, snapshot: Agent, done: int) -> None:
        assert self.directory is not None
        data = {"fingerprint": self.fingerprint, "sessions_done": done}
        atomic_write_json(
            self.directory / SNAPSHOT, {**data, "agent": agent_state(snapshot)}, indent=None
        )

    def answered(self, key: str, answer: dict[str, Any], calls: list[dict[str, Any]]) -> None:
        """Record one answer and the model calls behind it."""
        self._append({"answer": key, "value": answer, "calls": calls})

    async def settle(self) -> None:
        """Wait until the last snapshot is on disk (before answering: an answer in the log
        then always comes after the snapshot of every session)."""
        pending, self._snapshot = self._snapshot, None
        if pending is not None:
            await pending

    async def close(self) -> None:
        """Wait for the last snapshot and close the log (call it in a ``finally``)."""
        try:
            await self.settle()
        finally:
            if self._log is not None:
                self._log.close()
                self._log = None


__all__ = ["LOG", "SNAPSHOT", "Progress", "TrialState"]
