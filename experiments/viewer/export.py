"""A static copy of the viewer: the run page and every trial page as files that open from
disk with no server (the run page filters its rows in the browser)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from cogarch.io import atomic_write_text

from ..results import CorruptTrialError, read_trial
from .app import run_page_context
from .index import Query, TrialIndex, TrialRow
from .render import STATIC, render
from .trial_view import trial_view


def export_name(row: TrialRow) -> str:
    return "trials/" + row.key.replace("/", "__") + ".html"


def export_static(index: TrialIndex, out: str | os.PathLike[str]) -> Path:
    """Write the pages of ``index`` under ``out``; returns the run page's path."""
    root = Path(out)
    rows = index.rows()
    context = run_page_context(index, Query(per_page=max(1, len(rows))))
    context.update(trial_href=export_name, page_href=lambda n: "#")
    (root / "trials").mkdir(parents=True, exist_ok=True)
    shutil.copytree(STATIC, root / "static", dirs_exist_ok=True)
    texts = {row.key: row.text for row in rows}
    atomic_write_text(root / "trial_text.js", "window.TRIAL_TEXT = " + json.dumps(texts) + ";\n")
    page = root / "index.html"
    atomic_write_text(
        page, render("run.html", root="", home="index.html", mode="static", **context)
    )
    trial_base = {"root": "../", "home": "../index.html", "mode": "static"}
    for row in rows:
        path = index.path(row.key)
        if path is None:
            continue
        target = root / export_name(row)
        try:
            view = trial_view(read_trial(path), within=str(path.parent.parent))
            html = render("trial.html", **trial_base, v=view)
        except CorruptTrialError as exc:
            html = render("missing.html", **trial_base, key=row.key, error=str(exc))
        atomic_write_text(target, html)
    return page


__all__ = ["export_name", "export_static"]
