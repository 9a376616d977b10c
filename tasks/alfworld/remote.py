"""The engine, played in a process of its own: a game that hangs or kills it fails alone.

A game file can make the engine misbehave in ways no ``try`` catches in the process that runs
it: fast-downward calls ``sys.exit`` on a malformed problem (a duplicate object), an empty
problem raises ``StopIteration`` (which cannot cross a thread's future), and a problem can
make it loop. So games are played in child processes (``worker.py``) and a
:class:`RemoteEngine` stands in for the engine: ``reset()`` and ``step(command)`` as
textworld's environment has them, each a request to the child answered within a deadline.
When the child answers with an error, ends, or misses its deadline, it is killed and the call
raises :class:`EngineFailure` naming the game; the run goes on.

Children are kept for the next game (up to one idle child per CPU core), so a game's start
pays neither the interpreter's start nor the engine's imports, and the memoised parses
(``speedup.py``) carry from game to game as they did in one process. A child that failed is
never reused. Each call runs in the calling thread (the session calls from a worker thread, off
the event loop); :meth:`RemoteEngine.close` from another thread kills a child still busy, so a
cancelled trial never waits for its engine.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import select
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping
from typing import IO, Any, Final

from cogarch.errors import CogarchError

from .child import child_command

LOAD_TIMEOUT_S: Final = 300.0
"""Time a child may take to load a game and to reset it (the biggest kitchens take 7 s)."""
STEP_TIMEOUT_S: Final = 60.0
"""Time a child may take for one step (a step takes well under a second)."""
MAX_ANSWER_BYTES: Final = 64 * 2**20
"""The largest answer read from a child."""


class EngineFailure(CogarchError):
    """The engine failed on a game: it raised, ended its process, or missed its deadline."""


class _ChildFailed(Exception):
    pass


class _Child:
    """One engine process and its pipes; used by one game at a time."""

    def __init__(self) -> None:
        self.log: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - lives with the child
        fd = self.log.fileno()
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
        self.proc = subprocess.Popen(
            child_command("cogarch.tasks.alfworld.worker"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            close_fds=True,
        )
        self._buffer = b""
        self.busy = False
        _LIVE.add(self)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def call(self, request: Mapping[str, Any], timeout_s: float) -> dict[str, Any]:
        """Send ``request`` and wait for the answer; raises ``_ChildFailed`` (the child is
        then dead) when the child errs, ends or misses ``timeout_s``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None  # both are pipes
        self.busy = True
        try:
            try:
                self.proc.stdin.write(json.dumps(request).encode() + b"\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                raise _ChildFailed(self._ended()) from None
            answer = self._read_line(timeout_s)
        finally:
            self.busy = False
        if not answer.get("ok"):
            self.kill()
            raise _ChildFailed(str(answer.get("error", "no answer")))
        return answer

    def _read_line(self, timeout_s: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise _ChildFailed(f"it took longer than {timeout_s:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise _ChildFailed(self._ended())
            self._buffer += chunk
            if len(self._buffer) > MAX_ANSWER_BYTES:
                self.kill()
                raise _ChildFailed("its answer was larger than cogarch reads")
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            answer = json.loads(line)
        except ValueError:
            self.kill()
            raise _ChildFailed("its answer was not JSON") from None
        if not isinstance(answer, dict):
            self.kill()
            raise _ChildFailed("its answer was not a JSON object")
        return answer

    def _ended(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.wait()
        return f"the engine's process ended (exit {code}): {self.tail()}"

    def tail(self) -> str:
        """The last lines the child printed."""
        try:
            size = os.fstat(self.log.fileno()).st_size
            self.log.seek(max(0, size - 4096))
            lines = self.log.read().decode("utf-8", "replace").splitlines()
        except (OSError, ValueError):
            return "no output"
        return " | ".join(x.strip() for x in lines[-3:] if x.strip()) or "no output"

    def kill(self) -> None:
        if self.alive:
            self.proc.kill()
        _LIVE.discard(self)

    def reap(self) -> None:
        self.kill()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.log.close()

    def truncate_log(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.log.truncate(0)


_LIVE: weakref.WeakSet[_Child] = weakref.WeakSet()
_IDLE: list[_Child] = []
_POOL = threading.RLock()


def max_idle() -> int:
    """Idle children kept for later games."""
    return max(1, os.cpu_count() or 1)


def _take() -> _Child:
    with _POOL:
        while _IDLE:
            child = _IDLE.pop()
            if child.alive:
                return child
            child.reap()
    return _Child()


def _give_back(child: _Child) -> None:
    with _POOL:
        if child.alive and len(_IDLE) < max_idle():
            _IDLE.append(child)
            return
    child.reap()


def shutdown() -> None:
    """End every engine process (idle or busy); the next game starts a new one."""
    with _POOL:
        idle, _IDLE[:] = list(_IDLE), []
    for child in idle:
        child.reap()
    for child in list(_LIVE):
        child.kill()


atexit.register(shutdown)


class RemoteEngine:
    """A game loaded in an engine process, with the environment's ``reset`` and ``step``."""

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        label: str,
        memoise: bool = True,
        load_timeout_s: float | None = None,
        step_timeout_s: float | None = None,
    ) -> None:
        self.label = label
        self._timeouts = (load_timeout_s, step_timeout_s)
        self._child: _Child | None = None
        if data is not None:
            self.load(data, memoise=memoise)

    def load(self, data: Mapping[str, Any], *, memoise: bool = True) -> None:
        """Load the game ``data`` in an engine process (a cancelled load is stopped by
        :meth:`close` from another thread)."""
        if self._child is None:
            self._child = _take()
            self._child.truncate_log()
        self._call({"op": "load", "data": dict(data), "memoise": memoise}, self._load_timeout())

    def _load_timeout(self) -> float:
        return LOAD_TIMEOUT_S if self._timeouts[0] is None else self._timeouts[0]

    def reset(self) -> dict[str, Any]:
        """The game's first state (as textworld's ``reset`` gives it)."""
        return self._state(self._call({"op": "reset"}, self._load_timeout()))

    def step(self, command: str) -> tuple[dict[str, Any], float, bool]:
        """The state after ``command`` (with textworld's step's other two values)."""
        timeout = STEP_TIMEOUT_S if self._timeouts[1] is None else self._timeouts[1]
        state = self._state(self._call({"op": "step", "command": command}, timeout))
        return state, float(state.get("score") or 0), bool(state.get("done"))

    def close(self) -> None:
        """Hand the engine process on to the next game; one still busy (a call cancelled
        from another thread) is killed instead."""
        child, self._child = getattr(self, "_child", None), None
        if child is None:
            return
        if child.busy:
            child.kill()
            return
        _give_back(child)

    def __del__(self) -> None:  # a session never closed still hands its process on
        self.close()

    def _call(self, request: Mapping[str, Any], timeout_s: float) -> dict[str, Any]:
        child = self._child
        if child is None:
            raise EngineFailure(f"the engine of {self.label} is closed")
        try:
            return child.call(request, timeout_s)
        except _ChildFailed as exc:
            self._child = None
            child.reap()
            raise EngineFailure(
                f"the engine failed on the game {self.label} ({request['op']}): {exc}"
            ) from None

    def _state(self, answer: Mapping[str, Any]) -> dict[str, Any]:
        state = answer.get("state")
        if (
            not isinstance(state, dict)
            or not isinstance(state.get("admissible_commands"), list)
            or "feedback" not in state
            or "won" not in state
        ):
            raise EngineFailure(f"the engine gave no game state for {self.label}")
        return state
