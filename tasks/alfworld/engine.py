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
"""One engine call at a time in a process (making, loading, resetting, stepping and closing
engines): the parsers textworld shares are not thread-safe, and neither is swapping the
libraries engines run on."""


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
    demangler = _import("alfworld.agents.environment.alfred_tw_env").AlfredDemangler
    if memoise:
        install_parse_cache()
    extras = ["walkthrough"] if walkthrough else []
    infos = textworld.EnvInfos(won=True, admissible_commands=True, extras=extras)
    with translating():
        env = demangler(_pddl_env(infos))
        env.load(dict(data))
    return env


_SPARE: list[Any] = []
"""fast-downward libraries of closed engines, for the next engines to use."""


def _pddl_env(infos: Any) -> Any:
    """textworld's ``PddlEnv``, on a spare library when there is one. Each new engine loads its
    own copy of fast-downward's library (about 30 MB), and unloading one crashes a later load,
    so closed engines hand theirs on (a reset loads a new task into it, as every reset does)."""
    module = _import("textworld.envs.pddl.pddl")
    if not _SPARE:
        return module.PddlEnv(infos)
    lib = _SPARE.pop()
    downward = module.fast_downward
    stock = downward.load_lib
    downward.load_lib = lambda: lib
    try:
        return module.PddlEnv(infos)
    finally:
        downward.load_lib = stock


def close_engine(env: Any) -> None:
    """Hand the engine's fast-downward library on to the next engine; the engine is unusable
    afterwards (a long curriculum would otherwise keep one library per game)."""
    with _ENGINE:
        lib = getattr(env.unwrapped, "downward_lib", None)
        if lib is not None:
            env.unwrapped.downward_lib = None
            _SPARE.append(lib)
