"""Run and agent names, and the folders they become inside a results directory.

A name is checked when the config is loaded (:func:`name_problem`, one clear error per bad
name) and made safe again when a path is built (:func:`safe_name`), so no name can reach a
folder outside the results directory or share one with another name.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_NAME_BYTES = 255
"""The longest name, in UTF-8 bytes (the limit of one folder name on common file systems)."""

RESERVED = (
    "report",
    "run.json",
    "suite.json",
    "leaderboard.json",
    "leaderboard.csv",
    "leaderboard.md",
    "leaderboard.html",
    "judge_audit",
    "judge_audit.json",
    "judge_audit.jsonl",
)
"""Names of the files and folders a run's or a suite's results folder keeps for itself (beside
names starting with '.', and those ending in '.unusable', which a file set aside takes)."""
_RESERVED = frozenset(RESERVED)
UNUSABLE = re.compile(r"\.unusable(\.\d+)?$", re.IGNORECASE)


def reserved(folder: str) -> bool:
    """Whether the folder name ``folder`` is one the results folder keeps for itself."""
    return folder.casefold() in _RESERVED or UNUSABLE.search(folder) is not None


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a run or an agent, or None when it can."""
    if not name.strip():
        return "is empty; give it a name"
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        return "holds a character that is not valid Unicode (a lone surrogate); retype it"
    if size > MAX_NAME_BYTES:
        return f"is {size} bytes long; use at most {MAX_NAME_BYTES}"
    if any(c in "/\\" for c in name):
        return "holds a path separator ('/' or '\\'); use letters, digits, '-', '_' and '.'"
    if any(unicodedata.category(c).startswith("C") for c in name):
        return "holds a control or invisible character; use letters, digits, '-', '_' and '.'"
    if name.startswith("."):
        return "starts with '.', which the results directory keeps for its own files"
    if reserved(name) or reserved(safe_name(name)):
        return (
            f"'{name}' is a name the results folder keeps for its own files "
            f"({', '.join(RESERVED)}, and names ending in '.unusable'); pick another"
        )
    return None


def safe_name(name: str) -> str:
    """The folder of ``name``: letters, digits, '-', '_' and '.' only, never hidden, '.' or
    '..', at most :data:`MAX_NAME_BYTES` bytes."""
    folder = "".join(c if (c.isalnum() and c.isprintable()) or c in "-_." else "_" for c in name)
    if not folder or folder.startswith(".") or reserved(folder):
        folder = "_" + folder
    if len(folder.encode("utf-8")) > MAX_NAME_BYTES:
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        head = folder.encode("utf-8")[: MAX_NAME_BYTES - 17].decode("utf-8", "ignore")
        folder = f"{head}-{digest}"
    return folder
