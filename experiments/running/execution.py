"""Where a run's trials execute: the ``execution`` section of a run config.

``backend: local`` (the default) plays trials as asyncio tasks in the ``cogarch`` process;
``backend: ray`` plays them as Ray tasks, on a Ray instance started for the run
(``address: null``) or on an existing cluster (``address: auto``, ``ray://host:10001`` or
``host:port`` of its head). Either way the driver alone writes the results directory.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

_ADDRESS = re.compile(r"^(auto|ray://[^\s/:]+(:\d+)?|[^\s/:]+:\d+)$")


class ExecutionConfig(BaseModel):
    """How and where trials run. None of it changes what a trial does or records."""

    model_config = ConfigDict(extra="forbid")

    backend: Literal["local", "ray"] = Field(
        default="local",
        description="local: asyncio tasks in this process; ray: Ray tasks on a cluster.",
    )
    address: str | None = Field(
        default=None,
        description="ray: the cluster to join (auto, ray://host:10001 or host:port); null "
        "starts a local Ray instance for the run, sized for this machine.",
    )
    max_retries: int = Field(
        default=3,
        ge=0,
        le=20,
        description="ray: reruns of a trial whose worker process or node died under it.",
    )
    cpus_per_trial: float = Field(
        default=1.0, gt=0, le=64, description="ray: CPUs one trial reserves on its node."
    )
    connect_timeout_s: float = Field(
        default=60.0,
        gt=0,
        le=3600,
        description="ray: seconds to join the cluster at 'address' before the run gives up.",
    )

    @model_validator(mode="after")
    def _check(self) -> ExecutionConfig:
        if self.address is not None:
            if self.backend != "ray":
                raise ValueError("'address' applies to 'backend: ray' only")
            if not _ADDRESS.match(self.address):
                raise ValueError(
                    f"address {self.address!r} is not a Ray address; use auto, "
                    "ray://host:10001 or host:port (or null for a local instance)"
                )
        return self
