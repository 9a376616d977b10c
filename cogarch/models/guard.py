"""A process-wide switch that refuses real model calls (the test suite turns it off)."""

from __future__ import annotations

import os

_allowed = os.environ.get("COGARCH_ALLOW_MODEL_REQUESTS", "1") not in {"0", "false", "no"}


def allow_model_requests(allowed: bool) -> None:
    global _allowed
    _allowed = allowed


def model_requests_allowed() -> bool:
    return _allowed
