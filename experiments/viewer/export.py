"""A static copy of the viewer: the run page and every trial page as files that open from
disk with no server (the run page filters its rows in the browser).

An export goes to a new or empty folder, or replaces an earlier export in place (a folder
holding :data:`MARKER`); any other folder is refused, so no ``index.html`` of someone else's
is overwritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from functools import partial
from pathlib import Path
from urllib.parse import quote

from cogarch.errors import ConfigError
from cogarch.files import real_folder
from cogarch.io import atomic_write_text

from ..results.paths import folder_to_write
from .app import run_page_context, trial_html
from .index import Query, TrialIndex, TrialRow
from .render import STATIC, render

MARKER = ".cogarch-export"
"""The file that marks a folder as an export, which a later export may replace."""
_PLAIN = re.compile(r"[0-9]+/[a-z0-9_][a-z0-9_.-]*/[0-9]+")


def export_name(row: TrialRow) -> str:
    """Where the page of ``row`` goes, relative to the export: ``trials/<key with / as __>``
    for a plain key (digits, lower-case letters, '_', '.' and '-'), else its letters kept and a
    hash of the key added, so any two trials get two names on any file system."""
    name = row.key.replace("/", "__")
    if not _PLAIN.fullmatch(row.key):
        safe = re.sub(r"[^a-z0-9_.-]", "_", name.lower())[:120]
        name = f"{safe}--{hashlib.sha256(row.key.encode()).hexdigest()[:12]}"
    return f"trials/{name}.html"


def _check_target(root: Path) -> None:
    """Refuse a folder that holds files and is no earlier export."""
    if not root.is_dir() or (root / MARKER).is_file():
        return
    with os.scandir(root) as entries:
        taken = sorted(e.name for e in entries)
    if taken:
        shown = ", ".join(taken[:3]) + (" ..." if len(taken) > 3 else "")
        raise ConfigError(
            f"--export folder '{root}' already holds files ({shown}) and no earlier export; "
            "export to a new or empty folder, or remove what is there"
        )


def export_static(index: TrialIndex, out: str | os.PathLike[str]) -> Path:
    """Write the pages of ``index`` under ``out``; returns the run page's path."""
    root = folder_to_write(out, "--export")
    _check_target(root)
    rows = index.rows()
    context = run_page_context(index, Query(per_page=max(1, len(rows))))
    context.update(trial_href=lambda row: quote(export_name(row)), page_href=lambda n: "#")
    for inner in ("trials", "static"):  # links planted there are set aside, never followed
        real_folder(root / inner)
    atomic_write_text(
        root / MARKER, "written by cogarch view --export; a later export may replace this folder\n"
    )
    shutil.copytree(STATIC, root / "static", dirs_exist_ok=True)
    texts = {row.key: row.text for row in rows}
    atomic_write_text(root / "trial_text.js", "window.TRIAL_TEXT = " + json.dumps(texts) + ";\n")
    trial_base = {"root": "../", "home": "../index.html", "mode": "static"}
    written: set[str] = set()
    for row in rows:
        path = index.path(row.key)
        if path is None:
            continue
        html, _ = trial_html(
            row.key,
            partial(index.read, row.key, path),
            within=str(path.parent.parent),
            **trial_base,
        )
        name = export_name(row)
        atomic_write_text(root / name, html)
        written.add(Path(name).name)
    for stale in (root / "trials").glob("*.html"):
        if stale.name not in written:  # a trial of an earlier export that is gone now
            stale.unlink()
    page = root / "index.html"
    atomic_write_text(
        page, render("run.html", root="", home="index.html", mode="static", **context)
    )
    return page
