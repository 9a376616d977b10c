"""Generated games kept on disk, one JSON file per (room, task type, seed, generator version).

The cache lives under the user cache directory (``$COGARCH_CACHE_DIR``, else
``~/.cache/cogarch``) in ``alfworld/``. Entries are written atomically; one that cannot be
read, or that does not describe the game it is filed under, is set aside as
``<name>.corrupt`` (then ``.corrupt.1``...) and the game is generated again. A problem the
planner proved unsolvable is remembered too, so it is not planned again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from cogarch.io import atomic_write_text, loads_json
from cogarch.models.weights import model_cache_dir

from .generator import GENERATOR_VERSION, GameSpec


class CachedGame(BaseModel):
    """A generated game as stored: its name, goal, problem and the planner's verdict."""

    model_config = ConfigDict(extra="forbid")

    room: int
    task_type: str
    seed: int
    generator_version: int
    goal: str
    pddl_problem: str
    status: Literal["solvable", "unsolvable"]
    walkthrough: list[str] = []
    reason: str = ""
    """Why the planner refused it (unsolvable entries)."""
    plan_seconds: float = 0.0

    def matches(self, spec: GameSpec) -> bool:
        return (self.room, self.task_type, self.seed, self.generator_version) == (
            spec.room,
            spec.task_type,
            spec.seed,
            GENERATOR_VERSION,
        )


def default_cache_dir() -> Path:
    return model_cache_dir() / "alfworld"


class GameCache:
    """Read and write cached games under ``root`` (the default: ``default_cache_dir()``)."""

    def __init__(self, root: str | os.PathLike[str] | None = None) -> None:
        self.root = Path(root) if root is not None else default_cache_dir()

    def path(self, spec: GameSpec) -> Path:
        return self.root / f"{spec.key}.json"

    def get(self, spec: GameSpec) -> CachedGame | None:
        """The cached entry, or None when there is none (a damaged one is set aside)."""
        path = self.path(spec)
        try:
            text = path.read_bytes()
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            self._set_aside(path, "it is a folder")
            return None
        except OSError as exc:
            _warn(f"cannot read the cached game {path} ({exc}); generating it again")
            return None
        try:
            entry = CachedGame.model_validate(loads_json(text))
        except (ValueError, ValidationError) as exc:
            self._set_aside(path, f"it is not a cached game ({str(exc).splitlines()[0]})")
            return None
        if not entry.matches(spec) or (entry.status == "solvable" and not entry.walkthrough):
            self._set_aside(path, "it describes another game or lacks its plan")
            return None
        return entry

    def put(self, entry: CachedGame) -> Path:
        spec = GameSpec(entry.room, entry.task_type, entry.seed)
        return atomic_write_text(self.path(spec), entry.model_dump_json(indent=1) + "\n")

    def _set_aside(self, path: Path, why: str) -> None:
        target = path.with_name(path.name + ".corrupt")
        n = 0
        while target.exists():
            n += 1
            target = path.with_name(f"{path.name}.corrupt.{n}")
        try:
            path.replace(target)
        except OSError as exc:
            _warn(f"the cached game {path} is damaged ({why}) and cannot be moved: {exc}")
            return
        _warn(f"set aside the cached game {path.name} as {target.name}: {why}")


def _warn(text: str) -> None:
    sys.stderr.write(f"warning: {text}\n")


__all__ = ["CachedGame", "GameCache", "default_cache_dir"]
