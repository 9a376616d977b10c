"""Generated games kept on disk, one JSON file per (room, task type, seed, generator version).

The cache lives under the user cache directory (``$COGARCH_CACHE_DIR``, else
``~/.cache/cogarch``) in ``alfworld/``. Entries are written atomically and read as untrusted
input (``cogarch.files``: a regular file, at most ``MAX_ENTRY_BYTES``, a FIFO or a device never
blocking; call :meth:`GameCache.get` off the event loop). One that cannot be read, or that does
not describe the game it is filed under (``games.py`` also checks that it holds the very
problem the generator writes for that game), is set aside as ``<name>.corrupt`` (then
``.corrupt.1``...) and the game is generated again. A problem the planner proved unsolvable is
remembered too, so it is not planned again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from cogarch.errors import ConfigError
from cogarch.files import FileRefusedError, read_json, set_aside
from cogarch.io import atomic_write_text
from cogarch.models.weights import model_cache_dir

from .generator import GENERATOR_VERSION, GameSpec

MAX_ENTRY_BYTES: Final = 16 * 2**20
"""The largest cache entry read (an entry is tens of KB)."""


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

    def check(self) -> None:
        """Refuse a cache folder that cannot be one (a file, or under a file)."""
        for folder in (self.root, *self.root.parents):
            if os.path.lexists(folder):
                if not folder.is_dir():
                    raise ConfigError(
                        f"the ALFWorld game cache '{self.root}' cannot be a folder: "
                        f"'{folder}' is not one; set task.cache_dir (or $COGARCH_CACHE_DIR) "
                        "to a folder"
                    )
                return

    def get(self, spec: GameSpec) -> CachedGame | None:
        """The cached entry, or None when there is none (a damaged one is set aside).
        Blocking: call it off the event loop."""
        path = self.path(spec)
        if not os.path.lexists(path):
            return None
        try:
            entry = CachedGame.model_validate(read_json(path, max_bytes=MAX_ENTRY_BYTES))
        except FileRefusedError as exc:
            self.set_aside(spec, f"it cannot be read ({exc})")
            return None
        except ValidationError as exc:
            self.set_aside(spec, f"it is not a cached game ({str(exc).splitlines()[0]})")
            return None
        if not entry.matches(spec) or (entry.status == "solvable" and not entry.walkthrough):
            self.set_aside(spec, "it describes another game or lacks its plan")
            return None
        return entry

    def put(self, entry: CachedGame) -> Path | None:
        """Write ``entry``; a cache that cannot be written is warned about (the game is
        still played, and made again next time)."""
        spec = GameSpec(entry.room, entry.task_type, entry.seed)
        try:
            return atomic_write_text(self.path(spec), entry.model_dump_json(indent=1) + "\n")
        except OSError as exc:
            _warn(f"cannot cache the game {spec.key} under {self.root} ({exc})")
            return None

    def set_aside(self, spec: GameSpec, why: str) -> None:
        """Move the entry of ``spec`` out of the way, saying why, so the game is made again."""
        path = self.path(spec)
        try:
            target = set_aside(path, ".corrupt")
        except OSError as exc:
            _warn(f"the cached game {path} is damaged ({why}) and cannot be moved: {exc}")
            return
        _warn(f"set aside the cached game {path.name} as {target.name}: {why}")


def _warn(text: str) -> None:
    sys.stderr.write(f"warning: {text}\n")
