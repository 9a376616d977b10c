"""The walkthroughs of the games being played in this process, for the oracle fake.

A scripted model sees only the messages it is sent. The task writes down, for each game it
starts, the trial seed (the seed every model call of the trial carries), the game's first
observation and the planner's walkthrough; the ``alfworld.oracle`` fake finds its game by the
seed of its call and the first observation in its prompt, and plays the walkthrough from
there. A trial's curriculum never holds two games with the same first observation, so the
pair names one game. Entries are immutable facts about games, kept for the latest
``MAX_SEEDS`` seeds.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final

MAX_SEEDS: Final = 1024

_LOCK = threading.Lock()
_BOOK: OrderedDict[int, dict[str, tuple[str, ...]]] = OrderedDict()


def first_observation_key(observation: str) -> str:
    return " ".join(observation.split())


def write(seed: int, first_observation: str, walkthrough: Sequence[str]) -> None:
    """Note that a trial with ``seed`` plays a game that starts with ``first_observation``."""
    with _LOCK:
        games = _BOOK.pop(seed, {})
        games[first_observation_key(first_observation)] = tuple(walkthrough)
        _BOOK[seed] = games
        while len(_BOOK) > MAX_SEEDS:
            _BOOK.popitem(last=False)


def read(seed: int, first_observation: str) -> tuple[str, ...] | None:
    """The walkthrough of the game a trial with ``seed`` started with that observation."""
    with _LOCK:
        return _BOOK.get(seed, {}).get(first_observation_key(first_observation))


__all__ = ["MAX_SEEDS", "first_observation_key", "read", "write"]
