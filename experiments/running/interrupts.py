"""Ctrl-C during a run: finished trials are kept, a trial blocking the event loop is stopped.

asyncio's own handling of Ctrl-C cancels the whole run, and only when the event loop gets
control back: a task whose code blocks the loop (a long computation, a blocking call) holds
the first Ctrl-C until it is done, and then every trial in flight, finished or not, is lost.
While a run goes on, :class:`RunInterrupts` handles Ctrl-C instead: the first one stops the
trials in flight (the trial whose code is running at that moment at once, by a cancellation
raised inside it) and lets the records already played be written; the run then ends as
interrupted, and the same command resumes. A second Ctrl-C stops at once. A
``KeyboardInterrupt`` a task raises itself (no Ctrl-C pressed) fails its trial like any other
error of its own.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType

_IN_TRIAL: ContextVar[bool] = ContextVar("cogarch_in_trial", default=False)
_ACTIVE: list[RunInterrupts] = []
"""The handlers in force (runs going on in this process's main thread)."""


def task_raised(exc: BaseException) -> bool:
    """Whether the ``KeyboardInterrupt`` ``exc`` leaving a trial's code is the task's own
    doing: a run's handler is in force and no Ctrl-C was pressed (a first Ctrl-C never
    raises it, only a second one does)."""
    return (
        isinstance(exc, KeyboardInterrupt)
        and bool(_ACTIVE)
        and not any(h.requested for h in _ACTIVE)
    )


@contextmanager
def trial_code() -> Iterator[None]:
    """Mark the code run inside as a trial's (a Ctrl-C arriving there stops that trial)."""
    token = _IN_TRIAL.set(True)
    try:
        yield
    finally:
        _IN_TRIAL.reset(token)


class RunInterrupts:
    """Ctrl-C handling while a run's trials are played (a context manager used inside the
    event loop's thread); ``stop_trials`` is called (in the loop) on the first Ctrl-C.

    Runs going on at once in one process (a suite's cells) share one handler: the first
    Ctrl-C stops the trials of every one of them, a second stops at once, and the handler
    found before the first run began is put back when the last one ends, whatever their
    order."""

    def __init__(self, stop_trials: Callable[[], None]) -> None:
        self.stop_trials = stop_trials
        self.requested = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._installed = False

    def __enter__(self) -> RunInterrupts:
        self._loop = asyncio.get_running_loop()
        try:
            if not _ACTIVE:
                _PREVIOUS[:] = [signal.signal(signal.SIGINT, _on_sigint)]
            self._installed = True
            _ACTIVE.append(self)
        except ValueError:  # not the main thread: Ctrl-C is someone else's to handle
            self._installed = False
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            _ACTIVE.remove(self)
            self._installed = False
            if not _ACTIVE and _PREVIOUS:
                signal.signal(signal.SIGINT, _PREVIOUS.pop())  # type: ignore[arg-type]

    def _request(self) -> None:
        self.requested = True
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self.stop_trials)


_PREVIOUS: list[object] = []
"""The SIGINT handler in force before the first of the runs going on began."""


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    if any(h.requested for h in _ACTIVE):
        raise KeyboardInterrupt
    sys.stderr.write(
        "\ninterrupted: stopping the trials in flight, keeping those finished "
        "(Ctrl-C again to stop at once)\n"
    )
    for handler in list(_ACTIVE):
        handler._request()
    if _IN_TRIAL.get():  # a trial's code holds the event loop: stop that trial now
        loop = _ACTIVE[0]._loop if _ACTIVE else None
        task = asyncio.current_task(loop) if loop is not None else None
        if task is not None:
            task.cancel()
            raise asyncio.CancelledError
