"""A bound on how long a test may block: a read that hangs (on a FIFO, say) fails the test
instead of hanging the suite."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


class Blocked(BaseException):
    """Raised in a test that blocked past its deadline; a ``BaseException``, so no
    ``except OSError`` or ``except Exception`` in the code under test can swallow it."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Blocked` after ``seconds``, and every second after that (so a second
    blocking call fails too), until the block ends."""

    def late(signum: int, frame: object) -> None:
        raise Blocked(f"blocked for more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
