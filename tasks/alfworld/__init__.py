"""ALFWorld (Shridhar et al., ICLR 2021): household games on ALFWorld's own engine, played as a
curriculum by one agent whose memory carries from game to game.

Games are generated from what the ``alfworld`` wheel ships (or read from the official
download), checked by the planner in a child process and cached, and played in engine processes
of their own (``remote.py``); the engine itself is only imported in those child processes and
where a game is made (``pip install 'cogarch[alfworld]'``).
"""

from importlib import import_module
from typing import Any

_WHERE = {
    "GameCache": "cache",
    "GameFileError": "gamefile",
    "PLAYERS": "fakes",
    "SPLITS": "games",
    "Game": "games",
    "Split": "games",
    "generated_game": "games",
    "GENERATOR_VERSION": "generator",
    "GameSpec": "generator",
    "InfeasibleGameError": "generator",
    "write_problem": "generator",
    "PlanTimeoutError": "planner",
    "UnsolvableGameError": "planner",
    "EngineFailure": "remote",
    "evaluate": "evaluate",
    "AlfworldEvaluation": "records",
    "AlfworldPayload": "records",
    "GameResult": "records",
    "GameStep": "records",
    "DEFAULT_MAX_STEPS": "session",
    "GameSession": "session",
    "StepResult": "session",
    "AlfworldHost": "task",
    "AlfworldParams": "params",
    "AlfworldTask": "task",
    "CurriculumPart": "params",
    "TASK_TYPES": "wheel",
    "AlfworldMissingError": "wheel",
}
"""Public names by the module that defines them, imported when first used: the planner's child
process imports this package and needs none of the task's machinery."""


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)


__all__ = sorted(_WHERE)
