"""Which task a trial file belongs to, and the classes its record is read into.

A record names its task by the run config's ``task.kind`` (a short name in the task
registry, an import path, or a Python file's path) and, for a file, where the run loaded it
from (``metadata.task_source``, absolute). Readers load the task class from there to read
the record's parts into the task's own classes and to show the task's own tables. A task
that cannot be loaded here leaves its records as generic data, which every report and page
can still show. Code that is not a registered task is loaded only when it is, byte for byte,
code this user has run here (``task_trust``), and a file that lies inside the results being
read never is, whatever ``sys.path`` holds (``task_code``): a run folder cannot bring code to
be run.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cogarch.core.records import RecordTypes, TrialRecord
from cogarch.core.task import Task
from cogarch.registry import is_file_path
from cogarch.tasks.registry import TASKS

from .task_code import CodeFile, code_of, load_checked
from .task_trust import needs_trust, trusted_code


def task_source(kind: str) -> str | None:
    """Where a task named by file path is loaded from (the file made absolute, with its
    class name); None for a registered name or an import path, which load as they are."""
    if not is_file_path(kind):
        return None
    file, _, name = kind.rpartition(":")
    return f"{Path(file).expanduser().resolve()}:{name}"


@functools.cache
def _registered(name: str) -> type[Task] | None:
    try:
        return TASKS.get(name)
    except Exception:  # a task that cannot be loaded here: its records stay generic data
        return None


_LOADED: dict[tuple[str, str, str], type[Task] | None] = {}
"""Task classes loaded from checked code, by source, file and hash (None: it failed)."""


def _load_checked(source: str, found: CodeFile, within: Path | None) -> type[Task] | None:
    key = (source, str(found.path), found.sha256)
    if key not in _LOADED:
        try:
            _LOADED[key] = load_checked(source, found, within)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # its own code: its records stay generic data
            sys.stderr.write(
                f"warning: task '{source}' could not be loaded ({type(exc).__name__}: "
                f"{str(exc)[:200]}); its trials are shown as generic data\n"
            )
            _LOADED[key] = None
    return _LOADED[key]


def task_class(
    task: str, source: str | None = None, *, within: Path | None = None
) -> type[Task] | None:
    """The task class of a record that names ``task`` (loaded from ``source`` when given);
    None when it cannot be loaded here, when it is not code this user ran here byte for
    byte, or when its file lies in the folder ``within``."""
    where = source or task
    if not needs_trust(where):
        return _registered(where)
    found = code_of(where, within=within)
    if found is None or not trusted_code(where, found):
        return None
    return _load_checked(where, found, within)


def _names(data: Mapping[str, Any]) -> tuple[str, str | None]:
    meta = data.get("metadata")
    source = meta.get("task_source") if isinstance(meta, Mapping) else None
    return str(data.get("task", "")), source if isinstance(source, str) else None


def record_types(data: Mapping[str, Any], *, within: Path | None = None) -> RecordTypes | None:
    """The classes the record ``data`` (a trial file's JSON) is read into, or None (generic)."""
    task, source = _names(data)
    cls = task_class(task, source, within=within)
    if cls is None:
        return None
    try:
        return cls.record_types()
    except KeyboardInterrupt:
        raise
    except BaseException:  # the task's own code: its records stay generic data
        return None


def task_of(
    record: TrialRecord, *, within: str | os.PathLike[str] | None = None
) -> type[Task] | None:
    """The class of ``record``'s task, when it can be loaded here."""
    root = Path(within) if within is not None else None
    return task_class(record.task, record.metadata.task_source, within=root)
