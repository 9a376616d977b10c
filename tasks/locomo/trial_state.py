"""What a LoCoMo trial keeps on disk so that a rerun goes on where an interrupted one stopped.

Two files in the trial's state directory:

- ``log.jsonl``, append-only: a header line with the trial's fingerprint, then one line per
  ingested session (its number of sessions done, its ingestion cost and the model calls it
  made) and one per answer (its key, the answer and its calls). A line is written whole, as
  the work it records ends, and never rewritten, so the log grows with the trial and costs the
  same per answer at any length.
- ``agent.json``: the agent's state after an ingested session (the last one, and others as
  often as costs at most a fifth of ingestion: see ``TrialState.session_done``), written
  atomically from a fork of the agent (O(1)) in a worker thread, while the trial goes on.

A kill at any point leaves a log whose last line may be cut short (it is ignored, and cut off
before the next write) and an ``agent.json`` that is whole but may be a session behind the
log: session lines past the snapshot are ignored and their session is ingested again.

Both files are read as untrusted input (no link out of the run, no special file, a size
limit, every line validated). A log of another trial (another fingerprint) is set aside as
``log.jsonl.stale``; a file that cannot be used is set aside as ``<name>.unusable`` and the
work it held is done again (a damaged log takes the snapshot with it, since the snapshot's
ingestion cost is in the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, ValidationError

from cogarch.core.model import Usage
from cogarch.core.state import StateError
from cogarch.files import MAX_STATE_BYTES, FileRefusedError, read_bytes, set_aside
from cogarch.io import atomic_write_json, loads_json

from .records import LocomoAnswer, LocomoHost

LOG = "log.jsonl"
SNAPSHOT = "agent.json"
SNAPSHOT_RATIO = 4.0
"""Ingestion time between two snapshots, as a multiple of the time the last one took."""


@dataclass
class Progress:
    """What a rerun keeps: the sessions ingested, their cost, the answers given, and the model
    calls behind all of it (to replay into the trial's usage)."""

    sessions_done: int = 0
    cost: dict[str, float] = field(default_factory=dict)
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)
    resumed: bool = False


class _Shape(BaseModel):
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)


class _Snapshot(_Shape):
    fingerprint: dict[str, Any]
    sessions_done: StrictInt = Field(ge=0)
    agent: dict[str, Any]


class _SessionLine(_Shape):
    session: StrictInt = Field(ge=1)
    cost: dict[str, StrictInt | StrictFloat]
    calls: list[Usage] = []


class _AnswerLine(_Shape):
    answer: str
    value: LocomoAnswer
    calls: list[Usage] = []


class _Unusable(Exception):
    """A state file that cannot be used (set aside by the reader)."""


def _calls(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in data.get("calls", []) if isinstance(c, dict)]


def _add_cost(total: dict[str, float], part: dict[str, Any]) -> None:
    for key, value in part.items():
        total[key] = round(total.get(key, 0) + value, 6)


