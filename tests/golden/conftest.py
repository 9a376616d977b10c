"""The ALFWorld engine the golden replays of ALFWorld trials need: those skipped without the
alfworld extra, failing under CI=true (the other tasks' replays need no extra)."""

from tests.tasks.alfworld.conftest import engine

__all__ = ["engine"]
