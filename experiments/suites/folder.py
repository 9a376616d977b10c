"""A suite's folder: it belongs to one suite, and its cell folders are real folders inside it.

``suite.json`` records the suite that owns the folder and the digest of its config; a suite
of another config (another suite, or this one edited) is refused there, naming the folder and
both suites, unless the user asks to replace it (``cogarch suite CONFIG --replace``). Before
any cell plays, a cell's folder (or its task's) that is a link or not a folder is set aside
as ``<name>.unusable`` with a warning, so nothing is ever written or read through it; readers
(the leaderboard, ``suite report``, the viewer) leave such a cell out and say so.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from cogarch.errors import ConfigError
from cogarch.files import FileRefusedError, read_json, real_folder, set_aside

from ..results.paths import folder_to_write
from .config import SuiteConfig
from .files import SUITE_FILE


def _owner(folder: Path) -> tuple[str, str] | None:
    """The suite name and config digest ``suite.json`` in ``folder`` records (None when it
    cannot be read or holds neither)."""
    try:
        data = read_json(folder / SUITE_FILE, within=folder)
    except FileRefusedError:
        return None
    if not isinstance(data, dict):
        return None
    name, digest = data.get("suite"), data.get("digest")
    return (name, digest) if isinstance(name, str) and isinstance(digest, str) else None


def owner_problem(config: SuiteConfig) -> str | None:
    """Why the suite's results folder is not this suite's to use (another suite's config
    wrote it, by digest, or a run's results are there), or None when it is."""
    out = folder_to_write(config.output_dir(), "the suite's results folder")
    mine = config.digest()
    if os.path.lexists(out / SUITE_FILE):
        owner = _owner(out)
        if owner is None:
            return (
                f"results folder '{out}' holds a {SUITE_FILE} that cannot be read, so which "
                "suite it belongs to is not known"
            )
        if owner[1] != mine:
            same = " (the same name, another config)" if owner[0] == config.name else ""
            return (
                f"results folder '{out}' belongs to the suite '{owner[0]}' (config hash "
                f"{owner[1][:12]}), not to the suite '{config.name}' (config hash "
                f"{mine[:12]}){same}"
            )
    elif os.path.lexists(out / "run.json"):
        return f"results folder '{out}' holds a run's results (run.json)"
    return None


REPLACE_HINT = (
    "pick another --results-dir, or pass --replace to make it this suite's folder "
    "(the other suite's leaderboard can then no longer be rebuilt from it)"
)


def claim_folder(config: SuiteConfig, *, replace: bool = False) -> Path:
    """The suite's results folder, created if missing, once it is known to be this suite's
    (see :func:`owner_problem`; with ``replace``, whoever had it)."""
    problem = owner_problem(config)
    if problem is not None and not replace:
        raise ConfigError(f"{problem}; {REPLACE_HINT}")
    out = config.output_dir()
    out.mkdir(parents=True, exist_ok=True)
    return out


def set_aside_links(config: SuiteConfig) -> list[str]:
    """Make every cell's folder, and its task's, a real folder inside the suite's folder (a
    link, file or other thing standing there is set aside); one warning per thing moved."""
    out = config.output_dir()
    warnings = []
    for task, agent in config.cells():
        cell = config.cell_dir(task.label, agent.label)
        for place, what in ((cell.parent, f"task '{task.label}'"), (cell, "cell")):
            moved = real_folder(place, create=False)[1]
            if moved is not None:
                warnings.append(
                    f"the folder of {what} {agent.label} x {task.label} "
                    f"('{place.relative_to(out)}') was a link or not a folder; kept as "
                    f"'{moved.name}', never followed (the cell's trials are played again)"
                )
    return warnings


def cell_folder(root: Path, folder: str) -> tuple[Path, str | None]:
    """The cell folder ``folder`` (relative) of the suite in ``root``, and why it cannot be
    read (None when it can, or when it is missing: a cell not started): every part below
    ``root`` must be a real folder, never a link."""
    path = root
    for part in Path(folder).parts:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return root / folder, None
        except OSError as exc:
            return root / folder, f"'{path}' is unreadable ({exc.strerror or exc})"
        if stat.S_ISLNK(mode):
            return root / folder, f"'{path}' is a link, which is never followed"
        if not stat.S_ISDIR(mode):
            return root / folder, f"'{path}' is not a folder"
    return path, None


def clear_for_file(path: Path) -> str | None:
    """Set aside whatever stands at ``path`` that is not a regular file (a folder, a link, a
    FIFO), so the suite's own file can be written there; a warning saying so, or None."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISREG(mode):
        return None
    moved = set_aside(path)
    return f"'{path}' was not a file; kept as '{moved.name}' and written anew"
