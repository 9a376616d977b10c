"""Benchmark ALFWorld games: engine steps per second, stock vs memoised parses, and generation.

Run from the repository root (needs the alfworld extra)::

    python benchmarks/bench_alfworld.py [--rooms 214 419 14 1] [--seconds 10] [--seed 0]

For each room it makes one pick-and-place game (planned and checked in a child process, as the
task does; the time is the generation time), then plays random admissible actions on it for
``--seconds`` with textworld's own parses and again with the memoised ones (same seed, so the
same actions), and times a reset of each. Generated games go to a fresh temporary cache, so
every run plans them again.
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


async def run(rooms: list[int], seconds: float, seed: int) -> None:
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[214, 419, 14, 1])
    parser.add_argument("--seconds", type=float, default=10.0, help="stepping time per engine")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    asyncio.run(run(args.rooms, args.seconds, args.seed))


if __name__ == "__main__":
    main()
