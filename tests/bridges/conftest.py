"""The bridges' tests need their frameworks (the package's extras); without one, its tests
are not collected."""

from __future__ import annotations

import importlib.util

collect_ignore_glob = (
    [] if importlib.util.find_spec("agent_framework") is not None else ["agent_framework/*"]
)
