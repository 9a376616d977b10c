"""The ALFWorld engine the golden replays need: skipped without the alfworld extra, failing
under CI=true."""

from tests.tasks.alfworld.conftest import engine

__all__ = ["engine"]
