"""The Inspect bridge's tests need the ``inspect`` extra: skipped where it is missing, except
in CI, which installs it. Evals run in-process on Inspect's offline mock model (or cogarch's
fakes), each writing its log to a folder of its own."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[3]

if os.environ.get("CI") != "true":
    pytest.importorskip(
        "inspect_ai", reason="the Inspect bridge needs: pip install -e '.[inspect]'"
    )


INSPECT_WARNINGS = [
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in. <function MemoryObjectReceiveStream.__del__"
        ":pytest.PytestUnraisableExceptionWarning"
    ),
    pytest.mark.filterwarnings("ignore:Unclosed <MemoryObjectReceiveStream:ResourceWarning"),
    pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning"),
]
"""Warnings of Inspect's own making: its eval loop leaves anyio streams to the garbage
collector, which anyio warns of, and its retries call tenacity with a deprecated name."""


def run_eval(name: str, args: Mapping[str, Any], log_dir: Path, **options: Any) -> Any:
    """``inspect eval NAME -T ...`` in this process, on the mock model; its one log."""
    from inspect_ai import eval as inspect_eval

    logs = inspect_eval(
        name,
        model="mockllm/model",
        task_args=dict(args),
        log_dir=str(log_dir),
        display="none",
        **options,
    )
    assert len(logs) == 1
    return logs[0]
