"""The official ALFWorld games, from a folder laid out as ``alfworld-download`` leaves it.

The layout is ``<root>/json_2.1.1/<split>/<task>/<trial>/game.tw-pddl`` beside
``traj_data.json`` (``<root>`` is what ALFWorld calls ``$ALFWORLD_DATA``; pointing at
``json_2.1.1`` or at the split's folder itself works too). As ALFWorld's loader does, a split's
folder is walked to any depth; a game's task type is its ``traj_data.json``'s, else its task
folder's name, and its room the trajectory's floor plan, else the folder name's last number.
ALFWorld's splits map to ours: ``train`` -> ``train``, ``valid_seen`` -> ``id``,
``valid_unseen`` -> ``ood``. As ALFWorld does, games with movable receptacles or sliced objects
are left out, and so are games marked unsolvable. Every file is read as untrusted input
(``gamefile.py``: regular files, bounded, off the event loop) and a game is checked before it
is played: a file that is not a game is refused naming it, and a game without a stored
walkthrough gets the planner's (checked in a child process).

Where the data is, when a config asks for official games without naming a folder
(:func:`locate_official`): ``$ALFWORLD_DATA`` when it is set (ALFWorld's own variable), else
ALFWorld's default, ``~/.cache/alfworld`` (where ``alfworld-download`` puts it). When neither
holds the splits asked, the run refuses to start (``MissingDataError``), naming both and the
two ways on: download the data, or ask for generated games (``source: generated``).
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cogarch.errors import ConfigError, MissingDataError
from cogarch.files import FileRefusedError, read_json

from .gamefile import MAX_GAME_BYTES, read_game_file
from .games import Game, Split
from .planner import DEFAULT_TIMEOUT_S, solve
from .wheel import TASK_TYPES

FOLDERS: dict[Split, str] = {"train": "train", "id": "valid_seen", "ood": "valid_unseen"}
_GOAL = re.compile(r"Your task is to: (.*?)\.?\"")
_ROOM = re.compile(r"FloorPlan([0-9]{1,6})(?![0-9])")
"""A floor plan's number: ASCII digits only, at most six (ALFRED's run to 430)."""
_NUMBER = re.compile(r"[0-9]{1,6}")
DATA_ENV = "ALFWORLD_DATA"
"""ALFWorld's variable naming the folder its data is downloaded to."""
DEFAULT_DATA = "~/.cache/alfworld"
"""ALFWorld's default data folder, used when ``$ALFWORLD_DATA`` is not set."""


@dataclass(frozen=True)
class OfficialGame:
    """An official game file and what its folder says about it."""

    path: Path
    split: Split
    task_type: str
    room: int | None


def _split_dir(root: Path, split: Split) -> Path:
    if root.name == FOLDERS[split]:  # the split's own folder
        return root
    base = root / "json_2.1.1" if (root / "json_2.1.1").is_dir() else root
    return base / FOLDERS[split]


def locate_official(splits: tuple[Split, ...]) -> str:
    """The folder holding ALFWorld's official games of ``splits``: ``$ALFWORLD_DATA`` when
    set, else ``~/.cache/alfworld``; refuses when it does not hold them, saying how to go on."""
    named = os.environ.get(DATA_ENV)
    root = named or DEFAULT_DATA
    where = Path(root).expanduser()
    missing = [FOLDERS[s] for s in splits if not _split_dir(where, s).is_dir()]
    if not missing:
        return root
    shown = f"${DATA_ENV} ({root})" if named else f"{DEFAULT_DATA} (${DATA_ENV} is not set)"
    raise MissingDataError(
        f"task.source is official, but ALFWorld's {', '.join(missing)} games are not under "
        f"{shown}: download them with alfworld-download (pip install alfworld, then "
        f"'alfworld-download'), or point ${DATA_ENV} or task.official at that folder; to play "
        "games cogarch generates instead (not ALFWorld's own), set task.source: generated"
    )


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
    for path in sorted(folder.rglob("game.tw-pddl")):  # at any depth, as ALFWorld walks it
        where = path.parent.relative_to(folder).as_posix()
        if "movable" in where or "Sliced" in where:
            continue
        task_dir = path.parent.parent.name
        traj = _traj(path.parent / "traj_data.json")
        task_type = str(traj.get("task_type") or task_dir.split("-", 1)[0])
        if task_type not in TASK_TYPES:
            continue
        found.append(OfficialGame(path, split, task_type, _room(traj, task_dir)))
    if not found:
        raise ConfigError(f"no game.tw-pddl files of ALFWorld's six task types under {folder}")
    return tuple(found)


def _traj(path: Path) -> dict[str, object]:
    """The game's ``traj_data.json`` (ALFRED's record of it), or nothing when unreadable."""
    try:
        data = read_json(path, max_bytes=MAX_GAME_BYTES)
    except FileRefusedError:
        return {}
    return data if isinstance(data, dict) else {}


def _room(traj: dict[str, object], task_dir: str) -> int | None:
    """The game's room: its trajectory's floor plan, else its folder name's last number;
    None when neither is a plain number (another digit script, thousands of digits)."""
    scene = traj.get("scene")
    if isinstance(scene, dict):
        found = _ROOM.search(str(scene.get("floor_plan")))
        if found:
            return int(found.group(1))
    tail = task_dir.rsplit("-", 1)[-1]
    return int(tail) if _NUMBER.fullmatch(tail) else None


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
