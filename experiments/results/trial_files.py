"""Trial files: one JSON per agent and trial, written atomically, checked when read back.

Files are written in the current schema (``cogarch.core.records``); older files are read by
the loader of their ``schema_version`` and migrated in memory, names renamed since they were
written read as today's (``experiments.results.migrate``; the file is left as it is).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cogarch.core.records import SCHEMA_VERSION, RecordTypes, TrialRecord
from cogarch.errors import CogarchError
from cogarch.files import FileRefusedError, read_json, real_folder
from cogarch.io import atomic_write_text

from .migrate import current_names, migrate_v1
from .names import safe_name
from .task_types import record_types
from .trial_fit import FittedTrial, check_numbers, fit_trial


class CorruptTrialError(CogarchError):
    """A trial file exists but cannot be trusted (truncated, invalid, or not a trial)."""


def trial_path(results_dir: str | os.PathLike[str], agent: str, trial: int) -> Path:
    """Where agent ``agent``'s trial ``trial`` lies: always one folder below ``results_dir``."""
    if not 0 <= trial <= 9_999_999:
        raise ValueError(f"trial index {trial} is out of range")
    return Path(results_dir) / safe_name(agent) / f"trial_{trial:04d}.json"


def keep_aside(path: Path) -> Path:
    """Move an untrusted trial file to the first free ``<name>.corrupt[.N]`` beside it (an
    earlier copy is never overwritten) and return where it went."""
    n = 0
    while True:
        target = path.with_name(f"{path.stem}.corrupt" + (f".{n}" if n else ""))
        try:
            os.link(path, target)  # fails if taken, so two processes never pick the same name
        except FileExistsError:
            n += 1
            continue
        except OSError:  # no hard links here: the next free name, checked just before
            if target.exists():
                n += 1
                continue
            path.replace(target)
            return target
        path.unlink()
        return target


def agent_folder(results_dir: str | os.PathLike[str], agent: str) -> Path | None:
    """Make the folder of ``agent``'s trial files a real folder of the results (a link or
    file in its place is set aside, so no trial file is read or written elsewhere); returns
    where what stood there went, if anything did."""
    return real_folder(trial_path(results_dir, agent, 0).parent)[1]


def write_fitted(
    results_dir: str | os.PathLike[str], result: TrialRecord, types: RecordTypes | None = None
) -> FittedTrial:
    """Write ``result``'s trial file as its readers will accept it (see ``trial_fit``: a
    record they would refuse is written as a failed trial saying why), into a real folder
    of the results; returns what was written and the record read back from it."""
    fitted = fit_trial(result, types, lambda data, found: load_record(data, types=found))
    agent_folder(results_dir, result.agent)
    atomic_write_text(trial_path(results_dir, result.agent, result.trial), fitted.text)
    return fitted


def write_trial(
    results_dir: str | os.PathLike[str], result: TrialRecord, types: RecordTypes | None = None
) -> Path:
    """Write ``result``'s trial file (see :func:`write_fitted`) and return its path."""
    write_fitted(results_dir, result, types)
    return trial_path(results_dir, result.agent, result.trial)


def load_record(
    data: Any, *, within: Path | None = None, types: RecordTypes | None = None
) -> TrialRecord:
    """A trial file's content as a current record, whatever its schema version, its parts
    read into ``types`` when given (a run reading its own files back), else into its task's
    classes when the task loads here (see ``task_types``; never from a file inside
    ``within``), else kept as generic data."""
    if not isinstance(data, dict):
        raise ValueError("the file holds no JSON object")
    check_numbers(data)
    version = data.get("schema_version")
    loader = _LOADERS.get(version) if isinstance(version, int) else None
    if loader is None:
        known = ", ".join(str(v) for v in _LOADERS)
        raise ValueError(
            f"schema_version {version!r} is not one this version of cogarch reads ({known}); "
            "upgrade cogarch to read newer files"
        )
    data = current_names(data)
    return loader(data, types if types is not None else record_types(data, within=within))


_LOADERS: dict[int, Callable[[dict[str, Any], RecordTypes | None], TrialRecord]] = {
    1: migrate_v1,
    SCHEMA_VERSION: TrialRecord.read,
}


def read_trial(
    path: str | os.PathLike[str],
    *,
    within: str | os.PathLike[str] | None = None,
    types: RecordTypes | None = None,
) -> TrialRecord:
    """The trial in a trial file.

    Args:
        path: The trial file, read as :func:`cogarch.files.read_json` reads files.
        within: The results folder a link may not leave, if any.
        types: The run's own task's classes to read the record's parts into (for a run reading
            its own files); default: the classes of the task the file names, when it loads.

    Returns:
        The trial record.

    Raises:
        CorruptTrialError: When the file cannot be read, is not JSON, or is not a valid trial.
    """
    file = Path(path)
    try:
        data = read_json(file, within=within)
    except FileRefusedError as exc:
        raise CorruptTrialError(f"trial file {exc}") from None
    try:
        return load_record(data, within=file.parent.parent, types=types)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CorruptTrialError(
            f"trial file '{file}' is not a valid trial ({where}: {first['msg']})"
        ) from None
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        shown = str(exc)[:200]
        raise CorruptTrialError(f"trial file '{file}' is not a valid trial ({shown})") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the task's own classes, reading it, failed or stopped
        raise CorruptTrialError(
            f"trial file '{file}' could not be read with its task's classes "
            f"({type(exc).__name__}: {str(exc)[:200]})"
        ) from None


def iter_trials(
    results_dir: str | os.PathLike[str],
) -> list[tuple[Path, TrialRecord | CorruptTrialError]]:
    """Every trial file under a results folder, read.

    Args:
        results_dir: A run's results folder.

    Returns:
        Each trial file's path with its record, or with the :class:`CorruptTrialError` that
        reading it raised.
    """
    out: list[tuple[Path, TrialRecord | CorruptTrialError]] = []
    for path in sorted(Path(results_dir).glob("*/trial_*.json")):
        try:
            out.append((path, read_trial(path, within=results_dir)))
        except CorruptTrialError as exc:
            out.append((path, exc))
    return out
