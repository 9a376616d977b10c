"""ALFWorld's text engine (textworld's PDDL environment with ALFWorld's names) for one game.

``open_engine`` loads a game the way ALFWorld plays it: textworld's ``PddlEnv`` wrapped in
ALFWorld's ``AlfredDemangler``, with ``won`` and the admissible commands requested. Loading
runs fast-downward's translator, which rewrites ``sys.argv`` and ``sys.stdout`` while it
works; both are put back, and only one thread loads at a time.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from .speedup import install_parse_cache
from .wheel import GOAL_PLACEHOLDER, _import, domain_text, grammar_text

_ENGINE = threading.RLock()
"""One engine call at a time in a process: the parsers textworld shares are not thread-safe."""


def engine_lock() -> threading.RLock:
    return _ENGINE


@contextmanager
def translating() -> Iterator[None]:
    """Hold the engine lock and put ``sys.argv`` and ``sys.stdout`` back afterwards (the
    engine translates the problem at load and again at every reset)."""
    with _ENGINE:
        argv, stdout = sys.argv, sys.stdout
        try:
            yield
        finally:
            sys.argv, sys.stdout = argv, stdout


def game_data(problem: str, goal: str, walkthrough: list[str] | None = None) -> dict[str, Any]:
    """A game as the engine reads it: the wheel's domain and grammar (the goal filled in) and
    the problem."""
    data: dict[str, Any] = {
        "pddl_domain": domain_text(),
        "grammar": grammar_text().replace(GOAL_PLACEHOLDER, goal),
        "pddl_problem": problem,
    }
    if walkthrough is not None:
        data["walkthrough"] = list(walkthrough)
    return data


def open_engine(data: Mapping[str, Any], *, walkthrough: bool = False, memoise: bool = True) -> Any:
    """A loaded (not yet reset) engine for the game ``data``; ``walkthrough`` asks it for the
    planner's plan at reset (``extra.walkthrough``), computed when the data holds none."""
    textworld = _import("textworld")
    pddl = _import("textworld.envs.pddl")
    demangler = _import("alfworld.agents.environment.alfred_tw_env").AlfredDemangler
    if memoise:
        install_parse_cache()
    extras = ["walkthrough"] if walkthrough else []
    infos = textworld.EnvInfos(won=True, admissible_commands=True, extras=extras)
    env = demangler(pddl.PddlEnv(infos))
    with translating():
        env.load(dict(data))
    return env


def close_engine(env: Any) -> None:
    """Unload the engine's copy of fast-downward's library (each engine loads its own, about
    30 MB; a long curriculum would otherwise keep one per game)."""
    lib = getattr(env.unwrapped, "downward_lib", None)
    if lib is not None:
        with _ENGINE:
            _import("fast_downward").close_lib(lib)
        env.unwrapped.downward_lib = None


__all__ = ["close_engine", "engine_lock", "game_data", "open_engine", "translating"]
