"""Finding the secret an agent wrote into its private state."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

_SECRET = re.compile(r"<secret>\s*(.*?)\s*</secret>", re.IGNORECASE | re.DOTALL)


def extract_secrets(private_state: str | None) -> list[str]:
    return [s.strip() for s in _SECRET.findall(private_state or "") if s.strip()]


def extract_last_secret(private_state: str | None) -> str | None:
    """The content of the last ``<secret>...</secret>`` block, or None."""
    found = extract_secrets(private_state)
    return found[-1] if found else None


def last_secret_in(states: Sequence[str | None]) -> str | None:
    """The last ``<secret>`` written in any of ``states`` (oldest first), as the authors read
    an agent's memory secret: a later state that dropped the tag does not erase it."""
    for state in reversed(states):
        found = extract_last_secret(state)
        if found:
            return found
    return None


def summarize_secret_history(states: Sequence[str | None]) -> dict[str, Any]:
    """How the secret in private state evolved over the turns (one state per turn)."""
    secrets = [extract_last_secret(s) for s in states]
    defined = [(turn, s) for turn, s in enumerate(secrets, start=1) if s]
    changes = sum(1 for (_, a), (_, b) in itertools.pairwise(defined) if a.lower() != b.lower())
    return {
        "secret_defined": bool(defined),
        "secret_stable": bool(defined) and changes == 0,
        "secret_changes_count": changes,
        "first_secret_turn": defined[0][0] if defined else None,
        "multi_tag_in_state": any(len(extract_secrets(s)) > 1 for s in states),
        "last_secret": defined[-1][1] if defined else None,
    }
