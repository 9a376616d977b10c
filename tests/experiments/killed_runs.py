"""A run of the experiments CLI in a subprocess against the slow fake host
(``tests.experiments.slow_fakes:slow_honest``), killed with SIGKILL once a few trial files
exist and then run again: the steps the resume-after-kill tests share."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.experiments.slow_fakes import DELAY_ENV

REPO = Path(__file__).resolve().parents[2]
KILLED_AFTER = 3
"""How many trial files a run writes before it is killed."""
NEEDS_SIGKILL = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


def command(config: Path, results: Path, verb: str = "run", *extra: str) -> list[str]:
    """``python -m cogarch.experiments <verb> <config>`` writing to ``results``, quietly."""
    run = [sys.executable, "-m", "cogarch.experiments", verb, str(config)]
    return [*run, "--results-dir", str(results), "--quiet", *extra]


def environment() -> dict[str, str]:
    """This environment with the repository importable and the fake host's delay short."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    env[DELAY_ENV] = "0.05"
    return env


def trial_files(results: Path) -> dict[Path, tuple[bytes, int]]:
    """Each trial file one folder below ``results``: its bytes and modification time."""
    return {
        p: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(results.glob("*/trial_*.json"))
    }


def kill_part_way(cmd: list[str], cwd: Path, results: Path, pattern: str) -> None:
    """Run ``cmd`` in ``cwd`` and kill it with SIGKILL once :data:`KILLED_AFTER` files match
    ``pattern`` under ``results``; fail if it ends first or writes none within 120 s."""
    process = subprocess.Popen(
        cmd, cwd=cwd, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(results.glob(pattern))) < KILLED_AFTER:
            if process.poll() is not None:
                out, err = process.communicate()
                pytest.fail(f"the {cmd[3]} ended before it could be killed:\n{out!r}\n{err!r}")
            if time.monotonic() > deadline:
                pytest.fail("no trial files appeared within 120 s")
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == -signal.SIGKILL


def run_again(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` in ``cwd`` to completion; it must succeed."""
    done = subprocess.run(
        cmd, cwd=cwd, env=environment(), capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done
