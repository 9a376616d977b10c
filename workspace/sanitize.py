"""Keeps private blocks out of public text, whatever a model writes."""

from __future__ import annotations

import re

_BLOCKS = re.compile(
    r"<(think|thinking|working_memory|private_state|secret|private_reasoning)>.*?(</\1>|$)",
    re.DOTALL | re.IGNORECASE,
)
_STRAY = re.compile(
    r"</?(think|thinking|working_memory|private_state|secret|private_reasoning)>", re.IGNORECASE
)


def public_text(text: str) -> str:
    """Remove reasoning, memory and ``<secret>`` blocks (an unclosed block runs to the end)."""
    cleaned = _STRAY.sub("", _BLOCKS.sub("", text))
    return cleaned.strip()
