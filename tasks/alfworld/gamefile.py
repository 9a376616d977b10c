"""A game file as the engine reads it, checked before the engine sees it.

A game file (an official ``game.tw-pddl``) is JSON holding ``pddl_domain``, ``grammar`` and
``pddl_problem`` (non-empty texts) and optionally ``walkthrough`` (a list of commands). It is
read as any file someone else could have put there (``cogarch.files``: a regular file, at most
``MAX_GAME_BYTES``, a FIFO never blocking), and its shape is checked; every refusal is a
:class:`GameFileError` naming the file.
"""

from __future__ import annotations

import os
from typing import Any, Final

from cogarch.errors import ConfigError
from cogarch.files import FileRefusedError, read_json

MAX_GAME_BYTES: Final = 16 * 2**20
"""The largest game file read (ALFWorld's are a few hundred KB)."""
TEXTS: Final = ("pddl_domain", "grammar", "pddl_problem")


class GameFileError(ConfigError):
    """A game file that cannot be read or is not a game; the message names it."""


def check_game_data(data: Any, where: str) -> dict[str, Any]:
    """``data`` when it has a game's shape; else :class:`GameFileError` naming ``where``."""
    if not isinstance(data, dict):
        raise GameFileError(
            f"the ALFWorld game {where} is not a JSON object (it holds a "
            f"{type(data).__name__}); it is damaged"
        )
    for key in TEXTS:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            had = "none" if value is None else f"a {type(value).__name__}"
            if isinstance(value, str):
                had = "an empty text"
            raise GameFileError(
                f"the ALFWorld game {where} has {had} as '{key}', where a game has its "
                "text; it is damaged"
            )
    walkthrough = data.get("walkthrough")
    if walkthrough is not None and (
        not isinstance(walkthrough, list) or not all(isinstance(a, str) for a in walkthrough)
    ):
        raise GameFileError(
            f"the ALFWorld game {where} has a 'walkthrough' that is not a list of commands; "
            "it is damaged"
        )
    return data


def read_game_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The game in the file at ``path``, read and checked (blocking: call it off the event
    loop)."""
    try:
        data = read_json(path, max_bytes=MAX_GAME_BYTES)
    except FileRefusedError as exc:
        raise GameFileError(f"cannot read the ALFWorld game: {exc}") from None
    return check_game_data(data, str(path))
