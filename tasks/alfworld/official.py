"""The official ALFWorld games, from a folder laid out as ``alfworld-download`` leaves it.

The layout is ``<root>/json_2.1.1/<split>/<task>/<trial>/game.tw-pddl`` beside
``traj_data.json`` (``<root>`` is what ALFWorld calls ``$ALFWORLD_DATA``; pointing at
``json_2.1.1`` itself works too). ALFWorld's splits map to ours: ``train`` -> ``train``,
``valid_seen`` -> ``id``, ``valid_unseen`` -> ``ood``. As ALFWorld does, games with movable
receptacles or sliced objects are left out, and so are games marked unsolvable. Every file is
read as untrusted input (``gamefile.py``: regular files, bounded, off the event loop) and a
game is checked before it is played: a file that is not a game is refused naming it, and a game
without a stored walkthrough gets the planner's (checked in a child process).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cogarch.errors import ConfigError
from cogarch.files import FileRefusedError, read_json

from .gamefile import MAX_GAME_BYTES, read_game_file
from .games import Game, Split
from .planner import DEFAULT_TIMEOUT_S, solve
from .wheel import TASK_TYPES

FOLDERS: dict[Split, str] = {"train": "train", "id": "valid_seen", "ood": "valid_unseen"}
_GOAL = re.compile(r"Your task is to: (.*?)\.?\"")
_ROOM = re.compile(r"FloorPlan(\d+)")


@dataclass(frozen=True)
class OfficialGame:
    """An official game file and what its folder says about it."""

    path: Path
    split: Split
    task_type: str
    room: int | None


def _split_dir(root: Path, split: Split) -> Path:
    base = root / "json_2.1.1" if (root / "json_2.1.1").is_dir() else root
    return base / FOLDERS[split]


@cache
def official_games(root: str, split: Split) -> tuple[OfficialGame, ...]:
    """The playable official games of a split, in path order."""
    folder = _split_dir(Path(root).expanduser(), split)
    if not folder.is_dir():
        raise ConfigError(
            f"no {FOLDERS[split]} folder under {root}: 'official' must point at the folder "
            "alfworld-download fills ($ALFWORLD_DATA, holding json_2.1.1/train, valid_seen "
            "and valid_unseen)"
        )
    found = []
    for path in sorted(folder.glob("*/*/game.tw-pddl")):
        task_dir = path.parent.parent.name
        if "movable" in task_dir or "Sliced" in task_dir:
            continue
        task_type = task_dir.split("-", 1)[0]
        if task_type not in TASK_TYPES:
            continue
        room = _room(path.parent / "traj_data.json", task_dir)
        found.append(OfficialGame(path, split, task_type, room))
    if not found:
        raise ConfigError(f"no game.tw-pddl files of ALFWorld's six task types under {folder}")
    return tuple(found)


def _room(traj: Path, task_dir: str) -> int | None:
    try:
        scene = read_json(traj, max_bytes=MAX_GAME_BYTES)["scene"]["floor_plan"]
        found = _ROOM.search(str(scene))
        if found:
            return int(found.group(1))
    except (FileRefusedError, KeyError, TypeError):
        pass
    tail = task_dir.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else None


async def load_official(entry: OfficialGame, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Game:
    """The game of an official file; refused (:class:`GameFileError`, a ``ConfigError``
    naming the file) when it cannot be read, is not a game or is marked unsolvable."""
    data = await asyncio.to_thread(read_game_file, entry.path)
    if data.get("solvable") is False:
        raise ConfigError(f"the ALFWorld game {entry.path} is marked unsolvable")
    goal = _GOAL.search(str(data.get("grammar", "")))
    walkthrough = data.get("walkthrough") or []
    if not walkthrough:
        solution = await solve(data, timeout_s=timeout_s, label=str(entry.path))
        walkthrough = solution.walkthrough
    return Game(
        room=entry.room,
        task_type=entry.task_type,
        split=entry.split,
        seed=None,
        goal=goal.group(1) if goal else "",
        pddl_problem=str(data.get("pddl_problem", "")),
        walkthrough=tuple(walkthrough),
        source="official",
        path=str(entry.path),
    )


__all__ = ["FOLDERS", "OfficialGame", "load_official", "official_games"]
