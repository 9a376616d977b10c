"""On-disk response cache keyed by model, settings, messages and a per-sample seed."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from cogarch.files import FileRefusedError, read_json, real_folder, set_aside
from cogarch.io import atomic_write_json

log = logging.getLogger(__name__)


def cache_key(payload: dict[str, Any]) -> str:
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


Count = Annotated[StrictInt, Field(ge=0)]


class CachedToolCall(BaseModel):
    name: StrictStr
    arguments: dict[str, Any] | StrictStr
    id: StrictStr = ""


class CachedCompletion(BaseModel):
    """What an entry holds: a completion and the usage of the call that made it (entries
    written before the prompt-cache tokens and the latency were stored read as None and 0)."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    content: StrictStr
    thought: StrictStr | None = None
    tool_calls: list[CachedToolCall]
    finish_reason: StrictStr
    prompt_tokens: Count = 0
    completion_tokens: Count = 0
    reasoning_tokens: Count = 0
    cached_prompt_tokens: Count | None = None
    latency_s: float = Field(default=0.0, ge=0)


class ResponseCache:
    """One JSON file per key under ``root/ab/abcdef....json``; safe across processes.

    The cache only ever saves work, so what it cannot use is set aside and the call goes on:
    an entry that cannot be read back (truncated by a crash of an older version, a FIFO, a
    folder, a link out of the cache, too large or nested too deeply) is renamed to
    ``<key>.json.unusable`` and treated as a miss; a file standing where the cache or one of
    its folders must be is renamed the same way before the entry is written; a write that still
    fails is skipped. Each is logged as a warning. Temp files of writes cut short by a kill are
    removed by the next run (it holds the results directory).

    Args:
        root: The cache's folder (made on the first write).
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> CachedCompletion | None:
        """The entry of ``key``, or None (a miss)."""
        path = self._path(key)
        try:
            os.lstat(path)
        except OSError:
            return None  # a plain miss (nothing there, or the cache itself is missing)
        try:
            data = read_json(path, within=self.root)
        except FileRefusedError as exc:
            self._set_aside(path, str(exc))
            return None
        try:
            return CachedCompletion.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "the entry"
            self._set_aside(path, f"not a cached completion: {where}: {first['msg']}")
            return None

    def put(self, key: str, value: CachedCompletion) -> None:
        path = self._path(key)
        data = value.model_dump(mode="json")
        for _ in range(2):
            try:
                real_folder(path.parent)  # never written through a link planted there
                atomic_write_json(path, data, indent=None)
                return
            except FileRefusedError as exc:
                log.warning("response cache: not saving %s (%s)", path, exc)
                return
            except OSError as exc:
                if not self._clear_way(path):
                    log.warning("response cache: not saving %s (%s)", path, exc)
                    return
        log.warning("response cache: not saving %s (its place stays taken)", path)

    def _clear_way(self, path: Path) -> bool:
        """Set aside whatever stands where the cache, its folder for ``path`` or ``path`` must
        be; whether anything was moved."""
        for place, folder in ((self.root, True), (path.parent, True), (path, False)):
            try:
                mode = os.lstat(place).st_mode
            except FileNotFoundError:
                return False
            except OSError:
                continue
            wrong = not stat.S_ISDIR(mode) if folder else not stat.S_ISREG(mode)
            if place == self.root and stat.S_ISLNK(mode) and place.is_dir():
                wrong = False  # the cache may live elsewhere through a link
            if wrong:
                self._set_aside(place, "it is not a folder" if folder else "it is not a file")
                return True
        return False

    def _set_aside(self, path: Path, why: str) -> None:
        try:
            kept = set_aside(path)
        except OSError as exc:
            log.warning("response cache: cannot use or move %s (%s; %s)", path, why, exc)
            return
        log.warning("response cache: %s was unusable (%s); set aside as %s", path, why, kept.name)
