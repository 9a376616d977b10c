"""One local Ray instance for all the Ray tests of a session, sized for a 2-core machine.

Its worker processes see this checkout on ``PYTHONPATH`` (for the test fakes), a short fake
delay, a folder where traced fakes note their process ids, and a cache folder of their own.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.experiments.slow_fakes import DELAY_ENV, PID_DIR_ENV

REPO = Path(__file__).resolve().parents[3]
RAY_SKIP = "ray is not installed (pip install 'cogarch[ray]')"


@dataclass
class RayCluster:
    address: str
    """The instance's GCS address, which another driver joins with ``--address``."""
    pids: Path
    """Where traced fakes note the worker process ids."""
    env: dict[str, str]
    """The environment the instance's workers were started with."""

    def clear_pids(self) -> None:
        for path in self.pids.iterdir():
            path.unlink()


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayCluster]:
    ray = pytest.importorskip("ray", reason=RAY_SKIP)
    base = tmp_path_factory.mktemp("ray")
    (base / "pids").mkdir()
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    env = {
        "PYTHONPATH": path,
        DELAY_ENV: "0.05",
        PID_DIR_ENV: str(base / "pids"),
        "COGARCH_CACHE_DIR": str(base / "cache"),
    }
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)  # the instance's processes inherit this environment
    try:
        ray.init(
            address="local",
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    try:
        yield RayCluster(ray.get_runtime_context().gcs_address, base / "pids", env)
    finally:
        ray.shutdown()
