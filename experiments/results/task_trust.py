"""Which task code a reader of results may load: the code this user ran, byte for byte.

A trial file names its task: a registered short name, an import path or a Python file. Reading
the record into the task's own classes, or showing the task's own tables and page sections,
imports that code, and importing runs it. A results folder can come from anywhere, so readers
(``cogarch report``, ``cogarch view``, resume) load task code that is not a registered task only
when this user has run *that code* here: ``cogarch run`` records what it loaded (the file that
ran, by its real path, and the SHA-256 of its bytes; for an import path also the module name)
in a list in the user cache directory (``$COGARCH_CACHE_DIR``, else ``~/.cache/cogarch``), and
readers load a task only when the file it names now is one of those, with the same bytes
(:mod:`.task_code` finds and loads it, never from the results folder being read). A file edited
since, or replaced by a link to another, is not loaded until the user runs it again. A task not
on the list leaves its records as generic data, which every report and page still shows.

The list is read, changed and written under a lock, so runs starting at once all add theirs.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from cogarch.files import FileRefusedError, read_json
from cogarch.io import atomic_write_json
from cogarch.models.weights import model_cache_dir
from cogarch.registry import is_file_path
from cogarch.tasks.registry import TASKS

from .task_code import CodeFile, attribute_of, code_of, module_of

TRUST_FILE = "trusted_tasks.json"
TRUST_VERSION = 2
MAX_ENTRIES = 2000
"""Entries kept (the newest): a user who edits and reruns a task often adds one per version."""
LOCK_WAIT_S = 10.0


@dataclass(frozen=True)
class TrustedCode:
    """One task code this user ran: how the run named it, the file that ran and its bytes."""

    source: str
    """The task as the run loaded it: ``/abs/file.py:Name`` or ``package.module:Name``."""
    file: str
    """The real path of the file that ran (for an import path, the module's file)."""
    sha256: str

    @property
    def module(self) -> str | None:
        """The module name of an import path (None for a file)."""
        return None if is_file_path(self.source) else module_of(self.source)


def trust_file() -> Path:
    return model_cache_dir() / TRUST_FILE


def _entries() -> list[TrustedCode]:
    try:
        data = read_json(trust_file())
    except (FileRefusedError, OSError, ValueError):
        return []
    found = data.get("tasks") if isinstance(data, dict) else None
    entries: list[TrustedCode] = []
    for item in found if isinstance(found, list) else []:
        if not isinstance(item, dict):
            continue  # a name alone (an older list) trusts no code
        values = [item.get(key) for key in ("source", "file", "sha256")]
        if all(isinstance(v, str) and v for v in values):
            entries.append(TrustedCode(*values))  # type: ignore[arg-type]
    return entries


@contextmanager
def _locked() -> Iterator[bool]:
    """The trust list's lock (a file beside it), held while inside; yields whether it was
    taken (a cache folder without locks, or a lock held too long, only costs the entry)."""
    lock = trust_file().with_name(TRUST_FILE + ".lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        fd = os.open(lock, flags, 0o644)
    except OSError:
        yield False
        return
    try:
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    yield False
                    return
                if time.monotonic() > deadline:
                    yield False
                    return
                time.sleep(0.02)
        yield True
    finally:
        os.close(fd)


def needs_trust(source: str) -> bool:
    """Whether loading ``source`` runs code that is not a registered task."""
    return source not in TASKS


def trust(source: str) -> TrustedCode | None:
    """Let readers load ``source`` as it is now (a run has just loaded it): its file and the
    hash of the bytes that ran. A list that cannot be written only costs readers the task's
    own tables: the run goes on. Returns the entry recorded (None: nothing to record)."""
    if not needs_trust(source):
        return None
    found = code_of(source, ran=True)
    if found is None:
        return None
    entry = TrustedCode(source, str(found.path), found.sha256)
    with _locked() as held:
        if not held:
            return None
        known = _entries()
        if entry in known:
            return entry
        kept = [*known[-(MAX_ENTRIES - 1) :], entry]
        try:
            atomic_write_json(
                trust_file(),
                {"version": TRUST_VERSION, "tasks": [asdict(e) for e in kept]},
            )
        except (OSError, TypeError, ValueError, json.JSONDecodeError):
            return None
    return entry


def trusted_code(source: str, found: CodeFile) -> bool:
    """Whether ``found`` (the file ``source`` names now, read) is code this user ran, under
    the same name (the same class; for an import path, the same module)."""
    module = None if is_file_path(source) else module_of(source)
    name = attribute_of(source)
    return any(
        entry.file == str(found.path)
        and entry.sha256 == found.sha256
        and entry.module == module
        and attribute_of(entry.source) == name
        for entry in _entries()
    )


def trusted(source: str, *, within: str | os.PathLike[str] | None = None) -> bool:
    """Whether readers may load ``source``: a registered task, or code this user ran here,
    byte for byte, found outside the folder ``within``."""
    if not needs_trust(source):
        return True
    found = code_of(source, within=within)
    return found is not None and trusted_code(source, found)
