"""The ALFWorld fixtures the golden replays need: the engine (skip without the alfworld extra,
fail under CI=true) and a session's cache of generated games."""

from tests.tasks.alfworld.conftest import engine, game_cache

__all__ = ["engine", "game_cache"]
