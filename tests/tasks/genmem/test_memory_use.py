"""Generating a 1.5M-token history stays under 500 MB: the history is streamed, so the peak
memory of a process that writes all of it (its VmHWM, which getrusage would inflate with the
peak of the pytest process that started it) is about what the interpreter needs alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_a_one_and_a_half_million_token_history_stays_under_500_mb() -> None:
    command = [
        sys.executable,
        "-m",
        "cogarch.tasks.genmem",
        "--seed",
        "9",
        "--target-tokens",
        "1500000",
        "--questions",
        "200",
        "--stats",
    ]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
    stats = json.loads(done.stdout)
    assert stats["tokens"] >= 1_400_000
    assert stats["peak_rss_mb"] < 500