class TrialState:
    """The sidecar files of one trial (see the module docstring); ``directory=None`` keeps
    nothing."""

    def __init__(self, directory: Path | None, fingerprint: dict[str, Any]) -> None:
        self.directory = directory
        self.fingerprint = fingerprint
        self._log: TextIO | None = None
        self._snapshot: asyncio.Future[None] | None = None
        self._snapshot_cost = 0.0
        self._last_snapshot_end = 0.0

    # -- reading -------------------------------------------------------------------------
    async def restore(self, agent: LocomoHost) -> Progress:
        """Load the saved agent into ``agent`` and read what the log keeps; ``agent`` is left
        as it was built when no usable snapshot of this trial is there."""
        if self.directory is None:
            return Progress()
        try:
            lines = self._lines()
        except _Unusable:
            self._set_aside(SNAPSHOT)
            return Progress()
        progress = Progress(resumed=bool(lines))
        snapshot = self._read_snapshot()
        if snapshot is not None and self._load(agent, snapshot["agent"]):
            progress.sessions_done = snapshot["sessions_done"]
            progress.resumed = True
        sessions: dict[int, dict[str, Any]] = {}
        answered: list[dict[str, Any]] = []
        for line in lines:
            if "session" in line:
                if line["session"] <= progress.sessions_done:
                    sessions[line["session"]] = line  # a session redone: the last line counts
            else:
                progress.answers[line["answer"]] = line["value"]
                answered += _calls(line)
        for n in sorted(sessions):
            _add_cost(progress.cost, sessions[n]["cost"])
        progress.calls = [c for n in sorted(sessions) for c in _calls(sessions[n])] + answered
        return progress

    def _load(self, agent: LocomoHost, state: dict[str, Any]) -> bool:
        """Load the snapshot into ``agent``; one it refuses is set aside (a composed agent
        refuses a damaged state whole, ``StateError``, and stays as built; any other agent
        is put back as it was)."""
        fresh = agent.save_state()
        try:
            agent.load_state(state)
        except StateError as exc:
            self._set_aside(SNAPSHOT, why=str(exc))
            return False
        except Exception as exc:  # a library's own error (its database, say) included
            agent.load_state(fresh)
            self._set_aside(SNAPSHOT, why=f"{type(exc).__name__}: {exc}")
            return False
        return True

    def _path(self, name: str) -> Path:
        assert self.directory is not None
        return self.directory / name

    def _read(self, name: str) -> bytes | None:
        """The bytes of state file ``name``, None when there is none; a link or a file that
        cannot be read safely is set aside and read as none."""
        path = self._path(name)
        if not os.path.lexists(path):
            return None
        if path.is_symlink():
            self._set_aside(name)
            return None
        try:
            return read_bytes(path, within=self.directory, max_bytes=MAX_STATE_BYTES)
        except FileRefusedError:
            self._set_aside(name)
            return None

    def _read_json(self, name: str, shape: type[_Shape]) -> dict[str, Any] | None:
        """State file ``name`` if it holds this trial's data of ``shape`` (else set aside)."""
        raw = self._read(name)
        if raw is None:
            return None
        try:
            data = loads_json(raw)
            if not isinstance(data, dict) or data.get("fingerprint") != self.fingerprint:
                self._set_aside(name, ".stale")  # another trial's, or another setting's
                return None
            shape.model_validate(data)
        except (ValueError, ValidationError):
            self._set_aside(name)
            return None
        return data

    def _read_snapshot(self) -> dict[str, Any] | None:
        return self._read_json(SNAPSHOT, _Snapshot)

    def _lines(self) -> list[dict[str, Any]]:
        """The log's whole lines after a header of this trial's (a torn last line is cut off);
        raises ``_Unusable`` for a damaged log, after setting it aside."""
        raw = self._read(LOG)
        if raw is None:
            return []
        whole, _, torn = raw.rpartition(b"\n")
        if torn:  # a write cut short by a kill: drop it before appending again
            with open(self._path(LOG), "r+b") as handle:
                handle.truncate(len(whole) + 1 if whole else 0)
        if not whole:
            return []
        texts = whole.split(b"\n")
        try:
            header = loads_json(texts[0])
        except ValueError:
            header = None
        if header != self._header():
            self._set_aside(LOG, ".stale" if isinstance(header, dict) else ".unusable")
            return []
        lines = []
        try:
            for text in texts[1:]:
                line = loads_json(text)
                if not isinstance(line, dict):
                    raise ValueError("a log line is not an object")
                shape = _SessionLine if "session" in line else _AnswerLine
                shape.model_validate(line)
                lines.append(line)
        except (ValueError, ValidationError):
            self._set_aside(LOG)
            raise _Unusable from None
        return lines

    def _header(self) -> dict[str, Any]:
        return {"fingerprint": self.fingerprint}

    def _set_aside(self, name: str, suffix: str = ".unusable", why: str = "") -> None:
        """Set state file ``name`` aside; one that cannot be used is named in a warning (its
        work is done again)."""
        path = self._path(name)
        if os.path.lexists(path):
            with contextlib.suppress(OSError):
                kept = set_aside(path, suffix)
                if suffix == ".unusable":
                    reason = f" ({' '.join(why.split())[:300]})" if why else ""
                    sys.stderr.write(
                        f"warning: the trial state '{path}' cannot be used{reason}; kept as "
                        f"'{kept.name}', its work is done again\n"
                    )

    # -- writing -------------------------------------------------------------------------
    def _append(self, line: dict[str, Any]) -> None:
        if self.directory is None:
            return
        if self._log is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self._path(LOG)
            if path.is_symlink():
                self._set_aside(LOG)
            fresh = not path.exists() or path.stat().st_size == 0
            self._log = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed in close())
            if fresh:
                self._log.write(json.dumps(self._header(), ensure_ascii=False) + "\n")
        self._log.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._log.flush()

    async def session_done(
        self,
        agent: LocomoHost,
        done: int,
        cost: dict[str, Any],
        calls: list[dict[str, Any]],
        *,
        last: bool = False,
    ) -> None:
        """Record an ingested session: its log line now, then the agent's snapshot in a worker
        thread (the previous snapshot is awaited first, so they land in order).

        A snapshot holds the whole agent, so one per session would make ingestion quadratic
        in the conversation's length: a session is snapshotted only once the ingestion since
        the last snapshot has taken ``SNAPSHOT_RATIO`` times as long as writing that snapshot
        did (at most about 1/``SNAPSHOT_RATIO`` of the time goes to snapshots), and the
        ``last`` session always is. A rerun ingests again the sessions past the snapshot."""
        if self.directory is None:
            return
        self._append({"session": done, "cost": cost, "calls": calls})
        now = time.perf_counter()
        if not last and now - self._last_snapshot_end < SNAPSHOT_RATIO * self._snapshot_cost:
            return
        await self.settle()
        snapshot = agent.fork()
        self._snapshot = asyncio.ensure_future(
            asyncio.to_thread(self._write_snapshot, snapshot, done)
        )

    def _write_snapshot(self, snapshot: LocomoHost, done: int) -> None:
        start = time.perf_counter()
        data = {"fingerprint": self.fingerprint, "sessions_done": done}
        atomic_write_json(
            self._path(SNAPSHOT), {**data, "agent": snapshot.save_state()}, indent=None
        )
        self._last_snapshot_end = time.perf_counter()
        self._snapshot_cost = self._last_snapshot_end - start

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
