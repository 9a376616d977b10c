"""Is a game solvable? The planner answers in a process of its own.

A malformed problem (a duplicate object, an unknown type) makes fast-downward print an error
and end the whole process it runs in, so every check runs in a child Python process
(``python -m cogarch.tasks.alfworld.planner``): it loads the game, asks the planner for a
plan, plays the plan through the engine and reports the plan only when it wins. A child that
dies, hangs past the timeout or reports no winning plan makes :class:`UnsolvableGameError`,
and the calling process carries on. A problem the engine raises on (an impossible goal the
translator folds away, say) is reported as not solvable.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cogarch.errors import CogarchError

RESULT_MARK: Final = "COGARCH-PLAN "
DEFAULT_TIMEOUT_S: Final = 600.0


class UnsolvableGameError(CogarchError):
    """The planner found no winning plan for a game, or its process failed on the problem."""


@dataclass(frozen=True)
class Solution:
    walkthrough: list[str]
    """The planner's plan, as game commands."""
    seconds: float


_SLOTS: asyncio.Semaphore | None = None
_SLOTS_LOOP: asyncio.AbstractEventLoop | None = None


def _slots() -> asyncio.Semaphore:
    """At most one planner process per CPU core at a time (per event loop)."""
    global _SLOTS, _SLOTS_LOOP
    loop = asyncio.get_running_loop()
    if _SLOTS is None or _SLOTS_LOOP is not loop:
        _SLOTS, _SLOTS_LOOP = asyncio.Semaphore(max(1, os.cpu_count() or 1)), loop
    return _SLOTS


async def solve(
    game: Mapping[str, Any],
    *,
    planning_game: Mapping[str, Any] | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    label: str = "game",
) -> Solution:
    """The planner's winning plan for ``game`` (the engine's game data), checked in a child
    process: planned on ``planning_game`` when given (a reduced problem), then played on
    ``game``."""
    request = json.dumps({"game": dict(game), "planning_game": dict(planning_game or game)})
    request_bytes = request.encode()
    async with _slots():
        loop = asyncio.get_running_loop()
        start = loop.time()
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "cogarch.tasks.alfworld.planner",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=_child_env(),
        )
        try:
            out, _ = await asyncio.wait_for(child.communicate(request_bytes), timeout_s)
        except TimeoutError:
            child.kill()
            await child.wait()
            raise UnsolvableGameError(
                f"the planner found no plan for {label} within {timeout_s:.0f} s"
            ) from None
        seconds = loop.time() - start
    text = out.decode("utf-8", "replace")
    for line in reversed(text.splitlines()):
        if line.startswith(RESULT_MARK):
            result = json.loads(line[len(RESULT_MARK) :])
            if result.get("walkthrough"):
                return Solution([str(a) for a in result["walkthrough"]], seconds)
            raise UnsolvableGameError(f"{label} is not solvable: {result.get('reason')}")
    tail = " | ".join(text.strip().splitlines()[-3:]) or "no output"
    raise UnsolvableGameError(
        f"the planner's process ended (exit {child.returncode}) on {label}: {tail}"
    )


def _child_env() -> dict[str, str]:
    """This environment, with the folder this cogarch is imported from first on the child's
    path, so the child runs the same code whatever its working directory."""
    here = Path(str(sys.modules["cogarch"].__file__)).resolve().parent.parent
    paths = [str(here), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(dict.fromkeys(paths))}


def _check(request: dict[str, Any]) -> dict[str, Any]:
    from .engine import open_engine, translating

    game = {k: v for k, v in request["game"].items() if k != "walkthrough"}
    planning = {k: v for k, v in request["planning_game"].items() if k != "walkthrough"}
    env = open_engine(planning, walkthrough=True)
    with translating():
        state = env.reset()
    plan = list(state.get("extra.walkthrough") or [])
    if planning != game:
        env = open_engine(game)
        with translating():
            state = env.reset()
    if state["won"]:
        return {"reason": "the goal holds before any action"}
    if not plan:
        return {"reason": "the planner found no plan"}
    for i, command in enumerate(plan, start=1):
        if command not in state["admissible_commands"]:
            return {"reason": f"plan step {i} ({command!r}) is not admissible"}
        state, _, _ = env.step(command)
    if not state["won"]:
        return {"reason": "the plan ends without winning"}
    return {"walkthrough": plan}


def main() -> None:
    request = json.loads(sys.stdin.read())
    try:
        result = _check(request)
    except Exception as exc:  # the engine cannot play this problem: report it as such
        result = {"reason": f"the engine cannot load or play it ({type(exc).__name__}: {exc})"}
    sys.stdout.write("\n" + RESULT_MARK + json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()


__all__ = ["DEFAULT_TIMEOUT_S", "Solution", "UnsolvableGameError", "solve"]
