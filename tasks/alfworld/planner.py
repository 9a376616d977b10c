"""Is a game solvable? The planner answers in a process of its own.

A malformed problem (a duplicate object, an unknown type) makes fast-downward print an error
and end the whole process it runs in, so every check runs in an isolated child Python process
(``child.py``: neither the working directory nor ``PYTHON*`` variables reach its import
path): for each game it is given, in turn, it loads
the game, asks the planner for a plan, plays the plan through the engine and reports the plan
only when it wins. A game whose child dies, hangs past the timeout or reports no winning plan
gets :class:`UnsolvableGameError` (:class:`PlanTimeoutError` when it ran out of time); the
games after it go to a new child, and the calling process carries on. A problem the engine
raises on (an impossible goal the translator folds away, say) is reported as not solvable.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cogarch.errors import CogarchError

from .child import child_command

RESULT_MARK: Final = "COGARCH-PLAN "
DEFAULT_TIMEOUT_S: Final = 600.0


class UnsolvableGameError(CogarchError):
    """The planner found no winning plan for a game, or its process failed on the problem."""


class PlanTimeoutError(UnsolvableGameError):
    """The planner ran out of time on a game (``plan_timeout_s``): the game may well be
    solvable."""


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


@dataclass(frozen=True)
class PlanRequest:
    """One game to check: its engine data, and a reduced problem to plan on (optional)."""

    label: str
    game: Mapping[str, Any]
    planning_game: Mapping[str, Any] | None = None

    def data(self) -> dict[str, Any]:
        return {"game": dict(self.game), "planning_game": dict(self.planning_game or self.game)}


Outcome = Solution | UnsolvableGameError


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
    (outcome,) = await solve_many([PlanRequest(label, game, planning_game)], timeout_s=timeout_s)
    if isinstance(outcome, UnsolvableGameError):
        raise outcome
    return outcome


async def solve_many(
    requests: Sequence[PlanRequest], *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> list[Outcome]:
    """Check several games in one child process, one after another (the child's start-up is
    paid once), each allowed ``timeout_s``. When the child dies or hangs on a game, that game
    is refused and the games after it go to a new child. Outcomes come in request order."""
    outcomes: dict[int, Outcome] = {}
    pending = list(range(len(requests)))
    while pending:
        found, failure, timed_out = await _run_child([requests[i] for i in pending], timeout_s)
        for position, i in enumerate(pending):
            if position in found:
                outcomes[i] = found[position]
        missing = [i for position, i in enumerate(pending) if position not in found]
        if not missing:
            break
        culprit = requests[missing[0]].label
        error = PlanTimeoutError if timed_out else UnsolvableGameError
        outcomes[missing[0]] = error(failure.format(label=culprit))
        pending = missing[1:]
    return [outcomes[i] for i in range(len(requests))]


async def _run_child(
    batch: Sequence[PlanRequest], timeout_s: float
) -> tuple[dict[int, Outcome], str, bool]:
    """Run one child on ``batch``: the outcomes it reported by position, what to say of the
    game it was on if it stopped early, and whether it stopped for lack of time."""
    found: dict[int, Outcome] = {}
    noise: list[str] = []
    request = json.dumps([r.data() for r in batch]).encode()
    async with _slots():
        loop = asyncio.get_running_loop()
        child = await asyncio.create_subprocess_exec(
            *child_command("cogarch.tasks.alfworld.planner"),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            limit=2**24,
        )
        assert child.stdin is not None and child.stdout is not None  # both are pipes
        child.stdin.write(request)
        child.stdin.close()
        started = loop.time()
        try:
            while len(found) < len(batch):
                line = await asyncio.wait_for(child.stdout.readline(), timeout_s)
                if not line:
                    break
                text = line.decode("utf-8", "replace").rstrip("\n")
                if not text.startswith(RESULT_MARK):
                    noise.append(text)
                    continue
                result = json.loads(text[len(RESULT_MARK) :])
                position = int(result["index"])
                seconds, started = loop.time() - started, loop.time()
                found[position] = _outcome(result, batch[position].label, seconds)
        except TimeoutError:
            child.kill()
            await child.wait()
            return (
                found,
                f"the planner found no plan for {{label}} within plan_timeout_s = {timeout_s:g} s",
                True,
            )
        except BaseException:  # cancelled: the child must not outlive its caller
            if child.returncode is None:
                child.kill()
            raise
        code = await child.wait()
    tail = " | ".join(n for n in noise[-3:] if n.strip()) or "no output"
    return found, f"the planner's process ended (exit {code}) on {{label}}: {tail}", False


def _outcome(result: dict[str, Any], label: str, seconds: float) -> Outcome:
    if result.get("walkthrough"):
        return Solution([str(a) for a in result["walkthrough"]], seconds)
    return UnsolvableGameError(f"{label} is not solvable: {result.get('reason')}")


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
    for index, request in enumerate(json.loads(sys.stdin.read())):
        try:
            result = _check(request)
        except Exception as exc:  # the engine cannot play this problem: report it as such
            result = {"reason": f"the engine cannot load or play it ({type(exc).__name__}: {exc})"}
        sys.stdout.flush()
        # one write, so nothing the planner's library prints lands inside the line
        os.write(1, ("\n" + RESULT_MARK + json.dumps({"index": index, **result}) + "\n").encode())


if __name__ == "__main__":
    main()
