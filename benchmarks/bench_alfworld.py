"""Benchmark ALFWorld games: engine steps per second, stock vs memoised parses, and generation.

Run from the repository root (needs the alfworld extra)::

    python benchmarks/bench_alfworld.py [--rooms 214 419 14 1] [--seconds 10] [--seed 0]

For each room it makes one pick-and-place game (planned and checked in a child process, as the
task does; the time is the generation time), then plays random admissible actions on it for
``--seconds`` with textworld's own parses and again with the memoised ones (same seed, so the
same actions), and times a reset of each. Games are played as the task plays them, in an
engine process of their own (``remote.py``). ``--where`` also plays the memoised engine in
this process, in alternating one-second windows with the engine process (so a busy machine
slows both alike): the cost of playing in a child process. Generated games go to a fresh
temporary cache, so every run plans them again.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path


async def _steps_per_second(
    game: object, memoise: bool, seconds: float, seed: int
) -> tuple[float, float]:
    from cogarch.tasks.alfworld.session import GameSession

    session = GameSession(game, max_steps=10**9, memoise=memoise)  # type: ignore[arg-type]
    start = time.perf_counter()
    await session.reset()
    reset_s = time.perf_counter() - start
    rng = random.Random(seed)
    steps, stepping = 0, 0.0
    while stepping < seconds:
        if session.done:  # a random walk can win: start the game again (not timed)
            await session.reset()
        start = time.perf_counter()
        await session.step(rng.choice(session.admissible))
        stepping += time.perf_counter() - start
        steps += 1
    rate = steps / stepping
    session.close()
    return rate, reset_s


def _in_process_vs_child(game: object, seconds: float, seed: int) -> tuple[float, float]:
    """Memoised steps per second in this process and in an engine process, measured in
    alternating one-second windows on the same random walk."""
    from cogarch.tasks.alfworld.engine import close_engine, engine_lock, open_engine, translating
    from cogarch.tasks.alfworld.remote import RemoteEngine

    data = game.data()  # type: ignore[attr-defined]
    local = open_engine(data)
    child = RemoteEngine(data, label="bench")
    engines = {"local": local, "child": child}
    states: dict[str, dict] = {}
    for name, env in engines.items():
        with translating():
            states[name] = dict(env.reset())
    rngs = {name: random.Random(seed) for name in engines}
    steps = {name: 0 for name in engines}
    spent = {name: 0.0 for name in engines}
    warm = 2  # windows of each first played and not counted (both parse caches warm up)
    while min(spent.values()) < seconds:
        if warm == 0:
            steps, spent = dict.fromkeys(engines, 0), dict.fromkeys(engines, 0.0)
        warm -= 1
        for name, env in engines.items():
            window = time.perf_counter()
            while time.perf_counter() - window < 1.0:
                if states[name]["won"]:
                    with translating():
                        states[name] = dict(env.reset())
                command = rngs[name].choice(list(states[name]["admissible_commands"]))
                start = time.perf_counter()
                with engine_lock():
                    state, _, _ = env.step(command)
                spent[name] += time.perf_counter() - start
                states[name] = dict(state)
                steps[name] += 1
    close_engine(local)
    child.close()
    return steps["local"] / spent["local"], steps["child"] / spent["child"]


async def run(rooms: list[int], seconds: float, seed: int, where: bool = False) -> None:
    from cogarch.tasks.alfworld import speedup
    from cogarch.tasks.alfworld.cache import GameCache
    from cogarch.tasks.alfworld.games import generated_game
    from cogarch.tasks.alfworld.generator import GameSpec
    from cogarch.tasks.alfworld.wheel import room

    print(
        "| room | receptacles | generation s | plan | stock steps/s | memoised steps/s | x "
        "| reset s stock / memoised |"
    )
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        cache = GameCache(tmp)
        for number in rooms:
            start = time.perf_counter()
            game = await generated_game(
                GameSpec(number, "pick_and_place_simple", seed), "train", cache
            )
            made = time.perf_counter() - start
            speedup.uninstall_parse_cache()
            stock, stock_reset = await _steps_per_second(game, False, seconds, seed)
            fast, fast_reset = await _steps_per_second(game, True, seconds, seed)
            print(
                f"| {number} | {len(room(number).receptacles)} | {made:.1f} | {game.plan_length} "
                f"| {stock:.1f} | {fast:.1f} | {fast / stock:.1f} "
                f"| {stock_reset:.2f} / {fast_reset:.2f} |"
            )
            if where:
                here, there = _in_process_vs_child(game, seconds, seed)
                print(
                    f"|   room {number}: memoised steps/s in this process {here:.1f}, in an "
                    f"engine process {there:.1f} ({there / here:.2f}x) | | | | | | | |"
                )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[214, 419, 14, 1])
    parser.add_argument("--seconds", type=float, default=10.0, help="stepping time per engine")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--where", action="store_true", help="also compare this process with an engine process"
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    asyncio.run(run(args.rooms, args.seconds, args.seed, args.where))


if __name__ == "__main__":
    main()
