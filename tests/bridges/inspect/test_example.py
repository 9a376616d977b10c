"""``examples/inspect_sct.sh`` runs as its comment says (one trial, and the task of your own
only: the hosts' command is the one ``test_offline`` runs, to keep the suite fast)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .conftest import REPO


def test_the_example_script_runs_offline(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    env = {
        **os.environ,
        "TRIALS": "1",
        "HOSTS": "",
        "LOGS": str(logs),
        "PYTHONPATH": str(REPO),
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
        "INSPECT_LOG_FORMAT": "json",
    }
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, str(REPO / "examples" / "inspect_sct.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    found = {}
    for path in logs.glob("*.json"):
        log = json.loads(path.read_text(encoding="utf-8"))
        (sample,) = log["samples"]
        found[log["eval"]["task"]] = sample["scores"]["trial_outcome"]["value"]
    assert found == {"cogarch/task": "solved"}
